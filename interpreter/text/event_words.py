"""A seat's log in words (engine/seat_log.py): the deal, each move (move_words.py), what the rules
did after it, each round's scoring. The one wording of the terminal, the browser table,
`ruleset replay --seat` and the replay viewer.

What the rules did is worded by kind, from ``EVENT_WORDS``: an event's kind is the key of its
dict named as the kind (engine/events.py), and a new kind of event is one entry here (and one in
events.SEEN). A function returns None when the seat has nothing to be told (a draw of another's
cards it did not see: the move's own line says it).

- ``revealed to all: 7 hearts in hand of seat 2``; ``stock shuffled (12 cards)``;
- ``you saw: priest 2 in hand of seat 1`` (``seat 0 saw: a hidden card in hand of seat 1``);
- ``seat 1 takes 4 cards from trick into won``: cards the rules moved into a player's zone from
  one that is not theirs; ``moved king 6 from hand of seat 2 to discard of seat 2`` otherwise;
  ``moved 3 cards of rank 5 from hand of seat 1 to hand of seat 2``: hidden cards, with what every
  seat knows they all have (the rank a player asked for);
- ``you got: king 6`` (what a draw gave you);
- ``your hand and hand of seat 1 swapped; your hand now: baron 3`` (what a place holds after, to
  the seats that see it);
- ``seat 2 is out of the round``;
- ``seat 1's card in pile has suit red``: what a move's guards told every seat of a card played out
  of its sight (`require suit of card = led`), to the seats that did not see the card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import plural
from .move_words import card_name, held_order, move_text, seat_name, zone_label


def _place(game: Any, x: dict[str, Any], seat: int, players: int) -> str:
    return zone_label(game, x["zone"], x["index"], seat, players)


def cards_words(cards: list[dict[str, Any] | None], shared: dict[str, Any] | None = None) -> str:
    """Cards as a seat may name them: the ones it saw by name, the others counted, with what every
    seat knows they have (``shared``: ``3 cards of rank 5``)."""
    named = [card_name(c) for c in cards if c is not None]
    hidden = len(cards) - len(named)
    known = " of " + ", ".join(f"{attr} {value}" for attr, value in shared.items()) if shared else ""
    if not named:
        return plural(hidden, "card") + known
    return ", ".join(named + ([plural(hidden, "hidden card") + known] if hidden else []))


def _reveal(game: Any, ev: dict[str, Any], seat: int, players: int) -> str:
    to = "all" if "to" not in ev else ", ".join(seat_name(p, seat) for p in ev["to"])
    return f"revealed to {to}: " + "; ".join(
        f"{card_name(x['card'])} in {_place(game, x, seat, players)}" for x in ev["reveal"]
    )


def _shuffle(game: Any, ev: dict[str, Any], seat: int, players: int) -> str:
    n = ev.get("count", len(ev.get("cards", ())))
    return f"{_place(game, ev['shuffle'], seat, players)} shuffled ({plural(n, 'card')})"


def _show(game: Any, ev: dict[str, Any], seat: int, players: int) -> str:
    who = ", ".join(seat_name(p, seat) for p in ev["to"])
    return f"{who} saw: " + "; ".join(f"{card_name(x['card'])} in {_place(game, x, seat, players)}" for x in ev["show"])


def _moved(game: Any, ev: dict[str, Any], seat: int, players: int) -> str:
    spec = game.zones[game.zone_index[ev["to"]["zone"]]]
    dest = _place(game, ev["to"], seat, players)
    groups: dict[tuple[str, int], list[Any]] = {}
    for x in ev["moved"]:
        groups.setdefault((x["zone"], x["index"]), []).append(x["card"])
    owner = ev["to"]["index"] if spec.per_player else None
    if owner is not None and all(not game.zones[game.zone_index[z]].per_player for z, _ in groups):
        sources = ", ".join(zone_label(game, z, i, seat, players) for z, i in groups)
        verb = "take" if owner == seat else "takes"
        taken = cards_words([c for cs in groups.values() for c in cs], ev.get("shared"))
        return f"{seat_name(owner, seat)} {verb} {taken} from {sources} into {spec.name}"
    return "; ".join(
        f"moved {cards_words(cards, ev.get('shared'))} from {zone_label(game, z, i, seat, players)} to {dest}"
        for (z, i), cards in groups.items()
    )


def _drawn(game: Any, ev: dict[str, Any], seat: int, players: int) -> str | None:
    cards = [x["card"] for x in ev["drawn"] if x["card"] is not None]
    if not cards:
        return None
    spec = game.zones[game.zone_index[ev["to"]["zone"]]]
    who = seat_name(ev["to"]["index"], seat) if spec.per_player else _place(game, ev["to"], seat, players)
    return f"{who} got: " + ", ".join(card_name(c) for c in cards)


def _swap(game: Any, ev: dict[str, Any], seat: int, players: int) -> str:
    a, b = (_place(game, x, seat, players) for x in ev["swap"])
    held = [
        f"{_place(game, x, seat, players)} now: " + (", ".join(card_name(c) for c in x["holds"]) or "empty")
        for x in ev["swap"]
        if "holds" in x
    ]
    return "; ".join([f"{a} and {b} swapped", *held])


def _eliminate(game: Any, ev: dict[str, Any], seat: int, players: int) -> str:
    p = ev["eliminate"]
    return "you are out of the round" if p == seat else f"seat {p} is out of the round"


def _known(game: Any, ev: dict[str, Any], seat: int, players: int) -> str | None:
    x = ev["known"]
    if x["card"] is not None:  # the seat saw the card itself
        return None
    whose = "your" if x["player"] == seat else f"{seat_name(x['player'], seat)}'s"
    said = " and ".join(f"{attr} {value}" for attr, value in ev["shared"].items())
    return f"{whose} card in {_place(game, x, seat, players)} has {said}"


# kind -> its words; the kind is the key of the event's dict named so (engine/events.py: SEEN)
EVENT_WORDS: dict[str, Callable[[Any, dict[str, Any], int, int], str | None]] = {
    "reveal": _reveal,
    "shuffle": _shuffle,
    "show": _show,
    "moved": _moved,
    "drawn": _drawn,
    "swap": _swap,
    "eliminate": _eliminate,
    "known": _known,
}


def event_text(game: Any, ev: dict[str, Any], seat: int, players: int) -> str | None:
    """What the rules did (an event as ``seat`` was told of it), in words; None: nothing to tell."""
    for kind, words in EVENT_WORDS.items():
        if kind in ev:
            return words(game, ev, seat, players)
    raise ValueError(f"an event of no known kind: {sorted(ev)}")


def deal_text(game: Any, deal: dict[str, list[Any]], seat: int, players: int) -> str:
    """``dealt: your hand guard 1, priest 2; hand of seat 1 1 card; deck 11 cards``."""
    parts = []
    for name, instances in deal.items():
        z = game.zone_index[name]
        if z >= len(game.ir["zones"]):  # a deck's own zone: cards not in play
            continue
        for index, cards in enumerate(instances):
            if isinstance(cards, dict):
                if cards["count"]:
                    parts.append(f"{zone_label(game, name, index, seat, players)} {plural(cards['count'], 'card')}")
            elif cards:
                if game.zones[z].visibility == "owner" and index == seat:  # a hand: as a person holds it
                    cards = [cards[i] for i in held_order(game, cards)]
                parts.append(
                    f"{zone_label(game, name, index, seat, players)} " + ", ".join(card_name(c) for c in cards)
                )
    return "dealt: " + ("; ".join(parts) or "nothing")


def scored_text(game: Any, scored: dict[str, Any], seat: int, players: int) -> str:
    """``round 1 scored: you +1, seat 1 0; revealed: hand of seat 1 king 6``."""
    points = ", ".join(f"{seat_name(p, seat)} {'+' if s > 0 else ''}{s}" for p, s in enumerate(scored["scores"]))
    shown = [
        f"{zone_label(game, name, i, seat, players)} " + (", ".join(card_name(c) for c in cards) or "empty")
        for name, instances in (scored.get("revealed") or {}).items()
        for i, cards in enumerate(instances)
    ]
    return f"round {scored['round']} scored: {points}" + (f"; revealed: {'; '.join(shown)}" if shown else "")


def entry_text(game: Any, entry: dict[str, Any], seat: int, players: int) -> str | None:
    """One entry of a seat's log (engine/seat_log.py) in words; None: nothing to tell this seat."""
    if "deal" in entry:
        return deal_text(game, entry["deal"], seat, players)
    if "event" in entry:
        return event_text(game, entry["event"], seat, players)
    if "scored" in entry:
        return scored_text(game, entry["scored"], seat, players)
    return move_text(game, entry, seat, players)
