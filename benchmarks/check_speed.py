"""Time `ruleset check` on the shipped rulesets with default playouts (prints figures; no asserts)."""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path and the hand-written loops
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter.checker import check, default_jobs

ROOT = Path(__file__).resolve().parent.parent


def cpu_seconds() -> float:
    """CPU time of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    """Check each shipped ruleset; print wall and CPU seconds."""
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    jobs = default_jobs()
    for name in ("poison.rules", "poison-five-card.rules", "poison-kedric-winks.rules"):
        wall, cpu = time.perf_counter(), cpu_seconds()
        report = check(str(ROOT / "rulesets" / name), games=games, jobs=jobs)
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        played = sum(p["games"] for p in report.playouts)
        print(
            f"{name}: {played} playouts, {jobs} jobs: {wall:.1f} s wall, {cpu:.1f} s CPU; "
            f"{report.count('error')} errors, {report.count('warning')} warnings"
        )


if __name__ == "__main__":
    main()
