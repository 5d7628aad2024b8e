"""The classic games of examples/classics/, each in the situations its rulebook describes: War's
battles, wars and cap; Sevens' building from the sevens, passing, hand winner and target score."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import record, replay
from interpreter.simulation.simulate import simulate

CLASSICS = ROOT / "examples" / "classics"


@pytest.fixture(scope="module")
def war() -> interpreter.Game:
    return interpreter.load(CLASSICS / "war.rules")


@pytest.fixture(scope="module")
def sevens() -> interpreter.Game:
    return interpreter.load(CLASSICS / "sevens.rules")


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def ranks(state, zone: str, seat: int) -> list[int]:
    """The ranks in a player's zone, in order (first: the top of a stack)."""
    inst = state.layout.base[state.game.zone_index[zone]] + seat
    return [state.game.cards.json[i]["rank"] for i in state.zone_cards(inst)]


def play_forced(state, limit: int = 10_000) -> None:
    """Play a game in which nobody chooses: every move must be the only legal one."""
    for _ in range(limit):
        if state.is_over:
            return
        moves = state.legal_moves()
        assert len(moves) == 1, "War asks no choice of anybody"
        state.apply(moves[0])
    raise AssertionError("the game did not end")


# ---- War ------------------------------------------------------------------------------------------


def test_war_the_higher_card_takes_both_to_the_bottom_of_its_stack(war):
    state = position(war, 2, {"stock": [[c("spades", 13), c("clubs", 2)], [c("hearts", 5), c("diamonds", 9)]]})
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])  # both turned up: king beats five
    assert ranks(state, "stock", 0) == [2, 13, 5] and ranks(state, "stock", 1) == [9]
    assert state.vars[[v["name"] for v in war.ir["vars"]].index("battles")] == 1


def test_war_on_equal_ranks_three_down_and_one_up_and_the_winner_takes_all_ten(war):
    p0 = [c("spades", 7), c("spades", 2), c("spades", 3), c("spades", 4), c("spades", 12)]
    p1 = [c("hearts", 7), c("hearts", 2), c("hearts", 3), c("hearts", 4), c("hearts", 5)]
    state = position(war, 2, {"stock": [p0, p1]})
    play_forced(state)
    assert sorted(ranks(state, "stock", 0)) == sorted([7, 2, 3, 4, 12, 7, 2, 3, 4, 5])
    assert state.is_over and state.winners() == [0]
    kinds = [m for _, m in state.history[0]["moves"]]
    assert len(kinds) == 2 + 6 + 2  # a battle, the war's six face-down cards, the deciding battle


def test_war_a_player_who_runs_out_during_a_war_loses_it_and_the_game(war):
    p0 = [c("spades", 7), c("spades", 2), c("spades", 3)]  # two cards for a war of three down, one up
    p1 = [c("hearts", 7), c("hearts", 2), c("hearts", 3), c("hearts", 4), c("hearts", 5)]
    state = position(war, 2, {"stock": [p0, p1]})
    play_forced(state)
    assert ranks(state, "stock", 0) == [] and len(ranks(state, "stock", 1)) == 8
    assert state.winners() == [1]


def test_war_stops_at_the_cap_and_the_player_holding_more_cards_wins(war):
    state = position(war, 2, {"stock": [[c("spades", 9), c("spades", 2)], [c("hearts", 5), c("hearts", 6)]]})
    state = war.new_game(2, 0, {"max_battles": 1}, deals=[state.history[0]["deal"]])
    play_forced(state)  # one battle: nine beats five, then the cap stops the game
    assert state.is_over and state.scores() == [3, 1] and state.winners() == [0]


@pytest.mark.parametrize("seed", range(4))
def test_war_ends_when_one_player_holds_every_card_or_at_the_cap(war, seed):
    state = war.new_game(2, seed)
    play_forced(state)
    battles = state.vars[[v["name"] for v in war.ir["vars"]].index("battles")]
    assert 52 in state.scores() or 0 in state.scores() or battles == 600


# ---- Sevens ---------------------------------------------------------------------------------------


def test_sevens_only_a_seven_opens_a_row(sevens):
    hands = [[c("hearts", 8)], [c("spades", 1), c("clubs", 7), c("hearts", 6)], [c("clubs", 2)]]
    state = position(sevens, 3, {"hand": hands})
    assert state.current_player == 1  # the dealer's left
    cards = {(state.describe(m)["card"]["suit"], state.describe(m)["card"]["rank"]) for m in state.legal_moves()}
    assert cards == {("clubs", 7)}
    assert len(state.legal_moves()) == 4  # into any of the four empty rows: they are alike


def test_sevens_a_player_who_cannot_play_passes_and_builds_go_up_and_down_in_suit(sevens):
    hands = [
        [c("hearts", 8), c("hearts", 6), c("clubs", 8)],
        [c("spades", 1), c("spades", 2)],
        [c("hearts", 7), c("clubs", 3)],
    ]
    state = position(sevens, 3, {"hand": hands})
    assert state.current_player == 2  # seat 1 has no 7 and nothing to build on: passed
    state.apply(state.legal_moves()[0])  # the 7 of hearts opens a row
    cards = sorted((state.describe(m)["card"]["suit"], state.describe(m)["card"]["rank"]) for m in state.legal_moves())
    assert state.current_player == 0 and set(cards) == {("hearts", 6), ("hearts", 8)}  # not the 8 of clubs


def test_sevens_the_first_out_wins_a_point_per_card_left_in_the_others_hands(sevens):
    hands = [[c("hearts", 8)], [c("spades", 1), c("spades", 2)], [c("hearts", 7), c("clubs", 3)]]
    state = position(sevens, 3, {"hand": hands}, {"goal": 2})
    state.apply(state.legal_moves()[0])  # seat 2 (dealer's left... after seat 1 passes) plays the 7
    state.apply(state.legal_moves()[0])  # seat 0 plays the 8 of hearts: out
    assert state.history[0]["scores"] == [3, 0, 0]
    assert state.is_over  # 3 points reach the goal of 2


def test_sevens_hands_go_on_until_someone_reaches_the_goal(sevens):
    hands = [[c("hearts", 8)], [c("spades", 1), c("spades", 2)], [c("hearts", 7), c("clubs", 3)]]
    state = position(sevens, 3, {"hand": hands}, {"goal": 10})
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    assert not state.is_over and state.round == 1 and state.scores() == [3, 0, 0]


@pytest.mark.parametrize("name,counts", [("war", [2]), ("sevens", [3, 5, 7])])
@pytest.mark.parametrize("agent", ["random", "greedy", "mcts:10"])  # (few iterations: CI has two cores)
def test_the_classics_play_with_every_agent_and_replay(name, counts, agent):
    game = interpreter.load(CLASSICS / f"{name}.rules")
    for n in counts:
        params = {"goal": 3} if name == "sevens" else {"max_battles": 60}
        if agent.startswith("mcts") and name == "war":
            params = {"max_battles": 10}
        out = simulate(game, n, 1, seed=5, agents=[agent] * n, params=params)
        assert out["games"] == 1
        state = game.new_game(n, 2, params)
        play_forced_or_first(state)
        rec = record(state)
        again = replay(game, rec)
        assert again.scores() == state.scores()


def play_forced_or_first(state) -> None:
    while not state.is_over:
        state.apply(state.legal_moves()[0])


@pytest.mark.parametrize(
    "name", ["war", "sevens", "love_letter", "go_fish", "president", "scopa", "hearts", "cheat", "golf"]
)
def test_the_classics_check_clean_and_pass_every_tool(name):
    """check (no error, no warning), fmt --check, show (IR valid against the schema), render, lexer."""
    import json

    from pygments import lex

    from conftest import run_cli
    from interpreter.language.schema import validator
    from interpreter.text.lexer import RulesLexer

    path = f"examples/classics/{name}.rules"
    # (Hearts: shooting the moon is rare in random play; 50 playouts see it)
    games = {"hearts": "50"}.get(name, "20")
    proc = run_cli("check", path, "--games", games, "--jobs", "1", "--format", "json")
    report = json.loads(proc.stdout)
    assert report["summary"]["errors"] == 0 and report["summary"]["warnings"] == 0, report["findings"]
    assert run_cli("fmt", "--check", path).returncode == 0
    ir = json.loads(run_cli("show", path, "--format", "json").stdout)
    assert not list(validator("ir").iter_errors(ir))
    book = run_cli("render", path).stdout
    ending = {
        "war": "played again and again until",
        "go_fish": "The game lasts 1 round",
        "president": "The game lasts 5 rounds",
        "cheat": "The game lasts 1 round",
        "golf": "The game lasts",
    }
    assert ending.get(name, "Rounds are played until") in book
    assert not [v for t, v in lex((ROOT / path).read_text(), RulesLexer()) if "Error" in str(t)]
