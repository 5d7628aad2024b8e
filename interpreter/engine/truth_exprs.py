"""The truth half of the expression compiler: `some`/`no`, `is empty`, `is none`, `is TYPE`,
`is achieved`, `not`, `and`, `or`, compiled to closures. Comparisons are in comparison_exprs.py.
A mixin of ExprCompiler (expressions.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .expr_analysis import UNSET, Fn, free_names, zone_pure
from .value_exprs import card_read, tick

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


class TruthExprs:
    """Compiles the tests of a value: some/no, is ..., not, and, or (see ExprCompiler)."""

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

        def f(s: StateFields, e):
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
            z: cython.Py_ssize_t = self.zone_index[n["of"]["name"]]
            tallies = self.tallies()

            def make(c: cython.Py_ssize_t) -> Fn:  # (c < 0: counts nothing; see countable)
                def every(s: StateFields, e):
                    zones: list = s.zones
                    i: cython.Py_ssize_t  # (C integers, compiled: each index read in place)
                    for i in s.layout.instances[z]:  # (a loop, not a generator: no frame per zone)
                        if zones[i]:
                            return False
                    if c >= 0:
                        tick(tallies, c)
                    return True

                return every

            return self.countable(make)
        coll = self.compile(n["of"], sc)

        def f(s: StateFields, e):
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

    def op_eliminated(self, n, sc):  # target is eliminated
        of = self.compile(n["of"], sc)
        return lambda s, e: of(s, e) in s.out

    def op_is_type(self, n, sc):  # card is trump
        ti = self.cards.type_names.index(n["type"])
        tidx = self.cards.type_index
        j = self.plain_slot(n["of"], sc)
        if j is not None:
            is_type = tuple(t == ti for t in tidx)  # card id -> whether of the type
            return self.countable(lambda c: card_read(is_type, j, False, self.tallies(), c))
        of = self.compile(n["of"], sc)

        def f(s: StateFields, e):
            c = of(s, e)
            return c is not None and tidx[c] == ti

        return f

    def op_achieved(self, n, sc):  # card is achieved
        j = self.plain_slot(n["of"], sc)
        of = self.compile(n["of"], sc)
        conds: tuple = self.cards.conditions
        fns: list = self.condition_fns  # (filled as the cards' conditions are compiled: read at run time)
        outer = sc.slots.get("player")
        size: list = self.counter
        # (compiled: slots, card ids and sizes as C integers, the lists and tuples read in place; -1: none)
        at: cython.Py_ssize_t = -1 if j is None else j
        mover: cython.Py_ssize_t = -1 if outer is None else outer

        def f(s: StateFields, e):
            c = e[at] if at >= 0 else of(s, e)
            if c is None:
                return False
            card: cython.Py_ssize_t = c
            k: cython.Py_ssize_t = conds[card]
            if k < 0:
                return False
            entry: tuple = fns[k]
            slots: cython.Py_ssize_t = size[0]
            env: list = [None] * slots
            card_slot: cython.Py_ssize_t = entry[1]
            player_slot: cython.Py_ssize_t
            env[card_slot] = c
            if mover >= 0:
                player_slot = entry[2]
                env[player_slot] = e[mover]
            return bool(entry[0](s, env))

        return f

    def op_not(self, n, sc):
        of = n["of"]
        j = sc.slots.get(of["name"]) if of.get("op") == "bound" else None
        lazy = self.lazy_slots.get(j) if j is not None else None
        if lazy is not None:  # not (a lifted value), read inline

            def not_lazy(s: StateFields, e):
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
