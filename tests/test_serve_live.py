"""`ruleset serve` under abuse and bad luck: no table frozen, no page holding up a table, no request
hanging the server (docs/serve.md, "No table frozen: time, work and connections").

Real servers on loopback: uvicorn in a thread (serve_support), or `ruleset serve` in a process of its
own when signals are the point. Every wait has a generous guard against a hang, never a speed limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from serve_support import get_json, receive, running, token, ws_client

from conftest import HANG, ROOT
from interpreter.play.web.limits import Limits

GUARD = HANG  # conftest's hang guard: only a hang takes this long


def until(check, what: str, guard: float = GUARD):
    """Poll ``check`` until it gives something true; fail (a hang) after ``guard`` seconds."""
    end = time.monotonic() + guard
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    pytest.fail(f"{what}: still not after {guard} s")


def play_moves(sock, count: int) -> int:
    """A person at ``sock`` plays its first offered move ``count`` times (or to the game's end); each
    move is answered with a newer state. The moves played."""
    msg, played = receive(sock), 0
    while played < count and not msg["finished"]:
        if not msg["moves"]:
            msg = receive(sock)  # (the agents move: their state comes)
            continue
        sock.send(json.dumps({"type": "move", "move": 0, "version": msg["version"]}))
        newer = receive(sock)
        assert newer["version"] > msg["version"] and not newer["failure"], "the move was answered"
        msg, played = newer, played + 1
    return played


def test_a_game_past_the_move_cap_stops_its_table_and_the_others_play_on(tmp_path):
    """Random agents playing a game longer than the server's cap: the lobby's request is answered
    at once, the table stops with a failure its seats are shown, and another table's person plays."""
    with running(tmp_path, limits=Limits(max_moves=50)) as server:
        runaway = server.create("shipped/poison", ["random"] * 4)
        other = server.create("shipped/poison", ["human", "random", "random", "random"], seed=2)
        with ws_client.connect(server.ws + token(runaway["spectator"])) as watcher:
            msg = receive(watcher)
            while not msg["failure"]:
                msg = receive(watcher)
            assert "50 moves" in msg["failure"] and "--max-moves" in msg["failure"]
            assert msg["version"] == 50 and not msg["finished"]
        with ws_client.connect(server.ws + token(other["seats"][0]["link"])) as person:
            assert play_moves(person, 6) == 6
        _, listed = get_json(server.http + "/api/tables")
        stopped = {t["table"]: t["failure"] for t in listed["tables"]}
        assert "--max-moves" in stopped[runaway["table"]]


def test_an_uploaded_game_longer_than_the_move_cap_stops_there(tmp_path):
    """An upload whose rounds are as many as the set-up's caps allow (its own default, no parameter
    given), at a server whose move cap is lower: its table of random agents is answered at once and
    stops at the cap, shown to its spectator."""
    text = (ROOT / "rulesets" / "poison.rules").read_text()
    endless = text.replace("param rounds = if players = 3 then 2 * players else players", "param rounds = 100")
    assert endless != text
    with running(tmp_path, limits=Limits(max_moves=400)) as server:
        req = urllib.request.Request(
            server.http + "/api/upload",
            data=json.dumps({"name": "endless.rules", "text": endless}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=GUARD) as reply:
            key = json.loads(reply.read())["key"]
        links = server.create(key, ["random"] * 3)
        with ws_client.connect(server.ws + token(links["spectator"])) as watcher:
            msg = receive(watcher)
            while not msg["failure"]:
                msg = receive(watcher)
        assert "400 moves" in msg["failure"] and msg["version"] == 400


def test_an_engine_error_stops_its_table_only(tmp_path, monkeypatch, capfd):
    """An agent that fails (a bug, injected here) stops its table with a failure shown to its seats
    (the error's kind: its text, which may hold a value of the game, goes to the server's log only);
    the server and its other tables go on."""
    from interpreter.agents.greedy import GreedyAgent

    def broken(self, view):
        raise RuntimeError("injected fault")

    monkeypatch.setattr(GreedyAgent, "choose", broken)
    with running(tmp_path) as server:
        bad = server.create("shipped/poison", ["human", "greedy", "greedy"], seed=3)
        good = server.create("shipped/poison", ["human", "random", "random", "random"], seed=2)
        with ws_client.connect(server.ws + token(bad["seats"][0]["link"])) as person:
            msg = receive(person)
            while not msg["failure"]:
                if msg["moves"]:
                    person.send(json.dumps({"type": "move", "move": 0, "version": msg["version"]}))
                msg = receive(person)
            assert "RuntimeError" in msg["failure"] and "bug of ruleset" in msg["failure"]
            assert "injected fault" not in msg["failure"] and "injected fault" in capfd.readouterr().err
            person.send(json.dumps({"type": "move", "move": 0, "version": msg["version"]}))
            assert "stopped" in receive(person, "error")["message"]
        with ws_client.connect(server.ws + token(good["seats"][0]["link"])) as person:
            assert play_moves(person, 5) == 5


def test_a_saved_table_that_cannot_be_opened_is_shown_stopped_and_the_server_starts(tmp_path):
    """Tables saved with an agent or rules file this server does not know, a broken set-up, or an
    agent's option an earlier server let through (mcts(c=nan)): the server starts, the lobby lists
    them as stopped with why, their links say so; a good one resumes."""
    with running(tmp_path) as server:
        good = server.create("shipped/poison", ["human", "random", "random"], seed=4)
        unknown = server.create("shipped/poison", ["human", "random", "random"], seed=5)
        gone = server.create("shipped/poison", ["random", "random", "random"], seed=6)
        nan = server.create("shipped/poison", ["human", "human", "human"], seed=7)
    folders = tmp_path / "tables"

    def edit(table, change):
        setup = json.loads((folders / table["table"] / "table.json").read_text())
        change(setup)
        (folders / table["table"] / "table.json").write_text(json.dumps(setup))

    edit(unknown, lambda setup: setup["seats"][1].update(agent="genius"))
    edit(gone, lambda setup: setup.update(rules=str(tmp_path / "deleted.rules")))
    edit(nan, lambda setup: setup.update(seats=[{"kind": "agent", "agent": "mcts(c=nan)"}] * 3))
    (folders / "garbled").mkdir()
    (folders / "garbled" / "table.json").write_text('{"rules": 3, "seats": "x"}')
    with running(tmp_path) as server:
        assert len(server.resumed) == 4 and all("not resumed" in p for p in server.resumed)
        _, listed = get_json(server.http + "/api/tables")
        stopped = {t["table"]: t["failure"] for t in listed["tables"]}
        assert stopped[good["table"]] is None
        assert all(stopped[t] for t in (unknown["table"], gone["table"], "garbled", nan["table"]))
        assert "unknown agent 'genius'" in stopped[unknown["table"]] and "nan" in stopped[nan["table"]]
        with ws_client.connect(server.ws + token(unknown["seats"][0]["link"])) as person:
            assert "not resumed" in receive(person, "error")["message"]
        with ws_client.connect(server.ws + token(nan["spectator"])) as watcher:
            assert "not resumed" in receive(watcher, "error")["message"]
        with ws_client.connect(server.ws + token(good["seats"][0]["link"])) as person:
            assert play_moves(person, 3) == 3


def test_a_person_is_answered_while_six_tables_of_slow_agents_think(tmp_path):
    """Six tables of mcts agents of 20,000 playouts a move (the most a server allows: seconds a move)
    fill the workers; the server's budget for an agent's move (here 0.05 s) ends each search, and a
    seventh table's person plays on."""
    slow = "mcts(iterations=20000)"
    with running(tmp_path, limits=Limits(agent_time=0.05)) as server:
        busy = [server.create("shipped/poison", [slow] * 3, seed=s, settle=False) for s in range(6)]
        mine = server.create("shipped/poison", ["human", slow, slow], seed=9, settle=False)
        with ws_client.connect(server.ws + token(mine["seats"][0]["link"])) as person:
            assert play_moves(person, 6) == 6
        assert all(server.tables.tables[t["table"]].version > 0 for t in busy), "the busy tables play too"


def spin(seconds: float) -> None:
    """Work for ``seconds`` of this thread's time (as an agent thinking does)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_a_table_that_had_little_of_the_workers_goes_before_one_that_had_much():
    """One worker: a table that used the worker for 0.3 s of work and a new table each ask for a slice while
    the worker is busy; the new table's slice runs first (in the order asked, the busy one would)."""
    from interpreter.play.web.workers import Workers

    async def main():
        workers, ran, busy = Workers(1), [], threading.Event()
        await workers.run("greedy", True, spin, 0.3)
        holding = asyncio.ensure_future(workers.run("other", True, busy.wait))
        await asyncio.sleep(0.05)
        later = [asyncio.ensure_future(workers.run(key, True, ran.append, key)) for key in ("greedy", "new")]
        await asyncio.sleep(0.05)
        busy.set()
        await asyncio.gather(holding, *later)
        workers.stop()
        return ran

    assert asyncio.run(main()) == ["new", "greedy"]


def test_a_worker_is_kept_for_quick_tables_while_the_others_think_for_seconds():
    """Two workers; a table of searching agents (which may think for seconds a move) asks for two
    slices, which hold the other worker and wait, though its last slice was short; a person's table
    of quick agents is played at once by the kept worker (first come, first served, it waited until
    an agent's thinking was over)."""
    from interpreter.play.web.workers import Workers

    async def main():
        workers, thinking = Workers(2), threading.Event()
        await workers.run("agents", False, lambda: None)
        slow = [asyncio.ensure_future(workers.run("agents", False, thinking.wait, GUARD)) for _ in range(2)]
        await asyncio.sleep(0.05)
        person = await asyncio.wait_for(workers.run("person", True, lambda: "played"), GUARD)
        thinking.set()
        await asyncio.gather(*slow)
        workers.stop()
        return person

    assert asyncio.run(main()) == "played"


def raw_websocket(port: int, path: str) -> socket.socket:
    """A websocket client that never reads: a bare socket with a small receive buffer, after the handshake."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.settimeout(GUARD)
    sock.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    reply = b""
    while b"\r\n\r\n" not in reply:
        reply += sock.recv(1)
    assert b" 101 " in reply
    return sock


def frame(text: str) -> bytes:
    """A client's text frame (masked, with a zero mask)."""
    data = text.encode()
    assert len(data) < 126
    return bytes([0x81, 0x80 | len(data), 0, 0, 0, 0]) + data


def test_a_page_that_never_reads_holds_up_nobody_and_is_closed(tmp_path):
    """A spectator that keeps asking for the state (thousands of refreshes) and never reads: seat 0
    still connects and its moves are answered; the spectator's page is closed once its messages
    cannot go out (here within 2 s, and refreshes answered as fast as asked, to get there soon)."""
    with running(tmp_path, limits=Limits(send_timeout=2, refresh_gap=0.001)) as server:
        links = server.create("shipped/poison", ["human", "random", "random", "random"], seed=2)
        port = int(server.http.rsplit(":", 1)[1])
        spy = token(links["spectator"])
        flood = raw_websocket(port, "/ws/" + spy)
        done = threading.Event()

        def refreshes():
            with contextlib.suppress(OSError):
                for _ in range(int(GUARD * 1000)):
                    if done.is_set():
                        return
                    flood.sendall(frame(json.dumps({"type": "refresh"})) * 5)
                    time.sleep(0.002)

        flooding = threading.Thread(target=refreshes)
        flooding.start()
        try:
            with ws_client.connect(server.ws + token(links["seats"][0]["link"])) as person:
                assert play_moves(person, 10) == 10
            until(
                lambda: not any(p.token == spy for p in server.hub.pages.get(links["table"], ())),
                "the spectator that does not read is closed",
            )
            with ws_client.connect(server.ws + token(links["seats"][0]["link"])) as person:
                assert play_moves(person, 5) == 5
        finally:
            done.set()
            flooding.join()
            flood.close()


def test_a_table_at_rest_builds_each_seats_state_once_however_many_pages_refresh(tmp_path, monkeypatch):
    """Nine pages (eight on the spectator's link, one on a seat's), each asking for the state again
    and again as fast as it reads it: a table at rest builds each seat's state once, and every page
    gets it. (A state costs milliseconds of the event loop's time: built at every refresh, a few
    dozen pages refreshing froze every table of the server, each move seconds late.)"""
    from interpreter.play.web import tables as tables_module

    built = []
    seat_view = tables_module.seat_view
    monkeypatch.setattr(tables_module, "seat_view", lambda state, seat: built.append(seat) or seat_view(state, seat))
    with running(tmp_path, limits=Limits(refresh_gap=0.001)) as server:
        links = server.create("shipped/poison", ["human", "random", "random", "random"], seed=3)
        version = server.tables.tables[links["table"]].version
        urls = [server.ws + token(links["spectator"])] * 8 + [server.ws + token(links["seats"][0]["link"])]
        got = []

        def refreshes(url):
            with ws_client.connect(url) as page:
                for _ in range(30):
                    page.send(json.dumps({"type": "refresh"}))
                    got.append(receive(page))

        flooding = [threading.Thread(target=refreshes, args=(url,)) for url in urls]
        for thread in flooding:
            thread.start()
        for thread in flooding:
            thread.join()
        assert len(got) == 9 * 30 and all(m["version"] == version for m in got)
        assert all(m["moves"] for m in got if m["view"]["seat"] == 0), "the seat is offered its moves"
        assert sorted(built) == [-1, 0], "one state built for the spectator, one for the seat"


def test_open_pages_are_capped_per_link_and_per_table(tmp_path):
    """The ninth page on one link is refused with a message (the default cap is 8); with caps of 2
    a link and 3 a table, the next page is refused until one closes."""
    with running(tmp_path) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], seed=1)
        url = server.ws + token(links["spectator"])
        with contextlib.ExitStack() as pages:
            assert all(receive(pages.enter_context(ws_client.connect(url)))["type"] == "state" for _ in range(8))
            with ws_client.connect(url) as ninth:
                assert "8 pages open" in receive(ninth, "error")["message"]
    with running(tmp_path, limits=Limits(max_link_sockets=2, max_table_sockets=3)) as server:
        spy, seat = server.ws + token(links["spectator"]), server.ws + token(links["seats"][0]["link"])
        with ws_client.connect(spy) as a, ws_client.connect(spy) as b, ws_client.connect(seat) as c:
            assert all(receive(p)["type"] == "state" for p in (a, b, c))
            with ws_client.connect(spy) as extra:
                assert "this link has 2 pages open" in receive(extra, "error")["message"]
            with ws_client.connect(seat) as extra:
                assert "this table has 3 pages open" in receive(extra, "error")["message"]
            a.close()
            until(lambda: len(server.hub.pages[links["table"]]) == 2, "a closed page is counted out")
            with ws_client.connect(seat) as again:
                assert receive(again)["type"] == "state"


def closed(sock: socket.socket, dribble: bytes = b"") -> bool:
    """Whether the server closes ``sock`` (within the hang guard) while it sends ``dribble`` a byte
    every 20 ms (a header sent a byte at a time), or nothing."""
    sock.settimeout(0.02)
    end, sent = time.monotonic() + GUARD, 0
    while time.monotonic() < end:
        try:
            if sock.recv(1024) == b"":
                return True
        except TimeoutError:
            pass
        except OSError:
            return True
        if dribble:
            with contextlib.suppress(OSError):
                sock.send(dribble[sent % len(dribble) :][:1])
            sent += 1
    return False


def test_a_connection_that_never_finishes_a_requests_head_is_closed_and_pages_stay(tmp_path):
    """A connection that sends nothing, one that sends a header a byte at a time, and one that does
    so for its second request are closed once their head is late (here 0.3 s); a page's websocket,
    quiet for longer, stays. (Such connections were held for good: a thousand of them, from one
    machine, shut the server to everyone at the usual limit of 1,024 open files.)"""
    with running(tmp_path, limits=Limits(head_time=0.3)) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], seed=1)
        port = int(server.http.rsplit(":", 1)[1])
        with ws_client.connect(server.ws + token(links["seats"][0]["link"])) as page:
            first = receive(page)
            silent = socket.create_connection(("127.0.0.1", port))
            slow = socket.create_connection(("127.0.0.1", port))
            slow.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            second = socket.create_connection(("127.0.0.1", port))
            second.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert b" 200 " in second.recv(100)
            with silent, slow, second:
                assert closed(silent) and closed(slow, b"X-Slow: 1\r\n") and closed(second, b"GET / HTTP/1.1\r\n")
            assert get_json(server.http + "/api/tables")[0] == 200
            page.send(json.dumps({"type": "refresh"}))
            assert receive(page)["version"] == first["version"], "the page, quiet for a second, is still open"


def test_one_address_holds_at_most_its_cap_of_connections(tmp_path):
    """With a cap of 4 connections an address: three pages and an idle connection are served, a
    fifth connection is answered 429 with the reason, and once a page closes the lobby answers."""
    with running(tmp_path, limits=Limits(max_client_sockets=4)) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], seed=1)
        port = int(server.http.rsplit(":", 1)[1])
        url = server.ws + token(links["spectator"])
        with contextlib.ExitStack() as held:
            pages = [held.enter_context(ws_client.connect(url)) for _ in range(3)]
            assert all(receive(p)["type"] == "state" for p in pages)
            held.enter_context(socket.create_connection(("127.0.0.1", port)))
            status, _ = get_json_or_text(server.http + "/api/tables")
            assert status == 429
            pages[0].close()
            until(lambda: get_json_or_text(server.http + "/api/tables")[0] == 200, "the lobby answers again")


def get_json_or_text(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=GUARD) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as err:
        text = err.read().decode()
        assert err.code != 429 or "this address has 4 connections open" in text
        return err.code, text


# ---- `ruleset serve` in a process of its own: restarts and signals -------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(data, *options) -> tuple[subprocess.Popen, str]:
    """`ruleset serve` on a free port; its process and address, once the lobby answers."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", "--port", str(port), "--data", str(data), *options],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    http = f"http://127.0.0.1:{port}"

    def answers():
        try:
            with urllib.request.urlopen(http + "/api/tables", timeout=GUARD) as reply:
                return json.loads(reply.read())
        except OSError:
            assert proc.poll() is None, f"the server stopped: {proc.stderr.read()}"
            return None

    try:
        until(answers, "the lobby of a server resuming a runaway table answers")
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return proc, http


def stops(proc: subprocess.Popen, sig: int) -> None:
    proc.send_signal(sig)
    try:
        proc.wait(timeout=GUARD)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"signal {sig} did not stop the server")


def test_a_runaway_saved_table_neither_freezes_the_restart_nor_outlives_a_signal(tmp_path):
    """A table of random agents with a billion rounds, saved by an earlier server: at every restart
    the lobby answers while it replays and plays in the background; Ctrl-C (SIGINT) and SIGTERM stop
    the server while it plays, a page that never reads open; with a small cap it is shown stopped."""
    from interpreter.play.web.store import TableStore

    store = TableStore(tmp_path)
    seats = [{"kind": "agent", "agent": "random"}] * 4
    setup = {"rules": str(ROOT / "rulesets" / "poison.rules"), "ruleset": "Poison", "players": 4, "seed": 1}
    store.create("runaway", {**setup, "params": {"rounds": "1000000000"}, "seats": seats, "spectator": "spy"})
    for sig in (signal.SIGINT, signal.SIGTERM):
        proc, http = serve(tmp_path)
        try:
            flood = raw_websocket(int(http.rsplit(":", 1)[1]), "/ws/spy")
            flood.sendall(frame(json.dumps({"type": "refresh"})) * 500)
            stops(proc, sig)
            flood.close()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stderr.close()  # (no ResourceWarning)
    proc, http = serve(tmp_path, "--max-moves", "2000")
    try:
        listed = until(
            lambda: [t for t in get_json(http + "/api/tables")[1]["tables"] if t["failure"]],
            "the runaway table stops at the cap",
        )
        assert [t["table"] for t in listed] == ["runaway"]
        stops(proc, signal.SIGINT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stderr.close()


def test_the_caps_are_serve_options_and_a_cap_must_be_a_number_above_zero():
    """`ruleset serve --help` names every cap with its default; 0, a negative, nan or a word is refused."""
    from conftest import run_cli

    text = " ".join(run_cli("serve", "--help").stdout.split())
    for flag in ("--max-moves", "--agent-time", "--workers", "--max-link-sockets", "--max-table-sockets"):
        assert flag in text
    assert "stops (default 100000)" in text and "per move (default 5.0)" in text
    for bad in ("0", "-3", "nan", "many"):
        result = run_cli("serve", "--max-moves", bad)
        assert result.returncode == 2 and "--max-moves" in result.stderr and "Traceback" not in result.stderr
