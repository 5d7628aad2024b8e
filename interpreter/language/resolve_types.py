"""The types the resolver gives values (T, and the common ones by name) and the limits it checks.
Shared by resolve.py and its mixins (resolve_*.py)."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Span

IR_FORMAT = 1
MAX_DECK = 10_000
MAX_DEPTH = 60


@dataclass(frozen=True)
class T:
    """The type of a value: a kind (number, text, bool, card, cards, zone, zones, pile, piles,
    player, none) and, for zones, which zone."""

    kind: str
    zone: str | None = None

    def __str__(self) -> str:
        names = {"zones": "several zones", "cards": "cards", "piles": "piles", "none": "none"}
        if self.kind == "zone" and self.zone:
            return f"a zone ({self.zone})"
        if self.kind == "zones" and self.zone:
            return f"zones ({self.zone})"
        return names.get(self.kind, f"a {self.kind}" if self.kind[0] not in "aeiou" else f"an {self.kind}")


NUMBER, TEXT, BOOL, CARD, CARDS, PLAYER, PILE, PILES, NONE = (
    T(k) for k in ("number", "text", "bool", "card", "cards", "player", "pile", "piles", "none")
)
SET_NAME = "$set"  # a scope key: in a set move's rules, its name (T.zone) is the set chosen
UNSHARED = "$unshared "  # + a name: a trigger after several moves, only some bind it (T.zone: which)
BUILTINS = {"players": NUMBER, "round": NUMBER, "dealer": PLAYER}
PER_PLAYER_BUILTINS = {"total": NUMBER}


def _at(span: Span) -> str:
    return str(span)
