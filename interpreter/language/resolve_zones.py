"""Resolving the zones section and the deals that fill the zones at the start of a round.
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, Span, UnknownNameError
from .resolve_types import BOOL, NUMBER
from .variants import DEFAULT_DECK


class ZonesResolver:
    """Zones and the deals into them."""

    def _zone(self, z: Any) -> dict[str, Any]:
        owner, count, visibility, piles, revealed = "shared", 1, "public", False, False
        for opt in z.options:
            if isinstance(opt, int):
                if not 1 <= opt <= 64:
                    raise DeclarationError(f"a zone may have from 1 to 64 instances, not {opt}", z.span)
                count = opt
            elif opt == "per_player":
                owner = "player"
            elif opt in ("public", "hidden", "owner", "others"):
                visibility = opt
            elif opt == "piles":
                piles = True
            elif opt == "revealed":  # revealed when scored: every seat sees it once the round is scored
                revealed = True
        if owner == "player" and count != 1:
            raise DeclarationError("a per-player zone has one instance per player; drop the count", z.span)
        if owner == "shared" and visibility in ("owner", "others"):
            what = "to see it" if visibility == "owner" else "(`others see`: every seat but its owner sees it)"
            raise DeclarationError(f"a shared zone has no owner {what}", z.span, "use public or hidden")
        node = {"name": z.name, "owner": owner, "count": count, "visibility": visibility, "piles": piles}
        if revealed:
            node["revealed"] = True
        self.zones[z.name] = node
        return self._noted(dict(node), z.span)

    def _zone_named(self, name: str, span: Span) -> dict[str, Any]:
        if name not in self.zones:
            raise UnknownNameError(f"no zone '{name}'", span, self._suggest(name, list(self.zones)))
        return self.zones[name]

    def _deal(self, d: Any) -> dict[str, Any]:
        deck = d.deck or DEFAULT_DECK
        if deck not in self.p.decks:
            raise UnknownNameError(f"no deck '{deck}' to deal from", d.span, self._suggest(deck, list(self.p.decks)))
        zone = self._zone_named(d.zone, d.span)
        extra = self._deal_target(d, zone)  # (resolve_flow.py: deals to shared zones)
        node: dict[str, Any] = {"deck": deck, "to": d.zone, "one_at_a_time": d.one_at_a_time, **extra}
        node["amount"] = None if d.amount is None else self.expr(d.amount, {}, NUMBER)
        if d.as_players is not None:
            seats, when = d.as_players
            node["as_players"] = self.expr(seats, {}, NUMBER)
            node["as_players_when"] = None if when is None else self.expr(when, {}, BOOL)
        if d.rest is not None:
            rest = self._zone_named(d.rest, d.span)
            if rest["owner"] != "shared" or rest["count"] != 1:
                raise DeclarationError(f"the rest of the deck goes to one shared zone; '{d.rest}' is not", d.span)
            node["rest"] = d.rest
        return self._noted(node, d.span)
