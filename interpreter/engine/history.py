"""A game's history, one ``RoundLog`` per round: dealer, deal, moves, the events the rules made
between moves (reveals and shuffles: events.py), scores and the zones revealed at scoring, as
records write them (records.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class RoundLog(dict):
    """One round. Its ``"deal"`` (every non-empty zone right after the deal, cards as record
    objects) is kept as card ids and turned into objects when first read: a search or a
    simulation that writes no record never pays for it."""

    __slots__ = ("dealt",)

    def __init__(self, dealer: int, state: Any):
        super().__init__(dealer=dealer, moves=[])
        zones = state.zones
        # each instance's cards, piles flattened, copied now (the zones change as the round goes; an
        # empty one is the empty tuple, no list made)
        contents = [
            (() if not z else [c for pile in z for c in pile] if isinstance(z[0], list) else list(z)) for z in zones
        ]
        self.dealt = (state.game, state.layout, contents)

    def __missing__(self, key: str) -> Any:
        if key != "deal":
            raise KeyError(key)
        value = self["deal"] = deal_objects(*self.dealt)
        return value

    def ongoing_copy(self) -> RoundLog:
        """A copy whose move list is its own (for a copy of the state playing on)."""
        other = RoundLog.__new__(RoundLog)
        dict.update(other, self)
        other["moves"] = list(self["moves"])
        if "events" in self:  # (only a round whose rules reveal or shuffle has them)
            other["events"] = list(self["events"])
        if "places" in self:  # (only a round with moves `card at place`: move index -> the place)
            other["places"] = dict(self["places"])
        other.dealt = self.dealt
        return other


def deal_objects(game: Any, layout: Any, contents: list[Sequence[int]]) -> dict[str, Any]:
    """The deal as a record lists it: zone name -> its cards, or one list per instance (``contents``:
    each instance's card ids, a list, or the empty tuple for an empty one: RoundLog)."""
    cards = game.cards.json
    out: dict[str, Any] = {}
    for z, spec in enumerate(game.zones):
        insts = layout.instances[z]
        lists = [[cards[c] for c in contents[i]] for i in insts]
        if not any(lists) and not spec.per_player:
            continue
        out[spec.name] = lists if (spec.per_player or len(insts) > 1) else lists[0]
    return out
