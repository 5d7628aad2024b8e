"""How many playouts `check` plays, and where: chunks of games for each player count, in this
process or over a pool of processes, until each count has what it needs.

By default (``games=None``) a count plays until it has spent its share of a budget of moves
(``BUDGET`` moves in all, split evenly over the counts) to the nearest chunk (it stops when what
is left is less than half a chunk's moves, at the moves a game so far: a long game then
overshoots its share by no more than it undershoots; a chunk itself ends once its games have
played the whole share, so that games so long that ten of them pass it (Cheat's thousands of
moves) spend it to within a game), or has played ``MOST_GAMES`` games, or
more than a tenth of its playouts failed: the failure is then certain, and rule coverage says
nothing (dead rules are not reported), so further games would only count it again. With
``games=N`` every count plays exactly N games.

Whether a chunk counts is decided in game-index order from the chunks before it of the same
count, never from how fast they came back: the playouts, their findings and their figures are
the same for any number of processes (a pool may play a chunk past the stop; it is dropped, and
a count's second chunk waits until its first is back, which may have spent the whole share).
"""

from __future__ import annotations

import contextlib
import queue
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..simulation.parallel import quiet_pool
from .defaults import BUDGET, CHUNK, MOST_GAMES
from .playouts import prepare, run_chunk

FAILED_SHARE = 10  # a count stops early once more than 1 playout in FAILED_SHARE failed

Progress = Callable[[int, int, float], None]


@dataclass
class Count:
    """The playouts of one player count so far, and why they stopped (None: still playing)."""

    players: int
    most: int  # games at most
    share: int | None  # moves it may spend (None: no budget, play every game)
    games: int = 0
    moves: int = 0
    failed: int = 0
    stop: str | None = None  # "most" (all its games played), "budget" (its share spent), "failures" (certain)

    def take(self, result: dict[str, Any]) -> None:
        """Count a chunk's games (the next in index order) and decide whether to go on."""
        self.games += result["games"]
        self.moves += result["moves"]
        self.failed += sum(f["count"] for f in result["failures"])
        if self.games >= self.most:
            self.stop = "most"
        elif self.share is not None and self.spent_after(0):
            self.stop = "budget"
        elif self.share is not None and self.failed * FAILED_SHARE > self.games:
            self.stop = "failures"

    def spent_after(self, flying: int) -> bool:
        """Whether the share is spent, to the nearest chunk, once ``flying`` more chunks are played
        (each expected to take the moves a game so far): less than half a chunk's moves left."""
        assert self.share is not None and self.games
        return self.moves + (flying + 0.5) * CHUNK * self.moves / self.games >= self.share

    def spent(self) -> int:
        """Progress in moves (a count that has stopped has spent its share)."""
        assert self.share is not None
        return self.share if self.stop else min(self.moves, self.share)

    def worth_more(self, flying: int) -> bool:
        """Whether to start another chunk while ``flying`` of this count are being played: not when
        those are expected (at the moves a game so far) to spend what is left of the share."""
        if self.stop:
            return False
        if self.share is None or not flying:
            return True
        if not self.games:
            return False  # (the first chunk says how long a game is: it may spend the whole share)
        return not self.spent_after(flying)


def plan(counts: list[int], games: int | None, budget: int = BUDGET) -> list[Count]:
    """Each count's limits: ``games`` each, or (None) up to MOST_GAMES within its share of ``budget``."""
    if games is not None:
        return [Count(p, games, None) for p in counts]
    share = max(1, budget // max(1, len(counts)))
    return [Count(p, MOST_GAMES, share) for p in counts]


def run_playouts(
    path: str,
    sets: dict[str, Any],
    counts: list[int],
    games: int | None,
    seed: int | None,
    jobs: int,
    progress: Progress | None = None,
    max_moves: int | None = None,
    budget: int = BUDGET,
    ir: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], list[Count]]:
    """Every chunk's result that counts, by player count and game index (the same for any ``jobs``),
    and each count's tally; ``games`` None spends ``budget`` moves (see the module's text).
    ``progress(done, total, seconds)`` is told playouts, or with a budget moves; ``max_moves``
    bounds a round's moves instead of the game's own bound (`check --max-moves`); ``ir``, the
    file's IR when it was read already."""
    plans = plan(counts, games, budget)
    prepare(path, max_moves, ir, tuple(sorted(sets.items())))  # compiled once here: forked workers start with it
    start = time.perf_counter()

    def told() -> None:
        if progress:
            if games is None:
                progress(sum(c.spent() for c in plans), sum(c.share or 0 for c in plans), time.perf_counter() - start)
            else:
                progress(sum(c.games for c in plans), games * len(plans), time.perf_counter() - start)

    def task(c: Count, first: int) -> tuple:
        return (path, sets, c.players, first, min(first + CHUNK, c.most), seed, max_moves, c.share)

    results: list[dict[str, Any]] = []
    workers = min(jobs, sum(-(-c.most // CHUNK) for c in plans))
    if workers <= 1:
        for c in plans:
            while not c.stop and c.most:
                results.append(run_chunk(task(c, c.games)))
                c.take(results[-1])
                told()
    else:
        with contextlib.ExitStack() as stack:  # (the workers leave Ctrl-C to this process, and end with the block)
            pool = stack.enter_context(quiet_pool(workers))
            results = _spread(pool, workers, plans, task, told)
    return sorted(results, key=lambda r: (r["players"], r["start"])), plans


def _spread(pool: Any, workers: int, plans: list[Count], task: Callable, told: Callable[[], None]) -> list:
    """Chunks played by the pool, at most two a worker at a time, the counts taken in turn; each
    count's chunks are taken in index order as they come back, and those past its stop dropped."""
    done: queue.Queue = queue.Queue()
    flying: dict[int, deque] = {c.players: deque() for c in plans}  # per count, its chunks being played, in order
    sent = {c.players: 0 for c in plans}  # the next game to send, per count
    busy = 0  # chunks being played, those to be dropped too
    results: list[dict[str, Any]] = []
    turn = 0
    while True:
        while busy < 2 * workers:  # keep every worker playing (one chunk waiting each), the counts in turn
            ready = [c for c in plans if sent[c.players] < c.most and c.worth_more(len(flying[c.players]))]
            if not ready:
                break
            c = ready[turn % len(ready)]
            turn += 1
            first = sent[c.players]
            sent[c.players] = min(first + CHUNK, c.most)
            flying[c.players].append(
                pool.apply_async(run_chunk, (task(c, first),), callback=done.put, error_callback=done.put)
            )
            busy += 1
        if not busy:
            return results
        done.get()  # a chunk came back (or failed: its .get() below raises it)
        busy -= 1
        for c in plans:
            line = flying[c.players]
            while line and line[0].ready():
                result = line.popleft().get()
                if not c.stop:
                    results.append(result)
                    c.take(result)
                    told()
            if c.stop:
                line.clear()  # (still played by the pool: counted as busy until they come back)
