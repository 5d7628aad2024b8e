"""The tables' open pages (websockets), and who plays each table's moves: no table frozen, no page
holding one up.

- A table's engine work (its agents' moves, its replay after a restart, the states it sends) runs
  in a worker thread (``workers.py``), in slices, under the table's lock; one driver task per table
  asks for the slices, and sends every open page its seat's state when the table comes to rest
  (a person must choose, the game is over or has stopped).
- Every page has its own bounded queue of messages, filled outside the table's lock and emptied by
  its own sender task: a page that does not read holds up nobody. A queued state is replaced by a
  newer one; a page whose queue overflows, or whose message takes longer than ``send_timeout`` to
  go out, is closed. A page's ``refresh`` messages are coalesced (one state at a time, at most one
  each ``refresh_gap``). Open pages are capped per link and per table.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .failures import stopped
from .limits import Limits
from .rulebooks import Rulebooks
from .tables import Table, Tables
from .workers import Workers

CLOSE_GONE = 4404  # no table has this link
CLOSE_FULL = 4429  # too many pages open on this link or table
CLOSE_SLOW = 4408  # the page did not read its messages
SLICE = 0.05  # seconds of a table's moves before the other tables' next slices


class Page:
    """One open page: its socket, table, seat and link, and the messages waiting to go out to it."""

    def __init__(self, ws: WebSocket, table: Table, seat: int, token: str):
        self.ws, self.table, self.seat, self.token = ws, table, seat, token
        self.queue: deque[tuple[bool, str]] = deque()  # (a state?, its text)
        self.refresh = True  # a state computed afresh is owed (the first one, or a refresh asked for)
        self.wake = asyncio.Event()
        self.wake.set()
        self.behind = False  # closed by the server: it did not read its messages
        self.last_refresh = 0.0

    def put(self, text: str, state: bool, limit: int) -> None:
        """Queue a message (a state replaces a queued one: only the newest matters); behind when full."""
        if state:
            self.queue = deque(item for item in self.queue if not item[0])
        if len(self.queue) >= limit:
            self.behind = True
        else:
            self.queue.append((state, text))
        self.wake.set()


class Hub:
    """The open pages of each table, each table's lock and driver, and the worker threads."""

    def __init__(self, tables: Tables | None, limits: Limits | None = None):
        self.tables = tables
        self.limits = limits or Limits()
        self.workers = Workers(self.limits.workers)
        self.pages: dict[str, set[Page]] = {}  # table id -> its open pages
        self.locks: dict[str, asyncio.Lock] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()  # tables with a move made while their driver ran
        self.problems: list[str] = []  # saved tables that did not resume, as the server says at start
        self.resuming = 0  # saved tables still being replayed
        self.resumed = asyncio.Event()
        self.rulebooks = Rulebooks()

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    # ---- the tables' work ---------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """The server's life: saved tables replayed in the background once it answers; workers stopped at the end."""
        if self.tables is not None:
            saved = self.tables.open_saved()
            for table_id, (_, why) in self.tables.broken.items():
                self._problem(f"table {table_id} {why}")
            self.resuming = len(saved)
            for table, moves in saved:
                self.drivers[table.id] = asyncio.create_task(self._drive(table, moves))
        if not self.resuming:
            self.resumed.set()
        try:
            yield
        finally:
            self.workers.stop()

    def _problem(self, text: str) -> None:
        """A saved table that did not resume: kept (the tests read them) and said on stderr."""
        self.problems.append(text)
        print(text, file=sys.stderr, flush=True)

    def kick(self, table: Table) -> None:
        """Let the table's agents (and held choices) move, then tell its pages: now, in the background."""
        if table.id in self.drivers:
            self.again.add(table.id)
        else:
            self.drivers[table.id] = asyncio.create_task(self._drive(table))

    async def _drive(self, table: Table, saved: list[dict[str, Any]] | None = None) -> None:
        """Slices of the table's moves in a worker until it comes to rest; then its pages' states."""
        limits, lock = self.limits, self.lock(table)
        try:
            if saved is not None:
                try:
                    async with lock:
                        problem = await self.workers.run(table.id, table.quick, self.tables.replay, table, saved)
                    if problem:
                        self._problem(problem)
                finally:
                    self.resuming -= 1
                    if not self.resuming:
                        self.resumed.set()
            while True:
                self.again.discard(table.id)
                async with lock:
                    seats = {page.seat for page in self.pages.get(table.id, ())}
                    more, texts = await self.workers.run(table.id, table.quick, self._slice, table, seats)
                if texts is not None:
                    for page in list(self.pages.get(table.id, ())):
                        if page.seat in texts:
                            page.put(texts[page.seat], True, limits.send_queue)
                            page.refresh = False
                if not more and table.id not in self.again:
                    return
        except Exception as err:  # (a bug in building a state: the table stops, the server goes on)
            table.failure = stopped(table.id, err)
        finally:
            self.drivers.pop(table.id, None)
            for page in self.pages.get(table.id, ()):
                page.wake.set()  # (a page that opened or asked meanwhile gets its state now)

    def _slice(self, table: Table, seats: set[int]) -> tuple[bool, dict[int, str] | None]:
        """(In a worker.) A slice of the table's moves; at rest, each seat's state as it will be sent."""
        more = table.pump(SLICE, self.limits.max_moves, self.limits.agent_time)
        return more, None if more else {seat: table.text(seat) for seat in seats}

    # ---- the pages ----------------------------------------------------------------------------------
    def admit(self, table: Table, token: str) -> str | None:
        """Why one more page may not open on this link or table (None: it may)."""
        pages = self.pages.get(table.id, set())
        if sum(page.token == token for page in pages) >= self.limits.max_link_sockets:
            return f"this link has {self.limits.max_link_sockets} pages open, the most a server allows: close one"
        if len(pages) >= self.limits.max_table_sockets:
            return f"this table has {self.limits.max_table_sockets} pages open, the most a server allows"
        return None

    async def send_loop(self, page: Page) -> None:
        """Send a page its messages, one at a time, each within ``send_timeout``; close it when it falls behind."""
        limits, ws = self.limits, page.ws
        try:
            while True:
                await page.wake.wait()
                page.wake.clear()
                while (page.queue or (page.refresh and page.table.id not in self.drivers)) and not page.behind:
                    if page.queue:
                        text = page.queue.popleft()[1]
                    else:  # (not while the table's agents move: its driver sends the state at rest)
                        await asyncio.sleep(page.last_refresh + limits.refresh_gap - time.monotonic())
                        page.refresh, page.last_refresh = False, time.monotonic()
                        async with self.lock(page.table):  # (built once a state: a refresh of a state sent is free)
                            text = page.table.cached(page.seat) or await self.workers.run(
                                page.table.id, True, page.table.text, page.seat
                            )  # (a build, in a worker: a seat's view may take long, or fail)
                    await asyncio.wait_for(ws.send_text(text), limits.send_timeout)
                if page.behind:
                    break
        except TimeoutError:
            page.behind = True
        except (WebSocketDisconnect, RuntimeError, OSError):  # the page closed: it gets its state when it reconnects
            return
        if page.behind:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError, TimeoutError):
                await asyncio.wait_for(ws.close(CLOSE_SLOW, "this page did not read its messages"), limits.send_timeout)
