"""How long `ruleset evaluate` takes at its default settings (issue 19: within 60 s on 2 cores):
wall-clock time, and the CPU time of this process and its workers, which says what two idle
cores would take when the machine is busy.

    python benchmarks/evaluate_speed.py [--rules rulesets/poison.rules] [--players N] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter import load
from interpreter.simulation.evaluate import DEFAULT_GAMES, DEFAULT_PAIRS, DEFAULT_SKILL_GAMES, evaluate


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    """Run one evaluation at the defaults; print the wall-clock time, each stage's share and the CPU time."""
    print(engine_path.describe(), file=sys.stderr)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default=str(Path(__file__).resolve().parent.parent / "rulesets" / "poison.rules"))
    ap.add_argument("--players", type=int)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    game = load(args.rules)
    players = args.players or game.min_players
    load_before = os.getloadavg()[0]
    print(
        f"{game.name}, {players} players: {DEFAULT_GAMES} observed games, {DEFAULT_SKILL_GAMES} games for each of "
        f"{', '.join(DEFAULT_PAIRS)}; {args.jobs} jobs, {os.cpu_count()} CPUs, load {load_before:.1f}"
    )
    stages: list[tuple[str, float, float]] = []
    start, cpu = time.perf_counter(), cpu_seconds()

    def stage(label: str):
        stages.append((label, time.perf_counter(), cpu_seconds()))  # (a stage's pool has ended: its CPU is counted)

    stats = evaluate(game, players, jobs=args.jobs, stage=stage)
    wall, used = time.perf_counter() - start, cpu_seconds() - cpu
    ends = [(t, c) for _, t, c in stages[1:]] + [(start + wall, cpu + used)]
    for (label, t0, c0), (t1, c1) in zip(stages, ends, strict=True):
        print(f"  {label:<48}{t1 - t0:7.1f} s wall {c1 - c0:7.1f} s CPU")
    print(f"observed games played by {stats['agents'][0]} ({stats['observer']['why']})")
    print(f"wall {wall:.1f} s, CPU {used:.1f} s (this process and its workers), load after {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
