"""Seat advantage is tested for every seat at once, and `compare` tests every seat's difference at
once: without a correction for the number of tests, a fair game would be reported unfair far more
often than the 5% the intervals promise. Holm's correction keeps the chance of any false alarm in
a run at 5% or less."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.simulation.report import comparison, run_text
from interpreter.simulation.simulate import simulate
from interpreter.simulation.stats import holm, mean_difference, rate_difference, rate_p_value, wilson
from interpreter.simulation.tally import Tally

NOMINAL = 0.05


def fair_run(rng: random.Random, players: int, games: int) -> Tally:
    """A symmetric game's statistics: every seat's total drawn alike, the highest total wins (ties share)."""
    tally = Tally(players, ["random"] * players)
    for _ in range(games):
        totals = [rng.randrange(10) for _ in range(players)]
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
        tally.add({"totals": totals, "winners": winners, "rounds": [[0, totals]], "moves": 1})
    return tally


def as_run(tally: Tally) -> dict:
    """A Tally as the run that simulate() returns, enough for comparison()."""
    return {**tally.summary(), "games": tally.games, "players": tally.players, "rules": []}


def test_holm_adjusts_p_values_step_down():
    """The textbook case: p = 0.01, 0.04, 0.03, 0.005 over four tests -> 0.03, 0.06, 0.06, 0.02:
    only the two smallest stand at 5% (Bonferroni alone would keep only 0.005)."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5]) == [0.5]
    assert holm([]) == []


def test_the_p_values_agree_with_the_intervals_for_a_single_test():
    """One test alone: p < 5% exactly when the 95% interval excludes the value tested."""
    for k in range(0, 101, 5):
        lo, hi = wilson(k, 100)
        assert (rate_p_value(k, 100, 0.3) < NOMINAL) == (not lo <= 0.3 <= hi), k
        d = rate_difference(30, 100, k, 100)
        assert (d["p"] < NOMINAL) == d["significant"], k
    a = {"mean": 10.0, "sd": 2.0, "n": 50}
    for m in (10.0, 10.3, 10.7, 10.8, 10.9, 12.0):
        d = mean_difference(a, {"mean": m, "sd": 2.0, "n": 50})
        assert (d["p"] < NOMINAL) == d["significant"], m


def fair_counts(rng: random.Random, players: int, games: int) -> Tally:
    """Only the wins of a symmetric game (one winner a game, any seat alike), as a run counts them."""
    tally = Tally(players, ["random"] * players)
    tally.games = tally.winner_slots = games
    for seat in rng.choices(range(players), k=games):
        tally.wins[seat] += 1
    return tally


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_symmetric_game_raises_a_seat_advantage_false_alarm_at_most_at_the_nominal_rate(players):
    """2,000 runs of 1,000 games of a symmetric game: the share of runs that report any seat
    advantage stays near 5% or below (uncorrected, each seat tested at 95% alarms in ~12-20%)."""
    rng = random.Random(players)
    runs = 2000
    alarms = sum(
        any(s["advantage"]["significant"] for s in fair_counts(rng, players, 1000).seats()) for _ in range(runs)
    )
    assert alarms / runs <= NOMINAL + 3 * (NOMINAL * (1 - NOMINAL) / runs) ** 0.5, alarms


def test_compare_of_two_symmetric_games_marks_a_seat_difference_at_most_at_the_nominal_rate():
    """Two runs of the same symmetric game: a `*` on any seat's win rate (or on any seat's mean
    score) in at most about 5% of the comparisons."""
    rng = random.Random(7)
    runs = 200
    alarms = {"win rate": 0, "mean score": 0}
    for _ in range(runs):
        rows = comparison([as_run(fair_run(rng, 4, 150)), as_run(fair_run(rng, 4, 150))])
        for family in alarms:
            cells = [row["cells"][1] for row in rows if row["figure"].endswith(family)]
            assert len(cells) == 4
            alarms[family] += any(c["difference"]["significant"] for c in cells)
    limit = NOMINAL + 3 * (NOMINAL * (1 - NOMINAL) / runs) ** 0.5
    assert all(n / runs <= limit for n in alarms.values()), alarms


HIGH_CARD = """\
game "High card"
players 2..6

cards
  card  rank 1..60

zones
  hand   per player, owner sees
  table  shared, public

round
  deal 1 to hand, one at a time
  phase play
    move play card from hand to table
    ends when every hand is empty
  score
    each card in table where player of it = player: rank of card

game
  rounds 1
  winner highest total
"""


def test_real_runs_of_a_symmetric_game_rarely_report_a_seat_advantage():
    """Each seat is dealt one card of 60 and the highest wins: 12 seeded runs of 300 games report
    a seat advantage at most once, and each run says which correction it used."""
    game = interpreter.loads(HIGH_CARD, "high-card.rules")
    stats = [simulate(game, 4, 300, seed=seed, count_rules=False) for seed in range(12)]
    assert sum(bool(s["seat_advantage"]) for s in stats) <= 1
    assert all(s["seats"][0]["advantage"]["correction"] == "holm" for s in stats)
    assert "Holm" in run_text(stats[0])
