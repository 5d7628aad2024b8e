"""Time `ruleset check` at its defaults on every shipped ruleset and every classic, as a user runs it
(a process each: start-up, static checks and playouts): CPU seconds of the command and its
workers, wall-clock seconds, and the playouts of each player count. Prints a Markdown table.

    python benchmarks/check_speed.py [--jobs N] [--games N] [FILE ...]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path
import engine_path

ROOT = Path(__file__).resolve().parent.parent


def children_cpu() -> float:
    """CPU seconds of this process's finished children (each command, with its own workers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command(source: bool) -> tuple[list[str], dict[str, str]]:
    """How to run `ruleset`: the installed package, or (--source) this tree's."""
    env = dict(os.environ)
    if source:
        env["PYTHONPATH"] = str(ROOT)
    return [sys.executable, "-m", "interpreter"], env


def main() -> None:
    """Check each file in its own process; print a row per file."""
    engine_path.choose()
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    import interpreter

    source = Path(interpreter.__file__).resolve().parent.parent == ROOT  # the commands run the same one
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--jobs", type=int, default=0, help="check's --jobs (default 0: one per CPU)")
    ap.add_argument("--games", type=int, help="check's --games (default: its budget)")
    args = ap.parse_args()
    files = args.files or sorted(map(str, (ROOT / "rulesets").glob("*.rules"))) + sorted(
        map(str, (ROOT / "examples" / "classics").glob("*.rules"))
    )
    run, env = command(source)
    extra = ["--jobs", str(args.jobs)] + (["--games", str(args.games)] if args.games is not None else [])
    print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs, check {' '.join(extra)}", file=sys.stderr)
    print("| ruleset | playouts (by player count) | moves | CPU | wall | findings |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for file in files:
        cpu, wall = children_cpu(), time.perf_counter()
        done = subprocess.run(
            [*run, "check", file, "--format", "json", "--quiet", *extra], cwd="/", env=env, capture_output=True
        )
        cpu, wall = children_cpu() - cpu, time.perf_counter() - wall
        report = json.loads(done.stdout)
        plays = report["playouts"]
        counts = ", ".join(f"{p['players']}: {p['games']}" for p in plays)
        moves = sum(p["games"] * p["moves_per_game"] for p in plays)
        found = report["summary"]
        print(
            f"| {Path(file).name} | {counts} | {moves:,.0f} | {cpu:.1f} s | {wall:.1f} s | "
            f"{found['errors']} errors, {found['warnings']} warnings |",
            flush=True,
        )
    print(f"(load after: {os.getloadavg()[0]:.1f})", file=sys.stderr)


if __name__ == "__main__":
    main()
