"""Time `ruleset check` at its defaults on every shipped ruleset and every classic, as a user runs it
(a process each: start-up, static checks and playouts): CPU seconds of the command and its
workers, wall-clock seconds, and the playouts of each player count. Prints a Markdown table; a
row's CPU time is marked when it is over issue 25's goal of 10 s.

    python benchmarks/check_speed.py [--jobs N] [--games N] [--before DIR] [FILE ...]

With ``--before DIR`` (a folder holding another version's ``interpreter`` package, put first on
PYTHONPATH), each file is checked by that version too, right after this one (the same load), its
CPU time in a column of its own, and whether both found the same (the JSON reports, but for
their seconds).
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


GOAL = 10.0  # CPU seconds of a check (issue 25)


def command(source: bool, path: str | None = None) -> tuple[list[str], dict[str, str]]:
    """How to run `ruleset`: the installed package, or (--source) this tree's, or ``path``'s."""
    env = dict(os.environ)
    if source or path:
        env["PYTHONPATH"] = path or str(ROOT)
    return [sys.executable, "-m", "interpreter"], env


def timed(run: list[str], env: dict[str, str], file: str, extra: list[str]) -> tuple[dict, float, float]:
    """One check of ``file`` in its own process: its JSON report, CPU and wall-clock seconds."""
    cpu, wall = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [*run, "check", file, "--format", "json", "--quiet", *extra], cwd="/", env=env, capture_output=True
    )
    return json.loads(done.stdout), children_cpu() - cpu, time.perf_counter() - wall


def findings(report: dict) -> dict:
    """A report but for its seconds: what two versions must agree on."""
    return {k: v for k, v in report.items() if k != "seconds"}


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
    ap.add_argument("--before", help="a folder with another version's interpreter package, checked alike")
    args = ap.parse_args()
    files = args.files or sorted(map(str, (ROOT / "rulesets").glob("*.rules"))) + sorted(
        map(str, (ROOT / "examples" / "classics").glob("*.rules"))
    )
    run, env = command(source)
    extra = ["--jobs", str(args.jobs)] + (["--games", str(args.games)] if args.games is not None else [])
    print(f"load {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs, check {' '.join(extra)}", file=sys.stderr)
    before = command(False, args.before) if args.before else None
    print(
        "| ruleset | playouts (by player count) | moves | CPU |"
        + (" CPU before | same findings |" if before else "")
        + " wall | findings |"
    )
    print("| --- | --- | ---: | ---: |" + (" ---: | --- |" if before else "") + " ---: | --- |")
    for file in files:
        report, cpu, wall = timed(run, env, file, extra)
        then = ""
        if before:
            old, old_cpu, _ = timed(*before, file, extra)
            same = (
                "yes"
                if findings(old) == findings(report)
                else "no: " + ", ".join(k for k in findings(report) if old.get(k) != report.get(k))
            )
            then = f" {old_cpu:.1f} s{' (over)' if old_cpu > GOAL else ''} | {same} |"
        plays = report["playouts"]
        counts = ", ".join(f"{p['players']}: {p['games']}" for p in plays)
        moves = sum(p["games"] * p["moves_per_game"] for p in plays)
        found = report["summary"]
        print(
            f"| {Path(file).name} | {counts} | {moves:,.0f} | {cpu:.1f} s{' (over)' if cpu > GOAL else ''} |{then}"
            f" {wall:.1f} s | "
            f"{found['errors']} errors, {found['warnings']} warnings |",
            flush=True,
        )
    print(f"(load after: {os.getloadavg()[0]:.1f})", file=sys.stderr)


if __name__ == "__main__":
    main()
