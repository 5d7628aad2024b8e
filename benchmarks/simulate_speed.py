"""`ruleset simulate` as a user runs it against a plain loop of the same rules, in games per CPU second.

    python benchmarks/simulate_speed.py [--games 2000] [--repeat 3] [--python PATH] [--source] [-- OPTIONS]

For AMIGO Poison and Kedric Winks' Poison (4 players, random agents), runs
``ruleset simulate FILE --players 4 --games N --jobs 1 --format json --quiet`` in a child process
(start-up, loading, rule counts, statistics and all) and times its CPU (the child's user + system
time, which does not depend on the machine's load as wall-clock time does); then plays the same
number of games with the hand-written loop (benchmarks/handwritten_amigo.py, handwritten_kedric.py)
in this process, by CPU time too. The two take turns ``--repeat`` times; each side's fastest run
counts. Prints games per CPU second of each and their ratio (issue 25's goal: the engine's own
ratio, 0.9 for AMIGO and 0.75 for Kedric), and the command's start-up (its CPU with ``--games
1``). ``--python`` runs the command with another interpreter (another install, to compare two
builds in one run); options after ``--`` go to the command (``-- --no-rule-counts``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the hand-written loops

import handwritten_amigo
import handwritten_kedric

GAMES = {"AMIGO": ("poison.rules", handwritten_amigo), "Kedric": ("poison-kedric-winks.rules", handwritten_kedric)}


def children_cpu() -> float:
    """User + system CPU seconds of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command(python: str, source: bool, rules: str, games: int, players: int, extra: list[str]) -> float:
    """CPU seconds of one `ruleset simulate` run in a child process (its output checked, then dropped)."""
    env = dict(os.environ)
    if source:  # the source tree's pure-Python engine, as the tests run it
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    argv = [python, "-m", "interpreter", "simulate", str(ROOT / "rulesets" / rules), "--players", str(players)]
    argv += ["--games", str(games), "--jobs", "1", "--format", "json", "--quiet", *extra]
    before = children_cpu()
    done = subprocess.run(argv, env=env, cwd="/tmp", capture_output=True, text=True, check=False)
    used = children_cpu() - before
    if done.returncode:
        sys.exit(f"{' '.join(argv)} failed:\n{done.stderr}")
    assert json.loads(done.stdout)["games"] == games
    return used


def handwritten(module, games: int, players: int, seed: int) -> float:
    """CPU seconds of the hand-written loop playing ``games`` games."""
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(games):
        module.play_game(players, rng)
    return time.process_time() - start


def which(python: str, source: bool) -> str:
    """Which engine the command runs (`ruleset --version`'s line)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT)) if source else None
    argv = [python, "-m", "interpreter", "--version"]
    return subprocess.run(argv, env=env, cwd="/tmp", capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    extra: list[str] = []
    if "--" in sys.argv:
        cut = sys.argv.index("--")
        sys.argv, extra = sys.argv[:cut], sys.argv[cut + 1 :]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--python", default=sys.executable, help="the interpreter whose install runs the command")
    ap.add_argument("--source", action="store_true", help="run the command on this source tree (pure Python)")
    ap.add_argument("--only", choices=sorted(GAMES), help="one of the two games")
    args = ap.parse_args()
    print(f"{which(args.python, args.source)}; load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for name, (rules, module) in GAMES.items():
        if args.only and name != args.only:
            continue
        ours, theirs, starts = [], [], []
        for r in range(args.repeat):
            ours.append(command(args.python, args.source, rules, args.games, args.players, extra))
            theirs.append(handwritten(module, args.games, args.players, r))
            starts.append(command(args.python, args.source, rules, 1, args.players, extra))
        cmd, loop = args.games / min(ours), args.games / min(theirs)
        row = {
            "game": name,
            "games": args.games,
            "command_games_per_cpu_second": round(cmd, 1),
            "handwritten_games_per_cpu_second": round(loop, 1),
            "ratio": round(cmd / loop, 3),
            "command_cpu_seconds": [round(s, 2) for s in ours],
            "startup_cpu_seconds": round(min(starts), 3),  # the command with --games 1: its start-up and one game
        }
        print(json.dumps(row))


if __name__ == "__main__":
    main()
