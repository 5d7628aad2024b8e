"""The collection half of the expression compiler: zones, cards in them, piles, and the fused
pipelines ``[first|best|count|some] TYPE in ZONE where P(it)``, compiled to closures (the one
value taken out of a collection, count, sum, first, best..., is in aggregate_exprs.py). A mixin of
ExprCompiler (expressions.py), whose other methods (compile, counted, plain_slot...) it calls."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .expr_analysis import CONSTANT, MISSING, Fn, Scope, free_names

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


class CollectionExprs:
    """Compiles the expressions about zones and the cards in them (see ExprCompiler)."""

    # ---- zones and cards ---------------------------------------------------------------------
    def op_zone(self, n, sc):  # hand of player, trick
        z = self.zone_index[n["name"]]
        if n.get("of") is None:

            def read(s: StateFields, e):
                return s.layout.base[z]

            return read
        k = self.plain_slot(n["of"], sc)
        if k is not None:

            def read(s: StateFields, e):
                return s.layout.base[z] + e[k]

            return read
        of = self.compile(n["of"], sc)

        def read(s: StateFields, e):
            return s.layout.base[z] + of(s, e)

        return read

    def op_zones(self, n, sc):  # pot (all three), hand (every player's)
        z = self.zone_index[n["name"]]

        def read(s: StateFields, e):
            return s.layout.instances[z]

        return read

    def op_cards(self, n, sc):  # cards in target, gem in collected of player
        if self._zone_source(n) is not None:
            return self._select(n, sc)
        src = self.compile(n["from"], sc)
        kind = n.get("source", "zone")
        piles = n.get("piles", False)
        if kind == "pile":
            get = src
        elif kind == "zones":
            if piles:

                def get(s: StateFields, e):
                    return [c for i in src(s, e) for p in s.zones[i] for c in p]
            else:

                def get(s: StateFields, e):
                    return [c for i in src(s, e) for c in s.zones[i]]
        elif piles:

            def get(s: StateFields, e):
                return [c for p in s.zones[src(s, e)] for c in p]
        else:

            def get(s: StateFields, e):
                return s.zones[src(s, e)]

        typ = n.get("type")
        if typ is None:
            return get
        ti = self.cards.type_names.index(typ)
        tidx = self.cards.type_index
        return lambda s, e: [c for c in get(s, e) if tidx[c] == ti]

    def op_union(self, n, sc):  # (issue 30) discard + pile: A's cards, then B's
        parts = [self.compile(x, sc) for x in n["args"]]
        a, b = parts if len(parts) == 2 else (parts[0], lambda s, e: [])
        return lambda s, e: [*a(s, e), *b(s, e)]

    # ---- fused pipelines: `[first|best|count|some ...] TYPE in ZONE where P(it)` ----------------
    @staticmethod
    def _zone_source(n: dict[str, Any]) -> dict[str, Any] | None:
        """The zone expression of ``cards [of a type] in ZONE`` over one flat zone instance, else None."""
        if n.get("op") == "cards" and n.get("source", "zone") == "zone" and not n.get("piles"):
            return n["from"]
        return None

    def _pipeline(self, n: dict[str, Any], sc: Scope) -> tuple:
        """A card collection as (source, type index or -1, test): the elements of the source's list of
        that type that pass the test. The source is (z, k, fn): instance ``base[z] + e[k]`` (k < 0: of
        no player) of a flat zone read inline when z >= 0; else the zone instance fn (k = 0) or the
        list fn (k = 1). The test is None, ("eq", table, value fn, negate) for `ATTR of it = VALUE`
        (VALUE read once, when first needed: it does not read ``it``), or ("fn", slot, pred)."""
        test = None
        if n.get("op") == "filter":
            inner, k = sc.bind("it")
            test = self._it_test(n["where"], inner, k)
            n = n["of"]
        zone = self._zone_source(n)
        if zone is None:
            return (-1, 1, self.compile(n, sc)), -1, test
        ti = -1 if n.get("type") is None else self.cards.type_names.index(n["type"])
        if zone.get("op") == "zone":
            of = zone.get("of")
            slot = -1 if of is None else self.plain_slot(of, sc)
            if slot is not None:
                return (self.zone_index[zone["name"]], slot, None), ti, test
        return (-1, 0, self.compile(zone, sc)), ti, test

    def zone_parts(self, n: dict[str, Any], sc: Scope) -> tuple[int, int] | None:
        """(z, k) when ``n`` is ZONE of no one (k < 0) or of a plain name in slot k: the instance is
        ``base[z] (+ e[k])``; else None."""
        if n.get("op") != "zone":
            return None
        of = n.get("of")
        k = -1 if of is None else self.plain_slot(of, sc)
        return None if k is None else (self.zone_index[n["name"]], k)

    def zone_source(self, n: dict[str, Any], sc: Scope) -> tuple[int, int, int] | None:
        """(z, k, type index or -1) when ``n`` is ``cards [of a type] in ZONE``, ZONE of no one (k < 0)
        or of a plain name in slot k, a flat zone: its cards are those of instance ``base[z] (+ e[k])``."""
        if self._zone_source(n) is None:
            return None
        (z, k, _), ti, _ = self._pipeline(n, sc)
        return (z, k, ti) if z >= 0 else None

    def _it_test(self, where: dict[str, Any], inner: Scope, k: int) -> tuple:
        if where.get("op") == "cmp" and where.get("cmp") in ("=", "!="):
            for mine, other in ((where["left"], where["right"]), (where["right"], where["left"])):
                of = mine.get("of")
                if (
                    mine.get("op") == "attr"
                    and isinstance(of, dict)
                    and of.get("op") == "bound"
                    and of.get("name") == "it"
                    and "it" not in free_names(other)
                ):
                    value = self.compile(other, inner)
                    return ("eq", self.cards.attrs[mine["name"]], value, where["cmp"] == "!=")
        if where.get("op") == "cmp" and where.get("cmp") in ("=", "!=") and where["right"].get("op") in CONSTANT:
            # F(it) = 1: F read with ``it`` set, compared inline
            return ("const", k, self.compile(where["left"], inner), where["right"].get("value"), where["cmp"] == "!=")
        return ("fn", k, self.compile(where, inner))

    def _select(self, n: dict[str, Any], sc: Scope) -> Fn:
        """The list of a collection's elements, one closure from zone to result."""
        ti: cython.Py_ssize_t  # (C integers, compiled: each table read in place)
        (z, k, src), ti, test = self._pipeline(n, sc)
        items = items_of(z, k, src)
        tidx: tuple = self.cards.type_index
        if test is None:
            if z < 0 and k == 1:
                return src
            if ti < 0:
                return items

            def select_typed(s: StateFields, e):
                x: cython.Py_ssize_t  # (a card id)
                out = []
                for x in items(s, e):
                    if tidx[x] == ti:
                        out.append(x)
                return out

            return select_typed
        if test[0] == "eq":
            table: tuple
            _, table, value, negate = test

            def select_eq(s: StateFields, e):
                x: cython.Py_ssize_t  # (a card id: the elements of an attribute's test are cards)
                xs = items(s, e)
                out = []
                v = MISSING
                for x in xs:
                    if ti >= 0 and tidx[x] != ti:
                        continue
                    if v is MISSING:
                        v = value(s, e)
                    if (table[x] == v) != negate:
                        out.append(x)
                return out

            return select_eq
        if test[0] == "const":
            _, j, of_it, const, negate = test
            pred = (lambda s, e: of_it(s, e) != const) if negate else (lambda s, e: of_it(s, e) == const)
        else:
            _, j, pred = test

        def select(s: StateFields, e):
            xs = items(s, e)
            out = []
            for x in xs:
                if ti >= 0 and tidx[x] != ti:
                    continue
                e[j] = x
                if pred(s, e):
                    out.append(x)
            return out

        return select

    def _find(self, n: dict[str, Any], sc: Scope, want: bool | None = None, attr: tuple | None = None) -> Fn:
        """The first element of a collection, stopping there: the element, or None when it has none
        (no element is none); with ``want`` True (False), whether there is one (there is none); with
        an attribute table ``attr``, the element's attribute (None when there is no element)."""
        ti: cython.Py_ssize_t  # (C integers, compiled: each table read in place)
        (z, k, src), ti, test = self._pipeline(n, sc)
        items = items_of(z, k, src)
        tidx: tuple = self.cards.type_index
        table: tuple
        none = None if want is None else not want
        if test is None:

            def find_typed(s: StateFields, e):
                x: cython.Py_ssize_t  # (a card id: elements of a type are cards)
                xs = items(s, e)
                if ti < 0:
                    if want is None:
                        return (xs[0] if attr is None else attr[xs[0]]) if xs else None
                    return bool(xs) == want
                for x in xs:
                    if tidx[x] == ti:
                        return (x if attr is None else attr[x]) if want is None else want
                return none

            return find_typed
        if test[0] == "eq":
            _, table, value, negate = test
            get = table.__getitem__
            if ti < 0 and not negate and want is not None:  # whether some ATTR of it = VALUE: a scan in C

                def exists_eq(s: StateFields, e):
                    xs = items(s, e)
                    if not xs:
                        return none
                    return (value(s, e) in map(get, xs)) == want

                return exists_eq

            def find_eq(s: StateFields, e):
                x: cython.Py_ssize_t  # (a card id: the elements of an attribute's test are cards)
                xs = items(s, e)
                v = MISSING
                for x in xs:
                    if ti >= 0 and tidx[x] != ti:
                        continue
                    if v is MISSING:
                        v = value(s, e)
                    if (table[x] == v) != negate:
                        return (x if attr is None else attr[x]) if want is None else want
                return none

            return find_eq
        if test[0] == "const":
            _, j, of_it, const, negate = test

            def find_const(s: StateFields, e):
                xs = items(s, e)
                for x in xs:
                    if ti >= 0 and tidx[x] != ti:
                        continue
                    e[j] = x
                    if (of_it(s, e) == const) != negate:
                        return (x if attr is None else attr[x]) if want is None else want
                return none

            return find_const
        _, j, pred = test

        def find(s: StateFields, e):
            xs = items(s, e)
            for x in xs:
                if ti >= 0 and tidx[x] != ti:
                    continue
                e[j] = x
                if pred(s, e):
                    return (x if attr is None else attr[x]) if want is None else want
            return none

        return find

    def op_of_type(self, n, sc):  # gem in (some cards)
        get = self.compile(n["of"], sc)
        if n.get("type") is None:
            return get
        ti = self.cards.type_names.index(n["type"])
        tidx = self.cards.type_index
        return lambda s, e: [c for c in get(s, e) if tidx[c] == ti]

    def op_piles(self, n, sc):  # pile in won of player
        src = self.compile(n["from"], sc)
        if n.get("source") == "zones":

            def read(s: StateFields, e):
                return [p for i in src(s, e) for p in s.zones[i]]

            return read
        zone = n["from"]
        if zone.get("op") == "zone" and zone.get("of") is not None:
            k = self.plain_slot(zone["of"], sc)
            if k is not None:
                z = self.zone_index[zone["name"]]

                def read(s: StateFields, e):
                    return s.zones[s.layout.base[z] + e[k]]

                return read

        def read(s: StateFields, e):
            return s.zones[src(s, e)]

        return read

    def op_filter(self, n, sc):  # ... where color of it = color of card
        return self._select(n, sc)

    def op_except(self, n, sc):  # cards in target except card
        coll = self.compile(n["of"], sc)
        value = self.compile(n["value"], sc)

        def f(s: StateFields, e):
            v = value(s, e)
            return [x for x in coll(s, e) if x != v]

        return f


def items_of(z: int, k: int, src: Fn | None) -> Fn:
    """The closure listing a pipeline's source (see ``_pipeline``): the list of zone instance
    ``base[z] + e[k]`` (``base[z]`` when k < 0) read inline, else of the instance ``src`` gives
    (k = 0), else the list ``src`` itself gives."""
    zc: cython.Py_ssize_t = z  # (C integers, compiled: each index read in place)
    kc: cython.Py_ssize_t = k
    if z >= 0:
        if k >= 0:

            def read(s: StateFields, e):
                i: cython.Py_ssize_t = s.layout.base[zc]
                j: cython.Py_ssize_t = e[kc]
                return s.zones[i + j]

            return read

        def read(s: StateFields, e):
            i: cython.Py_ssize_t = s.layout.base[zc]
            return s.zones[i]

        return read
    if k == 0:

        def read(s: StateFields, e):
            return s.zones[src(s, e)]

        return read
    return src
