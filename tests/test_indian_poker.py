"""Indian Poker (examples/classics/indian_poker.rules) in the situations pagat.com's One-Card Poker
describes: each player sees every card but their own (`others see`), in the observation, the
browser table and the search agents' samples; the ante, a round of fixed-limit betting (check,
call, raise, fold), the showdown among those who did not fold, and a tied pot shared."""

from __future__ import annotations

import json
import random

import pytest

import interpreter
from conftest import ROOT, position, run_cli
from interpreter.agents.belief import Belief
from interpreter.engine.records import record, replay
from interpreter.play.web.views import SPECTATOR, seat_view

RULES = ROOT / "examples" / "classics" / "indian_poker.rules"


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


SUITS = ("hearts", "spades", "clubs", "diamonds")


def dealt(game, ranks: list[int], **params):
    """A deal of one card a player (seat K: a card of SUITS[K] of its rank; seat 0 deals: seat 1
    speaks first)."""
    foreheads = [[c(SUITS[p], r)] for p, r in enumerate(ranks)]
    return position(game, len(ranks), {"forehead": foreheads}, {"deals": 1, **params})


def act(state, move: str) -> None:
    found = [m for m in state.legal_moves() if state.describe(m)["move"] == move]
    assert found, f"{move} is not among {[state.describe(m)['move'] for m in state.legal_moves()]}"
    state.apply(found[0])


def offered(state) -> list[str]:
    return [state.describe(m)["move"] for m in state.legal_moves()]


def var(state, name: str):
    return state.observe(0)["vars"][name]


def test_each_player_sees_every_card_but_their_own(game):
    state = dealt(game, [5, 9, 12])
    for seat in range(3):
        views = state.observe(seat)["zones"]["forehead"]
        for p, view in enumerate(views):
            if p == seat:
                assert view == {"count": 1}
            else:
                assert view == [c(SUITS[p], [5, 9, 12][p])]
        assert state.observe(seat)["deal"]["forehead"][seat] == {"count": 1}
    assert all(v == {"count": 1} for v in state.observe(SPECTATOR)["zones"]["forehead"])


def test_the_browser_table_never_sends_a_player_their_own_card(game):
    state = dealt(game, [5, 9, 12])
    for seat in range(3):
        text = json.dumps(seat_view(state, seat))
        mine = [5, 9, 12][seat]
        assert f'"rank": {mine}' not in text
        assert all(f'"rank": {r}' in text for r in [5, 9, 12] if r != mine)


def test_everyone_antes_and_the_dealers_left_speaks_first(game):
    state = dealt(game, [5, 9, 12])
    assert var(state, "pot") == 3 and var(state, "chips") == [19, 19, 19]
    assert state.current_player == 1
    assert offered(state) == ["check", "raise"]  # nothing to call: no call, no fold


def test_a_raise_makes_the_others_speak_again_and_a_call_matches_it(game):
    state = dealt(game, [5, 9, 12])
    act(state, "check")  # seat 1
    act(state, "raise")  # seat 2: one chip more
    assert var(state, "pot") == 4 and var(state, "stake") == 2
    assert state.current_player == 0 and offered(state) == ["call", "raise", "fold"]
    act(state, "call")
    assert state.current_player == 1  # seat 1 checked before the raise: must speak again
    act(state, "call")
    assert state.is_over  # all matched: showdown, the 12 takes the pot of 6
    assert state.scores() == [-2, -2, 4]


def test_the_showdown_is_among_those_who_did_not_fold(game):
    state = dealt(game, [14, 3, 7])
    act(state, "raise")  # seat 1, holding a 3 it cannot see
    act(state, "call")  # seat 2
    act(state, "fold")  # seat 0 folds its ace
    assert state.is_over
    assert state.scores() == [-1, -2, 3]  # the 7 beats the 3; the folded ace wins nothing


def test_when_all_others_fold_the_last_player_takes_the_pot_unseen(game):
    state = dealt(game, [2, 3, 4])
    act(state, "raise")
    act(state, "fold")
    act(state, "fold")
    assert state.is_over and state.scores() == [-1, 2, -1]


def test_a_tie_for_highest_shares_the_pot_and_an_odd_chip_stays_in_it(game):
    state = dealt(game, [10, 10, 4], deals=2)
    for _ in range(3):
        act(state, "check")
    assert state.history[0]["scores"] == [0, 0, -1]  # 3 chips: 1 each to the tied 10s, 1 left over
    assert var(state, "pot") == 1 + 3  # the odd chip, and the next deal's antes


def test_the_raises_are_capped(game):
    state = dealt(game, [5, 9], raise_cap=2)
    act(state, "raise")
    act(state, "raise")
    assert offered(state) == ["call", "fold"]


def test_a_player_who_cannot_cover_a_call_may_only_fold(game):
    state = dealt(game, [5, 9, 12], stack=2)
    act(state, "raise")  # seat 1: its last chip
    act(state, "call")  # seat 2: its last chip
    assert offered(state) == ["call", "fold"]  # seat 0 has one chip: a call, no raise
    act(state, "call")
    assert state.is_over and state.scores() == [-2, -2, 4]


def test_a_player_without_chips_sits_the_deal_out(game):
    state = dealt(game, [14, 9], deals=2, stack=2)
    act(state, "raise")  # seat 1 bets its last chip
    act(state, "call")  # seat 0 its last, and wins with the ace
    assert state.history[0]["scores"] == [2, -2]
    # the second deal: seat 1 cannot ante; seat 0 alone is in, and takes back its ante unopposed
    assert state.is_over and state.history[1]["scores"] == [0, 0] and var(state, "chips") == [4, 0]


def test_the_sampler_deals_a_player_any_card_but_those_it_sees(game):
    state = dealt(game, [5, 9, 12])
    obs = state.observe(1)
    belief = Belief(game, obs, random.Random(3))
    mine = set()
    for _ in range(20):
        sample = belief.sample()
        assert sample is not None
        foreheads = sample.observe(1)["zones"]["forehead"]
        assert foreheads[0] == [c("hearts", 5)] and foreheads[2] == [c("clubs", 12)]
        own = sample.observe(0)["zones"]["forehead"][1][0]
        assert own not in (c("hearts", 5), c("clubs", 12))
        mine.add(json.dumps(own, sort_keys=True))
    assert len(mine) > 5  # the sampler does not know the seat's own card


def test_a_game_replays_from_its_record(game):
    state = game.new_game(4, 7, {"deals": 3})
    rng = random.Random(7)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    again = replay(game, record(state))
    assert again.scores() == state.scores()


def test_check_fmt_render_and_show_are_clean():
    path = "examples/classics/indian_poker.rules"
    report = json.loads(run_cli("check", path, "--games", "20", "--jobs", "1", "--format", "json").stdout)
    assert report["summary"]["errors"] == 0 and report["summary"]["warnings"] == 0, report["findings"]
    assert run_cli("fmt", "--check", path).returncode == 0
    ir = json.loads(run_cli("show", path, "--format", "json").stdout)
    assert ir["zones"][0]["visibility"] == "others"
    assert "everyone but its owner sees it" in run_cli("render", path).stdout
