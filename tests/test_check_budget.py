"""`ruleset check` without --games: playouts within a budget of moves, split over the player counts,
each count stopped early once a failure is certain; the same playouts for any number of processes."""

from __future__ import annotations

import json

from conftest import RULESETS, run_cli
from interpreter.checker import check
from interpreter.checker.budget import CHUNK, run_playouts
from interpreter.language.schema import validator

FIVE_CARD = str(RULESETS / "poison-five-card.rules")


def test_a_budget_is_split_over_the_player_counts_and_spent_to_within_a_chunk():
    results, counts = run_playouts(FIVE_CARD, {}, [3, 4], None, 7, 1, budget=6000)
    for c in counts:
        mine = [r for r in results if r["players"] == c.players]
        assert c.stop == "budget" and c.games == sum(r["games"] for r in mine) < 1000
        assert c.moves == sum(r["moves"] for r in mine) >= 3000  # its half of the budget, spent
        assert c.moves - mine[-1]["moves"] < 3000  # and the last chunk was needed to spend it
        assert [r["start"] for r in mine] == list(range(0, c.games, CHUNK))  # the first games, in order


def test_budgeted_playouts_are_the_same_for_any_number_of_processes():
    one, _ = run_playouts(FIVE_CARD, {}, [3, 4, 5], None, 3, 1, budget=9000)
    two, _ = run_playouts(FIVE_CARD, {}, [3, 4, 5], None, 3, 2, budget=9000)
    assert one == two


def test_a_count_whose_playouts_fail_stops_after_its_first_chunk_and_says_why():
    proc = run_cli("check", "examples/broken/deadlock.rules", "--jobs", "1", "--format", "json")
    report = json.loads(proc.stdout)
    assert not list(validator("check").iter_errors(report))
    assert [(p["games"], p["failed"], p["stopped"]) for p in report["playouts"]] == [(CHUNK, CHUNK, "failures")] * 3
    [deadlock] = [f for f in report["findings"] if f["code"] == "deadlock"]
    assert f"in {3 * CHUNK} of {3 * CHUNK} playouts" in deadlock["message"]
    text = run_cli("check", "examples/broken/deadlock.rules", "--jobs", "1").stdout
    assert f"2 players: {CHUNK} games, 5 moves each (stopped: more than a tenth failed)" in text
    assert "without --games, each player count plays until it has spent its share" in text


def test_a_number_of_games_asked_is_played_whatever_the_budget():
    report = check("examples/broken/deadlock.rules", games=25, budget=1)
    assert [(p["games"], p["failed"]) for p in report.playouts] == [(25, 25)] * 3
    assert not any("stopped" in p for p in report.playouts)
    small = check(FIVE_CARD, players=3, budget=1)  # a budget is spent to within a chunk: one chunk
    assert [(p["games"], p["stopped"]) for p in small.playouts] == [(CHUNK, "budget")]
