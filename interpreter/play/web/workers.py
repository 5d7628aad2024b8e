"""The engine's work of the tables, off the event loop: a few worker threads.

The event loop only reads and writes sockets; every move of an agent, every replay after a restart
and every state computed for a broadcast runs in a ``Workers`` thread. The threads are daemons of
their own (not asyncio's default executor, which a stopping server waits for): Ctrl-C stops the
server whatever a table is doing. A table's work comes in short slices (``hub.SLICE``), each
queued behind the other tables' slices, so one table that plays on and on does not starve the rest.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class Workers:
    """Daemon threads that run the tables' engine work, in the order it was asked for."""

    def __init__(self, count: int):
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.threads = [
            threading.Thread(target=self._work, name=f"ruleset-table-{i}", daemon=True) for i in range(max(1, count))
        ]
        self.started = False

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread; its result (or its exception) once it is done."""
        if not self.started:
            self.started = True
            for thread in self.threads:
                thread.start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self.jobs.put((loop, future, fn, args))
        return await future

    def stop(self) -> None:
        """Let every thread end after its current job (they are daemons: the process need not wait)."""
        for _ in self.threads:
            self.jobs.put(None)

    def _work(self) -> None:
        while (job := self.jobs.get()) is not None:
            loop, future, fn, args = job
            try:
                result, error = fn(*args), None
            except BaseException as err:  # handed to the awaiting coroutine, which decides
                result, error = None, err
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
