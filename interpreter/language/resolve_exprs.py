"""Resolving expressions: each becomes an IR node and a type T, checked against what the context
wants. Names and `X of Y` are in resolve_names.py, collections in resolve_collections.py.
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError, Span, UnknownNameError
from .ast_nodes import Expr
from .resolve_types import BOOL, MAX_DEPTH, NONE, NUMBER, PLAYER, TEXT, T, _at
from .resolve_values import SEAT_HINT, UNIQUE


class ExprResolver:
    """Expressions: typing, the operators, the checks of one type against another."""

    def expr(self, e: Expr, scope: dict[str, T], want: T | None) -> dict[str, Any]:
        """Resolve and type one expression; ``want`` is the type the context needs, if any."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.depth = 0
            raise DeclarationError(f"expression nested deeper than {MAX_DEPTH} levels", e.span)
        try:
            node, t = self._expr(e, scope)
        finally:
            self.depth -= 1
        node["at"] = _at(e.span)
        self._last_type = t
        if want is not None:
            self._expect(want, e.span)
        return node

    def _expect(self, want: T, span: Span) -> None:
        got = self._last_type
        if got.kind == "none" or want.kind == got.kind or got.kind == "any":
            return
        hint = None
        if want.kind == "player" and got.kind == "number":
            hint = "a seat number is not a player: write `N seats left of dealer` or `left of P`"
        elif want.kind == "number" and got.kind in ("player", "team"):
            hint = "write `seat of P` for a player's number, `total of P` for its points"
        raise RulesTypeError(f"expected {want}, got {got}", span, hint)

    def _sub(self, e: Expr, scope: dict[str, T], want: T | None = None) -> tuple[dict[str, Any], T]:
        node = self.expr(e, scope, want)
        return node, self._last_type

    def _expr(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        a = e.args
        match e.op:
            case "number":  # 13
                if abs(a[0]) > 10**9:
                    raise DeclarationError("numbers are limited to 1,000,000,000", e.span)
                return {"op": "num", "value": a[0]}, NUMBER
            case "string":  # "Suicide Bid"
                return {"op": "text", "value": a[0]}, TEXT
            case "none":  # none
                return {"op": "none"}, NONE
            case "name":  # card, limit, led, hand
                return self._name(e, a[0], scope)
            case "of":  # color of card, hand of player
                return self._of(e, a[0], a[1], scope)
            case "select":  # gem in hand of player where ...
                return self._select(e, scope)
            case "filter":  # pot where color of it = red
                return self._filter(e, scope)
            case "pick":  # first gem in it
                return self._pick(e, scope)
            case "count":  # count trick, count player where ...
                coll, t = self._seat_collection(a[0], scope) or self._sub(a[0], scope)
                self._element(t, a[0].span)
                return {"op": "count", "of": self._as_collection(coll, t)}, NUMBER
            case "aggregate":  # sum of value in target
                return self._aggregate(e, scope)
            case "conditional":  # if players = 3 then 6 else players
                cond = self.expr(a[0], scope, BOOL)
                then, t1 = self._sub(a[1], scope)
                other, t2 = self._sub(a[2], scope)
                return {"op": "if", "cond": cond, "then": then, "else": other}, self._join(t1, t2, e.span)
            case "neg":  # -1
                return {"op": "neg", "of": self.expr(a[0], scope, NUMBER)}, NUMBER
            case "not":  # not card is trump
                return {"op": "not", "of": self.expr(a[0], scope, BOOL)}, BOOL
            case "some" | "no":  # no pot where ...
                coll, t = self._seat_collection(a[0], scope) or self._sub(a[0], scope)
                self._element(t, a[0].span)
                return {"op": e.op, "of": self._as_collection(coll, t)}, BOOL
            case "every_empty":  # every hand is empty
                coll, t = self._sub(a[0], scope)
                if t.kind not in ("zones", "zone", "piles"):
                    raise RulesTypeError(f"`every ... is empty` goes over zones, not {t}", a[0].span)
                return {"op": "all_empty", "of": coll}, BOOL
            case "most":  # strictly most count trump in won of player
                if "player" not in scope:
                    raise RulesTypeError("`most` compares players, but no player is in question here", e.span)
                inner = self.expr(a[1], {**scope, "player": PLAYER}, NUMBER)
                return {"op": "most", "strict": a[0], "of": inner}, BOOL
            case "compare":  # sum of value in target > limit
                return self._compare(e, scope)
            case "is":  # card is trump, color of target is none
                return self._is(e, scope)
            case "and" | "or":
                return {"op": e.op, "args": [self.expr(x, scope, BOOL) for x in a]}, BOOL
            case "else":  # color of first gem in it else none
                parts = [self._sub(x, scope) for x in a]
                t = parts[0][1]
                for _, t2 in parts[1:]:
                    t = self._join(t, t2, e.span)
                return {"op": "else", "args": [n for n, _ in parts]}, t
            case "every" | "for_each" | "seats_from" | "across" | "call":  # players, seats, functions
                return self._values_expr(e, scope)
            case "known":  # (issue 30) known color of card to owner: resolve_knowledge.py
                return self._known(e, scope)
            case "arith" if a[1] == "+":  # 2 + players, or (issue 30) discard + pile: resolve_values._plus
                return self._plus(e, scope)
            case "arith":  # 2 * players
                left = self._arith_operand(a[0], scope)
                right = self._arith_operand(a[2], scope)
                return {"op": "arith", "sym": a[1], "left": left, "right": right}, NUMBER
        raise AssertionError(e.op)

    def _pick(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:  # first gem in it
        which, src = e.args
        coll, t = self._sub(src, scope)
        elem = self._element(t, src.span)
        if which in ("best", "worst") and elem.kind == "card" and not self.card_order:
            raise DeclarationError(
                f"`{which}` compares cards, but the cards have no order",
                e.span,
                "add `order cards by ATTRIBUTE, ...` to the cards section",
            )
        return {"op": which, "of": self._as_collection(coll, t)}, elem

    def _aggregate(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:  # sum of value in target
        agg, attr, src = e.args
        coll, t = self._sub(src, scope)
        coll = self._as_cards(coll, t, src.span)
        info = self._attr(attr, e.span)
        if agg != "distinct" and info["kind"] != "number":
            raise RulesTypeError(f"{agg} needs a number attribute; '{attr}' holds names", e.span)
        if agg in UNIQUE:  # unique highest of rank in trick: exactly one card holds the highest
            return {"op": "unique", "agg": UNIQUE[agg], "attr": attr, "of": coll}, BOOL
        return {"op": agg, "attr": attr, "of": coll}, NUMBER

    def _compare(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:  # sum of value in target > limit
        a = e.args
        left, t1 = self._sub(a[0], scope)
        right, t2 = self._sub(a[2], scope)
        if a[1] in ("<", ">", "<=", ">="):
            for t, x in ((t1, a[0]), (t2, a[2])):
                if t.kind not in ("number", "none", "card", "any"):
                    raise RulesTypeError(f"`{a[1]}` compares numbers, not {t}", x.span)
        else:
            self._join(t1, t2, e.span)
        return {"op": "cmp", "cmp": a[1], "left": left, "right": right}, BOOL

    def _join(self, t1: T, t2: T, span: Span) -> T:
        if t1.kind == "none" or t1.kind == "any":
            return t2
        if t2.kind in ("none", "any") or t1 == t2 or t1.kind == t2.kind:
            return t1
        hint = SEAT_HINT if {t1.kind, t2.kind} == {"player", "number"} else None
        raise RulesTypeError(f"these values cannot be compared or combined: {t1} and {t2}", span, hint)

    def _is(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        subject_e, negated, what = e.args
        subject, t = self._sub(subject_e, scope)
        if what == "none":
            node = {"op": "is_none", "of": subject}
        elif what == "empty":
            if t.kind not in ("zone", "pile", "cards", "zones", "piles"):
                raise RulesTypeError(f"only zones and collections can be empty, not {t}", subject_e.span)
            node = {"op": "is_empty", "of": self._as_collection(subject, t)}
        elif what == "achieved":
            if t.kind not in ("card", "none"):
                raise RulesTypeError(f"only a card is achieved, not {t}", subject_e.span)
            node = {"op": "achieved", "of": subject}
        elif t.kind in ("card", "none") and what in self.types:
            node = {"op": "is_type", "of": subject, "type": what}
        elif t.kind == "card":
            raise UnknownNameError(f"no card type '{what}'", e.span, self._suggest(what, list(self.types)))
        elif t.kind == "player" and what == "eliminated":  # target is not eliminated
            node = {"op": "eliminated", "of": subject}
        elif t.kind == "player" and what in self.p.vars and self.p.vars[what].per_player:  # target is protected
            zero = {"op": "num", "value": 0}
            status = {"op": "var", "name": what, "of": subject}
            node = {"op": "cmp", "cmp": "!=", "left": status, "right": zero, "status": True}
        else:
            value, t2 = self._name(Expr("name", (what,), e.span), what, scope)
            value["at"] = _at(e.span)
            self._join(t, t2, e.span)
            node = {"op": "cmp", "cmp": "=", "left": subject, "right": value}
        if negated:
            node["at"] = _at(e.span)
            node = {"op": "not", "of": node}
        return node, BOOL
