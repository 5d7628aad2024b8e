"""Estimates with their intervals: Wilson intervals for rates, t intervals for means, and the
differences between two runs (Newcombe for rates, Welch for means) that `compare` marks.

Several seats tested at once would raise false alarms far more often than the 5% of one test:
each test also gives its p-value (the test whose inversion is the interval shown), and ``holm``
adjusts a family of them (Holm-Bonferroni, valid however the seats' results depend on each other).

Everything here is plain arithmetic on counts and sums (no numpy, no scipy), so a run's
statistics are the same on every machine. Intervals are 95% unless a caller asks otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist

LEVEL = 0.95


def z_value(level: float = LEVEL) -> float:
    """The two-sided normal quantile for a confidence level (1.96 for 95%)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (exact series, A&S 26.7.3-4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd
        if df == 1:
            return 2 * theta / math.pi
        term, total = 1.0, 1.0
        for k in range(2, df - 1, 2):
            term *= c2 * k / (k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    term, total = 1.0, 1.0
    for k in range(1, df - 2, 2):
        term *= c2 * k / (k + 1)
        total += term
    return math.sin(theta) * total


@lru_cache(maxsize=1024)  # (a bisection; every interval of a run asks for the same few df)
def t_value(df: int, level: float = LEVEL) -> float:
    """The two-sided Student t quantile (12.706 for df=1 at 95%); the normal one for large df."""
    if df < 1:
        return math.inf
    z = z_value(level)
    if df > 200:  # Cornish-Fisher: agrees with the exact value to 1e-6 here
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        return z + g1 / df + g2 / df**2 + g3 / df**3
    lo, hi = z, 1000.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_two_sided(mid, df) < level:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def wilson(successes: int, n: int, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson score interval of a rate: sound at 0% and 100% and for few games."""
    return wilson_float(successes, n, level)


def rate_p_value(successes: int, n: int, p0: float) -> float:
    """Two-sided p-value of a rate against ``p0`` by the score test, the test whose inversion is
    Wilson's interval: p < 5% exactly when the 95% Wilson interval excludes ``p0``."""
    if n <= 0:
        return 1.0
    p = successes / n
    if not 0 < p0 < 1:
        return 1.0 if p == p0 else 0.0
    z = abs(p - p0) / math.sqrt(p0 * (1 - p0) / n)
    return 2 * NormalDist().cdf(-z)


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values of a family of tests, in the given order: the k-th smallest
    p times (m - k + 1), never below an earlier one, at most 1. A test stands at 5% when its
    adjusted p-value is below 0.05; the chance of any false alarm in the family is then 5% at most."""
    m = len(p_values)
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def significant(p: float, level: float = LEVEL) -> bool:
    """Whether a (possibly adjusted) p-value is below 1 - level."""
    return p < 1 - level


@dataclass
class Moments:
    """Count, sum and sum of squares of a sample: enough for its mean, spread and interval.

    Values are added in a fixed order (game index), so the floating-point sums, and every
    figure drawn from them, are the same however the games were spread over processes.
    """

    n: int = 0
    total: float = 0.0
    squares: float = 0.0
    low: float = math.inf
    high: float = -math.inf

    def add(self, x: float | int) -> None:
        """Count one value."""
        self.n += 1
        self.total += x
        self.squares += x * x
        if x < self.low:  # (as min and max, without their calls: once a value a game)
            self.low = x
        if x > self.high:
            self.high = x

    @property
    def mean(self) -> float:
        """The sample mean (0 when empty)."""
        return self.total / self.n if self.n else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation (n - 1 in the denominator; 0 for fewer than 2 values)."""
        if self.n < 2:
            return 0.0
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return math.sqrt(max(var, 0.0))

    @property
    def se(self) -> float:
        """The standard error of the mean."""
        return self.sd / math.sqrt(self.n) if self.n else math.inf

    def interval(self, level: float = LEVEL) -> tuple[float, float]:
        """The t interval of the mean (a point when every value is the same; unbounded below 2 values)."""
        if self.n < 2:
            return (-math.inf, math.inf)
        half = t_value(self.n - 1, level) * self.se
        return (self.mean - half, self.mean + half)

    def summary(self) -> dict[str, float | int | list[float] | None]:
        """Mean, sd, 95% interval (None below 2 values), min, max and n as JSON-able data."""
        lo, hi = self.interval()
        return {
            "mean": self.mean,
            "sd": self.sd,
            "ci": [lo, hi] if math.isfinite(lo) and math.isfinite(hi) else None,
            "min": self.low if self.n else 0.0,
            "max": self.high if self.n else 0.0,
            "n": self.n,
        }


def rate_summary(successes: int, n: int) -> dict[str, float | int | list[float]]:
    """A rate with its Wilson interval as JSON-able data."""
    lo, hi = wilson(successes, n)
    return {"rate": successes / n if n else 0.0, "ci": [lo, hi], "successes": successes, "n": n}


def _newcombe(k1: int, n1: int, k2: int, n2: int, level: float) -> tuple[float, float]:
    """Newcombe's hybrid score interval of rate 2 minus rate 1."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1, level)
    l2, u2 = wilson(k2, n2, level)
    d = p2 - p1
    return d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def rate_difference(k1: int, n1: int, k2: int, n2: int, level: float = LEVEL) -> dict[str, float | bool | list[float]]:
    """Rate 2 minus rate 1 with Newcombe's hybrid score interval; significant when it excludes 0.
    ``p``: the largest 1 - level at which the interval still holds 0 (found by bisection)."""
    d = (k2 / n2 if n2 else 0.0) - (k1 / n1 if n1 else 0.0)
    lo, hi = _newcombe(k1, n1, k2, n2, level)
    p = 1.0
    if d != 0:
        inside, outside = 0.0, 1.0  # alpha levels: the interval holds 0 at `inside`, excludes it at `outside`
        for _ in range(50):
            mid = (inside + outside) / 2
            a, b = _newcombe(k1, n1, k2, n2, 1 - mid)
            if a > 0 or b < 0:
                outside = mid
            else:
                inside = mid
        p = outside
    return {"difference": d, "ci": [lo, hi], "significant": lo > 0 or hi < 0, "p": p}


def mean_difference(a: dict, b: dict, level: float = LEVEL) -> dict[str, float | bool | list[float] | None]:
    """Mean of b minus mean of a (summaries with mean, sd, n) with Welch's t interval; significant
    when the interval excludes 0 (never with fewer than 2 values a side); ``p`` Welch's p-value."""
    d = b["mean"] - a["mean"]
    if a["n"] < 2 or b["n"] < 2:
        return {"difference": d, "ci": None, "significant": False, "p": 1.0}
    va, vb = a["sd"] ** 2 / a["n"], b["sd"] ** 2 / b["n"]
    se = math.sqrt(va + vb)
    if se == 0:
        return {"difference": d, "ci": [d, d], "significant": d != 0, "p": 0.0 if d != 0 else 1.0}
    df = max(1, math.floor((va + vb) ** 2 / (va**2 / (a["n"] - 1) + vb**2 / (b["n"] - 1))))
    half = t_value(df, level) * se
    p = 1 - _t_two_sided(abs(d) / se, df) if df <= 20_000 else 2 * NormalDist().cdf(-abs(d) / se)  # (t ~ normal)
    return {"difference": d, "ci": [d - half, d + half], "significant": abs(d) > half, "p": p}


@dataclass
class Clustered:
    """A ratio over units that come in clusters (rounds within games): its estimate and a
    cluster-robust interval, for units of one cluster are not independent (the same deal of seats,
    the same players' habits). Each cluster adds its sum ``t`` over ``k`` units; the estimate is
    sum(t) / sum(k), and its variance the sandwich sum((t - estimate * k)^2) / sum(k)^2 over the
    clusters, so that the interval reflects the number of games, not of rounds. With one unit a
    cluster, it is the usual interval.
    """

    clusters: int = 0
    n: int = 0
    total: float = 0.0
    squares: float = 0.0  # sum of t^2
    cross: float = 0.0  # sum of t * k
    sizes: float = 0.0  # sum of k^2

    def add(self, t: float, k: int) -> None:
        """Count one cluster: the sum ``t`` of its ``k`` units (a cluster with no unit counts for nothing)."""
        if k <= 0:
            return
        self.clusters += 1
        self.n += k
        self.total += t
        self.squares += t * t
        self.cross += t * k
        self.sizes += k * k

    @property
    def estimate(self) -> float:
        return self.total / self.n if self.n else 0.0

    def variance(self) -> float:
        """The sandwich variance of the estimate (without a small-sample factor)."""
        if not self.n:
            return math.inf
        m = self.estimate
        return max(self.squares - 2 * m * self.cross + m * m * self.sizes, 0.0) / (self.n * self.n)

    def mean_interval(self, level: float = LEVEL) -> list[float] | None:
        """The t interval of a mean over the units, on clusters - 1 degrees of freedom (None below 2)."""
        g = self.clusters
        if g < 2:
            return None
        half = t_value(g - 1, level) * math.sqrt(self.variance() * g / (g - 1))
        return [self.estimate - half, self.estimate + half]

    def rate_interval(self, level: float = LEVEL) -> list[float]:
        """The Wilson interval of a rate on the effective number of units (Kish's design effect: the
        units that would give the same variance if independent); at a rate of 0 or 1, where the
        clusters do not tell the effect, on the number of clusters (the cautious end)."""
        p, var = self.estimate, self.variance()
        if not self.n:
            return [0.0, 1.0]
        effective = p * (1 - p) / var if 0 < p < 1 and var > 0 else float(self.clusters)
        effective = min(effective, float(self.n))
        return list(wilson_float(p * effective, effective, level))


def wilson_float(successes: float, n: float, level: float = LEVEL) -> tuple[float, float]:
    """The Wilson interval for an effective (fractional) count of successes among ``n`` units."""
    if n <= 0:
        return (0.0, 1.0)
    z = z_value(level)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n))
    lo = 0.0 if p <= 0 else max(0.0, centre - half)
    hi = 1.0 if p >= 1 else min(1.0, centre + half)
    return (lo, hi)
