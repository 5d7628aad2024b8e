"""The interval arithmetic behind every estimate that `simulate` and `compare` print."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.simulation.stats import Moments, mean_difference, rate_difference, t_value, wilson


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (120, 1.9799), (1000, 1.9623)],
)
def test_t_value_matches_the_printed_tables(df, expected):
    """The 95% t quantile agrees with a statistics table to four decimals."""
    assert t_value(df) == pytest.approx(expected, abs=1e-4)


def test_wilson_interval_of_known_values():
    """Wilson's interval for 5 of 10 is the textbook [0.237, 0.763]; at 10 of 10 it reaches 1 exactly."""
    lo, hi = wilson(5, 10)
    assert (round(lo, 3), round(hi, 3)) == (0.237, 0.763)
    assert wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[0] == 0.0


@given(st.integers(1, 2000), st.data())
def test_wilson_interval_holds_the_observed_rate(n, data):
    """Every Wilson interval lies in [0, 1] and holds the observed rate."""
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=60))
def test_moments_agree_with_the_statistics_module(values):
    """Mean and sd from running sums equal those of the statistics module; the interval holds the mean."""
    import statistics

    m = Moments()
    for v in values:
        m.add(v)
    assert m.mean == pytest.approx(statistics.fmean(values))
    assert m.sd == pytest.approx(statistics.stdev(values), abs=1e-6)
    lo, hi = m.interval()
    assert lo <= m.mean <= hi


def test_a_single_value_has_no_interval():
    """One game says nothing about spread: the summary's interval is None, not a point."""
    m = Moments()
    m.add(3)
    assert m.summary()["ci"] is None
    assert math.isinf(m.interval()[1])


def test_differences_are_marked_significant_only_when_their_interval_excludes_zero():
    """30 of 100 against 60 of 100 differs; 30 against 33 does not; means the same way."""
    assert rate_difference(30, 100, 60, 100)["significant"]
    assert not rate_difference(30, 100, 33, 100)["significant"]
    a = {"mean": 10.0, "sd": 2.0, "n": 50}
    assert mean_difference(a, {"mean": 12.0, "sd": 2.0, "n": 50})["significant"]
    assert not mean_difference(a, {"mean": 10.3, "sd": 2.0, "n": 50})["significant"]


# ---- rounds clustered in games ---------------------------------------------------------------------


def _first_player(games: list[list[tuple[int, list[int]]]]) -> dict:
    from interpreter.simulation.tally import Tally

    tally = Tally(2, ["random", "random"])
    for rounds in games:
        tally.add({"totals": [0, 0], "winners": [0, 1], "rounds": [[f, s] for f, s in rounds], "moves": 1})
    return tally.first_player()


def test_rounds_of_one_game_count_as_one_cluster_not_as_independent_rounds():
    """20 games of 10 rounds in which the first mover wins every round of half the games and none of
    the others: the rate is 1/2, and the 200 rounds tell no more than the 20 games do. The interval
    is as wide as 20 independent games' (Wilson on 20), not 200 rounds' (which would wrongly call a
    rate of 0.36 impossible)."""
    games = [[(0, [1, 0] if g % 2 else [0, 1])] * 10 for g in range(20)]
    fp = _first_player(games)
    assert fp["rounds"] == 200 and fp["games"] == 20 and fp["best_round_rate"]["rate"] == 0.5
    lo, hi = fp["best_round_rate"]["ci"]
    assert (lo, hi) == pytest.approx(wilson(10, 20))
    assert lo < 0.36 < wilson(100, 200)[0]
    lead = fp["score_lead"]["ci"]
    assert lead[0] < -0.4 and lead[1] > 0.4  # 20 games of +1 or -1: t on 19 degrees of freedom


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=40))
def test_with_one_round_a_game_the_clustered_intervals_are_the_usual_ones(rounds):
    """One round a game: the clustered intervals equal Wilson's on the rounds and the t interval."""
    fp = _first_player([[(first, [a, b])] for first, a, b in rounds])
    best = fp["best_round_rate"]
    assert best["ci"] == pytest.approx(list(wilson(best["successes"], best["n"])))
    leads = Moments()
    for first, a, b in rounds:
        leads.add((a - b) if first == 0 else (b - a))
    expected = leads.summary()["ci"]
    got = fp["score_lead"]["ci"]
    assert (got is None) == (expected is None)
    if expected:
        assert got == pytest.approx(expected, abs=1e-9)


def test_games_won_by_several_seats_are_counted_apart():
    """3 of 10 games tied for the win: each tied seat counts a win (the fair share rises above 1/2),
    and the shared wins say how many games that was; a cooperative game's common win is no tie."""
    from interpreter.simulation.tally import Tally

    tally, together = Tally(2, ["random", "random"]), Tally(2, ["random", "random"], cooperative=True)
    for g in range(10):
        out = {"totals": [1, 1], "winners": [0, 1] if g < 3 else [g % 2], "rounds": [], "moves": 1}
        tally.add(out)
        together.add({**out, "winners": [0, 1], "together": True})
    summary = tally.summary()
    assert summary["shared_wins"]["successes"] == 3 and summary["shared_wins"]["rate"] == 0.3
    assert summary["fair_share"] == pytest.approx(13 / 20)
    assert together.summary()["shared_wins"]["successes"] == 0
