"""IR expressions to closures ``f(state, env) -> value``, compiled once per ruleset.

Values at run time: numbers are ints, names are strs, cards are card ids, zones are zone
instance indices, players are seat numbers, piles are lists of card ids, none is None.
``env`` is a list of slots; each binding (player, card, target, it, a `let`) gets its slot
when the expression is compiled, so evaluating never looks a name up.
"""

from __future__ import annotations

import operator
from collections import Counter
from typing import Any

from ..errors import PlayError
from .cards import CardTable
from .collection_exprs import CollectionExprs
from .expr_analysis import (
    CONSTANT,
    MISSING,
    UNSET,
    Fn,
    Scope,
    at_entry,
    constant_time,
    free_names,
    reads,
    uses_env,
    zone_pure,
)

ORDER = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}


class ExprCompiler(CollectionExprs):
    """Compiles the expressions of one ruleset; holds the tables they read."""

    def __init__(
        self,
        cards: CardTable,
        zone_index: dict[str, int],
        var_index: dict[str, int],
        define_index: dict[str, int],
    ):
        self.cards = cards
        self.zone_index = zone_index
        self.var_index = var_index
        self.define_index = define_index
        self.define_fns: list[Fn] = []
        self.define_bodies: list[Fn | None] = []  # a body that neither reads nor binds a name: needs no env
        self.define_cheap: list[bool] = []  # ... and reads no more than a card or two: not worth a memo
        self.condition_fns: list[Fn] = []
        self.counter = [0]
        self.lazy_slots: dict[int, Fn] = {}  # slot -> how to compute it on first read
        self.coverage: Counter | None = None  # when set, rules count how often they hold
        self.zone_pure: set[int] = set()  # definitions whose value depends only on their zone's cards

    def counted(self, fn: Fn, at: str | None) -> Fn:
        """``fn``, counting in ``coverage[at]`` each time it holds (only when coverage is on)."""
        counts = self.coverage
        if counts is None or not at:
            return fn

        def count(s, e):
            v = fn(s, e)
            if v:
                counts[at] += 1
            return v

        return count

    def scope(self, *names: str) -> Scope:
        """A scope with fresh slots for ``names``."""
        scope = Scope(counter=self.counter)
        for name in names:
            scope.set(name)
        return scope

    @property
    def env_size(self) -> int:
        return self.counter[0]

    def compile(self, node: dict[str, Any], scope: Scope) -> Fn:
        """The closure of one IR expression."""
        return getattr(self, "op_" + node["op"])(node, scope)

    # ---- leaves ------------------------------------------------------------------------------
    def op_num(self, n, sc):  # 13
        v = n["value"]
        return lambda s, e: v

    op_text = op_num  # "red"

    def op_none(self, n, sc):  # none
        return lambda s, e: None

    def plain_slot(self, n: dict[str, Any], sc: Scope) -> int | None:
        """The env slot of a plain bound name (not a lazy one), for fused closures; else None."""
        if n.get("op") != "bound":
            return None
        k = sc.slots[n["name"]]
        return None if k in self.lazy_slots else k

    def op_bound(self, n, sc):  # card, player, it, winner
        k = sc.slots[n["name"]]
        lazy = self.lazy_slots.get(k)
        if lazy is None:
            return lambda s, e: e[k]

        def read(s, e):
            v = e[k]
            if v is UNSET:
                v = e[k] = lazy(s, e)
            return v

        return read

    def op_builtin(self, n, sc):  # players, round, dealer
        name = n["name"]
        if name == "players":
            return lambda s, e: s.n
        if name == "round":
            return lambda s, e: s.round + 1
        return lambda s, e: s.dealer

    def op_param(self, n, sc):  # limit
        name = n["name"]
        return lambda s, e: s.params[name]

    def op_schedule(self, n, sc):  # size (this round's entry of the schedule)
        name = n["name"]
        return lambda s, e: s.schedule[name]

    def op_var(self, n, sc):  # trick_points of winner
        k = self.var_index[n["name"]]
        if n.get("of") is None:
            return lambda s, e: s.vars[k]
        j = self.plain_slot(n["of"], sc)
        if j is not None:
            return lambda s, e: s.vars[k][e[j]]
        of = self.compile(n["of"], sc)
        return lambda s, e: s.vars[k][of(s, e)]

    def op_total(self, n, sc):  # total of player
        j = self.plain_slot(n["of"], sc)
        if j is not None:
            return lambda s, e: s.totals[e[j]]
        of = self.compile(n["of"], sc)
        return lambda s, e: s.totals[of(s, e)]

    def op_call(self, n, sc):  # color of target, led
        k = self.define_index[n["name"]]
        fns = self.define_fns
        if not n.get("arg"):  # led: no argument, the define's index is the cache key
            bodies = self.define_bodies
            if k < len(self.define_cheap) and self.define_cheap[k]:
                return bodies[k]  # reads a card or two: evaluated where it is used, as cheap as a lookup

            def call0(s, e):
                cache = s.cache
                v = cache.get(k, MISSING)
                if v is MISSING:
                    body = bodies[k]
                    v = cache[k] = fns[k](s, None) if body is None else body(s, e)
                return v

            return call0
        slot = self.plain_slot(n["arg"], sc)
        if k in self.zone_pure:  # kept with the zone until its cards change (State.zmemo)
            arg = self.compile(n["arg"], sc)

            def call_zone(s, e):
                a = arg(s, e)
                memo = s.zmemo.get(a)
                if memo is None:
                    memo = s.zmemo[a] = {}
                v = memo.get(k, MISSING)
                if v is MISSING:
                    v = memo[k] = fns[k](s, a)
                return v

            return call_zone
        if slot is not None:

            def call_bound(s, e):
                a = e[slot]
                cache = s.cache
                v = cache.get((k, a), MISSING)
                if v is MISSING:
                    v = cache[(k, a)] = fns[k](s, a)
                return v

            return call_bound
        arg = self.compile(n["arg"], sc)

        def call(s, e):
            a = arg(s, e)
            key = (k, a)
            cache = s.cache
            v = cache.get(key, MISSING)
            if v is MISSING:
                v = cache[key] = fns[k](s, a)
            return v

        return call

    def define(self, body: dict[str, Any], of_zone: bool) -> Fn:
        """A definition's body as ``f(state, arg)``; ``it`` is the zone it is of."""
        scope, slot = self.scope().bind("it")
        fn = self.compile(body, scope)
        size = self.counter
        self.define_bodies.append(None if uses_env(body) else fn)
        self.define_cheap.append(not uses_env(body) and constant_time(body))

        def run(s, arg):
            env = [None] * size[0]
            env[slot] = arg
            return fn(s, env)

        return run

    def condition(self, body: dict[str, Any]) -> tuple[Fn, int, int]:
        """A card's `achieved when` condition: the closure and the slots of card and player."""
        scope = self.scope()
        card_slot, player_slot = scope.set("card"), scope.set("player")
        return self.compile(body, scope), card_slot, player_slot

    # ---- tests ---------------------------------------------------------------------------------
    def op_some(self, n, sc):  # some trump in trick
        of = n["of"]
        if of["op"] == "filter":  # some card in hand where ...: stop at the first that qualifies
            joined = self._semi_join(n, sc)
            if joined is not None:
                return joined
        if of["op"] == "filter" or self._zone_source(of) is not None:
            return self._find(of, sc, n["op"] == "some")
        coll = self.compile(of, sc)
        if n["op"] == "some":
            return lambda s, e: len(coll(s, e)) > 0
        return lambda s, e: len(coll(s, e)) == 0

    op_no = op_some

    def _semi_join(self, n, sc) -> Fn | None:  # no pot where color of it = color of card
        """``some/no X where F(it) = G``, F reading nothing but ``it`` and G not reading ``it``: the
        values of F over X are listed once per state (for those elements), then G is looked up."""
        where = n["of"]["where"]
        if where.get("op") != "cmp" or where.get("cmp") != "=":
            return None
        pure = frozenset(name for name, k in self.define_index.items() if k in self.zone_pure)
        for it_side, other_side in ((where["left"], where["right"]), (where["right"], where["left"])):
            if zone_pure(it_side, "it", pure) and "it" not in free_names(other_side):
                break
        else:
            return None
        if free_names(other_side) <= free_names(n["of"]["of"]):
            return None  # the same elements are not probed with other values: a plain scan stops sooner
        elements = self.compile(n["of"]["of"], sc)
        inner, k = sc.bind("it")
        value_of = self.compile(it_side, inner)
        other = self.compile(other_side, sc)
        found = n["op"] == "some"
        ident = id(n)

        def f(s, e):
            xs = elements(s, e)
            key: Any = (ident, tuple(xs))
            try:
                values = s.cache.get(key)
            except TypeError:  # the elements are piles (lists): computed, not kept
                values, key = None, None
            if values is None:
                values = []
                for x in xs:
                    e[k] = x
                    values.append(value_of(s, e))
                if key is not None:
                    s.cache[key] = values
            return (other(s, e) in values) == found

        return f

    def op_all_empty(self, n, sc):  # every hand is empty
        if n["of"].get("op") == "zones":  # every instance of one zone: stop at the first with cards
            z = self.zone_index[n["of"]["name"]]

            def every(s, e):
                zones = s.zones
                for i in s.layout.instances[z]:  # noqa: SIM110 (a loop, not a generator: no frame per zone)
                    if zones[i]:
                        return False
                return True

            return every
        coll = self.compile(n["of"], sc)

        def f(s, e):
            zones = s.zones
            got = coll(s, e)
            if isinstance(got, int):
                return not zones[got]
            return all(not zones[i] for i in got)

        return f

    def op_is_empty(self, n, sc):  # draw_pile is empty
        coll = self.compile(n["of"], sc)
        return lambda s, e: len(coll(s, e)) == 0

    def op_is_none(self, n, sc):  # color of target is none
        of = self.compile(n["of"], sc)
        return lambda s, e: of(s, e) is None

    def op_is_type(self, n, sc):  # card is trump
        ti = self.cards.type_names.index(n["type"])
        tidx = self.cards.type_index
        k = self.plain_slot(n["of"], sc)
        if k is not None:
            return lambda s, e: (c := e[k]) is not None and tidx[c] == ti
        of = self.compile(n["of"], sc)

        def f(s, e):
            c = of(s, e)
            return c is not None and tidx[c] == ti

        return f

    def op_achieved(self, n, sc):  # card is achieved
        j = self.plain_slot(n["of"], sc)
        of = self.compile(n["of"], sc)
        conds = self.cards.conditions
        fns = self.condition_fns
        outer = sc.slots.get("player")
        size = self.counter

        def f(s, e):
            c = e[j] if j is not None else of(s, e)
            if c is None:
                return False
            k = conds[c]
            if k < 0:
                return False
            fn, card_slot, player_slot = fns[k]
            env = [None] * size[0]
            env[card_slot] = c
            if outer is not None:
                env[player_slot] = e[outer]
            return bool(fn(s, env))

        return f

    def memo_key(self, node: dict[str, Any], sc: Scope, skip: frozenset[str] = frozenset()) -> Fn:
        """A key for memoizing ``node`` in the current state: the values it reads from outside, a
        card by its attributes (so that cards alike share one entry)."""
        parts = []
        for name, attrs in sorted(reads(node, skip).items()):
            slot = sc.slots[name]
            if attrs is None:
                parts.append((slot, None))
            else:
                tables = [self.cards.type_index if a == "$type" else self.cards.attrs[a] for a in sorted(attrs)]
                parts.append((slot, tables))
        ident = id(node)
        if not parts:  # reads nothing from outside: one entry per state
            only = (ident,)
            return lambda s, e: only
        if len(parts) == 1:
            slot, tables = parts[0]
            if tables is None:
                return lambda s, e: (ident, e[slot])
            if len(tables) == 1:
                (table,) = tables
                return lambda s, e: (ident, None if (v := e[slot]) is None else (table[v],))

        def key(s, e):
            out = [ident]
            for slot, tables in parts:
                v = e[slot]
                out.append(v if tables is None or v is None else tuple(t[v] for t in tables))
            return tuple(out)

        return key

    def op_most(self, n, sc):  # strictly most count trump in won of player
        outer = sc.slots["player"]
        inner, k = sc.bind("player")
        value = self.compile(n["of"], inner)
        strict = n["strict"]
        key = self.memo_key(n["of"], sc, frozenset({"player"}))  # every player's value, shared by all
        fixed = None if reads(n["of"], frozenset({"player"})) else (id(n["of"]),)  # the key when it reads nothing

        def f(s, e):
            me = e[outer]
            memo = fixed if fixed is not None else key(s, e)
            values = s.cache.get(memo)
            if values is None:
                values = []
                for p in range(s.n):
                    e[k] = p
                    values.append(value(s, e))
                s.cache[memo] = values
            mine = values[me]
            if mine is None:
                return False
            for p, v in enumerate(values):
                if p != me and v is not None and not (mine > v if strict else mine >= v):
                    return False
            return True

        return f

    def op_cmp(self, n, sc):  # sum of value in target > limit
        sym = n["cmp"]
        a, b = self.plain_slot(n["left"], sc), self.plain_slot(n["right"], sc)
        if sym == "=" and a is not None and b is not None:
            return lambda s, e: e[a] == e[b]
        if sym in ("=", "!="):
            fused = self._cmp_attr(n, sc) or self._cmp_count(n, sc)
            if fused is not None:
                return fused
        left = self.compile(n["left"], sc)
        right = self.compile(n["right"], sc)
        if sym in ("=", "!=") and n["right"].get("op") in ("num", "text", "none"):  # against a constant
            v = n["right"].get("value")
            if sym == "=":
                return lambda s, e: left(s, e) == v
            return lambda s, e: left(s, e) != v
        if sym in ("=", "!=") and n["right"] == {"op": "builtin", "name": "players", **at_entry(n["right"])}:
            if sym == "=":
                return lambda s, e: left(s, e) == s.n
            return lambda s, e: left(s, e) != s.n
        if sym == "=":
            return lambda s, e: left(s, e) == right(s, e)
        if sym == "!=":
            return lambda s, e: left(s, e) != right(s, e)
        op = ORDER[sym]
        if n["right"].get("op") == "param":  # against a parameter, read inline
            name = n["right"]["name"]

            def against_param(s, e):
                a, b = left(s, e), s.params[name]
                return a is not None and b is not None and op(a, b)

            return against_param

        def f(s, e):
            a, b = left(s, e), right(s, e)
            return a is not None and b is not None and op(a, b)

        return f

    def _cmp_attr(self, n: dict[str, Any], sc: Scope) -> Fn | None:
        """``ATTR of NAME = X`` (or !=), NAME a plain slot (a card): the attribute read inline, and X
        too when it is a lazy slot (a value lifted out of a move's guard)."""
        negate = n["cmp"] == "!="
        sides = [(x, y) for x, y in ((n["left"], n["right"]), (n["right"], n["left"])) if x.get("op") == "attr"]
        sides = [(x, y) for x, y in sides if self.plain_slot(x["of"], sc) is not None]
        if not sides:
            return None
        mine, other = sides[0]
        k = self.plain_slot(mine["of"], sc)
        table = self.cards.attrs[mine["name"]]
        j = sc.slots.get(other["name"]) if other.get("op") == "bound" else None
        lazy = self.lazy_slots.get(j) if j is not None else None
        if lazy is not None:

            def attr_is_lazy(s, e):
                v = e[j]
                if v is UNSET:
                    v = e[j] = lazy(s, e)
                c = e[k]
                return ((None if c is None else table[c]) == v) != negate

            return attr_is_lazy
        value = self.compile(other, sc)

        def attr_is(s, e):
            c = e[k]
            return ((None if c is None else table[c]) == value(s, e)) != negate

        return attr_is

    def _cmp_count(self, n: dict[str, Any], sc: Scope) -> Fn | None:
        """``count ZONE = players`` (or a literal; or !=), ZONE of no one or of a plain name: one closure
        (the usual end of a trick)."""
        left, right = n["left"], n["right"]
        if left.get("op") != "count" or self._zone_source(left["of"]) is None or left["of"].get("type") is not None:
            return None
        (z, k, _), _, _ = self._pipeline(left["of"], sc)
        if z < 0:
            return None
        negate = n["cmp"] == "!="
        if right.get("op") == "builtin" and right.get("name") == "players":
            if k < 0:
                return lambda s, e: (len(s.zones[s.layout.base[z]]) == s.n) != negate
            return lambda s, e: (len(s.zones[s.layout.base[z] + e[k]]) == s.n) != negate
        if right.get("op") in CONSTANT:
            v = right.get("value")
            if k < 0:
                return lambda s, e: (len(s.zones[s.layout.base[z]]) == v) != negate
            return lambda s, e: (len(s.zones[s.layout.base[z] + e[k]]) == v) != negate
        return None

    def op_not(self, n, sc):
        of = n["of"]
        j = sc.slots.get(of["name"]) if of.get("op") == "bound" else None
        lazy = self.lazy_slots.get(j) if j is not None else None
        if lazy is not None:  # not (a lifted value), read inline

            def not_lazy(s, e):
                v = e[j]
                if v is UNSET:
                    v = e[j] = lazy(s, e)
                return not v

            return not_lazy
        fn = self.compile(of, sc)
        return lambda s, e: not fn(s, e)

    def op_and(self, n, sc):
        parts = [self.compile(x, sc) for x in n["args"]]
        if len(parts) == 2:
            a, b = parts
            return lambda s, e: a(s, e) and b(s, e)
        return lambda s, e: all(p(s, e) for p in parts)

    def op_or(self, n, sc):
        parts = [self.compile(x, sc) for x in n["args"]]
        if len(parts) == 2:
            a, b = parts
            return lambda s, e: a(s, e) or b(s, e)
        return lambda s, e: any(p(s, e) for p in parts)

    # ---- values --------------------------------------------------------------------------------
    def op_attr(self, n, sc):  # color of card
        table = self.cards.attrs[n["name"]]
        k = self.plain_slot(n["of"], sc)
        if k is not None:
            return lambda s, e: None if (c := e[k]) is None else table[c]
        of = n["of"]
        if of.get("op") == "first" and (of["of"].get("op") == "filter" or self._zone_source(of["of"]) is not None):
            return self._find(of["of"], sc, None, table)  # color of first card in trick: one closure
        of = self.compile(n["of"], sc)

        def f(s, e):
            c = of(s, e)
            return None if c is None else table[c]

        return f

    def op_player_of(self, n, sc):  # player of winning (who played that card)
        j = self.plain_slot(n["of"], sc)
        if j is not None:

            def player_of(s, e):
                c = e[j]
                if c is None:
                    return None
                p = s.played_by[c]
                return None if p < 0 else p

            return player_of
        of = self.compile(n["of"], sc)

        def f(s, e):
            c = of(s, e)
            if c is None:
                return None
            p = s.played_by[c]
            return None if p < 0 else p

        return f

    def op_owner_of(self, n, sc):  # owner of target
        of = self.compile(n["of"], sc)
        return lambda s, e: s.layout.owner[of(s, e)]

    def op_else(self, n, sc):  # color of first gem in it else none
        args = n["args"]
        while len(args) > 1 and args[-1].get("op") == "none":  # `X else none` is X
            args = args[:-1]
        if len(args) == 1:
            return self.compile(args[0], sc)
        parts = [self.compile(x, sc) for x in args]

        def f(s, e):
            for p in parts:
                v = p(s, e)
                if v is not None:
                    return v
            return None

        return f

    def op_if(self, n, sc):  # if players = 3 then 6 else players
        cond, then, other = (self.compile(n[k], sc) for k in ("cond", "then", "else"))
        return lambda s, e: then(s, e) if cond(s, e) else other(s, e)

    def op_neg(self, n, sc):  # -1
        of = self.compile(n["of"], sc)
        return lambda s, e: -of(s, e)

    def op_arith(self, n, sc):  # 2 * players
        left = self.compile(n["left"], sc)
        right = self.compile(n["right"], sc)
        sym, at = n["sym"], n.get("at")
        if sym == "+":
            return lambda s, e: left(s, e) + right(s, e)
        if sym == "-":
            return lambda s, e: left(s, e) - right(s, e)
        if sym == "*":
            return lambda s, e: left(s, e) * right(s, e)

        def divide(s, e):
            b = right(s, e)
            if b == 0:
                raise PlayError("division by zero", at)
            return left(s, e) // b

        return divide
