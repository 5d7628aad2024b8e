"""The Game (examples/classics/the_game.rules) in the situations its rulebook describes, on
hand-built positions: piles going up and down, the backwards-10 trick, two cards a turn while the
draw pile lasts (then one), drawing back up, and everyone winning or losing together."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import record

THE_GAME = ROOT / "examples" / "classics" / "the_game.rules"


@pytest.fixture(scope="module")
def the_game() -> interpreter.Game:
    return interpreter.load(THE_GAME)


def cards(*ranks: int) -> list[dict]:
    return [{"type": "card", "rank": r} for r in ranks]


def legal(state) -> set[tuple[str, int | None, int | None]]:
    """(move, rank, pile index) for each legal move of the player to move."""
    out = set()
    for m in state.legal_moves():
        d = state.describe(m)
        out.add((d["move"], d["card"]["rank"] if d.get("card") else None, d.get("to", {}).get("index")))
    return out


def do(state, move: str, rank: int | None = None, pile: int | None = None) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        fits = rank is None or d["card"]["rank"] == rank
        if d["move"] == move and fits and (pile is None or d["to"]["index"] == pile):
            state.apply(m)
            return
    raise AssertionError(f"no {move} {rank} among {sorted(legal(state), key=str)}")


def hand(state, seat: int) -> list[int]:
    inst = state.layout.base[state.game.zone_index["hand"]] + seat
    return sorted(state.game.cards.json[c]["rank"] for c in state.zone_cards(inst))


def test_a_pile_going_up_takes_a_higher_card_or_one_exactly_ten_lower(the_game):
    state = position(
        the_game,
        2,
        {"hand": [cards(40, 41, 42, 43, 44, 45, 46), cards(30, 20, 25, 90, 5, 6, 7)], "stock": cards(60, 61, 62)},
    )
    do(state, "up", 30, 0)  # seat 1, the dealer's left, starts
    assert ("up", 20, 0) in legal(state)  # 30 - 10: the backwards trick
    assert ("up", 25, 0) not in legal(state) and ("up", 25, 1) in legal(state)
    assert ("down", 90, 0) in legal(state) and ("down", 90, 1) in legal(state)


def test_a_pile_going_down_takes_a_lower_card_or_one_exactly_ten_higher(the_game):
    state = position(
        the_game,
        2,
        {"hand": [cards(50, 60, 55, 3, 4, 5, 6), cards(40, 41, 42, 43, 44, 45, 46)], "stock": cards(70, 71, 72)},
    )
    do(state, "down", 41, 0)  # seat 1 starts
    do(state, "down", 40, 0)
    do(state, "done")
    assert ("down", 50, 0) in legal(state) and ("down", 55, 0) not in legal(state)
    assert ("down", 60, 0) not in legal(state) and ("down", 55, 1) in legal(state)


def test_two_cards_a_turn_while_the_draw_pile_lasts_then_the_hand_is_filled_again(the_game):
    state = position(
        the_game,
        2,
        {"hand": [cards(50, 60, 55, 3, 4, 5, 6), cards(40, 41, 42, 43, 44, 45, 46)], "stock": cards(70, 71, 72)},
    )
    do(state, "up", 40)
    assert "done" not in {m for m, _, _ in legal(state)}  # one card is not enough
    do(state, "up", 41)
    do(state, "up", 42)  # more may follow
    do(state, "done")
    assert len(hand(state, 1)) == 7 and state.current_player == 0  # drew back up to seven


def test_once_the_draw_pile_is_gone_one_card_a_turn_is_enough(the_game):
    state = position(the_game, 2, {"hand": [cards(50, 60), cards(40, 41)]})
    do(state, "up", 40)
    assert "done" in {m for m, _, _ in legal(state)}


def test_everyone_wins_when_every_card_is_played(the_game):
    state = position(the_game, 2, {"hand": [cards(70, 71), cards(40, 41)]})  # no draw pile left
    do(state, "up", 40, 0)
    do(state, "up", 41, 0)
    do(state, "done")
    do(state, "up", 70, 0)
    do(state, "up", 71, 0)  # the last card: the game is over at once
    assert state.is_over and state.won_together and state.winners() == [0, 1]
    assert record(state)["cooperative"] == "won"


def test_a_player_who_cannot_play_the_cards_they_must_ends_it_and_everyone_loses(the_game):
    state = position(the_game, 2, {"hand": [cards(50, 60), cards(98, 97, 3, 2)], "stock": cards(70, 71)})
    for move, rank, pile in (("up", 98, 0), ("up", 97, 1), ("down", 3, 0), ("down", 2, 1)):
        do(state, move, rank, pile)
    do(state, "done")
    # up at 98 and 97, down at 3 and 2: neither 50 nor 60 fits, and two cards are owed
    assert state.current_player == 0 and legal(state) == {("stuck", None, None)}
    do(state, "stuck")
    assert state.is_over and state.winners() == [] and record(state)["cooperative"] == "lost"
