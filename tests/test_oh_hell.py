"""Oh Hell! (examples/classics/oh_hell.rules) in the situations its rulebook describes: hand sizes
going down to one and back up, the turned-up trump, bids from none to all the tricks, the dealer's
hook, and the bonus for an exact bid; and every tool on it."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import dumps, parse_line, record, replay
from interpreter.errors import PlayError
from interpreter.simulation.simulate import simulate
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "oh_hell.rules"


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def bids_of(state) -> list[int]:
    return [state.describe(m)["value"] for m in state.legal_moves()]


def test_hands_go_down_to_one_card_and_back_up(game):
    state, rng = game.new_game(7, 3), random.Random(3)  # 7 players: 51 / 7 = 7 cards at most
    sizes = []
    while not state.is_over:
        if state.round == len(sizes):
            hand = state.game.zone_index["hand"]
            sizes.append(len(state.zones[state.layout.base[hand]]))
        state.apply(rng.choice(state.legal_moves()))
    assert sizes == [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]


def test_each_bids_from_none_to_every_trick_and_the_dealer_may_not_make_the_bids_add_up(game):
    state = game.new_game(3, 1, {"largest": 3})  # three cards each
    assert state.current_player == 1 and bids_of(state) == [0, 1, 2, 3]
    state.apply(state.legal_moves()[2])  # seat 1 bids 2
    assert state.current_player == 2
    state.apply(state.legal_moves()[0])  # seat 2 bids 0
    assert state.current_player == 0  # the dealer bids last, and not 1 (2 + 0 + 1 = 3 tricks)
    assert bids_of(state) == [0, 2, 3]
    state.apply(state.legal_moves()[0])
    assert var(state, "bids") == [0, 2, 0]
    assert state.game.phases[state.phase].name == "tricks" and state.current_player == 1


def test_whoever_deals_bids_last_under_the_hook(game):
    """With seat 2 dealing (the position helper sets the dealer), seat 0 bids first and seat 2 last,
    and seat 2 may not make the bids add up to the one trick."""
    hands = [[c("spades", 3)], [c("spades", 14)], [c("spades", 5)]]
    state = position(game, 3, {"hand": hands, "turned": [c("hearts", 9)]}, {"largest": 1}, dealer=2)
    assert state.dealer == 2 and state.current_player == 0
    state.apply(state.legal_moves()[0])  # seat 0 bids 0
    state.apply(state.legal_moves()[1])  # seat 1 bids 1
    assert state.current_player == 2 and bids_of(state) == [1]  # not 0: 0 + 1 + 0 = 1 trick
    with pytest.raises(PlayError, match="the dealer must be a seat from 0 to 2"):
        game.new_game(3, dealer=3)


def test_the_turned_up_card_names_trump_and_a_small_trump_wins_the_trick(game):
    hands = [[c("hearts", 14)], [c("hearts", 2)], [c("clubs", 2)]]  # seat 2 cannot follow: trumps
    state = position(game, 3, {"hand": hands, "turned": [c("clubs", 9)]}, {"largest": 1})
    for _ in range(3):
        state.apply(state.legal_moves()[0])  # everyone bids 0 (the dealer: 0 keeps the total off 1)
    assert state.current_player == 1
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    # seat 2 took the trick with the two of trumps: its bid of 0 failed; the others made theirs
    assert state.history[0]["scores"] == [10, 10, 1]


def test_an_exact_bid_scores_ten_plus_its_tricks(game):
    hands = [[c("spades", 3)], [c("spades", 14)], [c("spades", 5)]]
    state = position(game, 3, {"hand": hands, "turned": [c("hearts", 9)]}, {"largest": 1})
    state.apply(state.legal_moves()[1])  # seat 1 bids 1 and will take it with the ace
    state.apply(state.legal_moves()[0])  # seat 2 bids 0
    assert bids_of(state) == [1]  # the dealer may not bid 0 (0 + 1 + 0 = 1 trick): hook
    state.apply(state.legal_moves()[0])
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert state.history[0]["scores"] == [0, 11, 10]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_every_agent_plays_every_player_count_and_the_records_replay(game, players):
    got = simulate(game, players, 2, seed=players, params={"largest": 2}, agents=["random", "greedy"])
    assert got["games"] == 2
    state, rng = game.new_game(players, players, {"largest": 2}), random.Random(players)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    rec = parse_line(dumps(record(state)), 1)
    assert any(m["move"] == "bid" and "value" in m for m in rec["rounds"][0]["moves"])
    replay(game, rec)


def test_mcts_bids_and_plays(game):
    got = simulate(game, 3, 1, seed=1, params={"largest": 1}, agents=["mcts", "random", "random"])
    assert got["games"] == 1


def test_the_file_is_canonical_and_checks_clean():
    from interpreter.checker import check

    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text
    report = check(str(RULES), games=20)
    assert not [f for f in report.findings if f.severity in ("error", "warning")]
