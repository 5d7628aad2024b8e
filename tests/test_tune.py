"""`ruleset tune`: a sweep finds the parameter value that serves the objective, says whether it is
clearly better, and reads its options strictly."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import run_cli
from interpreter.errors import RulesetError
from interpreter.simulation.tune import Objective, outside, parse_objective, parse_param, tune

# Two players show a card each; the dealer (seat 0) adds the handicap, the other the bonus: fair
# only when they are equal.
HANDICAP = """\
game "Handicap"
players 2..2
param handicap = 2
param bonus = 0

cards
  card  rank 1..6 x2

zones
  hand   per player, owner sees
  shown  per player, public

round
  deal 1 to hand
  phase show
    move show card from hand to shown
    ends when every hand is empty
  score
    each card in shown of player: rank of card
    handicap if player = dealer
    bonus if player != dealer

game
  rounds 1
  winner highest total
"""


@pytest.fixture(scope="module")
def handicap_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("rules") / "handicap.rules"
    path.write_text(HANDICAP)
    return path


@pytest.fixture(scope="module")
def handicap(handicap_file) -> interpreter.Game:
    return interpreter.load(handicap_file)


def test_tune_finds_the_fair_handicap(handicap):
    """Swept over -3..3 for balance, the handicap that makes the game fair, 0, is best, and clearly
    better than the far ends of the range."""
    result = tune(handicap, 2, [parse_param("handicap=-3..3")], Objective("balance"), games=300)
    assert result["best"] == {"handicap": 0} and result["search"] == "grid" and len(result["points"]) == 7
    best = result["points"][result["best_index"]]["loss"]["ci"]
    for row in result["points"]:
        if abs(row["params"]["handicap"]) >= 2:
            assert row["loss"]["ci"][0] > best[1]


def test_a_grid_beyond_the_budget_is_searched_and_still_finds_the_fair_value(handicap):
    """-8..8 (17 points) with a budget of 9: coordinate descent tries fewer points and finds 0."""
    result = tune(handicap, 2, [parse_param("handicap=-8..8")], Objective("balance"), games=300, budget=9)
    assert result["search"] == "coordinate descent" and len(result["points"]) <= 9
    assert result["best"] == {"handicap": 0}


def test_tune_plays_its_points_with_the_agents_evaluate_would_observe_with(handicap):
    """Balance and length are read from games played as evaluate's observed games are: by the
    strongest rung that fits the budget (one choice for every point, so the points stay paired),
    which the result names, or by --agents; the skill objective plays its pairing."""
    from interpreter.simulation.evaluate_report import tune_text
    from interpreter.simulation.observer import observers

    result = tune(handicap, 2, [parse_param("handicap=0,1")], Objective("balance"), games=10)
    agents, observer = observers(handicap, 2, 10, 0, None, None)
    assert result["observer"] == observer and observer["by"] == "budget"
    assert result["agents"] == [agents] * 2
    assert f"observed games played by {agents} in every seat" in tune_text(result)
    chosen = tune(handicap, 2, [parse_param("handicap=0,1")], Objective("length", 1, 2), games=10, agents="random")
    assert chosen["observer"] == {"by": "agents"} and chosen["agents"] == ["random"] * 2
    assert "observed games played by" not in tune_text(chosen)
    skill = tune(
        handicap, 2, [parse_param("handicap=0,1")], Objective("skill"), skill_games=2, pairs=("random/random",)
    )
    assert "observer" not in skill


def test_the_length_objective_is_the_distance_outside_the_range():
    """A mean of 50 moves [45, 55] is 10 [5, 15] short of 60..90; a mean inside costs nothing."""
    assert outside(60, 90, 50, [45, 55]) == {"value": 10, "ci": [5, 15]}
    assert outside(60, 90, 70, [58, 82]) == {"value": 0, "ci": [0.0, 2]}
    assert outside(60, 90, 95, [88, 102]) == {"value": 5, "ci": [0.0, 12]}


def test_params_and_objectives_are_read_strictly():
    assert parse_param("limit=9..17") == ("limit", list(range(9, 18)))
    assert parse_param("limit=9..17:4") == ("limit", [9, 13, 17])
    assert parse_param("mode=easy, 3") == ("mode", ["easy", 3])
    assert parse_objective("length=60..90") == Objective("length", 60, 90)
    for bad in ("limit", "limit=", "limit=17..9", "=1..2", "limit=1,,2"):
        with pytest.raises(RulesetError):
            parse_param(bad)
    for bad in ("fun", "length", "length=90..60", "balance=1"):
        with pytest.raises(RulesetError):
            parse_objective(bad)


def test_tune_command_prints_the_table_and_the_verdict(handicap_file):
    out = run_cli("tune", str(handicap_file), "--param", "handicap=-1..1", "--objective", "balance", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "<- best" in out.stdout and "best: handicap=0" in out.stdout


def test_tune_json_and_errors(handicap_file):
    out = run_cli(
        "tune", str(handicap_file), "--param", "handicap=0,3", "--objective", "length=1..1", "--games", "20",
        "--format", "json", "--jobs", "1",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["objective"] == "length=1..1" and [p["params"] for p in doc["points"]] == [
        {"handicap": 0},
        {"handicap": 3},
    ]
    assert all(p["figure"]["value"] == 2 for p in doc["points"])  # two moves a game, whatever the handicap
    out = run_cli("tune", str(handicap_file), "--param", "malus=1..2", "--objective", "balance")
    assert out.returncode == 2 and "unknown parameter 'malus'" in out.stderr
    out = run_cli("tune", str(handicap_file), "--param", "handicap=1..2", "--set", "handicap=1", "--objective", "skill")
    assert out.returncode == 2 and "both swept" in out.stderr


def test_tune_plots_one_parameter_as_a_curve_and_two_as_a_map(handicap, tmp_path):
    """--plot: one swept parameter against its values; two as a map of the loss over their grid."""
    pytest.importorskip("matplotlib")
    from interpreter.simulation.plots import plot_tune

    one = tune(handicap, 2, [parse_param("handicap=-1..1")], Objective("balance"), games=30)
    two = tune(handicap, 2, [parse_param("handicap=-1..1"), parse_param("bonus=0,1")], Objective("balance"), games=30)
    for result, name in ((one, "one.png"), (two, "two.png")):
        plot_tune(result, str(tmp_path / name))
        assert (tmp_path / name).read_bytes()[:4] == b"\x89PNG"


# ---- paired comparison: every point plays the same seeds ----------------------------------------------


def test_a_small_effect_on_every_game_is_seen_paired_where_the_intervals_overlap():
    """Two points whose games differ by one move each, over games of 10 to 100 moves: their means'
    intervals overlap widely, but game by game the second is always one move longer, so paired it is
    clearly worse (for an objective of at most 20 moves) and the first clearly better."""
    from interpreter.simulation import paired
    from interpreter.simulation.stats import Moments

    lengths = [10 + (37 * i) % 91 for i in range(200)]
    points = [
        paired.mean_games([n + shift for n in lengths], lambda mean: outside(0, 20, mean, None)["value"], "moves")
        for shift in (0, 1)
    ]
    spread = [Moments() for _ in points]
    for m, shift in zip(spread, (0, 1), strict=True):
        for n in lengths:
            m.add(n + shift)
    a, b = (m.summary()["ci"] for m in spread)
    assert b[0] < a[1]  # unpaired, the intervals overlap
    vs = paired.compare(points, 0, seed=0)
    assert vs[1]["difference"] == pytest.approx(1) and vs[1]["ci"][0] > 0.9 and not vs[1]["identical"]
    assert vs[0] == {"difference": 0, "ci": [0, 0], "identical": True}  # the best, against itself


def test_the_paired_bootstrap_is_deterministic_and_its_interval_holds_the_difference():
    from interpreter.simulation import paired

    outcomes = [{"winners": [i % 2]} if i % 5 else {"winners": [0, 1]} for i in range(100)]
    shifted = [{"winners": [0]} if i % 7 == 0 else o for i, o in enumerate(outcomes)]
    points = [paired.balance_games(outcomes, 2), paired.balance_games(shifted, 2)]
    first, again = paired.compare(points, 0, seed=3), paired.compare(points, 0, seed=3)
    assert first == again
    lo, hi = first[1]["ci"]
    assert lo <= first[1]["difference"] <= hi


def test_tune_reports_no_effect_for_a_parameter_nobody_reads(tmp_path):
    """A parameter the rules never read changes no game: the points differing only there are equal to
    each other game by game, tune says it has no effect, and when nothing else is swept it does not
    suggest more games (no number of games would tell the points apart)."""
    path = tmp_path / "idle.rules"
    path.write_text(HANDICAP.replace("param bonus = 0\n", "param bonus = 0\nparam idle = 0\n"))
    out = run_cli(
        "tune", str(path), "--param", "handicap=0,2", "--param", "idle=0,5", "--objective", "balance",
        "--games", "60", "--jobs", "1", "--format", "json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["no_effect"] == ["idle"] and doc["reads"] == "winners"
    best = doc["best"]
    assert doc["equal"] == [{"handicap": best["handicap"], "idle": 5 - best["idle"]}]
    out = run_cli(
        "tune", str(path), "--param", "idle=0..3", "--objective", "balance", "--games", "30", "--jobs", "1"
    )  # fmt: skip
    assert "no effect: every point gave the same winners in every game" in out.stdout
    assert "more games narrow" not in out.stdout
