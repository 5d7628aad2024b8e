"""Rummy (examples/classics/rummy.rules) in the situations pagat's rules describe: a set of a rank
and a run in a suit can be melded, cards that are neither cannot; a card is laid off on any meld it
extends; the top of the discard pile may be taken (and not discarded again that turn); the stock
used up is remade from the discard pile turned over, and runs out once more only to end the hand;
going out, by a meld or by a discard, ends the hand, and the player out scores the penalty count
of the cards left in the other hands (pictures 10, aces 1)."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "rummy.rules"
MELDS = 17
S = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(name: str) -> dict:
    """A card by its short name: '7c' is the 7 of clubs, '13h' the King of hearts."""
    return {"type": "card", "suit": S[name[-1]], "rank": int(name[:-1])}


def dealt(game, hands, stock, discard, melds=()):
    """Two players, seat 0 deals and seat 1 starts; the stock's top is its last card."""
    table = [[c(x) for x in m] for m in melds] + [[] for _ in range(MELDS - len(melds))]
    zones = {
        "hand": [[c(x) for x in h] for h in hands],
        "stock": [c(x) for x in stock],
        "discard": [c(x) for x in discard],
        "meld": table,
    }
    return position(game, 2, zones, {"hands": 1})


def cards(state, name: str, index: int = 0) -> list[str]:
    """A zone instance's cards, in the order they lie, by short name."""
    g = state.game
    zi = g.zone_index[name]
    ids = state.zones[state.layout.base[zi] + index]
    short = {v: k for k, v in S.items()}
    return [f"{g.cards.json[x]['rank']}{short[g.cards.json[x]['suit']]}" for x in ids]


def named(d: dict) -> tuple:
    """A legal move as (name, its cards by short name, sorted, or its pile, where it goes)."""
    short = {v: k for k, v in S.items()}
    if "cards" in d:
        what = tuple(sorted(f"{x['rank']}{short[x['suit']]}" for x in d["cards"]))
    elif "card" in d:
        what = f"{d['card']['rank']}{short[d['card']['suit']]}"
    else:
        what = d.get("from", {}).get("zone")
    return d["move"], what, d.get("to", {}).get("index")


def offered(state, *kinds: str) -> list[tuple]:
    return [named(state.describe(m)) for m in state.legal_moves() if state.describe(m)["move"] in kinds]


def play(state, move: tuple) -> None:
    for m in state.legal_moves():
        if named(state.describe(m)) == move:
            return state.apply(m)
    raise AssertionError(f"{move} is not among {[named(state.describe(m)) for m in state.legal_moves()]}")


def test_a_turn_starts_with_a_draw_from_the_stock_or_the_discard_pile(game):
    state = dealt(game, [["2c", "3d"], ["7c", "7d", "7h", "13s"]], ["5d", "9h"], ["12c"])
    assert state.current_player == 1
    assert offered(state, "draw", "discard", "group", "run", "lay_off") == [
        ("draw", "stock", None),
        ("draw", "discard", None),
    ]


def test_a_set_and_a_run_are_melded_each_on_a_place_of_its_own(game):
    hand = ["7c", "7d", "7h", "4s", "5s", "6s", "13d"]
    state = dealt(game, [["2c", "3d"], hand], ["5d", "9h"], ["12c"])
    play(state, ("draw", "stock", None))  # the 9 of hearts
    assert offered(state, "group", "run") == [
        ("group", ("7c", "7d", "7h"), 0),
        ("run", ("4s", "5s", "6s"), 0),
    ]
    play(state, ("group", ("7c", "7d", "7h"), 0))
    play(state, ("run", ("4s", "5s", "6s"), 1))  # the next free place
    assert state.current_player == 1  # melding does not end the turn: a discard does
    assert sorted(cards(state, "meld", 0)) == ["7c", "7d", "7h"]
    assert sorted(cards(state, "meld", 1)) == ["4s", "5s", "6s"]
    play(state, ("discard", "13d", 0))
    assert state.current_player == 0 and cards(state, "hand", 1) == ["9h"]


def test_cards_that_are_neither_a_set_nor_a_run_cannot_be_melded(game):
    # 4-5-7 of spades has a gap; 4-5-6 in two suits is no run; two 9s are too few for a set; the
    # King and ace of spades do not follow each other (aces are low)
    hand = ["4s", "5s", "7s", "6h", "9c", "9d", "1s", "13s", "12s"]
    state = dealt(game, [["2c", "3d"], hand], ["5d", "10h"], ["12c"])
    play(state, ("draw", "stock", None))
    assert offered(state, "group", "run") == []
    state = dealt(game, [["2c", "3d"], ["1s", "2s", "3s", "13c"]], ["5d", "10h"], ["12c"])
    play(state, ("draw", "stock", None))
    assert offered(state, "run") == [("run", ("1s", "2s", "3s"), 0)]  # ace-2-3 is a run


def test_a_card_is_laid_off_on_any_meld_it_extends(game):
    melds = [["4s", "5s", "6s"], ["9c", "9d", "9h"]]
    hand = ["3s", "7s", "8s", "9s", "13d"]
    state = dealt(game, [["2c", "3d"], hand], ["5d", "10h"], ["12c"], melds)
    play(state, ("draw", "stock", None))
    assert offered(state, "lay_off") == [
        ("lay_off", "3s", 0),  # below the run
        ("lay_off", "7s", 0),  # above it
        ("lay_off", "9s", 1),  # the fourth 9
    ]
    play(state, ("lay_off", "7s", 0))
    assert ("lay_off", "8s", 0) in offered(state, "lay_off")  # the run now ends at 7
    assert state.current_player == 1


def test_the_discard_taken_is_not_discarded_again_that_turn(game):
    state = dealt(game, [["2c", "3d"], ["7c", "8d", "13s"]], ["5d", "9h"], ["6c", "12h"])
    play(state, ("draw", "discard", None))  # the top of the pile: the Queen of hearts
    assert "12h" in cards(state, "hand", 1) and cards(state, "discard") == ["6c"]
    assert [x[1] for x in offered(state, "discard")] == ["7c", "8d", "13s"]
    play(state, ("discard", "13s", 0))
    play(state, ("draw", "stock", None))
    play(state, ("discard", "2c", 0))
    play(state, ("draw", "stock", None))
    assert "12h" in [x[1] for x in offered(state, "discard")]  # a later turn may


def test_the_stock_used_up_is_remade_from_the_discards_turned_over(game):
    state = dealt(game, [["2c", "3d"], ["7c", "8d"]], ["9h"], ["6c", "10d", "12h"])
    play(state, ("draw", "stock", None))  # the stock's last card
    play(state, ("discard", "8d", 0))
    # the pile turned over: its first card is the new stock's top (the last listed), and the card
    # just discarded stays face up for the next player
    assert cards(state, "stock") == ["12h", "10d", "6c"]
    assert cards(state, "discard") == ["8d"]
    play(state, ("draw", "stock", None))
    assert "6c" in cards(state, "hand", 0)


def test_the_stock_running_out_again_ends_the_hand_with_nobody_out(game):
    state = dealt(game, [["2c", "3d"], ["7c", "8d"]], ["9h"], ["6c"])
    play(state, ("draw", "stock", None))
    play(state, ("discard", "8d", 0))  # the stock remade from the 6 of clubs alone
    assert cards(state, "stock") == ["6c"] and not state.is_over
    play(state, ("draw", "stock", None))
    play(state, ("discard", "2c", 0))
    assert state.is_over and state.history[0]["scores"] == [0, 0]


def test_going_out_by_a_discard_scores_the_cards_left_in_the_other_hands(game):
    # Seat 1 draws the 7 of spades, melds three 7s, lays the fourth off and discards its Queen:
    # out. Seat 0 keeps a King (10), an ace (1) and a 5: 16 points to seat 1.
    state = dealt(game, [["13h", "1h", "5d"], ["7c", "7d", "7h", "12s"]], ["2d", "7s"], ["4c"])
    play(state, ("draw", "stock", None))
    play(state, ("group", ("7c", "7d", "7h"), 0))
    play(state, ("lay_off", "7s", 0))
    assert not state.is_over
    play(state, ("discard", "12s", 0))
    assert state.is_over and state.history[0]["scores"] == [0, 16]


def test_going_out_by_a_meld_needs_no_discard(game):
    # Seat 1 takes the 7 of hearts from the discard pile and melds its last cards: out at once.
    state = dealt(game, [["12h", "11h", "9d"], ["7c", "7d"]], ["2d", "3s"], ["7h"])
    play(state, ("draw", "discard", None))
    play(state, ("group", ("7c", "7d", "7h"), 0))
    assert state.is_over and state.history[0]["scores"] == [0, 29]


def test_the_rules_format_as_written():
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text
