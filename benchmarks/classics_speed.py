"""Games per second of every classic (examples/classics/*.rules) at each player count it supports,
random agents, on the compiled engine and on the pure-Python source, and what limits each: the
modules of the engine with the most own time in a profile of the pure-Python engine (a compiled
module's functions are hidden from the profiler).

Each (classic, players) plays games with a plain loop (new_game, a seeded random choice among the
legal moves, apply) for about ``--seconds`` of CPU time (at least ``--games`` games). CPU time
(time.process_time), not the wall clock: on a loaded machine the figures stay comparable. The
pure-Python side runs in a second process (``--source``), which this one starts. Prints a Markdown
table (the one in docs/design-notes.md). Usage:
``python benchmarks/classics_speed.py [--seconds S] [--games N] [--only NAME] [--source]``
(``--source``: the pure-Python engine alone).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

import interpreter


def play(game: interpreter.Game, players: int, seed: int) -> int:
    """One game with random moves; its number of moves."""
    state, rng = game.new_game(players, seed), random.Random(seed)
    moves = 0
    while not state.is_over:
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        moves += 1
    return moves


def measure(game: interpreter.Game, players: int, seconds: float, least: int) -> tuple[float, float]:
    """Games per second and moves per game over about ``seconds`` of CPU (at least ``least`` games)."""
    games = moves = 0
    start = time.process_time()
    while games < least or time.process_time() - start < seconds:
        moves += play(game, players, games)
        games += 1
    return games / (time.process_time() - start), moves / games


def limits(game: interpreter.Game, players: int, seconds: float) -> str:
    """The two engine modules with the most own time over about ``seconds`` of profiled games, with
    their share of the whole (builtins such as list.append count in the whole, not as a module)."""
    profile = cProfile.Profile()
    start, seed = time.process_time(), 1000
    profile.enable()
    while time.process_time() - start < seconds or seed == 1000:
        play(game, players, seed)
        seed += 1
    profile.disable()
    own: dict[str, float] = {}
    for (path, _line, _function), row in pstats.Stats(profile).stats.items():
        module = Path(path).name if "interpreter" in path else "builtins"  # (list.append, len...)
        own[module] = own.get(module, 0.0) + row[2]
    total = sum(own.values())
    top = sorted((item for item in own.items() if item[0] != "builtins"), key=lambda item: -item[1])[:2]
    return ", ".join(f"{module} {share / total:.0%}" for module, share in top)


def rows(seconds: float, least: int, only: str | None, profile: bool) -> Iterator[dict]:
    """Each classic and player count: games/s, moves per game and (``profile``) what limits it."""
    for path in sorted((ROOT / "examples" / "classics").glob("*.rules")):
        if only and path.stem != only:
            continue
        game = interpreter.load(path)
        for players in range(game.min_players, game.max_players + 1):
            rate, length = measure(game, players, seconds, least)
            row = {"classic": path.stem, "players": players, "rate": rate, "moves": length}
            if profile:
                row["limits"] = limits(game, players, seconds)
            yield row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per classic and count (default 2)")
    parser.add_argument("--games", type=int, default=5, help="at least this many games each (default 5)")
    parser.add_argument("--only", help="one classic, by file name (e.g. whist)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # (the second process's rows)
    args = parser.parse_args()
    source = engine_path.describe().startswith("engine: pure Python")
    if args.json:
        for row in rows(args.seconds, args.games, args.only, profile=True):
            print(json.dumps(row), flush=True)
        return
    print(engine_path.describe())
    pure = None
    if not source:  # the pure-Python side, profiled, in a process of its own
        command = [sys.executable, __file__, "--source", "--json", "--seconds", str(args.seconds)]
        command += ["--games", str(args.games)] + (["--only", args.only] if args.only else [])
        pure = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    print("| classic | players | moves/game | games/s compiled | games/s pure Python | most own time (pure Python) |")
    print("|---|---:|---:|---:|---:|---|")
    for row in rows(args.seconds, args.games, args.only, profile=source):
        other = json.loads(pure.stdout.readline()) if pure else row
        compiled = "" if source else f"{row['rate']:.0f}"
        print(
            f"| {row['classic']} | {row['players']} | {row['moves']:.0f} | {compiled} | {other['rate']:.0f} "
            f"| {other['limits']} |",
            flush=True,
        )
    if pure:
        pure.wait()


if __name__ == "__main__":
    main()
