"""Scopa (examples/classics/scopa.rules) in the situations its rulebook describes: a table card of
equal value is captured (and only it, even where a sum could be made), else table cards summing to
the card played (the player chooses which), else the card stays on the table; a capture that clears
the table is a sweep, but not on the deal's last play; what is left goes to the last to capture;
the deal's points (cards, coins, settebello, primiera, sweeps). Also: the rules format as written,
and a game recorded replays to the same totals."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import ROOT
from interpreter.engine.records import record, replay
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "scopa.rules"
SUITS = ("coins", "cups", "swords", "clubs")


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def dealt(game, hands, table, stock=None, taken=None):
    """A 2-player deal (seat 0 deals, seat 1 plays first): these hands and table cards; the stock
    holds the rest of the pack (or exactly ``stock``), the captures ``taken`` (none)."""
    used = {x for h in hands for x in h} | set(table) | {x for t in taken or [] for x in t}
    rest = [(s, r) for s in SUITS for r in range(1, 11) if (s, r) not in used]
    deal = {
        "hand": [[c(*x) for x in h] for h in hands],
        "table": [c(*x) for x in table],
        "stock": [c(*x) for x in (rest if stock is None else stock)],
        "taken": [[c(*x) for x in t] for t in taken or [[], []]],
        "deck": [] if stock is None else [c(*x) for x in rest if x not in stock],
    }
    state = game.new_game(2, 0, {}, deals=[deal])
    state.deals_given = None
    return state


def zone(state, name: str, seat: int = 0) -> list[tuple[str, int]]:
    lay = state.layout
    inst = lay.base[state.game.zone_index[name]] + (
        seat if state.game.zones[state.game.zone_index[name]].per_player else 0
    )
    return sorted((state.game.cards.json[x]["suit"], state.game.cards.json[x]["rank"]) for x in state.zones[inst])


def play(state, card: tuple[str, int]) -> None:
    move = next(m for m in state.legal_moves() if state.describe(m).get("card") == c(*card))
    state.apply(move)


def offered(state) -> list:
    """The answers the pending ask offers: each a card, or a sorted list of cards."""
    out = []
    for m in state.legal_moves():
        d = state.describe(m)
        out.append(
            sorted((x["suit"], x["rank"]) for x in d["cards"])
            if "cards" in d
            else (d["card"]["suit"], d["card"]["rank"])
        )
    return out


def answer(state, wanted) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        got = (
            sorted((x["suit"], x["rank"]) for x in d["cards"])
            if "cards" in d
            else (d["card"]["suit"], d["card"]["rank"])
        )
        if got == wanted:
            return state.apply(m)
    raise AssertionError(f"{wanted} is not among {offered(state)}")


def test_an_equal_card_is_captured_before_any_sum(game):
    state = dealt(game, [[("cups", 9)], [("cups", 5), ("clubs", 9)]], [("coins", 5), ("swords", 2), ("clubs", 3)])
    assert state.current_player == 1
    play(state, ("cups", 5))
    assert offered(state) == [("coins", 5)]  # not 2 + 3
    answer(state, ("coins", 5))
    assert zone(state, "taken", 1) == [("coins", 5), ("cups", 5)]
    assert zone(state, "table") == [("clubs", 3), ("swords", 2)]


def test_with_several_equal_cards_the_player_chooses_one(game):
    state = dealt(game, [[("cups", 9)], [("cups", 4), ("clubs", 9)]], [("coins", 4), ("swords", 4), ("clubs", 1)])
    play(state, ("cups", 4))
    assert sorted(offered(state)) == [("coins", 4), ("swords", 4)]
    answer(state, ("swords", 4))
    assert zone(state, "table") == [("clubs", 1), ("coins", 4)]


def test_table_cards_summing_to_the_card_are_captured_as_the_player_chooses(game):
    state = dealt(
        game, [[("cups", 9)], [("cups", 7), ("clubs", 9)]], [("coins", 2), ("swords", 5), ("clubs", 3), ("cups", 4)]
    )
    play(state, ("cups", 7))
    assert sorted(offered(state)) == [[("clubs", 3), ("cups", 4)], [("coins", 2), ("swords", 5)]]
    answer(state, [("clubs", 3), ("cups", 4)])
    assert zone(state, "taken", 1) == [("clubs", 3), ("cups", 4), ("cups", 7)]
    assert zone(state, "table") == [("coins", 2), ("swords", 5)]


def test_a_card_that_captures_nothing_stays_on_the_table(game):
    state = dealt(game, [[("cups", 9)], [("cups", 6), ("clubs", 9)]], [("coins", 2), ("swords", 8)])
    play(state, ("cups", 6))
    assert state.current_player == 0  # no ask: the turn passes
    assert zone(state, "table") == [("coins", 2), ("cups", 6), ("swords", 8)]
    assert zone(state, "taken", 1) == []


def test_clearing_the_table_is_a_sweep(game):
    state = dealt(game, [[("cups", 9)], [("cups", 5), ("clubs", 9)]], [("coins", 2), ("swords", 3)])
    play(state, ("cups", 5))
    answer(state, [("coins", 2), ("swords", 3)])
    assert zone(state, "table") == []
    assert state.vars[[v[0] for v in game.vars].index("sweeps")][1] == 1


def test_no_sweep_on_the_last_play_and_the_rest_goes_to_the_last_to_capture(game):
    # Seat 1 captures the 4; seat 0 lays its 9; seat 1's last card sweeps the 2 and 3, the deal's
    # last play: no sweep. The 9 left goes to seat 1, who captured last: 6 cards to seat 0's 5.
    before = [[("cups", 1), ("cups", 2), ("cups", 3), ("swords", 1), ("swords", 2)], []]
    table = [("coins", 4), ("coins", 2), ("swords", 3)]
    state = dealt(game, [[("cups", 9)], [("cups", 4), ("swords", 5)]], table, stock=[], taken=before)
    play(state, ("cups", 4))
    answer(state, ("coins", 4))
    play(state, ("cups", 9))
    assert zone(state, "table") == [("coins", 2), ("cups", 9), ("swords", 3)]
    play(state, ("swords", 5))
    answer(state, [("coins", 2), ("swords", 3)])
    # seat 1: the most cards (6 to 5, with the 9 left) and coins (2); no sweep, no settebello, no
    # clubs (no primiera); seat 0 no coins (no primiera either)
    assert state.history[0]["scores"] == [0, 2]


def test_primiera_settebello_cards_and_coins(game):
    # Seat 0 holds a 7 of each suit but coins (its 6 of coins: primiera 21 * 3 + 18 = 81); seat 1 an
    # ace of each suit (64) and the settebello, the more cards and the more coins.
    taken = [
        [("cups", 7), ("swords", 7), ("clubs", 7), ("coins", 6)],
        [("coins", 1), ("cups", 1), ("swords", 1), ("clubs", 1), ("coins", 7), ("coins", 8)],
    ]
    state = dealt(game, [[("cups", 8)], [("swords", 10)]], [("clubs", 9)], stock=[], taken=taken)
    play(state, ("swords", 10))
    play(state, ("cups", 8))
    assert state.history[0]["scores"] == [1, 3]  # primiera; cards, coins and settebello


def test_the_rules_format_as_written(game):
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text


def test_a_recorded_game_replays_to_its_totals(game):
    rng = random.Random(3)
    state = game.new_game(2, 3)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert max(state.scores()) >= 11
    rec = record(state)
    again = replay(game, rec)
    assert again.scores() == state.scores()
