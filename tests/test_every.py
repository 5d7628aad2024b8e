"""`every` takes the collections `some` takes: `every card in ZONE where C [except X]` as well as
`every X where C`, and means "each of them meets C" (true of none at all)."""

from __future__ import annotations

import pytest

import interpreter
from conftest import card, position
from interpreter.errors import RulesTypeError

# Each player's hand is placed by the test; the round is scored at once (nobody can move).
ALL_HEARTS = """\
game "All hearts"
players 2..2

cards
  card  suit hearts | spades   rank 1..3

zones
  hand   per player, owner sees
  shown  shared, public

round
  phase show
    move show card from hand to shown
    ends when count shown = 0
  score
    1 if every card in hand of player where suit of it = hearts
    10 if every hand of player where suit of it = hearts
    100 if every card in hand of player where rank of it > 1 except first card in hand of player

game
  rounds 1
  winner highest total
"""


def hearts(*ranks: int) -> list[dict]:
    return [card("card", suit="hearts", rank=r) for r in ranks]


def spades(*ranks: int) -> list[dict]:
    return [card("card", suit="spades", rank=r) for r in ranks]


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.loads(ALL_HEARTS, "all-hearts.rules")


def scores(game: interpreter.Game, hands: list[list[dict]]) -> list[int]:
    state = position(game, 2, {"hand": hands})
    assert state.is_over
    return state.history[0]["scores"]


def test_every_card_in_a_zone_where_means_each_card_meets_the_condition(game) -> None:
    """The same truth as the older `every ZONE where C`; `except` takes a card out first."""
    assert scores(game, [hearts(2, 1), hearts(3) + spades(2)]) == [11, 100]
    assert scores(game, [hearts(1, 2), spades(1)]) == [111, 100]
    assert scores(game, [spades(1) + hearts(2, 3), []]) == [100, 111]  # an empty hand: true


def test_every_card_in_a_zone_is_read_back_as_written(game) -> None:
    from interpreter.text.fmt import format_text

    text = format_text(ALL_HEARTS)
    assert "1 if every card in hand of player where suit of it = hearts" in text
    assert "every card in hand of player where rank of it > 1 except first card in hand of player" in text


def test_every_without_a_condition_says_both_forms() -> None:
    with pytest.raises(RulesTypeError) as info:
        interpreter.loads(
            ALL_HEARTS.replace("of player where suit of it = hearts\n    10", "of player\n    10"), "x.rules"
        )
    assert "every card in ZONE where C" in info.value.message


def test_the_rulebook_says_every_card_not_every_player() -> None:
    from interpreter.loader import ir_from_text
    from interpreter.text.render import render

    book = " ".join(render(ir_from_text(ALL_HEARTS, "all-hearts.rules")).split())
    assert "1, if for every card in the player's hand, the suit of that card is hearts" in book
    assert "for every card in the player's hand except the first card in the player's hand, the rank" in book
    assert "for every player" not in book
