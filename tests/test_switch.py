"""Switch (examples/classics/switch.rules) in the situations its rules describe, on hand-built
positions: matching by suit or rank, the ace that nominates a suit, twos that chain, the 8 that
makes the next player miss a turn, the jack that reverses the direction of play, drawing and
playing the card drawn, the stock made again from the pile, and a start never on a trick card."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position

SWITCH = ROOT / "examples" / "classics" / "switch.rules"


@pytest.fixture(scope="module")
def switch() -> interpreter.Game:
    return interpreter.load(SWITCH)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def deal(switch, hands, stock, players: int = 3):
    """Seat 0 deals: seat 1 plays first. The stock's first card is turned up first."""
    return position(switch, players, {"hand": hands, "stock": stock})


def cards(state, zone: str, seat: int = 0) -> list[tuple[str, int]]:
    inst = state.layout.base[state.game.zone_index[zone]] + seat
    return [(state.game.cards.json[i]["suit"], state.game.cards.json[i]["rank"]) for i in state.zone_cards(inst)]


def plays(state) -> set[tuple[str, int]]:
    """The cards the player to move may play."""
    out = set()
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == "play":
            out.add((d["card"]["suit"], d["card"]["rank"]))
    return out


def moves(state) -> set[str]:
    return {state.describe(m)["move"] for m in state.legal_moves()}


def do(state, move: str, card: tuple[str, int] | None = None, value: str | None = None) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] != move:
            continue
        if card is not None and (d["card"]["suit"], d["card"]["rank"]) != card:
            continue
        if value is not None and d.get("value") != value:
            continue
        state.apply(m)
        return
    raise AssertionError(f"no {move} {card or value or ''} among {[state.describe(m) for m in state.legal_moves()]}")


STOCK = [c("clubs", 5), c("spades", 3), c("spades", 4), c("diamonds", 6), c("diamonds", 7), c("hearts", 13)]


def test_a_card_matches_the_top_card_by_suit_or_rank_and_an_ace_goes_on_anything(switch):
    hands = [[c("clubs", 9)], [c("hearts", 5), c("diamonds", 9), c("spades", 14), c("clubs", 12)], [c("hearts", 7)]]
    state = deal(switch, hands, STOCK)
    assert cards(state, "pile") == [("clubs", 5)] and state.current_player == 1
    assert plays(state) == {("hearts", 5), ("spades", 14), ("clubs", 12)}
    assert "draw" in moves(state)  # a player may draw instead of playing


def test_an_ace_nominates_the_suit_the_next_player_must_follow(switch):
    hands = [[c("clubs", 9)], [c("spades", 14), c("diamonds", 9)], [c("hearts", 7), c("clubs", 7), c("diamonds", 10)]]
    state = deal(switch, hands, STOCK)
    do(state, "play", ("spades", 14))
    assert state.current_player == 1  # asked which suit
    do(state, "nominated", value="hearts")
    assert state.current_player == 2 and plays(state) == {("hearts", 7)}


def test_twos_chain_and_the_player_without_a_two_picks_up_two_for_each(switch):
    hands = [[c("clubs", 9), c("hearts", 9)], [c("clubs", 2), c("diamonds", 9)], [c("diamonds", 2), c("clubs", 8)]]
    state = deal(switch, hands, STOCK)
    do(state, "play", ("clubs", 2))
    assert plays(state) == {("diamonds", 2)} and moves(state) == {"play", "pick_up"}  # no draw, no 8 of clubs
    do(state, "play", ("diamonds", 2))
    assert state.current_player == 0 and moves(state) == {"pick_up"}
    do(state, "pick_up")
    assert len(cards(state, "hand", 0)) == 2 + 4 and state.current_player == 1
    assert "draw" in moves(state)  # the twos are paid


def test_an_eight_makes_the_next_player_miss_a_turn(switch):
    hands = [[c("clubs", 9), c("hearts", 9)], [c("clubs", 8), c("diamonds", 9)], [c("clubs", 7), c("clubs", 10)]]
    state = deal(switch, hands, STOCK)
    do(state, "play", ("clubs", 8))
    assert state.current_player == 0  # seat 2 missed their turn


def test_a_jack_reverses_the_direction_of_play(switch):
    hands = [[c("clubs", 9), c("hearts", 9)], [c("clubs", 11), c("diamonds", 9)], [c("clubs", 7), c("clubs", 10)]]
    state = deal(switch, hands, STOCK)
    do(state, "play", ("clubs", 11))
    assert state.current_player == 0 and state.observe(0)["turn_order"] == "counterclockwise"
    do(state, "play", ("clubs", 9))
    assert state.current_player == 2


def test_a_card_drawn_that_fits_may_be_played_at_once_or_kept(switch):
    # the stock's last card is its top, the one drawn: the king of hearts does not fit the 5 of clubs
    stock = [*STOCK[:-1], c("clubs", 13)]
    hands = [[c("clubs", 9)], [c("hearts", 5), c("diamonds", 9)], [c("hearts", 7)]]
    state = deal(switch, hands, stock)
    do(state, "draw")
    assert state.current_player == 1 and plays(state) == {("clubs", 13)} and moves(state) == {"play", "keep"}
    do(state, "keep")
    assert state.current_player == 2


def test_a_card_drawn_that_does_not_fit_ends_the_turn(switch):
    hands = [[c("clubs", 9)], [c("hearts", 5), c("diamonds", 9)], [c("hearts", 7)]]
    state = deal(switch, hands, STOCK)
    do(state, "draw")  # the king of hearts
    assert state.current_player == 2 and ("hearts", 13) in cards(state, "hand", 1)


def test_play_never_starts_on_a_trick_card_and_the_pile_makes_a_new_stock(switch):
    stock = [c("clubs", 8), c("hearts", 2), c("clubs", 5), c("spades", 3)]
    hands = [[c("clubs", 9)], [c("hearts", 6), c("diamonds", 9)], [c("hearts", 7)]]
    state = deal(switch, hands, stock)
    assert cards(state, "pile") == [("clubs", 8), ("hearts", 2), ("clubs", 5)]  # turned up until a plain card
    do(state, "draw")  # the stock's last card: the stock is empty, the pile but its top becomes it
    assert cards(state, "pile") == [("clubs", 5)]
    assert sorted(cards(state, "stock")) == [("clubs", 8), ("hearts", 2)]


def test_the_first_player_out_of_cards_wins(switch):
    hands = [[c("clubs", 9), c("hearts", 9)], [c("clubs", 7)], [c("clubs", 10), c("hearts", 4)]]
    state = deal(switch, hands, STOCK)
    do(state, "play", ("clubs", 7))
    assert state.is_over and state.winners() == [1] and state.scores() == [2, 0, 2]
