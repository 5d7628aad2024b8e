"""The comparisons of the expression compiler: `=`, `<`, ... (fused for a card's attribute and for
counts) and `most`, compiled to closures. A mixin of ExprCompiler (expressions.py)."""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any

from .expr_analysis import CONSTANT, UNSET, Fn, Scope, at_entry, reads
from .value_exprs import tick

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields

ORDER = {"<": operator.lt, ">": operator.gt, "<=": operator.le, ">=": operator.ge}


class ComparisonExprs:
    """Compiles comparisons and `most` (see ExprCompiler)."""

    def op_most(self, n, sc):  # strictly most count trump in won of player
        outer = sc.slots["player"]
        inner, k = sc.bind("player")
        value = self.compile(n["of"], inner)
        strict = n["strict"]
        key = self.memo_key(n["of"], sc, frozenset({"player"}))  # every player's value, shared by all
        fixed = None if reads(n["of"], frozenset({"player"})) else (id(n["of"]),)  # the key when it reads nothing
        tallies = self.tallies()

        def make(c: cython.Py_ssize_t) -> Fn:  # (c < 0: counts nothing; see countable)
            def f(s: StateFields, e):
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
                if c >= 0:
                    tick(tallies, c)
                return True

            return f

        return self.countable(make)

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

                def read(s: StateFields, e):
                    return left(s, e) == s.n

                return read

            def read(s: StateFields, e):
                return left(s, e) != s.n

            return read
        if sym == "=":
            return lambda s, e: left(s, e) == right(s, e)
        if sym == "!=":
            return lambda s, e: left(s, e) != right(s, e)
        op = ORDER[sym]
        if n["right"].get("op") == "param":  # against a parameter, read inline
            name = n["right"]["name"]
            tallies = self.tallies()

            def make(c: cython.Py_ssize_t) -> Fn:  # (c < 0: counts nothing; see countable)
                def against_param(s: StateFields, e):
                    a, b = left(s, e), s.params[name]
                    held = a is not None and b is not None and op(a, b)
                    if c >= 0 and held:
                        tick(tallies, c)
                    return held

                return against_param

            return self.countable(make)

        def f(s: StateFields, e):
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

            def attr_is_lazy(s: StateFields, e):
                v = e[j]
                if v is UNSET:
                    v = e[j] = lazy(s, e)
                c = e[k]
                return ((None if c is None else table[c]) == v) != negate

            return attr_is_lazy
        value = self.compile(other, sc)

        def attr_is(s: StateFields, e):
            c = e[k]
            return ((None if c is None else table[c]) == value(s, e)) != negate

        return attr_is

    def _cmp_count(self, n: dict[str, Any], sc: Scope) -> Fn | None:
        """``count ZONE = players`` (or a literal; or !=), ZONE of no one or of a plain name: one closure
        (the usual end of a trick)."""
        left, right = n["left"], n["right"]
        if left.get("op") != "count" or self._zone_source(left["of"]) is None or left["of"].get("type") is not None:
            return None
        z: cython.Py_ssize_t  # (C integers, compiled: each index read in place)
        k: cython.Py_ssize_t
        (z, k, _), _, _ = self._pipeline(left["of"], sc)
        if z < 0:
            return None
        negate = n["cmp"] == "!="
        players = right.get("op") == "builtin" and right.get("name") == "players"
        if not players and right.get("op") not in CONSTANT:
            return None
        v = right.get("value")
        tallies = self.tallies()

        def make(c: cython.Py_ssize_t) -> Fn:  # (c < 0: counts nothing; see countable)
            def read(s: StateFields, e):
                i: cython.Py_ssize_t = s.layout.base[z]
                j: cython.Py_ssize_t
                if k >= 0:  # the zone of a plain name
                    j = e[k]
                    i += j
                size: cython.Py_ssize_t = len(s.zones[i])
                held = (size == s.n if players else size == v) != negate
                if c >= 0 and held:
                    tick(tallies, c)
                return held

            return read

        return self.countable(make)
