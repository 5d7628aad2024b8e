"""Comparing the points of a sweep game by game: every point plays the same seeds, so game *i* of
one point and game *i* of another share their deal, and the difference of their losses is best
judged on those pairs.

Each point keeps what its loss is made of, one entry a game (:class:`Games`). The loss of a point
on any multiset of game indexes can then be recomputed, and a **paired bootstrap** draws the same
game indexes for every point (a resample of the seeds), recomputes each point's loss and takes the
2.5% and 97.5% quantiles of "this point's loss minus the best's". A difference whose interval lies
wholly above 0 is a point **clearly worse** than the best. Pairing removes the luck of the deal,
which both points share, from the comparison: a small effect that overlapping intervals cannot see
shows, and points that played the very same games are said to be **identical** (the parameters that
tell them apart did nothing in these games).

Pure Python and deterministic: the resamples are drawn from a generator seeded by the sweep's seed.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

RESAMPLES = 1000


@dataclass(frozen=True)
class Games:
    """What a point's loss is made of, a game at a time, and how to fold a multiset of games into it.

    ``per_game[i]`` is game *i*'s contribution (hashable, so identical games compare equal);
    ``loss(counts)`` gives the loss over the games counted in ``counts`` (index -> multiplicity).
    """

    per_game: tuple
    loss: Callable[[Counter], float]
    reads: str = "results"  # what per_game holds, in words: "the same {reads} in every game"


def balance_games(outcomes: Sequence[dict[str, Any]], players: int) -> Games:
    """The largest distance of a seat's win rate from the fair share (ties share the win), as
    `simulate` reckons it: a game is the tuple of its winners."""
    winners = tuple(tuple(sorted(out["winners"])) for out in outcomes)

    def loss(counts: Counter) -> float:
        n = sum(counts.values())
        wins, slots = [0] * players, 0
        for i, k in counts.items():
            slots += k * len(winners[i])
            for seat in winners[i]:
                wins[seat] += k
        fair = slots / (n * players)
        return max(abs(w / n - fair) for w in wins)

    return Games(winners, loss, "winners")


def mean_games(values: Sequence[float], to_loss: Callable[[float], float], reads: str) -> Games:
    """A loss that reads only the mean of one number a game (moves a game, an agent's win share)."""
    per_game = tuple(values)

    def loss(counts: Counter) -> float:
        n = sum(counts.values())
        return to_loss(sum(per_game[i] * k for i, k in counts.items()) / n)

    return Games(per_game, loss, reads)


def compare(points: Sequence[Games], best: int, seed: int | None, resamples: int = RESAMPLES) -> list[dict[str, Any]]:
    """Each point against the best, paired game by game: the difference of their losses (this point's
    minus the best's, so >= 0), its 95% bootstrap interval, and whether the two played identical games."""
    n = len(points[best].per_game)
    if any(len(p.per_game) != n for p in points):
        raise ValueError("paired points must hold the same number of games")
    rng = random.Random(f"paired:{seed}")
    whole = Counter(range(n))
    base = [p.loss(whole) for p in points]
    diffs: list[list[float]] = [[] for _ in points]
    identical = [p.per_game == points[best].per_game for p in points]
    for _ in range(resamples if n > 1 else 0):
        counts = Counter(rng.choices(range(n), k=n))
        at_best = points[best].loss(counts)
        for j, p in enumerate(points):
            if j != best and not identical[j]:
                diffs[j].append(p.loss(counts) - at_best)
    out = []
    for j in range(len(points)):
        value = base[j] - base[best]
        if j == best or identical[j]:
            out.append({"difference": value, "ci": [value, value], "identical": identical[j]})
            continue
        ds = sorted(diffs[j]) or [value]
        lo, hi = ds[math.floor(0.025 * (len(ds) - 1))], ds[math.ceil(0.975 * (len(ds) - 1))]
        out.append({"difference": value, "ci": [lo, hi], "identical": False})
    return out


def without_effect(names: Sequence[str], params: Sequence[dict[str, Any]], points: Sequence[Games]) -> list[str]:
    """The parameters that changed no game: every two points tried that differ in that parameter
    alone played identical games (and there is at least one such pair)."""
    out = []
    for name in names:
        pairs = same = 0
        for a in range(len(params)):
            for b in range(a + 1, len(params)):
                differ = [n for n in names if params[a][n] != params[b][n]]
                if differ == [name]:
                    pairs += 1
                    same += points[a].per_game == points[b].per_game
        if pairs and same == pairs:
            out.append(name)
    return out
