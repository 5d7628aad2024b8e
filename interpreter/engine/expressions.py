"""IR expressions to closures ``f(state, env) -> value``, compiled once per ruleset.

Values at run time: numbers are ints, names are strs, cards are card ids, zones are zone
instance indices, players are seat numbers, piles are lists of card ids, none is None.
``env`` is a list of slots; each binding (player, card, target, it, a `let`) gets its slot
when the expression is compiled, so evaluating never looks a name up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .aggregate_exprs import AggregateExprs
from .cards import CardTable
from .collection_exprs import CollectionExprs
from .comparison_exprs import ComparisonExprs
from .coverage import RuleCounts
from .expr_analysis import MISSING, UNSET, Fn, Scope, constant_time, public_valued, reads, uses_env
from .knowledge import KnowledgeExprs
from .player_exprs import PlayerExprs
from .truth_exprs import TruthExprs
from .value_exprs import ValueExprs, tick

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


def consult_key(at: str) -> str:
    """The coverage key under which a guard at ``at`` counts its consultations."""
    return f"{at} asked"


class ExprCompiler(
    ValueExprs, TruthExprs, ComparisonExprs, CollectionExprs, AggregateExprs, PlayerExprs, KnowledgeExprs
):
    """Compiles the expressions of one ruleset; holds the tables they read. Here: the scopes, the
    names (bound, builtins, parameters, schedules, variables, definitions) and memo keys; each
    other kind of expression is compiled by a mixin of its own: values (value_exprs.py), tests
    (truth_exprs.py), comparisons (comparison_exprs.py), collections (collection_exprs.py) and
    one value out of a collection (aggregate_exprs.py)."""

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
        self.define_counts: list[bool] = []  # a body that may count a rule when evaluated (see may_count)
        self.condition_fns: list[Fn] = []
        self.counter = [0]
        self.lazy_slots: dict[int, Fn] = {}  # slot -> how to compute it on first read
        self.coverage: RuleCounts | None = None  # when set, rules count how often they hold
        self.count_makers: dict[Any, Callable[[int], Fn]] = {}  # closure -> its counting twin's maker (countable)
        # when set (by `check`: the coverage itself), guards also count how often they were consulted, under "AT asked"
        self.consults: RuleCounts | None = None
        self.zone_pure: set[int] = set()  # definitions whose value depends only on their zone's cards
        # env slots that may hold a card id (or a tuple of them): the card moved, a card or a set
        # chosen, a `let` of a card; a swap of two cards renames them (State.swap_cards)
        self.card_slots: set[int] = set()
        # env slots whose value every seat knows: the mover, a choice that is no card (events.py)
        self.public_slots: set[int] = set()
        self.public_vars: set[str] = set()  # the variables every seat sees
        self.public_zones: set[str] = set()  # the zones every seat sees (`public`)
        self.define_ir: dict[str, dict[str, Any]] = {}  # the definitions' IR, by name
        self._public_defines: dict[str, bool] = {}

    def counted(self, fn: Fn, at: str | None, guard: bool = False) -> Fn:
        """``fn``, counting in ``coverage[at]`` each time it holds (only when coverage is on); a
        ``guard`` also counts each time it is consulted when consults are on (see `consults`).
        The count is the rule's place in the coverage's list (see coverage.RuleCounts). A closure
        made `countable` is made again counting in place (one call a test); any other is wrapped."""
        coverage = self.coverage
        if coverage is None or not at:
            return fn
        make = self.count_makers.get(fn)
        if make is not None and not (guard and self.consults is not None):
            return make(coverage.slot(at))
        counts: list = coverage.counts  # (typed: compiled, read and written in place)
        touched: list = coverage.touched
        i: cython.Py_ssize_t = coverage.slot(at)
        if guard and self.consults is not None:
            j: cython.Py_ssize_t = coverage.slot(consult_key(at))

            def count_asked(s: StateFields, e):
                n = counts[j]
                if not n:
                    touched.append(j)
                counts[j] = n + 1
                v = fn(s, e)
                if v:
                    n = counts[i]
                    if not n:
                        touched.append(i)
                    counts[i] = n + 1
                return v

            return count_asked

        def count(s: StateFields, e):
            v = fn(s, e)
            if v:
                n = counts[i]
                if not n:
                    touched.append(i)
                counts[i] = n + 1
            return v

        return count

    def countable(self, make: Callable[[int], Fn]) -> Fn:
        """The closure ``make(-1)``, which counts nothing. With coverage on, `counted` makes it again
        as ``make(i)``: the same test, adding to rule ``i``'s count in place each time it holds
        (``tallies()``'s lists, as coverage.RuleCounts says), so a counted test is one call, not a
        wrapper's two. Any kind of expression may be made so; those that are not are wrapped."""
        fn = make(-1)
        if self.coverage is not None:
            self.count_makers[fn] = make
        return fn

    def tallies(self) -> tuple[Any, Any]:
        """The lists a `countable` closure adds to in place (value_exprs.tick): the coverage's counts
        and touched (None, None when coverage is off: such a closure is then never made counting)."""
        coverage = self.coverage
        return (None, None) if coverage is None else (coverage.counts, coverage.touched)

    def public(self, node: dict[str, Any], scope: Scope, also: int | None = None) -> bool:
        """Whether every seat knows the expression's value when the rules read it (a slot ``also``
        taken as known): expr_analysis.public_valued with this compiler's known slots and variables."""
        known = self.public_slots if also is None else {*self.public_slots, also}
        return public_valued(
            node,
            lambda name: scope.slots.get(name) in known,
            self.public_vars.__contains__,
            self.public_zones.__contains__,
            self.public_define,
        )

    def public_define(self, name: str) -> bool:
        """Whether every seat knows a definition's value once it knows its arguments (its
        parameters, or `it`, the zone of a definition of a zone): its body reads only known
        things (public zones, variables, parameters of the game). Worked out once a name."""
        got = self._public_defines.get(name)
        if got is None:
            d = self.define_ir.get(name)
            self._public_defines[name] = False  # (while its body is judged: a definition is never its own part)
            params = {p["name"] for p in (d or {}).get("params") or ()} | {"it"}
            got = d is not None and public_valued(
                d["body"],
                params.__contains__,
                self.public_vars.__contains__,
                self.public_zones.__contains__,
                self.public_define,
            )
            self._public_defines[name] = got
        return got

    def may_count(self, node: Any) -> bool:
        """Whether evaluating an expression may count a rule in coverage: it reads a card's
        `achieved` condition (counted each time it holds), itself or through a definition (one
        not compiled yet may). A fast path that tests fewer cards than a card-by-card loop would
        must keep away from such expressions, or the counts would differ."""
        if isinstance(node, list):
            return any(self.may_count(x) for x in node)
        if not isinstance(node, dict):
            return False
        op = node.get("op")
        if op == "achieved":
            return True
        if op == "call":
            k = self.define_index.get(node["name"])
            if k is None or k >= len(self.define_counts) or self.define_counts[k]:
                return True
        return any(self.may_count(v) for key, v in node.items() if key != "at")

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

    def plain_slot(self, n: dict[str, Any], sc: Scope) -> int | None:
        """The env slot of a plain bound name (not a lazy one), for fused closures; else None."""
        if n.get("op") != "bound":
            return None
        k = sc.slots[n["name"]]
        return None if k in self.lazy_slots else k

    def op_bound(self, n, sc):  # card, player, it, winner
        k: cython.Py_ssize_t = sc.slots[n["name"]]  # (a C integer, compiled: e[k] read in place)
        lazy = self.lazy_slots.get(k)
        if lazy is None:
            return lambda s, e: e[k]

        def read(s: StateFields, e):
            v = e[k]
            if v is UNSET:
                v = e[k] = lazy(s, e)
            return v

        return read

    def op_builtin(self, n, sc):  # players, round, dealer
        name = n["name"]
        if name == "players":

            def read(s: StateFields, e):
                return s.n

            return read
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
        k: cython.Py_ssize_t = self.var_index[n["name"]]  # (C integers, compiled: each index read in place)
        j: cython.Py_ssize_t
        if n.get("of") is None:

            def read(s: StateFields, e):
                return s.vars[k]

            return read
        slot = self.plain_slot(n["of"], sc)
        if slot is not None:
            j = slot
            tallies = self.tallies()

            def make(c: cython.Py_ssize_t) -> Fn:  # (c < 0: counts nothing; see countable)
                def read(s: StateFields, e):
                    p: cython.Py_ssize_t = e[j]
                    v = s.vars[k][p]
                    if c >= 0 and v:
                        tick(tallies, c)
                    return v

                return read

            return self.countable(make)
        of = self.compile(n["of"], sc)

        def read(s: StateFields, e):
            return s.vars[k][of(s, e)]

        return read

    def op_total(self, n, sc):  # total of player
        slot = self.plain_slot(n["of"], sc)
        if slot is not None:
            j: cython.Py_ssize_t = slot  # (C integers, compiled: each index read in place)

            def read(s: StateFields, e):
                p: cython.Py_ssize_t = e[j]
                return s.totals[p]

            return read
        of = self.compile(n["of"], sc)

        def read(s: StateFields, e):
            return s.totals[of(s, e)]

        return read

    def op_call(self, n, sc):  # color of target, led
        if n.get("args"):  # playable(card): a definition with parameters (player_exprs.py)
            return self.call_with_args(n, sc)
        k = self.define_index[n["name"]]
        fns = self.define_fns
        if not n.get("arg"):  # led: no argument, the define's index is the cache key
            bodies = self.define_bodies
            if k < len(self.define_cheap) and self.define_cheap[k]:
                return bodies[k]  # reads a card or two: evaluated where it is used, as cheap as a lookup

            def call0(s: StateFields, e):
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

            def call_zone(s: StateFields, e):
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

            def call_bound(s: StateFields, e):
                a = e[slot]
                cache = s.cache
                v = cache.get((k, a), MISSING)
                if v is MISSING:
                    v = cache[(k, a)] = fns[k](s, a)
                return v

            return call_bound
        arg = self.compile(n["arg"], sc)

        def call(s: StateFields, e):
            a = arg(s, e)
            key = (k, a)
            cache = s.cache
            v = cache.get(key, MISSING)
            if v is MISSING:
                v = cache[key] = fns[k](s, a)
            return v

        return call

    def define(self, body: dict[str, Any], of_zone: bool, params: tuple[str, ...] = ()) -> Fn:
        """A definition's body as ``f(state, arg)``; ``it`` is the zone (or card: also ``card``) it
        is of; a definition with parameters takes the tuple of their values as ``arg``."""
        if params:
            scope = self.scope(*params)
            slots = [scope.slots[p] for p in params]
        else:
            scope, slot = self.scope().bind("it")
            scope.slots.setdefault("card", slot)  # define NAME of card: the card is `card` and `it`
        fn = self.compile(body, scope)
        size = self.counter
        self.define_bodies.append(None if uses_env(body) else fn)
        self.define_cheap.append(not uses_env(body) and constant_time(body))
        self.define_counts.append(self.may_count(body))
        if params:

            def run_with(s: StateFields, args):
                env = [None] * size[0]
                for k, v in zip(slots, args, strict=True):
                    env[k] = v
                return fn(s, env)

            return run_with

        def run(s: StateFields, arg):
            env = [None] * size[0]
            env[slot] = arg
            return fn(s, env)

        return run

    def condition(self, body: dict[str, Any]) -> tuple[Fn, int, int]:
        """A card's `achieved when` condition: the closure and the slots of card and player."""
        scope = self.scope()
        card_slot, player_slot = scope.set("card"), scope.set("player")
        return self.compile(body, scope), card_slot, player_slot

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

        def key(s: StateFields, e):
            out = [ident]
            for slot, tables in parts:
                v = e[slot]
                out.append(v if tables is None or v is None else tuple(t[v] for t in tables))
            return tuple(out)

        return key
