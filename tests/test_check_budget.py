"""`ruleset check` without --games: playouts within a budget of moves, split over the player counts,
each count stopped early once a failure is certain; the same playouts for any number of processes."""

from __future__ import annotations

import json

from conftest import RULESETS, run_cli
from interpreter.checker import check
from interpreter.checker.budget import CHUNK, run_playouts
from interpreter.language.schema import validator

FIVE_CARD = str(RULESETS / "poison-five-card.rules")


def test_a_budget_is_split_over_the_player_counts_and_spent_to_the_nearest_chunk():
    results, counts = run_playouts(FIVE_CARD, {}, [3, 4], None, 7, 1, budget=20000)
    for c in counts:
        mine = [r for r in results if r["players"] == c.players]
        assert c.stop == "budget" and c.games == sum(r["games"] for r in mine) < 1000
        assert c.moves == sum(r["moves"] for r in mine)
        half_chunk = CHUNK / 2 * c.moves / c.games  # (at the moves a game so far)
        assert c.moves + half_chunk >= 10000  # its half of the budget, spent: less than half a chunk left
        before = c.moves - mine[-1]["moves"]  # and the last chunk was needed: more than half a chunk left
        assert c.games > CHUNK and before + CHUNK / 2 * before / (c.games - CHUNK) < 10000
        assert [r["start"] for r in mine] == list(range(0, c.games, CHUNK))  # the first games, in order


def test_a_count_stops_when_less_than_half_a_chunk_of_its_share_is_left():
    """Rather than play a whole chunk past its share (Rummy once played 113,000 moves of 100,000)."""
    first, _ = run_playouts(FIVE_CARD, {}, [3], 2 * CHUNK, 7, 1)  # the moves of its first two chunks
    two = sum(r["moves"] for r in first)
    _, (c,) = run_playouts(FIVE_CARD, {}, [3], None, 7, 1, budget=two + two // 8)  # a quarter chunk more
    assert (c.games, c.moves, c.stop) == (2 * CHUNK, two, "budget")
    _, (c,) = run_playouts(FIVE_CARD, {}, [3], None, 7, 1, budget=two + two * 3 // 8)  # three quarters more
    assert c.games == 3 * CHUNK


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
    small = check(FIVE_CARD, players=3, budget=1)  # a chunk ends once its games have spent the share
    assert [(p["games"], p["stopped"]) for p in small.playouts] == [(1, "budget")]


def test_a_chunk_ends_once_its_games_have_spent_the_whole_share():
    """Games so long that a chunk of them would pass a count's share many times over (Cheat's
    thousands of moves) spend it to within a game, the same playouts for any number of processes."""
    ten, _ = run_playouts(FIVE_CARD, {}, [3], CHUNK, 7, 1)
    share = ten[0]["moves"] // 3  # about three of the ten games
    one, (c,) = run_playouts(FIVE_CARD, {}, [3], None, 7, 1, budget=share)
    assert one == run_playouts(FIVE_CARD, {}, [3], None, 7, 2, budget=share)[0]
    assert c.stop == "budget" and 1 < c.games < CHUNK and [r["games"] for r in one] == [c.games]
    played, _ = run_playouts(FIVE_CARD, {}, [3], c.games, 7, 1)
    short, _ = run_playouts(FIVE_CARD, {}, [3], c.games - 1, 7, 1)
    assert short[0]["moves"] < share <= played[0]["moves"] == c.moves  # the first games, to the one past it
