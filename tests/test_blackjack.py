"""Blackjack (examples/classics/blackjack.rules) against its rulebook (Bicycle's "Blackjack"), on
hand-built shoes: the dealer draws to 17 and stands on a soft 17, a natural is paid 3 to 2, a bust
loses at once, a double is allowed on 9 to 11 only, the dealer's natural takes every bet but a
natural, the hole card stays hidden until the dealer plays, and the shoe is reshuffled at the cut.

Seat 0 deals in round 1, so the cards go out from seat 1: seat 1, seat 0, the dealer's up card,
seat 1, seat 0, the hole card. The top of the shoe is its last card."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
from conftest import position

SUITS = ("spades", "hearts", "diamonds", "clubs")
RULES = Path(__file__).resolve().parent.parent / "examples" / "classics" / "blackjack.rules"


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(rank: int, suit: str = "spades") -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def table(game, seat1, seat0, up, hole, then=(), cut=0, **zones):
    """Two players' first hand from a shoe that deals these cards (``then``: the next draws,
    in order); ``cut`` 0: the shoe is never reshuffled before the deal."""
    drawn = [seat1[0], seat0[0], up, seat1[1], seat0[1], hole, *then]
    seen: dict[int, int] = {}

    def card(rank: int) -> dict:  # each rank's copies in turn: spades, hearts, diamonds, clubs (two packs)
        seen[rank] = seen.get(rank, 0) + 1
        return c(rank, SUITS[(seen[rank] - 1) % 4])

    shoe = [card(r) for r in drawn]
    shoe = [card(13), card(12), card(11), *shoe[::-1]]  # under them, three more cards
    return position(game, 2, {"shoe": shoe, **zones}, params={"cut": cut})


def ranks(state, zone: str, seat: int = 0) -> list[int]:
    base = state.layout.base[state.game.zone_index[zone]] + seat
    return [state.game.cards.json[i]["rank"] for i in state.zone_cards(base)]


def var(state, name: str):
    names = [v["name"] for v in state.game.ir["vars"]]
    return state.vars[names.index(name)]


def play(state, name: str, value: int | None = None) -> None:
    """The current seat makes its legal move ``name`` (with ``value``, for a bet)."""
    for m in state.legal_moves():
        if state.game.moves[m.rule].name == name and (value is None or m.target == value):
            state.apply(m)
            return
    raise AssertionError(f"{name} {value} is not legal: {[state.game.moves[m.rule].name for m in state.legal_moves()]}")


def moves(state) -> set[str]:
    return {state.game.moves[m.rule].name for m in state.legal_moves()}


def bet(state, seat1: int, seat0: int) -> None:
    play(state, "bet", seat1)  # seat 1, the dealer's left, first
    play(state, "bet", seat0)


def test_the_deal_goes_from_the_dealers_left_and_the_hole_card_is_hidden(game):
    state = table(game, (10, 7), (9, 8), 10, 6)
    bet(state, 1, 2)
    assert ranks(state, "hand", 1) == [10, 7] and ranks(state, "hand", 0) == [9, 8]
    assert ranks(state, "up") == [10] and ranks(state, "hole") == [6]
    assert var(state, "stake") == [4, 2] and var(state, "chips") == [96, 98]  # bets are pairs of chips
    assert state.observe(0)["zones"]["hole"] == [{"count": 1}]  # nobody sees the hole card
    assert state.current == 1 and moves(state) == {"hit", "stand"}


def test_the_dealer_draws_to_17_reveals_the_hole_card_and_takes_the_lower_hands(game):
    state = table(game, (10, 7), (9, 8), 10, 6, then=(5, 9))
    bet(state, 1, 2)
    house = var(state, "house")
    play(state, "stand")
    play(state, "stand")
    # 16 draws; 21 stands (the 9 stays in the shoe); the hand over, every card goes to the discards
    assert ranks(state, "discard") == [9, 8, 10, 7, 10, 6, 5] and ranks(state, "shoe")[-1] == 9
    assert var(state, "chips") == [96, 98] and var(state, "house") == house + 6
    events = state.observe(1)["events"]
    assert any("reveal" in e for e in events), events  # the hole card, shown to every seat


def test_the_dealer_stands_on_a_soft_17(game):
    state = table(game, (10, 7), (10, 9), 1, 6, then=(5,))
    bet(state, 1, 1)
    play(state, "stand")
    play(state, "stand")
    assert ranks(state, "discard")[-2:] == [1, 6] and ranks(state, "shoe")[-1] == 5  # soft 17: no card drawn
    assert var(state, "chips") == [102, 100]  # 19 beats 17, paid even money; 17 against 17 is a stand-off


def test_a_natural_is_paid_three_to_two(game):
    state = table(game, (1, 13), (10, 8), 10, 7)
    bet(state, 2, 1)
    assert var(state, "done") == [0, 1]  # the natural's hand is over at once
    play(state, "stand")  # seat 0 only
    assert var(state, "chips") == [102, 106]  # seat 0: 18 beats 17, 2 won; seat 1: 4 bet, 6 won (3 to 2)


def test_a_bust_loses_at_once_and_the_turn_passes(game):
    state = table(game, (10, 7), (9, 8), 10, 8, then=(9,))
    bet(state, 1, 1)
    house = var(state, "house")
    play(state, "hit")
    assert ranks(state, "hand", 1) == [10, 7, 9]
    assert var(state, "stake")[1] == 0 and var(state, "house") == house + 2 and var(state, "done")[1] == 1
    assert state.current == 0


def test_a_hit_under_21_keeps_the_turn(game):
    state = table(game, (2, 3), (9, 8), 10, 8, then=(4,))
    bet(state, 1, 1)
    play(state, "hit")
    assert state.current == 1 and moves(state) == {"hit", "stand"}  # 9: still in, no double after a hit


@pytest.mark.parametrize(("cards", "may"), [((5, 4), True), ((6, 5), True), ((10, 10), False), ((4, 4), False)])
def test_a_double_is_allowed_on_a_first_two_cards_worth_9_to_11(game, cards, may):
    state = table(game, cards, (9, 8), 10, 8)
    bet(state, 1, 1)
    assert ("double" in moves(state)) is may


def test_a_double_doubles_the_bet_for_one_card(game):
    state = table(game, (6, 5), (9, 8), 10, 7, then=(10,))
    bet(state, 2, 1)
    play(state, "double")
    assert ranks(state, "hand", 1) == [6, 5, 10] and var(state, "done")[1] == 1 and state.current == 0
    play(state, "stand")
    assert var(state, "chips")[1] == 108  # 8 bet in all: 21 against 17 wins 8


def test_the_dealers_natural_takes_every_bet_but_a_natural(game):
    state = table(game, (1, 12), (10, 9), 1, 13)
    bet(state, 3, 2)
    assert var(state, "chips") == [96, 100]  # seat 1's natural is a stand-off; seat 0 loses its 4
    assert var(state, "played") == 1  # nobody played: the hand is over
    assert any("reveal" in e for e in state.observe(0)["events"])


def test_the_shoe_is_reshuffled_with_the_discards_at_the_cut(game):
    discards = [c(r, "hearts") for r in (2, 3, 4, 5)]
    state = table(game, (10, 7), (9, 8), 10, 6, cut=100, discard=discards)
    before = len(ranks(state, "shoe"))
    bet(state, 1, 1)
    assert ranks(state, "discard") == [] and len(ranks(state, "shoe")) == before + 4 - 6
    assert any("shuffle" in e for e in state.observe(0)["events"])
