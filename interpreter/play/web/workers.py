"""The engine's work of the tables, off the event loop: a few worker threads, shared fairly.

The event loop only reads and writes sockets; every move of an agent, every replay after a restart
and every state computed for a broadcast runs in a ``Workers`` thread. The threads are daemons of
their own (not asyncio's default executor, which a stopping server waits for): Ctrl-C stops the
server whatever a table is doing. A table's work comes in short slices (``hub.SLICE``), but one
agent's move is never cut (``mcts`` may think for ``--agent-time`` seconds), so a slice may last
seconds. Two rules keep any number of such tables from holding up a person at another table:

- **Fair shares.** Each job names its table; the next job started is the one whose table has had
  the least of the workers' time so far (a table new or back from rest counts from the time of the
  job last started, so it neither jumps ahead for good nor waits behind the others' past). A table
  that waits for a person uses little, so its next slice goes before those of tables of agents that
  play on and on.
- **A worker kept for quick tables.** With two workers or more, the first one takes only the jobs
  of tables whose agents do not search (``quick``: no agent that samples deals or plays games out,
  which may think for seconds a move) and whose last slice was short (``LIGHT``): while every other
  worker thinks for an agent, a person's table's slice starts at once. (Whether the agents search
  is known from the table's set-up: a table whose searching agents happen to have a short slice,
  with one legal move each, must not then take the kept worker for seconds.)
"""

from __future__ import annotations

import asyncio
import itertools
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
LIGHT = 0.25  # seconds of a thread's time: a table whose last slice took more waits for a worker of any kind


class Workers:
    """Daemon threads that run the tables' engine work, the least served table first."""

    def __init__(self, count: int):
        self.lock = threading.Condition()
        self.waiting: list[tuple[int, str, bool, Any]] = []  # (order asked, table, quick, the job)
        self.used: dict[str, float] = {}  # seconds of a thread's time each table was given (from its start)
        self.clock = 0.0  # the share of the job last started: where a table new or back from rest counts from
        self.long: set[str] = set()  # tables whose last slice took more than LIGHT
        self.order = itertools.count()
        self.stopping = False
        count = max(1, count)
        self.threads = [
            threading.Thread(target=self._work, args=(i == 0 and count > 1,), name=f"ruleset-table-{i}", daemon=True)
            for i in range(count)
        ]
        self.started = False

    async def run(self, key: str, quick: bool, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)``, work of table ``key`` (``quick``: whose agents do not search), in a worker
        thread; its result (or its exception) once done."""
        if not self.started:
            self.started = True
            for thread in self.threads:
                thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self.lock:
            self.waiting.append((next(self.order), key, quick, (loop, future, fn, args)))
            self.lock.notify_all()
        return await future

    def stop(self) -> None:
        """Let every thread end after its current job (they are daemons: the process need not wait)."""
        with self.lock:
            self.stopping = True
            self.lock.notify_all()

    def _next(self, short_only: bool) -> tuple[str, Any] | None:
        """(Under the lock.) Take the waiting job whose table had the least time (the oldest of equals)."""
        best = None
        for i, (order, key, quick, _) in enumerate(self.waiting):
            if short_only and (not quick or key in self.long):
                continue
            rank = (max(self.used.get(key, 0.0), self.clock), order)
            if best is None or rank < best[0]:
                best = (rank, i)
        if best is None:
            return None
        (share, _), i = best
        _, key, _, job = self.waiting.pop(i)
        self.clock = self.used[key] = share
        return key, job

    def _work(self, short_only: bool) -> None:
        while True:
            with self.lock:
                while not self.stopping and (found := self._next(short_only)) is None:
                    self.lock.wait()
                if self.stopping:
                    return
            key, (loop, future, fn, args) = found
            start = time.thread_time()  # (the job's own time: not the time it waited for the others' threads)
            try:
                result, error = fn(*args), None
            except BaseException as err:  # handed to the awaiting coroutine, which decides
                result, error = None, err
            spent = time.thread_time() - start
            with self.lock:
                self.used[key] += spent
                (self.long.add if spent > LIGHT else self.long.discard)(key)
                self.lock.notify_all()  # (the kept worker may take a job now short again)
            try:
                loop.call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:  # the loop is closed: the server has stopped
                return


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)
