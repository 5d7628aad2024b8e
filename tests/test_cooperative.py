"""Cooperative outcomes (`everyone wins if CONDITION`): all the players win together when the
condition holds at the game's end, else all lose, in the engine, the records, the statistics,
check, the agents and the tools that read the rules (render, diff, fmt)."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import EXAMPLES
from interpreter.agents.greedy import position_values
from interpreter.checker import check
from interpreter.engine.records import dumps, parse_line, record, replay
from interpreter.errors import RecordError, RulesetError
from interpreter.language.schema import validator
from interpreter.loader import ir_from_text
from interpreter.play.terminal import final_table
from interpreter.play.web.views import seat_view
from interpreter.simulation.evaluate import skill_run
from interpreter.simulation.measures import play_observed
from interpreter.simulation.one_game import play_game
from interpreter.simulation.report import run_text
from interpreter.simulation.simulate import simulate
from interpreter.text.diff import diff, diff_text
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

EXAMPLE = EXAMPLES / "climb-together.rules"


@pytest.fixture(scope="module")
def game():
    return interpreter.load(EXAMPLE)


def ladder(state) -> int:
    return len(state.zones[state.layout.base[state.game.zone_index["ladder"]]])


def test_the_ir_says_all_win_and_the_condition(game):
    g = game.ir["game"]
    assert g["winner"] == "all" and g["all_win"]["if"]["op"] == "cmp"
    assert g["all_win"]["at"].endswith(":37:3")
    assert not list(validator("ir").iter_errors(game.ir))
    assert game.cooperative


def test_the_example_can_be_won_and_lost_and_every_seat_shares_the_outcome(game):
    """Both outcomes occur over a few seeds; winners are every seat or none, as the ladder says."""
    outcomes = set()
    for seed in range(40):
        for players in (2, 4):
            state = play_game(game, players, seed, "random")
            won = ladder(state) >= 4
            assert state.won_together is won
            assert state.winners() == (list(range(players)) if won else [])
            outcomes.add(won)
    assert outcomes == {True, False}


def test_a_record_says_won_or_lost_and_replays(game):
    for seed in range(12):
        state = play_game(game, 3, seed, "random")
        rec = parse_line(dumps(record(state, ["random"] * 3)), 1)  # the record schema admits it
        assert rec["cooperative"] == ("won" if state.won_together else "lost")
        assert rec["winners"] == ([0, 1, 2] if state.won_together else [])
        replay(game, rec, 1)
        flipped = {**rec, "cooperative": "lost" if state.won_together else "won"}
        with pytest.raises(RecordError, match="together"):
            replay(game, flipped, 1)


def test_a_competitive_game_records_no_cooperative_outcome():
    state = play_game(interpreter.load(EXAMPLES / "seat-zero-wins.rules"), 2, 1, "random")
    assert "cooperative" not in record(state)


def test_simulate_reports_one_win_rate_for_the_players(game):
    stats = simulate(game, 3, 60, seed=1, agents="random")
    coop = stats["cooperative"]
    assert 0 < coop["wins"] < 60
    assert coop["win_rate"]["rate"] == pytest.approx(coop["wins"] / 60)
    assert all(s["wins"] == coop["wins"] for s in stats["seats"])  # every seat won those games
    text = run_text(stats)
    assert f"the players won together in {coop['wins']} of 60 games" in text
    assert "seat advantage" not in text
    json.dumps(stats)


def test_the_game_over_screen_says_everyone_wins_or_loses(game):
    said = {final_table(play_game(game, 2, seed, "random"), 0).split("; ")[-1] for seed in range(30)}
    assert said == {"everyone wins ===", "everyone loses ==="}


def test_the_browser_table_is_sent_the_shared_outcome(game):
    seen = set()
    for seed in range(30):
        state = play_game(game, 2, seed, "random")
        view = seat_view(state, 1)
        assert view["over"] and view["cooperative"] == ("won" if state.won_together else "lost")
        seen.add(view["cooperative"])
    assert seen == {"won", "lost"}
    assert "cooperative" not in seat_view(game.new_game(2, 1), 0)  # (not before the end)


def test_agents_value_the_shared_outcome_for_every_seat(game):
    state = game.new_game(3, 5)
    values = position_values(state, 0)
    assert values == [values[0]] * 3 and values[0] in (0, 1)
    for agents in ("greedy", "mcts:20"):
        state = play_game(game, 3, 2, agents)
        assert state.over and len(set(position_values(state, 0))) == 1


def test_mcts_searching_the_shared_outcome_wins_together_more_often_than_chance(game):
    """The search values a playout by whether the players won: it finds the climbing moves."""
    searched = simulate(game, 3, 30, seed=3, agents="mcts:50")["cooperative"]["wins"]
    chance = simulate(game, 3, 30, seed=3, agents="random")["cooperative"]["wins"]
    assert searched > chance + 5


def test_evaluate_measures_skill_against_the_baseline_playing_alone(game):
    """The fair share of a cooperative game is the baseline's win rate with every seat its own."""
    run = skill_run(game, 3, ("mcts:50", "random"), 30, 3, None)
    alone = simulate(game, 3, 30, seed=3, agents="random")["cooperative"]["wins"] / 30
    assert run["fair_share"] == pytest.approx(alone)
    assert run["gap"]["value"] > 0 and run["share"]["mean"] <= 1


def test_evaluate_says_no_winner_was_behind_in_a_game_won_or_lost_together(game):
    _, observed = play_observed(game, 3, 4, "random")
    assert observed["behind"] is None and observed["decided"] is None


def test_fmt_round_trips_and_render_and_diff_say_it():
    text = EXAMPLE.read_text()
    assert format_text(text) == text
    ir = ir_from_text(text)
    book = to_markdown(rulebook(ir))
    assert "all the players win together if the number of cards in the ladder is at least" in book
    assert "otherwise they all lose" in book
    other = ir_from_text(text.replace("everyone wins if count card in ladder >= height", "winner highest total"))
    said = diff_text(diff(other, ir))
    assert "the player with the highest total wins" in said and "all the players win together" in said


def write(tmp_path, condition: str):
    path = tmp_path / "g.rules"
    path.write_text(EXAMPLE.read_text().replace("count card in ladder >= height", condition))
    return str(path)


def test_check_warns_when_the_players_can_never_lose(tmp_path):
    report = check(write(tmp_path, "count card in ladder >= 1"), games=60, jobs=1)
    (never,) = [f for f in report.findings if f.code == "never-lost"]
    assert "always held" in never.message and never.at.line == 37
    assert not [f for f in check(str(EXAMPLE), games=60, jobs=1).findings if f.severity != "info"]


def test_check_calls_a_condition_that_never_held_a_dead_rule(tmp_path):
    report = check(write(tmp_path, "count card in ladder >= height * 3"), games=60, jobs=1)
    (dead,) = [f for f in report.findings if f.code == "dead-rule"]
    assert "cooperative win never held" in dead.message and dead.at.line == 37


def test_a_cooperative_game_has_no_teams(tmp_path):
    text = EXAMPLE.read_text().replace("players 2..4", "players 4..4\nteams of 2, partners across")
    with pytest.raises(RulesetError, match="has no teams"):
        interpreter.loads(text)


def test_ir_written_as_data_may_not_give_a_cooperative_game_teams(game):
    ir = {**game.ir, "players": {"min": 4, "max": 4}, "teams": {"size": 2, "seating": "across"}}
    assert list(validator("ir").iter_errors(ir))
    competitive = {k: v for k, v in ir["game"].items() if k != "all_win"} | {"winner": "highest"}
    assert not list(validator("ir").iter_errors({**ir, "game": competitive}))
