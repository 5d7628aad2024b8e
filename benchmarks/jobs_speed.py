"""Games per second of `simulate` serial against `--jobs N` (issue 7: at least 1.8x with 2 jobs on
2 cores), on 4-player Poison with random agents; both runs also checked to give the same figures.

    python benchmarks/jobs_speed.py [--games 2000] [--jobs 2] [--players 4] [--rules rulesets/poison.rules]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path and the hand-written loops
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter import load
from interpreter.simulation.simulate import simulate

TIMING = {"seconds", "games_per_second", "moves_per_second", "jobs"}


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished children (the pool's workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Time a serial run and a --jobs run of the same games; print both rates and their ratio."""
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rules", default=str(Path(__file__).resolve().parent.parent / "rulesets" / "poison.rules"))
    args = ap.parse_args()
    game = load(args.rules)
    busy = os.getloadavg()[0]
    print(f"{game.name}, {args.players} players, {args.games} games, {os.cpu_count()} CPUs, load {busy:.1f}")
    cpu = time.process_time()
    serial = simulate(game, args.players, args.games, seed=0)
    serial_cpu = time.process_time() - cpu
    print(f"serial:   {serial['games_per_second']:8.1f} games/s  ({serial['seconds']:.2f} s, {serial_cpu:.2f} s CPU)")
    cpu, children = time.process_time(), children_cpu()
    spread = simulate(game, args.players, args.games, seed=0, jobs=args.jobs)
    spread_cpu = time.process_time() - cpu + children_cpu() - children
    print(
        f"--jobs {args.jobs}: {spread['games_per_second']:8.1f} games/s  "
        f"({spread['seconds']:.2f} s, {spread_cpu:.2f} s CPU)"
    )
    same = all(serial[k] == spread[k] for k in serial if k not in TIMING)
    print(f"speed-up: {spread['games_per_second'] / serial['games_per_second']:.2f}x; identical statistics: {same}")
    # On a busy machine the wall-clock ratio says little; the CPU each run spent does not depend on
    # the load: with N idle cores the speed-up would be about N x serial CPU / --jobs CPU.
    ideal = args.jobs * serial_cpu / spread_cpu
    print(f"CPU efficiency: {serial_cpu / spread_cpu:.2f} (idle-machine speed-up about {ideal:.2f}x)")


if __name__ == "__main__":
    main()
