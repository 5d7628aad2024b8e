"""`ruleset serve`'s journal: a move a player saw accepted is never lost, by real faults.

A torn last line, a full disk (a real 64 KiB tmpfs when this process may mount one, and always
an injected writer that takes part of a line and then refuses the rest with ENOSPC), and a real
`ruleset serve` process killed with SIGKILL at random points while a client plays. The server is
always a real one on loopback, spoken to by the protocol a page speaks.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serve_support import receive, running, token, ws_client
from websockets.exceptions import ConnectionClosed

from conftest import HANG, ROOT, run_cli, wait_until
from interpreter.engine.records import dumps
from interpreter.play.web import store as store_module

POISON = "shipped/poison"
KEDRIC = "shipped/poison-kedric-winks"
RECORD_KEYS = ("kind", "label", "from")  # what a page's move has beyond the journal's line
JSON = {"Content-Type": "application/json"}  # (the server takes no other kind of post)


def journal(data: Path, table_id: str) -> bytes:
    path = data / "tables" / table_id / "moves.jsonl"
    return path.read_bytes() if path.exists() else b""


def lines(data: Path, table_id: str) -> list[dict]:
    return [json.loads(line) for line in journal(data, table_id).splitlines()]


def as_line(seat: int, offered: dict) -> dict:
    """The journal's line for a move a page was offered."""
    return {"player": seat, **{k: v for k, v in offered.items() if k not in RECORD_KEYS}}


def send_move(sock, message: dict, index: int = 0) -> None:
    sock.send(json.dumps({"type": "move", "move": index, "version": message["version"]}))


def play(socks: list, count: int, rng: random.Random, acked: list[dict] | None = None) -> list[dict]:
    """People at every seat move ``count`` times (at random); each move's line once its mover saw it
    accepted (the new state) goes to ``acked``. Returns each seat's last state."""
    last = [receive(s) for s in socks]
    for _ in range(count):
        ready = [i for i, m in enumerate(last) if m["moves"] and not m["finished"]]
        if not ready:
            break
        i = rng.choice(ready)
        index = rng.randrange(len(last[i]["moves"]))
        send_move(socks[i], last[i], index)
        seen = [receive(s) for s in socks]
        assert seen[i]["version"] == last[i]["version"] + 1, "the move was accepted"
        if acked is not None:
            acked.append(as_line(i, last[i]["moves"][index]))
        last = seen
    return last


@contextlib.contextmanager
def connect_all(ws: str, links: dict):
    """A socket at every seat of a table (``ws``: the server's websocket address)."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(ws_client.connect(ws + token(s["link"]))) for s in links["seats"]]


def test_a_torn_last_line_is_cut_off_before_the_next_move_and_two_restarts_lose_nothing(tmp_path):
    """A crash mid-write leaves half a line: the restart plays the whole lines, writes the next moves
    after them (not after the fragment), and the restart after that has every move."""
    rng = random.Random(1)
    acked: list[dict] = []
    with running(tmp_path) as server:
        links = server.create(POISON, ["human"] * 3, {"rounds": "1"})
        table_id = links["table"]
        with connect_all(server.ws, links) as socks:
            play(socks, 10, rng, acked)
    whole = journal(tmp_path, table_id)
    with (tmp_path / "tables" / table_id / "moves.jsonl").open("ab") as file:
        file.write(whole.splitlines(keepends=True)[-1][:17])  # what a crash while writing a line leaves
    with running(tmp_path) as server:
        assert server.resumed == []
        assert server.tables.tables[table_id].version == 10
        with connect_all(server.ws, links) as socks:
            play(socks, 5, rng, acked)
    assert journal(tmp_path, table_id).startswith(whole), "the fragment was cut off, the whole lines kept"
    assert lines(tmp_path, table_id) == acked
    with running(tmp_path) as server:
        assert server.resumed == []
        table = server.tables.tables[table_id]
        assert table.version == 15 and table.failure is None, "no move rolled back"


MOVE = st.fixed_dictionaries(
    {"player": st.integers(0, 5), "move": st.sampled_from(["play", "draw"]), "value": st.integers(-9, 99)}
) | st.fixed_dictionaries({"hold": st.fixed_dictionaries({"player": st.integers(0, 5), "card": st.text(max_size=5)})})


@given(st.lists(MOVE, max_size=8), st.data())
@settings(max_examples=200, deadline=None)
def test_a_journal_cut_anywhere_reads_as_its_whole_lines(moves, data):
    """Wherever a crash cuts the journal, what is read is the moves written whole, in order, and
    the length to keep is exactly theirs (nothing after a fragment is ever read as a move)."""
    lines_ = [(dumps(m) + "\n").encode() for m in moves]
    whole = b"".join(lines_)
    cut = data.draw(st.integers(0, len(whole)))
    read, size = store_module.read_journal(whole[:cut])
    kept = [n for n in range(len(lines_) + 1) if len(b"".join(lines_[:n])) <= cut][-1]
    assert read == moves[:kept] and size == len(b"".join(lines_[:kept]))


def test_a_line_before_the_last_that_is_not_a_move_stops_the_table_and_nothing_is_cut(tmp_path):
    """Not a torn tail (whole lines follow it): the table is shown stopped at that line, with what
    to do, and the journal is kept byte for byte for a person to mend."""
    with running(tmp_path) as server:
        links = server.create(POISON, ["random"] * 3, {"rounds": "1"})
    path = tmp_path / "tables" / links["table"] / "moves.jsonl"
    broken = path.read_bytes().replace(b"}\n", b"}garbage\n", 1)
    path.write_bytes(broken)
    with running(tmp_path) as server:
        assert server.resumed == [
            f"table {links['table']}: line 1 of moves.jsonl is not a move (the lines after it are kept): "
            "mend or remove it, then restart the server"
        ]
        with ws_client.connect(server.ws + token(links["spectator"])) as watcher:
            assert "line 1 of moves.jsonl" in receive(watcher)["failure"]
    assert path.read_bytes() == broken


@pytest.fixture
def full_disk(monkeypatch):
    """An injected writer: while ``armed`` says so for some bytes, it writes half of them, then
    raises ENOSPC (as a disk that fills up mid-line does)."""
    real = store_module._write_all
    fault = {"armed": lambda data: False, "refused": 0}

    def write_all(fd: int, data: bytes) -> None:
        if fault["armed"](data):
            fault["refused"] += 1
            os.write(fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, data)

    monkeypatch.setattr(store_module, "_write_all", write_all)
    return fault


def test_a_move_the_disk_refuses_is_refused_to_its_mover_and_nothing_else_changes(tmp_path, full_disk):
    """Disk full: the mover is told, the table and the journal are as they were (the half line cut
    back off), the same move is accepted once there is room, and a restart has it once."""
    rng = random.Random(2)
    acked: list[dict] = []
    with running(tmp_path) as server:
        links = server.create(POISON, ["human"] * 3, {"rounds": "1"})
        table_id = links["table"]
        table = server.tables.tables[table_id]
        with connect_all(server.ws, links) as socks:
            last = play(socks, 6, rng, acked)
            before, version = journal(tmp_path, table_id), table.version
            mover = table.state.current
            full_disk["armed"] = lambda data: True
            send_move(socks[mover], last[mover])
            refusal = receive(socks[mover], "error")["message"]
            assert "your move is not played" in refusal and "No space left on device" in refusal
            assert table.version == version and journal(tmp_path, table_id) == before, "nothing played, nothing kept"
            send_move(socks[mover], last[mover])
            assert "not played" in receive(socks[mover], "error")["message"], "refused again while the disk is full"
            full_disk["armed"] = lambda data: False
            send_move(socks[mover], last[mover])  # the same move, once there is room
            acked.append(as_line(mover, last[mover]["moves"][0]))
            assert receive(socks[mover])["version"] == version + 1
    assert full_disk["refused"] == 2
    assert lines(tmp_path, table_id) == acked, "every accepted move once, no refused one"
    with running(tmp_path) as server:
        assert server.resumed == [] and server.tables.tables[table_id].version == version + 1


def test_a_held_choice_the_disk_refuses_is_not_held(tmp_path, full_disk):
    """Kedric's agenda, chosen before seat 0's turn: its hold line refused, the choice is not held
    (nor kept for a restart); with room again it is held."""
    with running(tmp_path) as server:
        links = server.create(KEDRIC, ["human", "human", "random"], {"hands": "1"}, seed=5)
        table = server.tables.tables[links["table"]]
        with ws_client.connect(server.ws + token(links["seats"][0]["link"])) as a:
            ma = receive(a)
            assert table.state.current == 1, "(seat 1 is asked first: seat 0's choice is held)"
            full_disk["armed"] = lambda data: True
            send_move(a, ma, 1)
            assert "not played" in receive(a, "error")["message"]
            assert table.chosen == {} and journal(tmp_path, links["table"]) == b""
            full_disk["armed"] = lambda data: False
            send_move(a, ma, 1)
            assert receive(a)["chosen"] and 0 in table.chosen
    assert list(lines(tmp_path, links["table"])[0]) == ["hold"]


def test_an_agents_move_the_disk_refuses_stops_the_table_until_a_restart(tmp_path, full_disk):
    """A person's move is written; the agent's after it is refused: the table stops with the reason
    shown to its seats, the server keeps serving, and a restart with room goes on from there."""
    with running(tmp_path) as server:
        links = server.create(POISON, ["human", "random", "random"], {"rounds": "1"})
        table_id = links["table"]
        table = server.tables.tables[table_id]
        with ws_client.connect(server.ws + token(links["seats"][0]["link"])) as a:
            ma = receive(a)
            full_disk["armed"] = lambda data: not data.startswith(b'{"player":0')  # the agents' lines
            send_move(a, ma)
            stopped = receive(a)
            assert stopped["failure"] and "seat 1's move is not played" in stopped["failure"]
            assert "No space left on device" in stopped["failure"] and "Restart the server once" in stopped["failure"]
            written = lines(tmp_path, table_id)
            assert written[-1]["player"] == 0 and len(written) == table.version == ma["version"] + 1
        full_disk["armed"] = lambda data: False
        other = server.create(POISON, ["human"] * 3, {"rounds": "1"})
        first = server.tables.tables[other["table"]].state.current
        with ws_client.connect(server.ws + token(other["seats"][first]["link"])) as b:
            assert receive(b)["moves"], "the other tables go on"
    with running(tmp_path) as server:
        assert server.resumed == []
        table = server.tables.tables[table_id]
        assert table.failure is None and table.state.current == 0, "the agents moved after the restart"
        assert len(lines(tmp_path, table_id)) == table.version > ma["version"] + 1


def test_a_record_the_disk_refuses_is_never_served_in_part(tmp_path, full_disk):
    """game.jsonl refused at the game's end: no part of it is on disk nor served (503 with the
    reason); with room again the download writes it whole and `ruleset replay` accepts it."""
    full_disk["armed"] = lambda data: b'"totals"' in data
    with running(tmp_path) as server:
        links = server.create(POISON, ["random"] * 3, {"rounds": "1"})
        folder = tmp_path / "tables" / links["table"]
        assert server.tables.tables[links["table"]].state.over
        assert sorted(p.name for p in folder.iterdir()) == ["moves.jsonl", "table.json"], "no part of a record"
        url = server.http + "/record/" + token(links["spectator"])
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url)
        assert refused.value.code == 503 and b"No space left on device" in refused.value.read()
        full_disk["armed"] = lambda data: False
        with urllib.request.urlopen(url) as reply:
            record = reply.read()
    (tmp_path / "game.jsonl").write_bytes(record)
    result = run_cli("replay", str(tmp_path / "game.jsonl"))
    assert result.returncode == 0 and "every move legal" in result.stdout, result.stderr


def test_a_torn_record_left_by_an_older_server_is_written_again_at_the_start(tmp_path):
    """A game.jsonl cut short (written in place before records were written whole) is not served:
    the next start writes it again from the moves."""
    with running(tmp_path) as server:
        links = server.create(POISON, ["random"] * 3, {"rounds": "1"})
    path = tmp_path / "tables" / links["table"] / "game.jsonl"
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    with running(tmp_path) as server:
        assert server.resumed == []
        with urllib.request.urlopen(server.http + "/record/" + token(links["spectator"])) as reply:
            assert reply.read() == whole


@pytest.fixture
def small_disk(tmp_path):
    """A real 64 KiB tmpfs (skipped where this process may not mount one)."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(
            f"a small tmpfs cannot be mounted here ({mounted.stderr.strip() or 'not root'}); "
            "the injected writer's tests cover a full disk"
        )
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill a file system until it refuses (ENOSPC); the filler file."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), filler.open("wb", buffering=0) as file:
        while True:
            file.write(b"x" * 1024)
    return filler


def test_a_real_full_disk_refuses_moves_and_loses_none(small_disk):
    """On a 64 KiB tmpfs filled up: a new table is refused with the reason (and leaves no folder);
    moves go on until the journal needs a block the disk has not, that one is refused to its mover
    with the journal as it was, and once the filler is gone play goes on; a restart has every
    accepted move."""
    data = small_disk / "data"
    acked: list[dict] = []
    with running(data) as server:
        links = server.create(POISON, ["human"] * 3, {"rounds": "1"})
        table_id = links["table"]
        table = server.tables.tables[table_id]
        with connect_all(server.ws, links) as socks:
            last = [receive(s) for s in socks]
            filler = fill(small_disk)
            body = json.dumps({"rules": POISON, "players": 3, "seats": [{"kind": "agent", "agent": "random"}] * 3})
            url = server.http + "/api/tables"
            request = urllib.request.Request(url, data=body.encode(), method="POST", headers=JSON)
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request)
            assert refused.value.code == 400 and "No space left on device" in json.loads(refused.value.read())["error"]
            assert [p.name for p in (data / "tables").iterdir()] == [table_id], "no half-made table"
            for _ in range(200):  # (a journal fills its last block before it needs another)
                mover = table.state.current
                before = journal(data, table_id)
                send_move(socks[mover], last[mover])
                reply = json.loads(socks[mover].recv(timeout=HANG))
                if reply["type"] == "error":
                    assert "No space left on device" in reply["message"]
                    assert journal(data, table_id) == before and table.version == last[mover]["version"]
                    break
                acked.append(as_line(mover, last[mover]["moves"][0]))
                last = [reply if i == mover else receive(s) for i, s in enumerate(socks)]
            else:
                pytest.fail("the full disk never refused a move")
            filler.unlink()
            send_move(socks[mover], last[mover])
            acked.append(as_line(mover, last[mover]["moves"][0]))
            assert receive(socks[mover])["version"] == last[mover]["version"] + 1
    assert lines(data, table_id) == acked
    with running(data) as server:
        assert server.resumed == [] and server.tables.tables[table_id].version == len(acked)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_process(data: Path, *options: str):
    """A real `ruleset serve` process on loopback; yields (process, base URL) once the lobby answers."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", "--port", str(port), "--data", str(data), *options],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        proc.stdout.readline()

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=HANG):
                    return True
            except (urllib.error.URLError, ConnectionError):
                assert proc.poll() is None, "the server stopped"
                return False

        wait_until(answers, "the server to answer")
        yield proc, f"127.0.0.1:{port}"
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=HANG)
        proc.stdout.close()


def test_sigkill_at_random_points_loses_no_move_a_player_saw_accepted(tmp_path):
    """A client plays all seats as fast as it can; the `ruleset serve` process is killed (SIGKILL)
    after a random while, four times: each time the journal holds every move the client saw
    accepted, in order, and at most the one in flight besides; the restarted server resumes
    exactly the journal and the game goes on."""
    rng = random.Random(20261201)
    data = tmp_path / "data"
    links: dict | None = None
    acked: list[dict] = []
    for kill in range(4):
        with serve_process(data, *(["--fsync"] if kill % 2 else [])) as (proc, address):
            if links is None:
                body = {
                    "rules": POISON,
                    "players": 3,
                    "seed": 9,
                    "params": {"rounds": "30"},
                    "seats": [{"kind": "human"}] * 3,
                }
                request = urllib.request.Request(
                    f"http://{address}/api/tables", data=json.dumps(body).encode(), method="POST", headers=JSON
                )
                with urllib.request.urlopen(request) as reply:
                    links = json.loads(reply.read())
            table_id = links["table"]
            killer = threading.Timer(rng.uniform(0.1, 0.8), os.kill, (proc.pid, signal.SIGKILL))
            with connect_all(f"ws://{address}/ws/", links) as socks:
                last = [receive(s) for s in socks]
                assert {m["version"] for m in last} == {len(acked)}, "resumed at the last move"
                assert not any(m["failure"] for m in last)
                killer.start()
                with contextlib.suppress(ConnectionClosed, OSError):  # (the connections die with the server)
                    while True:
                        ready = [i for i, m in enumerate(last) if m["moves"]]
                        if not ready:  # (the game is over: the kill comes to an idle server)
                            break
                        i = rng.choice(ready)
                        index = rng.randrange(len(last[i]["moves"]))
                        send_move(socks[i], last[i], index)
                        mine = receive(socks[i])
                        acked.append(as_line(i, last[i]["moves"][index]))  # its mover saw it accepted
                        last = [mine if k == i else receive(s) for k, s in enumerate(socks)]
            killer.join()
            assert proc.wait(timeout=HANG) == -signal.SIGKILL
        written = lines(data, table_id)
        assert written[: len(acked)] == acked, "every move the client saw accepted, in order"
        assert len(acked) <= len(written) <= len(acked) + 1, "and at most the one in flight"
        acked = written  # (the one in flight was played: the restarted table shows it)
    assert len(acked) > 20, "the client played between the kills"
    with running(data) as server:
        assert server.resumed == [] and server.tables.tables[table_id].version == len(acked)
