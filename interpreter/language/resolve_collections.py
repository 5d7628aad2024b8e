"""Resolving collections: cards of a type in a zone, piles, `where` and `except` filters, and the
element type of what an expression goes over. A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import RulesTypeError, Span, UnknownNameError
from .ast_nodes import Expr
from .resolve_types import BOOL, CARD, CARDS, PILE, PILES, T, _at


class CollectionsResolver:
    """Collections: zones, cards and piles as collections, `where` and `except`."""

    def _element(self, t: T, span: Span) -> T:
        """The type of one element of a collection."""
        match t.kind:
            case "cards" | "zone" | "pile":
                return CARD
            case "zones":
                return T("zone", t.zone)
            case "piles":
                return PILE
            case "players" | "teams":
                return T(t.kind[:-1])
        raise RulesTypeError(f"expected cards, piles or zones, got {t}", span)

    def _as_collection(self, node: dict[str, Any], t: T) -> dict[str, Any]:
        """Zones and piles used as collections of cards become card lists."""
        if t.kind in ("zone", "pile"):
            return self._cards_of(node, t)
        return node

    def _cards_of(self, node: dict[str, Any], t: T) -> dict[str, Any]:
        return {
            "op": "cards",
            "from": node,
            "source": t.kind,
            "type": None,
            "piles": self._has_piles(t),
            **({"at": node["at"]} if "at" in node else {}),
        }

    def _has_piles(self, t: T) -> bool:
        return t.kind in ("zone", "zones") and bool(self.zones.get(t.zone or "", {}).get("piles"))

    def _as_cards(self, node: dict[str, Any], t: T, span: Span) -> dict[str, Any]:
        if t.kind == "cards":
            return node
        if t.kind in ("zone", "zones", "pile"):
            return self._cards_of(node, t)
        raise RulesTypeError(f"expected cards or a zone, got {t}", span)

    def _select(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        what, src_e, where, except_ = e.args
        src, t = self._sub(src_e, scope)
        if what in ("pile", "piles"):
            if not (t.kind in ("zone", "zones") and self._has_piles(t)):
                raise RulesTypeError(f"piles are kept in zones declared with `piles`, not in {t}", src_e.span)
            node, elem, result = {"op": "piles", "from": src, "source": t.kind}, PILE, PILES
        else:
            if t.kind not in ("zone", "zones", "pile", "cards"):
                raise RulesTypeError(f"expected a zone or cards after `in`, got {t}", src_e.span)
            if what not in ("card", "cards") and what not in self.types:
                raise UnknownNameError(f"no card type '{what}'", e.span, self._suggest(what, [*self.types, "card"]))
            typ = None if what in ("card", "cards") else what
            if t.kind == "cards":
                node = {"op": "of_type", "of": src, "type": typ}
            else:
                node = {
                    "op": "cards",
                    "from": src,
                    "source": t.kind,
                    "type": typ,
                    "piles": self._has_piles(t),
                }
            elem, result = CARD, CARDS
        return self._where_except(node, elem, result, where, except_, scope)

    def _where_except(self, node, elem, result, where, except_, scope):
        if where is not None:
            node["at"] = _at(where.span)
            self.in_where += 1  # (an error of arithmetic there may be the rest of the line taken by `where`)
            try:
                node = {"op": "filter", "of": node, "where": self.expr(where, {**scope, "it": elem}, BOOL)}
            finally:
                self.in_where -= 1
        if except_ is not None:
            node["at"] = _at(except_.span)
            node = {"op": "except", "of": node, "value": self.expr(except_, scope, elem)}
        return node, result

    def _filter(self, e: Expr, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        src_e, where, except_ = e.args
        src, t = self._seat_collection(src_e, scope) or self._sub(src_e, scope)
        elem = self._element(t, src_e.span)
        src = self._as_collection(src, t)
        result = {"card": CARDS, "pile": PILES, "player": t, "team": t}.get(elem.kind, T("zones", elem.zone))
        return self._where_except(src, elem, result, where, except_, scope)
