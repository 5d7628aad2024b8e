"""Zones laid out for a number of players: every zone instance gets an index into State.zones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .rule_fields import fields_first
from .state_fields import LayoutFields


@dataclass(frozen=True)
class ZoneSpec:
    """A declared zone (or a deck's own zone, which holds the cards not dealt)."""

    name: str
    per_player: bool
    count: int
    visibility: str  # public | owner | hidden | others (every seat but its owner)
    piles: bool
    revealed: bool = False  # every seat sees it once the round is scored


@fields_first(LayoutFields)  # (typed in the compiled engine: the closures read its fields in place)
@dataclass(frozen=True)
class Layout:
    """Where each zone's instances live in State.zones, for one player count."""

    players: int
    base: tuple[int, ...]  # zone index -> index of its first instance
    instances: tuple[tuple[int, ...], ...]  # zone index -> its instance indices
    zone_of: tuple[int, ...]  # instance -> zone index
    owner: tuple[int | None, ...]  # instance -> owning player (per-player zones) or None
    number: tuple[int, ...]  # instance -> its index within its zone (the record's "index")
    piles: tuple[bool, ...] = ()  # instance -> whether its zone keeps piles (State.move_cards reads it)

    @property
    def size(self) -> int:
        return len(self.zone_of)


def zone_specs(ir: dict[str, Any]) -> list[ZoneSpec]:
    """The declared zones, then one hidden zone per deck (named after the deck)."""
    specs = [
        ZoneSpec(z["name"], z["owner"] == "player", z["count"], z["visibility"], z["piles"], z.get("revealed", False))
        for z in ir["zones"]
    ]
    specs += [ZoneSpec(d["name"], False, 1, "hidden", False) for d in ir["decks"]]
    return specs


def layout(specs: list[ZoneSpec], players: int) -> Layout:
    """Lay the zones out for ``players`` players."""
    base, instances, zone_of, owner, number = [], [], [], [], []
    for z, spec in enumerate(specs):
        n = players if spec.per_player else spec.count
        base.append(len(zone_of))
        instances.append(tuple(range(len(zone_of), len(zone_of) + n)))
        for i in range(n):
            zone_of.append(z)
            owner.append(i if spec.per_player else None)
            number.append(i)
    piles = tuple(specs[z].piles for z in zone_of)
    return Layout(players, tuple(base), tuple(instances), tuple(zone_of), tuple(owner), tuple(number), piles)


def sees(game: Any, lay: Any, inst: int, seat: int) -> bool:
    """Whether ``seat`` sees the cards of zone instance ``inst`` (an `others see` zone: every seat
    but its owner; a spectator, seat -1, sees the public zones only)."""
    spec = game.zones[lay.zone_of[inst]]
    vis = spec.visibility
    if vis == "public":
        return True
    if vis == "owner":
        return lay.owner[inst] == seat
    return vis == "others" and seat >= 0 and lay.owner[inst] != seat


def cards_seen(state: Any, inst: int, seat: int) -> list[int]:
    """The cards of zone instance ``inst`` that ``seat`` sees, in the zone's order: all of them in a
    zone it sees, else those shown to it there (what an ask lets a player choose from)."""
    cards = state.zone_cards(inst)
    if sees(state.game, state.layout, inst, seat):
        return list(cards)
    shown = state.shown
    return [c for c in cards if (seat, c, inst) in shown]
