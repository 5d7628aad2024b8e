"""A `ruleset serve` server on loopback for the tests: the real app on uvicorn, in a thread."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import HANG, wait_until

pytest.importorskip("starlette", reason="the web server needs its packages: pip install '.[web]'")
uvicorn = pytest.importorskip("uvicorn", reason="the web server needs its packages: pip install '.[web]'")
ws_client = pytest.importorskip("websockets.sync.client", reason="pip install '.[web]' (websockets)")

from interpreter.play.web.app import build_app  # noqa: E402
from interpreter.play.web.catalogue import Catalogue  # noqa: E402
from interpreter.play.web.connections import config as server_config  # noqa: E402
from interpreter.play.web.limits import Limits  # noqa: E402
from interpreter.play.web.replays import ReplayBook  # noqa: E402
from interpreter.play.web.store import TableStore  # noqa: E402
from interpreter.play.web.tables import Tables  # noqa: E402


class Server:
    """A running server: its address, its tables (to look at the state the pages are sent)."""

    def __init__(
        self,
        data: Path,
        replays: ReplayBook | None = None,
        files: tuple[str, ...] = (),
        limits: Limits | None = None,
        hosts: tuple[str, ...] = (),
        pings: bool = True,
        proxies: tuple[str, ...] = (),
    ):
        self.store = TableStore(data)
        self.tables = Tables(Catalogue(list(files), self.store.uploads, limits), self.store, limits)
        if replays:
            self.app = build_app(None, replays, hosts, proxies=proxies)
        else:
            self.app = build_app(self.tables, hosts=hosts, proxies=proxies)
        self.hub = self.app.state.hub
        config = server_config(
            self.app,
            limits or Limits(),
            proxies,
            host="127.0.0.1",
            port=0,
            log_level="warning",
            timeout_graceful_shutdown=2,
            ws_ping_interval=20.0 if pings else None,  # (a keepalive ping draws from the `random` module)
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        wait_until(lambda: self.server.started or not self.thread.is_alive(), "the test server to start", every=0.02)
        if not self.server.started:
            raise RuntimeError("the test server did not start")
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.http = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws/"
        # (the saved tables replay in the background: wait for them)
        wait_until(self.hub.resumed.is_set, "the saved tables to be replayed", every=0.02)
        self.resumed = self.hub.problems
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=HANG)
        self.store.close_all()

    def create(
        self,
        rules: str,
        seats: list[str],
        params: dict[str, str] | None = None,
        seed: int = 1,
        settle: bool = True,
    ) -> dict[str, Any]:
        """A table by the lobby's route: seats are 'human' or an agent's name. The lobby is answered
        before the agents move (in the background); with ``settle`` this waits until they have, so
        that a test sees the table at rest (a person's turn, or the game over)."""

        body = {
            "rules": rules,
            "players": len(seats),
            "seed": seed,
            "params": params or {},
            "seats": [{"kind": "human"} if s == "human" else {"kind": "agent", "agent": s} for s in seats],
        }
        links = post(f"{self.http}/api/tables", body)
        if settle:
            wait_until(lambda: links["table"] not in self.hub.drivers, "the table's agents to come to rest", every=0.01)
        return links


@contextlib.contextmanager
def running(
    data: Path,
    replays: ReplayBook | None = None,
    files: tuple[str, ...] = (),
    limits: Limits | None = None,
    hosts: tuple[str, ...] = (),
    pings: bool = True,
    proxies: tuple[str, ...] = (),
) -> Iterator[Server]:
    """A server on loopback; ``files`` are offered as ``file/0``, ``file/1``... (as `serve FILES` does);
    ``limits``, ``hosts`` and ``proxies`` as `serve`'s options give them; ``pings`` False: no
    websocket keepalive pings."""
    with Server(data, replays, files, limits, hosts, pings, proxies) as server:
        yield server


def post(url: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    """POST JSON as the lobby does (Content-Type: application/json); the reply's JSON (an HTTPError if refused)."""
    import urllib.request

    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **(headers or {})}
    req = urllib.request.Request(url, data=data, method="POST", headers=headers)
    with urllib.request.urlopen(req, timeout=HANG) as reply:
        return json.loads(reply.read())


def get_json(url: str) -> tuple[int, Any]:
    """GET a JSON reply: its status and body (an error's too)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def recorded_games(rules: str = "poison", players: int = 3, seed: int = 4) -> ReplayBook:
    """A record of a game of random agents, as ``serve --replay`` reads it."""
    import interpreter
    from interpreter.agents import SeatView, make_agents
    from interpreter.engine.records import record

    game = interpreter.load(rules)
    state = game.new_game(players, seed, {"rounds": "1"} if rules == "poison" else None)
    agents = make_agents("random", players, seed)
    while not state.is_over:
        state.apply(agents[state.current_player].choose(SeatView(state, state.current_player)))
    return ReplayBook([(record(state, [a.name for a in agents]), game)])


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def receive(sock: Any, kind: str = "state") -> dict[str, Any]:
    """The next message of a kind (errors before it are returned if kind is 'error')."""
    while True:
        msg = json.loads(sock.recv(timeout=HANG))
        if msg["type"] == kind:
            return msg
