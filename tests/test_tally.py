"""Statistics of `simulate` on a game whose outcome is known (examples/seat-zero-wins.rules):
seat 0 totals 2, seat 1 totals 1, the rest 0, in 2 rounds of 2 cards a player; so every figure
has an exact value, and every interval must hold it."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.simulation.simulate import simulate

KNOWN = EXAMPLES / "seat-zero-wins.rules"
GAMES = 30


@pytest.fixture(scope="module")
def known() -> interpreter.Game:
    return interpreter.load(KNOWN)


@pytest.fixture(scope="module")
def stats(known) -> dict:
    return simulate(known, 3, GAMES, seed=5)


def inside(value: float, ci: list[float]) -> bool:
    return ci[0] <= value <= ci[1]


def test_seat_zero_wins_every_game_and_its_interval_holds_100_percent(stats):
    """Win counts and rates are exact; each seat's 95% Wilson interval holds its true rate (1, 0, 0)."""
    seats = stats["seats"]
    assert [s["wins"] for s in seats] == [GAMES, 0, 0]
    assert [s["win_rate"] for s in seats] == [1.0, 0.0, 0.0]
    for s, truth in zip(seats, [1.0, 0.0, 0.0], strict=True):
        assert inside(truth, s["win_rate_ci"])
    assert seats[0]["win_rate_ci"][1] == 1.0 and seats[0]["win_rate_ci"][0] > 0.85


def test_scores_are_exact_with_no_spread(stats):
    """Every game scores 2, 1, 0: means exact, sd 0, intervals collapsed on the value."""
    for s, total in zip(stats["seats"], [2, 1, 0], strict=True):
        assert s["mean_score"] == total
        assert s["score"] == {"mean": total, "sd": 0.0, "ci": [total, total], "min": total, "max": total, "n": GAMES}


def test_per_round_scores_are_exact(stats):
    """The dealer scores: seat 0 scores 2 in round 1, seat 1 scores 1 in round 2."""
    means = [[m["mean"] for m in r["seats"]] for r in stats["per_round"]]
    assert means == [[2, 0, 0], [0, 1, 0]]
    assert all(m["sd"] == 0 for r in stats["per_round"] for m in r["seats"])


def test_seat_advantage_marks_every_seat_against_a_one_third_share(stats):
    """One winner a game: fair share 1/3; seat 0 is +2/3 above it, the others -1/3, all significant."""
    assert stats["fair_share"] == pytest.approx(1 / 3)
    assert stats["seat_advantage"] == [0, 1, 2]
    adv = [s["advantage"] for s in stats["seats"]]
    assert [a["value"] for a in adv] == pytest.approx([2 / 3, -1 / 3, -1 / 3])
    assert all(inside(a["value"], a["ci"]) for a in adv)


def test_first_player_never_has_the_best_round(stats):
    """The dealer's left moves first and never scores: its round lead is -1 then -0.5, mean -0.75."""
    fp = stats["first_player"]
    assert fp["rounds"] == 2 * GAMES
    assert fp["best_round_rate"]["rate"] == 0.0
    assert fp["score_lead"]["mean"] == pytest.approx(-0.75)
    assert inside(-0.75, fp["score_lead"]["ci"])
    assert fp["significant"]


def test_game_length_is_exact(stats):
    """2 rounds of 3 players x 2 cards: 12 moves a game, every game."""
    assert stats["length"]["moves"]["mean"] == 12 and stats["length"]["moves"]["ci"] == [12, 12]
    assert stats["length"]["rounds"]["mean"] == 2
    assert stats["moves_per_game"] == 12 and stats["rounds_per_game"] == 2
    assert stats["distributions"]["moves"] == [[12, GAMES]]


def test_each_rule_fires_as_the_rules_say(stats):
    """The phase ends twice a game; each scoring rule scores once a game (per game exactly, sd 0)."""
    fired = {r["text"]: (r["fired"], r["per_game"], r["per_game_ci"]) for r in stats["rules"]}
    assert fired["ends when every hand is empty"] == (2 * GAMES, 2.0, [2.0, 2.0])
    assert fired["2 if player = dealer and round = 1"] == (GAMES, 1.0, [1.0, 1.0])
    assert fired["1 if player = dealer and round > 1"] == (GAMES, 1.0, [1.0, 1.0])


def test_throughput_and_the_original_keys_are_still_there(stats):
    """Code that read simulate()'s first keys still finds them."""
    for key in ("ruleset", "players", "games", "seed", "agents", "params", "moves_per_game", "rounds_per_game"):
        assert key in stats
    assert stats["games_per_second"] > 0 and stats["moves_per_second"] > 0
    assert {"seat", "agent", "mean_score", "wins", "win_rate"} <= set(stats["seats"][0])


def test_per_agent_results_group_the_seats_an_agent_held(known, monkeypatch):
    """With two agent names, each gets its seats' games: 'second' holds seats 1 and 2 and never wins."""
    from interpreter import agents
    from interpreter.agents.random_agent import RandomAgent

    class Second(RandomAgent):
        name = "second"

    monkeypatch.setitem(agents.AGENTS, "second", Second)
    stats = simulate(known, 3, 10, seed=1, agents="random,second")
    by = {a["agent"]: a for a in stats["by_agent"]}
    assert by["random"]["seats"] == [0] and by["random"]["win_rate"]["rate"] == 1.0
    assert by["second"]["seats"] == [1, 2] and by["second"]["seat_games"] == 20
    assert by["second"]["wins"] == 0 and by["second"]["score"]["mean"] == 0.5


def test_progress_is_reported_up_to_the_last_game(known):
    """The progress callback ends at games/games."""
    seen = []
    simulate(known, 2, 25, progress=lambda done, total, seconds: seen.append((done, total)))
    assert seen[-1] == (25, 25)


def test_cli_prints_the_table_and_json_without_a_progress_bar_off_a_terminal():
    """`simulate --format json` gives the same figures; no progress on stderr when it is not a terminal."""
    r = run_cli("simulate", str(KNOWN), "--players", "3", "--games", "12", "--format", "json")
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    data = json.loads(r.stdout)
    assert [s["wins"] for s in data["seats"]] == [12, 0, 0]
    text = run_cli("simulate", str(RULESETS / "poison.rules"), "--players", "4", "--games", "5")
    assert text.returncode == 0, text.stderr
    assert "95% CI" in text.stdout and "first player" in text.stdout and "rules fired" in text.stdout


def test_rule_counting_can_be_left_out_without_changing_other_figures(known, stats):
    """count_rules=False: no `rules`, every other figure as before."""
    quick = simulate(known, 3, GAMES, seed=5, count_rules=False)
    assert quick["rules"] == []
    skip = {"rules", "seconds", "games_per_second", "moves_per_second"}
    assert {k: v for k, v in quick.items() if k not in skip} == {k: v for k, v in stats.items() if k not in skip}


def test_a_game_compiled_with_coverage_counts_the_run_firings():
    """simulate() on a Game compiled with coverage=True adds the run's rule firings to game.coverage."""
    from interpreter.engine.game import compile_ir
    from interpreter.loader import ir_from_path

    game = compile_ir(ir_from_path(KNOWN), coverage=True)
    stats = simulate(game, 2, 4, jobs=1)
    assert sum(game.coverage.values()) == sum(r["fired"] for r in stats["rules"]) > 0


def test_simulating_no_games_is_refused_with_a_message(known) -> None:
    """The API as the command line: no statistics of zero games (not a TypeError inside them)."""
    with pytest.raises(ValueError, match="at least one game"):
        simulate(known, 3, 0)
    assert "at least 1" in run_cli("simulate", str(KNOWN), "--players", "3", "--games", "0").stderr


@pytest.mark.parametrize("agents", ["greedy", "mcts(iterations=5,samples=2)"])
def test_rules_fired_count_the_games_own_moves_not_the_agents_look_ahead(agents, tmp_path):
    """Search agents apply moves and score rounds on sampled states: none of that is counted.
    The counts of a run are those of its games' moves replayed through the rules, move by move."""
    from interpreter.engine.game import compile_ir
    from interpreter.engine.records import parse_line, replay
    from interpreter.loader import ir_from_path
    from interpreter.simulation.rule_counts import countable_rules

    ir = ir_from_path(RULESETS / "poison.rules")
    out = tmp_path / "games.jsonl"
    stats = simulate(compile_ir(ir), 4, 2, seed=3, agents=agents, params={"rounds": 1}, record_to=out)
    again = compile_ir(ir, coverage=True)
    for number, line in enumerate(out.read_text().splitlines(), 1):
        replay(again, parse_line(line, number))
    assert [r["fired"] for r in stats["rules"]] == [again.coverage.get(at, 0) for at, _ in countable_rules(ir)]
    overflow = next(r for r in stats["rules"] if r["rule"] == "after play")
    assert 0 < overflow["fired"] < 60  # (a round of Poison is 56 plays)


def test_rules_fired_name_a_shipped_ruleset_as_the_user_did(tmp_path):
    """`simulate poison` (a shipped game by name, from another folder): its rules are named
    `poison.rules:LINE:COL`, not by the path where the package is installed."""
    import os
    import subprocess
    import sys

    from conftest import HANG, ROOT

    def simulate_here(*extra: str) -> subprocess.CompletedProcess:
        args = [sys.executable, "-m", "interpreter", "simulate", "poison", "--players", "4", "--games", "2", *extra]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}  # this source tree, run from elsewhere
        return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=HANG)

    r = simulate_here("--format", "json")
    assert r.returncode == 0, r.stderr
    places = [rule["at"] for rule in json.loads(r.stdout)["rules"]]
    assert places and all(at.startswith("poison.rules:") for at in places), places
    text = simulate_here()
    assert "  poison.rules:36:7  " in text.stdout and "/rulesets/" not in text.stdout


def test_with_different_agents_a_seat_difference_is_not_called_a_seat_advantage(known, stats):
    """greedy at seat 0, random at the others: seat 0's wins are the agent's as much as the seat's,
    so the report says the seats differ by agent and names no seat advantage (nor does the JSON)."""
    from interpreter.simulation.report import run_text

    mixed = simulate(known, 3, GAMES, seed=5, agents="greedy,random")
    assert mixed["seats_differ_by_agent"] is True and mixed["seat_advantage"] == []
    text = run_text(mixed)
    assert "seats differ by agent, so no seat advantage is measured" in text
    assert "seat advantage:" not in text and "seat advantage (" not in text
    assert "seat 0 (greedy) +66.7 points" in text
    assert stats["seats_differ_by_agent"] is False and stats["seat_advantage"] == [0, 1, 2]
    assert "seat advantage (*: differs from the fair share" in run_text(stats)


@pytest.mark.parametrize("agents", [["random"], ["greedy:2", "random"]])
def test_a_chunk_folds_each_game_s_rule_counts_as_a_fold_of_each_game_alone(agents):
    """play_chunk keeps the Game's counts between games (set back to 0, not emptied): its sums,
    squares and games fired, keys in the same order, are those of each game's counts folded in
    turn, the game's counts emptied before each (a greedy seat's look-ahead leaves them as they were)."""
    from collections import Counter

    from interpreter.engine.game import compile_ir
    from interpreter.loader import ir_from_path
    from interpreter.simulation.one_game import game_seed, play_game
    from interpreter.simulation.parallel import Job, play_chunk

    ir = ir_from_path(RULESETS / "poison.rules")
    params = {"rounds": 1}
    job = Job(ir, 3, 11, agents, params, key=f"fold {agents}")
    chunk = play_chunk(job, 2, 7)
    game = compile_ir(ir, coverage=True)
    sums, squares, present = Counter(), Counter(), Counter()
    for index in range(2, 7):
        game.coverage.clear()
        play_game(game, 3, game_seed(11, index), agents, params)
        for at, n in game.coverage.items():
            sums[at] += n
            squares[at] += n * n
            present[at] += n > 0
    assert [list(c.items()) for c in (chunk.coverage, chunk.squares, chunk.present)] == [
        list(c.items()) for c in (sums, squares, present)
    ]
    assert min(present.values()) > 0 and max(present.values()) == 5 and len(sums) > 3
