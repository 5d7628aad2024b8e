"""Estimates with their intervals: Wilson intervals for rates, t intervals for means, and the
differences between two runs (Newcombe for rates, Welch for means) that `compare` marks.

Everything here is plain arithmetic on counts and sums (no numpy, no scipy), so a run's
statistics are the same on every machine. Intervals are 95% unless a caller asks otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
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
    if n <= 0:
        return (0.0, 1.0)
    z = z_value(level)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


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

    def add(self, x: float) -> None:
        """Count one value."""
        self.n += 1
        self.total += x
        self.squares += x * x
        self.low = min(self.low, x)
        self.high = max(self.high, x)

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


def rate_difference(k1: int, n1: int, k2: int, n2: int, level: float = LEVEL) -> dict[str, float | bool | list[float]]:
    """Rate 2 minus rate 1 with Newcombe's hybrid score interval; significant when it excludes 0."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1, level)
    l2, u2 = wilson(k2, n2, level)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return {"difference": d, "ci": [lo, hi], "significant": lo > 0 or hi < 0}


def mean_difference(a: dict, b: dict, level: float = LEVEL) -> dict[str, float | bool | list[float] | None]:
    """Mean of b minus mean of a (summaries with mean, sd, n) with Welch's t interval; significant
    when the interval excludes 0 (never with fewer than 2 values a side)."""
    d = b["mean"] - a["mean"]
    if a["n"] < 2 or b["n"] < 2:
        return {"difference": d, "ci": None, "significant": False}
    va, vb = a["sd"] ** 2 / a["n"], b["sd"] ** 2 / b["n"]
    se = math.sqrt(va + vb)
    if se == 0:
        return {"difference": d, "ci": [d, d], "significant": d != 0}
    df = max(1, math.floor((va + vb) ** 2 / (va**2 / (a["n"] - 1) + vb**2 / (b["n"] - 1))))
    half = t_value(df, level) * se
    return {"difference": d, "ci": [d - half, d + half], "significant": abs(d) > half}
