"""The value half of the expression compiler: literals, a card's attribute, whose card or zone it
is, `else`, `if ... then ... else`, and arithmetic, compiled to closures. A mixin of ExprCompiler
(expressions.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import PlayError
from .expr_analysis import Fn

if TYPE_CHECKING:  # (the compiled engine's types: this module's .pxd cimports StateFields; Cython
    # reads `cython.Py_ssize_t` annotations as C integers, which plain Python never evaluates)
    import cython

    from .state_fields import StateFields


def tick(tallies: tuple, c: cython.Py_ssize_t) -> None:
    """One more count of rule ``c`` in ``tallies``, a coverage's counts and touched lists (see
    coverage.RuleCounts, ExprCompiler.tallies): what a closure made `countable` does each time it
    holds; compiled, a C call."""
    counts: list = tallies[0]
    touched: list = tallies[1]
    n = counts[c]
    if not n:
        touched.append(c)
    counts[c] = n + 1


def card_read(table: tuple, slot: int, none: Any, tallies: tuple = (None, None), count: int = -1) -> Fn:
    """The closure reading ``table`` (card id -> value) at the card in env slot ``slot``, or giving
    ``none`` when the slot holds no card (compiled: the slot and the card are C integers); with
    ``count`` >= 0, adding to that rule's count in ``tallies`` each time the value holds (see
    ExprCompiler.countable)."""
    k: cython.Py_ssize_t = slot
    r: cython.Py_ssize_t = count

    def read(s: StateFields, e):
        i: cython.Py_ssize_t
        c = e[k]
        if c is None:
            v = none
        else:
            i = c
            v = table[i]
        if r >= 0 and v:
            tick(tallies, r)
        return v

    return read


class ValueExprs:
    """Compiles literals, attributes, owners, `else`, `if` and arithmetic (see ExprCompiler)."""

    def op_num(self, n, sc):  # 13
        v = n["value"]
        tallies = self.tallies()

        def make(c: cython.Py_ssize_t) -> Fn:  # (c < 0: counts nothing; see countable)
            def const(s, e):  # (s untyped: `check` evaluates constants on a probe, no State)
                if c >= 0 and v:  # (a score rule's constant points count each time they are scored)
                    tick(tallies, c)
                return v

            return const

        return self.countable(make)

    op_text = op_num  # "red"

    def op_none(self, n, sc):  # none
        return lambda s, e: None

    def op_attr(self, n, sc):  # color of card
        table: tuple = self.cards.attrs[n["name"]]
        j = self.plain_slot(n["of"], sc)
        if j is not None:
            return self.countable(lambda c: card_read(table, j, None, self.tallies(), c))
        of = n["of"]
        if of.get("op") == "first" and (of["of"].get("op") == "filter" or self._zone_source(of["of"]) is not None):
            return self._find(of["of"], sc, None, table)  # color of first card in trick: one closure
        of = self.compile(n["of"], sc)

        def f(s: StateFields, e):
            c = of(s, e)
            return None if c is None else table[c]

        return f

    def op_player_of(self, n, sc):  # player of winning (who played that card)
        slot = self.plain_slot(n["of"], sc)
        if slot is not None:
            j: cython.Py_ssize_t = slot  # (C integers, compiled: each index read in place)

            def player_of(s: StateFields, e):
                c = e[j]
                if c is None:
                    return None
                i: cython.Py_ssize_t = c
                p = s.played_by[i]
                return None if p < 0 else p

            return player_of
        of = self.compile(n["of"], sc)

        def f(s: StateFields, e):
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

        def f(s: StateFields, e):
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
        if n["of"].get("op") == "num":  # a negative number: a constant of its own (one call; countable)
            return self.op_num({"value": -n["of"]["value"]}, sc)
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

        def divide(s: StateFields, e):
            b = right(s, e)
            if b == 0:
                raise PlayError("division by zero", at)
            return left(s, e) // b

        def remainder(s: StateFields, e):
            b = right(s, e)
            if b == 0:
                raise PlayError("remainder of a division by zero", at)
            return left(s, e) % b

        if sym == "%":
            return remainder

        return divide
