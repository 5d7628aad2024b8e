"""Load on `ruleset serve`: many tables at once, every seat played through the websocket a page uses.

Starts the server (the source tree, in its own process, on loopback), creates ``--tables`` tables
of ``--players`` seats, each seat a person's link, and connects one websocket client per seat:
a bot that picks a move at random from those offered, as a page would send a click. Reports
moves per second over all tables, each move's round trip (sent until the mover's page has the
new state: the answer a person's click waits for), and the server's memory (resident set)
before the tables and after they all finished. Any error message or unfinished table fails.

With ``--agents SPEC`` only seat 0 of each table is a client; the other seats are agents (``random``,
``greedy``...), whose moves the server plays in its worker threads. With ``--installed`` the server
is the ``ruleset`` installed in this Python (``pip install '.[web]'`` compiles the engine with
Cython) rather than the source tree.

Usage: ``python benchmarks/serve_load.py [--tables 50] [--players 4] [--agents random] [--installed]
[--rules poison] [--set rounds=1]`` (needs ``pip install '.[web]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent


def rss_mib(pid: int) -> float:
    """The resident memory of a process, in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time a process has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def create(
    http: str, rules: str, players: int, params: dict[str, str], seed: int, seats: list[str] | None = None
) -> dict:
    """A table by the lobby's route; every seat a person's link unless ``seats`` names agents."""
    kinds = seats or ["human"] * players
    seats_ = [{"kind": "human"} if k == "human" else {"kind": "agent", "agent": k} for k in kinds]
    body = {"rules": rules, "players": players, "seed": seed, "params": params, "seats": seats_}
    headers = {"Content-Type": "application/json"}  # (the server takes no other kind of post)
    req = urllib.request.Request(f"{http}/api/tables", data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(req) as reply:
        return json.loads(reply.read())


async def seat(url: str, rng: random.Random, trips: list[float], errors: list[str]) -> int:
    """One seat's bot: answer every state that offers moves with a random one; the moves it made."""
    moves = 0
    sent_at: float | None = None
    sent_version = -1
    async with websockets.connect(url, max_size=None, compression=None) as ws:
        async for text in ws:
            if '"moves":[]' in text and sent_at is None and '"finished":false' in text:
                continue  # (a state for a seat that waits: no need to read it)
            msg = json.loads(text)
            if msg["type"] == "error":
                if "changed" in msg["message"]:  # (a simultaneous phase: another seat's choice came first)
                    continue
                errors.append(msg["message"])
                return moves
            if sent_at is not None and msg["version"] > sent_version:
                trips.append(time.perf_counter() - sent_at)
                sent_at = None
            if msg["finished"] or msg["failure"]:
                return moves
            if msg["moves"] and sent_at is None:
                sent_at, sent_version = time.perf_counter(), msg["version"]
                await ws.send(
                    json.dumps({"type": "move", "move": rng.randrange(len(msg["moves"])), "version": msg["version"]})
                )
                moves += 1
    return moves


async def load(ws_base: str, tables: list[dict]) -> tuple[int, list[float], list[str], float]:
    trips: list[float] = []
    errors: list[str] = []
    rng = random.Random(1)
    clients = [
        seat(ws_base + s["link"].rsplit("/", 1)[1], random.Random(rng.random()), trips, errors)
        for t in tables
        for s in t["seats"]
        if s["link"]
    ]
    start = time.perf_counter()
    moves = await asyncio.gather(*clients)
    return sum(moves), trips, errors, time.perf_counter() - start


def load_process(ws_base: str, tables: list[dict], out: multiprocessing.Queue) -> None:
    """The 50 tables' clients, in a process of their own (their work is not the server's)."""
    out.put(asyncio.run(load(ws_base, tables)))


def probe(http: str, ws_base: str, running: Callable[[], bool]) -> list[float]:
    """A person's clicks while the tables play: a table of one person and three random agents,
    a move every 50 ms, each timed until the person's page has the answer."""
    from websockets.sync.client import connect

    trips = []
    while running():
        links = create(http, "shipped/poison", 4, {}, len(trips), ["human", "random", "random", "random"])
        with connect(ws_base + links["seats"][0]["link"].rsplit("/", 1)[1], compression=None) as ws:
            msg = json.loads(ws.recv())
            while running() and not msg["finished"]:
                time.sleep(0.05)
                start = time.perf_counter()
                ws.send(json.dumps({"type": "move", "move": 0, "version": msg["version"]}))
                msg = json.loads(ws.recv())
                trips.append(time.perf_counter() - start)
    return trips


def ms(trips: list[float]) -> str:
    trips = sorted(trips)
    return (
        f"median {statistics.median(trips) * 1000:.1f} ms, 99th percentile "
        f"{trips[int(len(trips) * 0.99)] * 1000:.1f} ms, slowest {trips[-1] * 1000:.1f} ms ({len(trips)} moves)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default="poison", help="a shipped ruleset's file name (default poison)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--agents", metavar="SPEC", help="the seats after seat 0 are this agent (default: all clients)")
    ap.add_argument("--installed", action="store_true", help="serve with the installed ruleset (compiled)")
    ap.add_argument("--serve", action="append", default=[], metavar="OPTION", help="an option for `ruleset serve`")
    args = ap.parse_args()
    params = dict(pair.split("=", 1) for pair in args.set)
    port = free_port()
    data = tempfile.mkdtemp(prefix="serve-load-")
    env = dict(os.environ) if args.installed else {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", "--port", str(port), "--data", data, *args.serve],
        cwd=data if args.installed else ROOT,  # (installed: the source tree is not on the path)
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    engine = subprocess.run(
        [sys.executable, "-c", "import interpreter.engine.state as s; print(s.__file__)"],
        cwd=data if args.installed else ROOT,
        env=env,
        capture_output=True,
        text=True,
    ).stdout.strip()
    try:
        server.stdout.readline()
        http = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(http + "/api/rulesets").close()
                break
            except OSError:
                time.sleep(0.05)
        before = rss_mib(server.pid)
        seats = ["human"] + [args.agents] * (args.players - 1) if args.agents else None
        tables = [
            create(http, f"shipped/{args.rules}", args.players, params, seed, seats) for seed in range(args.tables)
        ]
        results: multiprocessing.Queue = multiprocessing.Queue()
        clients = multiprocessing.Process(target=load_process, args=(f"ws://127.0.0.1:{port}/ws/", tables, results))
        clients.start()
        clicks = probe(http, f"ws://127.0.0.1:{port}/ws/", lambda: results.empty())
        moves, trips, errors, seconds = results.get()
        clients.join()
        after = rss_mib(server.pid)
        cpu = cpu_seconds(server.pid)
        done = sum(1 for t in tables if (Path(data) / "tables" / t["table"] / "game.jsonl").exists())
        played = sum(  # every seat's moves, the agents' too
            len((Path(data) / "tables" / t["table"] / "moves.jsonl").read_text().splitlines()) for t in tables
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    kind = "compiled" if engine.endswith(".so") else "pure Python"
    print(f"server: {engine} ({kind}), Python {sys.version.split()[0]}; {os.cpu_count()} CPUs")
    who = f"seat 0 a client, the others {args.agents}" if args.agents else "every seat a client"
    print(f"{args.tables} tables of {args.players} seats, {who} ({args.rules} {' '.join(args.set)}), {done} finished")
    print(f"moves: {played} in {seconds:.1f} s = {played / seconds:,.0f} moves/s ({moves} by the clients)")
    print(f"round trip of the tables' moves: {ms(trips)}")
    print(f"round trip of a person's click meanwhile: {ms(clicks)}")
    print(f"server memory (RSS): {before:.0f} MiB before, {after:.0f} MiB after; server CPU {cpu:.1f} s")
    if errors or done != args.tables:
        print(f"FAILED: {len(errors)} error message(s) {errors[:3]}; {args.tables - done} table(s) unfinished")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
