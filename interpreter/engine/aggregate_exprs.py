"""One value out of a collection: `count`, `sum`, `max`, `min`, `distinct`, `first`, `last`,
`best`, `worst`, compiled to closures. A mixin of ExprCompiler (expressions.py), beside
CollectionExprs (collection_exprs.py), whose pipelines it fuses with."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .collection_exprs import items_of
from .expr_analysis import Scope, card_ranks
from .player_exprs import unique_extreme

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


class AggregateExprs:
    """Compiles count, sum, max, min, distinct, first, last, best and worst (see ExprCompiler)."""

    def op_count(self, n, sc):  # count trick
        zone = self._zone_source(n["of"])
        if zone is not None and n["of"].get("type") is None:
            z: cython.Py_ssize_t  # (C integers, compiled: each index read in place)
            k: cython.Py_ssize_t
            (z, k, src), _, _ = self._pipeline(n["of"], sc)
            if z < 0:

                def read(s: StateFields, e):
                    return len(s.zones[src(s, e)])

                return read
            if k < 0:

                def read(s: StateFields, e):
                    i: cython.Py_ssize_t = s.layout.base[z]
                    return len(s.zones[i])

                return read

            def read(s: StateFields, e):
                i: cython.Py_ssize_t = s.layout.base[z]
                j: cython.Py_ssize_t = e[k]
                return len(s.zones[i + j])

            return read
        of = n["of"]
        if of.get("op") == "cards" and of.get("source", "zone") == "zone":  # typed, or over piles: counted in C
            inst = self.compile(of["from"], sc)
            if of.get("type") is None:

                def read(s: StateFields, e):  # piles: their sizes
                    return sum(map(len, s.zones[inst(s, e)]))

                return read
            ti = self.cards.type_names.index(of["type"])
            one = tuple(1 if t == ti else 0 for t in self.cards.type_index)
            # (list comprehensions, not maps of __getitem__: compiled, each is a loop in C without a call a card)
            if of.get("piles"):

                def read(s: StateFields, e):
                    return sum([one[c] for pile in s.zones[inst(s, e)] for c in pile])

                return read

            def read(s: StateFields, e):
                return sum([one[c] for c in s.zones[inst(s, e)]])

            return read
        coll = self.compile(of, sc)
        return lambda s, e: len(coll(s, e))

    def _pile_slot(self, n: dict[str, Any], sc: Scope) -> int | None:
        """The slot of a plain name when ``n`` is ``cards in NAME``, NAME a pile (untyped), else None."""
        if n.get("op") == "cards" and n.get("source") == "pile" and n.get("type") is None:
            return self.plain_slot(n["from"], sc)
        return None

    def _aggregate(self, n, sc, reduce):
        coll = self.compile(n["of"], sc)
        table = self.cards.attrs[n["attr"]]

        def f(s: StateFields, e):
            values = [table[c] for c in coll(s, e) if table[c] is not None]
            return reduce(values) if values else None

        return f

    def op_sum(self, n, sc):  # sum of value in target
        coll = self.compile(n["of"], sc)
        get = tuple(v or 0 for v in self.cards.attrs[n["attr"]])  # a card without it adds 0
        return lambda s, e: sum([get[c] for c in coll(s, e)])

    def op_max(self, n, sc):  # max of rank in hand of player
        return self._aggregate(n, sc, max)

    def op_min(self, n, sc):  # min of rank in hand of player
        return self._aggregate(n, sc, min)

    def op_unique(self, n, sc):  # unique highest of rank in trick: exactly one card has the highest
        coll, table, agg = self.compile(n["of"], sc), self.cards.attrs[n["attr"]], n["agg"]
        return lambda s, e: unique_extreme([table[c] for c in coll(s, e) if table[c] is not None], agg)

    def op_distinct(self, n, sc):  # distinct of suit in pile
        get = self.cards.attrs[n["attr"]]
        k = self._pile_slot(n["of"], sc)
        if k is not None:
            return lambda s, e: len({get[c] for c in e[k]})
        coll = self.compile(n["of"], sc)
        return lambda s, e: len({get[c] for c in coll(s, e)})

    def op_first(self, n, sc):  # first gem in it
        if n["of"].get("op") == "filter" or self._zone_source(n["of"]) is not None:
            return self._find(n["of"], sc)  # stops at the first that qualifies
        coll = self.compile(n["of"], sc)

        def f(s: StateFields, e):
            xs = coll(s, e)
            return xs[0] if xs else None

        return f

    def op_last(self, n, sc):  # last card in trick
        coll = self.compile(n["of"], sc)

        def f(s: StateFields, e):
            xs = coll(s, e)
            return xs[-1] if xs else None

        return f

    def op_best(self, n, sc):  # best trump in trick (by the declared card order)
        ranks: tuple = card_ranks(self.cards.key)
        highest: bool = n["op"] == "best"

        def pick(xs):
            """The first card of the highest (lowest) place in the card order, as max (min) by key
            keeps the first of equals; a loop, which compiled calls nothing a card (C integers)."""
            best = None
            top: cython.Py_ssize_t = 0
            c: cython.Py_ssize_t
            r: cython.Py_ssize_t
            for c in xs:
                r = ranks[c]
                if best is None or ((r > top) if highest else (r < top)):
                    best = c
                    top = r
            return best

        of = n["of"]
        if self._zone_source(of) is not None:
            ti: cython.Py_ssize_t
            (z, k, src), ti, _ = self._pipeline(of, sc)
            if z >= 0:  # the zone read inline (and its cards of the type picked out)
                tidx: tuple = self.cards.type_index
                items = items_of(z, k, src)

                def best_in_zone(s: StateFields, e):
                    xs = items(s, e)
                    if ti >= 0:
                        c: cython.Py_ssize_t
                        typed = []
                        for c in xs:
                            if tidx[c] == ti:
                                typed.append(c)
                        xs = typed
                    return pick(xs) if xs else None

                return best_in_zone
        coll = self.compile(of, sc)

        def f(s: StateFields, e):
            xs = coll(s, e)
            return pick(xs) if xs else None

        return f

    op_worst = op_best
