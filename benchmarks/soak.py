"""Invariant soak: random games of every shipped ruleset at every player count, every invariant
checked after every move (interpreter/simulation/invariants.py). Prints a table and exits 1 on any problem.

    python benchmarks/soak.py                      # 10,000 games per ruleset and player count
    python benchmarks/soak.py --games 200 --jobs 2 # a quicker pass on two cores
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path and the hand-written loops
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

import interpreter
from interpreter.simulation.invariants import soak

CHUNK = 250  # games per task handed to a worker


def run_chunk(path: str, players: int, games: int, first_seed: int) -> dict:
    """Soak one slice of seeds (in a worker process)."""
    return soak(interpreter.load(path), players, games, first_seed)


def main(argv: list[str] | None = None) -> int:
    """Soak every ruleset at every player count; print figures and problems."""
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="rules files (default: every shipped ruleset)")
    parser.add_argument("--games", type=int, default=10_000, help="games per ruleset and player count")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    args = parser.parse_args(argv)
    paths = args.rulesets or [str(p) for p in sorted((ROOT / "rulesets").glob("*.rules"))]
    tasks = []
    for path in paths:
        game = interpreter.load(path)
        for players in range(game.min_players, game.max_players + 1):
            for first in range(args.seed, args.seed + args.games, CHUNK):
                tasks.append((path, players, min(CHUNK, args.seed + args.games - first), first))
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(run_chunk, *zip(*tasks, strict=True)))
    else:
        results = [run_chunk(*t) for t in tasks]
    wall = time.perf_counter() - start
    rows: dict[tuple[str, int], dict] = {}
    for r in results:
        row = rows.setdefault((r["ruleset"], r["players"]), {"games": 0, "moves": 0, "seconds": 0.0, "problems": []})
        row["games"] += r["games"]
        row["moves"] += r["moves"]
        row["seconds"] += r["seconds"]
        row["problems"] += r["problems"]
    print(f"{'ruleset':<30}{'players':>8}{'games':>8}{'moves/game':>12}{'games/s':>10}{'problems':>10}")
    problems = []
    for (name, players), row in rows.items():
        rate = row["games"] / row["seconds"] if row["seconds"] else 0.0
        print(
            f"{name:<30}{players:>8}{row['games']:>8}{row['moves'] / row['games']:>12.1f}"
            f"{rate:>10.1f}{len(row['problems']):>10}"
        )
        problems += row["problems"]
    total = sum(r["games"] for r in rows.values())
    print(f"{total} games in {wall:.1f} s ({args.jobs} job(s)): every card in one zone after every move, ", end="")
    print("no deadlock, every game ended, every record replayed identically" if not problems else "PROBLEMS:")
    for p in problems[:50]:
        print("  " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
