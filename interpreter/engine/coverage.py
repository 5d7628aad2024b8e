"""The rule counts of a Game compiled with coverage (``game.coverage``): how often each rule held,
by its position ("file:line:col"), kept in a list indexed by rule.

Each counted rule gets a small integer when it is compiled (``RuleCounts.slot``); its closure
adds to ``counts[i]`` in place, and the first count since it was 0 puts ``i`` on ``touched``, so
that the rules counted, and the order they were first counted in, are known without a dict
store per count. Every counting closure does it inline (a call per count is what the list saves)::

    n = counts[i]
    if not n:
        touched.append(i)
    counts[i] = n + 1

The same numbers are read by position as a Counter is: a position never counted reads 0, and
iterating gives the positions counted (not 0), in the order they were first counted (as a Counter
filled by the same counts would).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, MutableMapping


class RuleCounts(MutableMapping):
    """Rule position -> times counted. ``counts`` (index -> count) and ``touched`` (the indexes
    whose count is not 0, in the order each became so) are the lists the counting closures hold:
    they are changed in place, never replaced."""

    def __init__(self) -> None:
        self.names: list[str] = []  # index -> position
        self.index: dict[str, int] = {}  # position -> index
        self.counts: list[int] = []
        self.touched: list[int] = []

    def slot(self, at: str) -> int:
        """The index of the count of ``at``, given when first asked."""
        i = self.index.get(at)
        if i is None:
            i = self.index[at] = len(self.names)
            self.names.append(at)
            self.counts.append(0)
        return i

    def __getitem__(self, at: str) -> int:
        i = self.index.get(at)
        return 0 if i is None else self.counts[i]

    def __setitem__(self, at: str, n: int) -> None:
        i = self.slot(at)
        was = self.counts[i]
        self.counts[i] = n
        if n and not was:
            self.touched.append(i)
        elif was and not n:
            self.touched.remove(i)

    def __delitem__(self, at: str) -> None:
        if not self[at]:
            raise KeyError(at)
        self[at] = 0

    def __contains__(self, at: object) -> bool:
        return bool(self[at])  # type: ignore[index]

    def __iter__(self) -> Iterator[str]:
        names = self.names
        return iter([names[i] for i in self.touched])

    def __len__(self) -> int:
        return len(self.touched)

    def __repr__(self) -> str:
        return f"RuleCounts({dict(self.items())!r})"

    def clear(self) -> None:
        """Every count back to 0 (in place)."""
        counts = self.counts
        for i in self.touched:
            counts[i] = 0
        self.touched.clear()

    def update(self, other: Mapping[str, int] | Iterable[str] = (), /, **more: int) -> None:  # type: ignore[override]
        """Add counts, as Counter.update does: a mapping's counts, or 1 for each position listed."""
        pairs = other.items() if isinstance(other, Mapping) else ((at, 1) for at in other)
        for at, n in (*pairs, *more.items()):
            self[at] += n

    def snapshot(self) -> tuple[list[int], list[int]]:
        """The counts as they are, for ``restore`` (two list copies: cheaper than a Counter's)."""
        return self.counts.copy(), self.touched.copy()

    def restore(self, snapshot: tuple[list[int], list[int]]) -> None:
        """The counts set back to a ``snapshot`` (in place; a rule numbered since reads 0)."""
        counts, touched = snapshot
        mine = self.counts
        mine[: len(counts)] = counts
        mine[len(counts) :] = [0] * (len(mine) - len(counts))
        self.touched[:] = touched

    def copy(self) -> Counter:
        """The counts as a Counter (in the order they were first counted)."""
        return Counter(dict(self.items()))
