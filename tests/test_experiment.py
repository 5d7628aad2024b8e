"""Experiment files (`simulate --config FILE.yaml`): a valid one runs every combination and writes
its results; a bad one is an error at its line and column, never a traceback."""

from __future__ import annotations

import json
import textwrap

import pytest

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.commands.cli import load_game
from interpreter.errors import ExperimentError
from interpreter.simulation.experiment import load_experiment


def write(tmp_path, text: str):
    path = tmp_path / "experiment.yaml"
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_a_valid_experiment_runs_every_ruleset_and_player_count(tmp_path):
    """2 rulesets x 2 player counts = 4 runs in the results file, under the file's seed and games."""
    path = write(
        tmp_path,
        f"""
        name: known and five-card
        rulesets:
          - {EXAMPLES / "seat-zero-wins.rules"}
          - file: {RULESETS / "poison-five-card.rules"}
            label: five-card, higher limit
            set: {{limit: 17}}
        players: [3, 4]
        games: 3
        seed: 11
        output: out/results.json
        """,
    )
    (tmp_path / "out").mkdir()
    r = run_cli("simulate", "--config", str(path))
    assert r.returncode == 0, r.stderr
    results = json.loads((tmp_path / "out" / "results.json").read_text())
    assert results["experiment"] == "known and five-card" and results["seed"] == 11
    runs = results["runs"]
    assert [(x["label"], x["players"]) for x in runs] == [
        ("Seat zero wins", 3),
        ("Seat zero wins", 4),
        ("five-card, higher limit", 3),
        ("five-card, higher limit", 4),
    ]
    assert all(x["games"] == 3 and x["seed"] == 11 for x in runs)
    assert runs[0]["seats"][0]["wins"] == 3
    assert runs[2]["params"]["limit"] == 17
    assert "results written to" in r.stdout
    # the question answered in a table per player count: the runs side by side, by their labels
    side = r.stdout.split("the runs side by side", 1)[1]
    assert side.count("A: Seat zero wins  (the base)") == 2 and side.count("B: five-card, higher limit") == 2
    assert "seat 0 win rate" in side and "3 players" in side and "4 players" in side


def test_a_ruleset_path_is_relative_to_the_experiment_file(tmp_path):
    """A bundled name or a path beside the experiment file both load."""
    (tmp_path / "mine.rules").write_text((EXAMPLES / "seat-zero-wins.rules").read_text())
    exp = load_experiment(write(tmp_path, "rulesets: [mine.rules, poison]\nagents: [random]\n"), load_game)
    assert [run.game.name for run in exp.runs] == ["Seat zero wins", "Poison"]
    assert [run.players for run in exp.runs] == [2, 3]
    assert exp.output == tmp_path / "experiment.results.json"


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("rulesets:\n  - poison\n  - no-such-game.rules\n", 3, 5, "unknown ruleset 'no-such-game.rules'"),
        ("rulesets: [poison]\ngames: many\n", 2, 8, "'many' is not of type 'integer'"),
        ("rulesets: [poison]\nplayers: [4, 3.5]\n", 2, 14, "players[1]"),
        ("rulesets: [poison]\ngamez: 10\n", 2, 1, "unknown key 'gamez'"),
        ("rulesets:\n  - file: poison\n    set: {limit: [1]}\n", 3, 18, "rulesets[0].set.limit"),
        ("games: 10\n", 1, 1, "'rulesets' is a required property"),
        ("rulesets: [poison]\nplayers: 9\n", 2, 10, "3 to 6 players, not 9"),
        ("rulesets: [poison]\nagents: random,nobody\n", 2, 9, "unknown agent 'nobody'"),
        ("rulesets: [poison]\nset: {limitt: 3}\n", 2, 6, "unknown parameter 'limitt'"),
        ("rulesets: [poison\n", 2, 1, "not valid YAML"),
    ],
)
def test_a_bad_experiment_is_an_error_at_its_position(tmp_path, text, line, col, words):
    """Unknown rulesets, wrong types, unknown keys, agents and parameters point at their line and column."""
    path = write(tmp_path, text)
    with pytest.raises(ExperimentError) as err:
        load_experiment(path, load_game)
    assert (err.value.span.line, err.value.span.col) == (line, col), err.value.format()
    assert words in err.value.message


def test_the_cli_reports_a_bad_experiment_with_a_caret_and_exit_2(tmp_path):
    """The CLI prints file:line:col, the YAML line and a caret; exit code 2."""
    path = write(tmp_path, "rulesets: [poison]\ngames: many\n")
    r = run_cli("simulate", "--config", str(path))
    assert r.returncode == 2
    assert f"{path}:2:8: error: games:" in r.stderr
    assert "games: many" in r.stderr and "^" in r.stderr
    assert "Traceback" not in r.stderr


def test_the_shipped_example_experiment_is_valid():
    """examples/experiment.yaml loads: 3 rulesets x 2 player counts."""
    exp = load_experiment(EXAMPLES / "experiment.yaml", load_game)
    assert len(exp.runs) == 6
    assert exp.runs[2].params == {"limit": 17} and exp.runs[2].label == "Poison, limit 17"
