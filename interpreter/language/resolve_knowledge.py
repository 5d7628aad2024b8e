"""Resolving knowledge about cards (issue 30): `tell P ATTR of CARDS`, an effect that tells a seat
one attribute of some cards without showing them, and `known ATTR of CARD to P`, the value that
seat was told (none when it was not). A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import RulesTypeError
from .resolve_types import CARD, NUMBER, PLAYER, TEXT, T


class KnowledgeResolver:
    """`tell` and `known`."""

    def _told_attr(self, name: str, span: Any) -> dict[str, Any]:
        """The attribute told or read (an error for a name that is none)."""
        return self._attr(name, span)

    def _tell(self, eff: Any, scope: dict[str, T]) -> dict[str, Any]:
        """tell target color of cards in hand of target where color of it = red"""
        who_e, attr, what_e = eff.args
        self._told_attr(attr, eff.span)
        what = self.expr(what_e, scope, None)
        t = self._last_type
        if t.kind not in ("card", "cards", "zone"):
            raise RulesTypeError(
                f"tell says what cards are: a card, cards or a zone, not {t}",
                what_e.span,
                "`tell target color of card in hand of target where color of it = red`",
            )
        what = self._zone_as_cards(what, t)
        return {"do": "tell", "to": self.expr(who_e, scope, PLAYER), "attr": attr, "what": what}

    def _known(self, e: Any, scope: dict[str, T]) -> tuple[dict[str, Any], T]:
        """known color of card to owner: the value that seat was told, or none"""
        attr, card_e, who_e = e.args
        info = self._told_attr(attr, e.span)
        card = self.expr(card_e, scope, CARD)
        who = self.expr(who_e, scope, PLAYER)
        return {"op": "known", "name": attr, "of": card, "to": who}, NUMBER if info["kind"] == "number" else TEXT
