"""Typing a move at the terminal (play/typed.py): a card by its name as the screen shows it, even
where a zone's name shares its words, and several cards at once or one at a time."""

from __future__ import annotations

import io

import interpreter
from conftest import position
from interpreter.play.terminal import ask

PAIRS = """game "Pairs"
players 2..2

cards
  card  suit sun | moon   rank 1..6
  order cards by rank

zones
  hand  per player, owner sees
  pile  shared, public

round
  deal 4 to hand
  phase give
    move give 2 cards from hand to pile
    ends when nobody can move

game
  rounds 1
  winner highest total
"""


def _ask(state, typed: str) -> tuple[object, list[str]]:
    said: list[str] = []
    return ask(state, state.current_player, io.StringIO(typed), said.append), said


def _card(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def test_a_card_is_read_by_its_name_not_by_a_zones_number(poison):
    """`violet 2` is the card potion violet 2, not potion violet 5 played to cauldron 2; the words
    after a card's name say where it goes."""
    potion = lambda color, value: {"type": "potion", "color": color, "value": value}  # noqa: E731
    hand = [potion("violet", 2), potion("violet", 5), potion("red", 5)]
    state = position(poison, 3, {"hand": [[potion("red", 1)] * 3, hand, [potion("blue", 1)] * 3]})
    move, said = _ask(state, "violet 2\nviolet 2 cauldron 3\n")
    (which,) = [s for s in said if s.startswith("which one?")]
    assert which.count("violet 2 to cauldron") == 3 and "violet 5" not in which and "red" not in which
    assert state.describe(move)["card"] == potion("violet", 2) and state.describe(move)["to"]["index"] == 2


def test_several_cards_typed_at_once_or_one_at_a_time():
    """A set move: its cards' names separated any way, or one name a line (`cards so far`)."""
    game = interpreter.loads(PAIRS, "pairs.rules")
    hand = [_card("sun", 1), _card("moon", 3), _card("sun", 5), _card("moon", 6)]
    other = [_card("sun", 2), _card("moon", 2), _card("sun", 3), _card("sun", 4)]
    state = position(game, 2, {"hand": [other, hand]})  # (seat 1, left of the dealer, gives first)
    for typed in ("sun 5, moon 6\n", "moon 6 sun 5\n", "sun 5 and moon 6\n", "sun 5\nmoon 6\n"):
        move, said = _ask(state, typed)
        cards = state.describe(move)["cards"]
        assert sorted(c["rank"] for c in cards) == [5, 6], (typed, said)
    _, said = _ask(state, "sun 5\nmoon 6\n")
    assert any(s.startswith("cards so far: sun 5") for s in said)
    menu = [s for s in _ask(state, "1\n")[1] if s.startswith("   ") or s.startswith("  ")]
    assert menu[0].endswith("give sun 1, moon 3 to pile")  # (in the order cards are held)
