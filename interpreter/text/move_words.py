"""Moves in words, as a person at a seat reads them: one wording for the terminal's `play` and the
browser table (``ruleset serve``); what the rules did between moves is worded beside it, in
event_words.py. Each takes a move as records write it (``move_record``):

- a card: ``play guard 1 to your discard``;
- several cards at once: ``lay 7 hearts, 7 clubs to table`` (a plain deck's type, ``card``, unsaid);
- a draw, which names the pile and never the card: ``draw from discard 2``;
- a card the seat does not see (a blind move's, see engine/unseen.py), the same: ``lay a card from
  your stock to pot``; in a set, ``a hidden card``;
- a card an ask chose: ``extra nigiri salmon from your hand``;
- a choice that is no card: ``pass``, ``bid 3``, ``trump hearts``, ``rival seat 2`` (``rival you``),
  ``take row 2`` (a zone instance).
"""

from __future__ import annotations

from functools import cache
from typing import Any

# A plain deck's one kind of card is declared as the type `card`: with two values or more its name
# says nothing a player needs (`hearts 12`, not `card hearts 12`); with one it stays (`card 17`,
# not a bare `17`), and a type of any other name is said (`guard 1`).
PLAIN_TYPE = "card"


def card_name(card: dict[str, Any] | None) -> str:
    """A card as a person reads it: its type (unless the plain `card` of several values), then its
    attribute values."""
    if card is None:
        return "a hidden card"
    values = [str(v) for k, v in card.items() if k != "type"]
    return " ".join(values if card["type"] == PLAIN_TYPE and len(values) > 1 else [card["type"], *values])


@cache
def _order_keys(game: Any) -> dict[tuple, tuple]:
    """Each kind of card's place in the declared order (`order cards by`, then the deck's order)."""
    from ..engine.cards import signature

    table = game.cards
    keys: dict[tuple, tuple] = {}
    for c, card in enumerate(table.json):
        keys.setdefault(signature(card), (table.key[c], c))
    return keys


def held_order(game: Any, cards: list[dict[str, Any]]) -> list[int]:
    """The positions of ``cards`` in the order a person holds them: by the ruleset's `order cards
    by`, then as the deck lists them (a hand is shown so, at the terminal and the table)."""
    from ..engine.cards import signature

    keys = _order_keys(game)
    return sorted(range(len(cards)), key=lambda i: keys.get(signature(cards[i]), ((), len(keys))))


def seat_name(player: int, seat: int) -> str:
    """``you`` for the seat reading, ``seat 2`` for the others."""
    return "you" if player == seat else f"seat {player}"


def zone_label(game: Any, name: str, index: int, seat: int, players: int) -> str:
    """``pot 2``, ``hand of seat 1``, ``your hand``, ``trick``."""
    spec = game.zones[game.zone_index[name]]
    if spec.per_player:
        return f"your {name}" if index == seat else f"{name} of seat {index}"
    return f"{name} {index + 1}" if spec.count > 1 else name


@cache
def choice_kinds(game: Any) -> dict[str, str | None]:
    """The kind of choice (pass, number, value, player, option, draw) of each move or ask by name;
    None for a name that several rules of different kinds share."""
    kinds: dict[str, str | None] = {}
    for rule in game.moves:
        kind = getattr(rule, "choice", None)
        if kind is not None:
            kinds[rule.name] = kind if kinds.get(rule.name, kind) == kind else None
    return kinds


def choice_text(m: dict[str, Any], seat: int, kind: str | None = None) -> str:
    """A choice in its words: ``bid 3``, ``pass``, ``target seat 2`` (``target you``)."""
    if "value" not in m:
        return m["move"]
    value = m["value"]
    if isinstance(value, int) and (kind or m.get("kind")) == "player":
        value = seat_name(value, seat)
    return f"{m['move']} {value}"


def move_words(game: Any, m: dict[str, Any], seat: int, players: int, kind: str | None = None) -> str:
    """A move (as records write it) in words for ``seat``; ``kind`` is its choice's kind when known
    (otherwise looked up by the move's name)."""
    if "pick" in m:  # a card towards a set chosen card by card
        return f"{m['move']}: pick {card_name(m['pick'])}"
    if "cards" in m:  # several cards in one choice
        cards = ", ".join(card_name(c) for c in m["cards"])
        where = f" to {zone_label(game, m['to']['zone'], m['to']['index'], seat, players)}" if "to" in m else ""
        return f"{m['move']} {cards}{where}"
    if "from" in m and "to" not in m:  # a draw names the pile, never the card; an ask's card, the card
        where = zone_label(game, m["from"]["zone"], m["from"]["index"], seat, players)
        return f"{m['move']} {card_name(m['card'])} from {where}" if "card" in m else f"{m['move']} from {where}"
    if isinstance(m.get("value"), dict):  # a zone instance chosen: ``take row 2``
        return f"{m['move']} {zone_label(game, m['value']['zone'], m['value']['index'], seat, players)}"
    if "to" not in m:
        return choice_text(m, seat, kind or choice_kinds(game).get(m["move"]))
    where = zone_label(game, m["to"]["zone"], m["to"]["index"], seat, players)
    if "from" in m:  # a card the seat does not see, taken from a pile: the pile, never the card
        source = zone_label(game, m["from"]["zone"], m["from"]["index"], seat, players)
        if "place" in m and not m.get("card"):  # `card at place`: the place (counted from 1), never the card
            return f"{m['move']} the card at place {m['place'] + 1} of {source} to {where}"
        return f"{m['move']} {card_name(m['card']) if m.get('card') else 'a card'} from {source} to {where}"
    return f"{m['move']} {card_name(m.get('card'))} to {where}"


def told_words(game: Any, x: dict[str, Any], seat: int, players: int) -> str:
    """A fact told to a seat (observation ``told``), by place: ``card 2 of your hand is red``."""
    where = zone_label(game, x["zone"], x["index"], seat, players)
    return f"card {x['place'] + 1} of {where}: {x['attr']} {x['value']}"


def move_text(game: Any, m: dict[str, Any], seat: int, players: int) -> str:
    """A move as seen by ``seat``: who, then the move in words."""
    return f"{seat_name(m['player'], seat)}: {move_words(game, m, seat, players)}"
