"""`ruleset compare A B ...`: the same seeds and agents for every ruleset, the figures side by side,
and a * on the differences whose 95% interval excludes 0."""

from __future__ import annotations

import json

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.simulation.report import comparison
from interpreter.simulation.simulate import simulate


def test_a_ruleset_compared_with_itself_differs_nowhere(five_card):
    """Same rules, same seeds: every difference is exactly 0 and none is marked."""
    a = simulate(five_card, 4, 8, seed=2)
    b = simulate(five_card, 4, 8, seed=2)
    rows = comparison([a, b])
    diffs = [row["cells"][1]["difference"] for row in rows]
    assert all(d["difference"] == 0 and not d["significant"] for d in diffs)


def test_compare_marks_a_real_difference(tmp_path):
    """Seat 0 always wins the known game; in a variant whose 2 points go to round 2's dealer, seat 1
    always wins: seat 1's win rate goes 0% -> 100%, marked significant."""
    variant = tmp_path / "seat-one-wins.rules"
    variant.write_text(
        f'extends "{EXAMPLES / "seat-zero-wins.rules"}"\ngame "Seat one wins"\nround\n  score\n'
        "    2 if player = dealer and round = 2\n"
    )
    r = run_cli("compare", str(EXAMPLES / "seat-zero-wins.rules"), str(variant), "--games", "20", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    row = next(x for x in doc["comparison"] if x["figure"] == "seat 1 win rate")
    assert [c["value"] for c in row["cells"]] == [0.0, 1.0]
    assert row["cells"][1]["difference"]["significant"]


def test_compare_text_lists_each_ruleset_and_marks_significance():
    """The text table names A and B, and explains the marks."""
    r = run_cli(
        "compare", str(RULESETS / "poison.rules"), str(RULESETS / "poison-five-card.rules"),
        "--players", "4", "--games", "4",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "A: Poison" in r.stdout and "B: Poison, five-card variant" in r.stdout
    assert "seat 0 win rate" in r.stdout and "moves per game" in r.stdout
    assert "*: significant" in r.stdout


def test_compare_needs_two_rulesets_that_allow_the_player_count():
    """One ruleset, or a player count a ruleset does not allow, is bad input (exit 2)."""
    r = run_cli("compare", "poison", "--games", "2")
    assert r.returncode == 2 and "two rulesets" in r.stderr
    r = run_cli("compare", "poison", str(EXAMPLES / "seat-zero-wins.rules"), "--players", "6", "--games", "2")
    assert r.returncode == 2 and "2 to 4 players, not 6" in r.stderr


def test_compare_keeps_the_rule_rows_of_a_variant_that_extends_its_base_through_dotdot():
    """examples/poison-bitter.rules extends "../rulesets/poison.rules": the base's rules reached
    through `..` are the same rules as the base's own, so their rows stay (text and JSON), under
    one normalised name."""
    args = ["compare", "rulesets/poison.rules", "examples/poison-bitter.rules", "--players", "4", "--games", "4"]
    r = run_cli(*args, "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    fired = [row["figure"] for row in doc["comparison"] if row["figure"].startswith("fired/game")]
    assert any(f.startswith("fired/game: after play if sum of value") for f in fired), fired
    for run in doc["runs"]:
        assert all(".." not in rule["at"] for rule in run["rules"])
        assert "rulesets/poison.rules:36:7" in {rule["at"] for rule in run["rules"]}
    text = run_cli(*args)
    assert "fired/game: after play if sum of value" in text.stdout
