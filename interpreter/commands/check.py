"""`ruleset check FILE...`: every error and warning of rulesets, static and from random playouts."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..checker.defaults import BUDGET, MOST_GAMES
from ..errors import RulesetError
from .cli import JOBS_HELP, QUIET_HELP, add_common, jobs, parse_sets, positive, write_output
from .console import message, progress_bar

ORDER = 10


def register(sub: Any) -> None:
    """Add the `check` command."""
    p = sub.add_parser(
        "check",
        help="find what is wrong with a ruleset: names, types, deck arithmetic, dead rules, deadlocks",
        description="Check a ruleset: every loader problem (not just the first), deck arithmetic for every "
        "player count, rules that cannot apply, then seeded random playouts for each player count "
        "(deadlocks, endless games, cards lost, scores, replays, rules that never fire). "
        "Exit code 0 clean (warnings allowed, unless --strict), 1 errors found, 2 the file could not be read "
        "or parsed.",
    )
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="one or more .rules files (or IR as .json/.yaml, or shipped games by file name), each checked in turn",
    )
    p.add_argument("--players", type=int, help="check only this player count (default: every count the rules allow)")
    p.add_argument(
        "--games",
        type=int,
        help="random playouts for each player count (0: static checks only; default: as many as the budget "
        f"allows, up to {MOST_GAMES} a count)",
    )
    p.add_argument(
        "--budget",
        type=positive,
        default=BUDGET,
        metavar="MOVES",
        help=f"without --games: the moves of random play to spend, split evenly over the player counts "
        f"(default {BUDGET}); a count also stops once more than a tenth of its playouts fail",
    )
    p.add_argument("--jobs", type=jobs, default="0", metavar="N", help=JOBS_HELP.format(also=""))
    p.add_argument("--failures", metavar="FILE.jsonl", help="write the record of each failing playout, for replay")
    p.add_argument("--no-info", action="store_true", help="leave out info lines (deal arithmetic)")
    p.add_argument("--strict", action="store_true", help="warnings count as errors: exit 1 if there is any (for CI)")
    p.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    add_common(p)
    p.set_defaults(run=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """Check each ruleset named; print findings as text or JSON; exit 0, 1 or 2 (the worst file's)."""
    from ..engine.records import dumps

    if args.games is not None and args.games < 0:
        raise RulesetError(f"--games must be 0 or more, not {args.games}")
    results = [_check_one(args, file) for file in args.files]
    if args.failures:
        records = [r for _, report in results for f in report.sorted() if f.replay and (r := f.replay.get("record"))]
        write_output(args.failures, "".join(dumps(r) + "\n" for r in records))
    code = max(c for c, _ in results)
    if args.format == "json":
        docs = []
        for c, report in results:
            doc = report.to_json()
            doc["exit_code"] = c
            docs.append(doc)
        out = docs[0] if len(docs) == 1 else {"files": docs, "exit_code": code}
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        return code
    from ..checker.text import format_report

    for n, (c, report) in enumerate(results):
        text = format_report(report, show_info=not args.no_info, failures=args.failures)
        if c != report.exit_code:
            text += "\n--strict: the warnings count as errors"
        message(("\n" if n else "") + text, sys.stdout)
    return code


def _check_one(args: argparse.Namespace, file: str) -> tuple[int, Any]:
    """One file's report and its exit code (--strict: a warning is an error)."""
    from ..checker import check

    report = check(
        file,
        players=args.players,
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        sets=parse_sets(args.set),
        progress=progress_bar(not args.quiet, unit="playouts" if args.games is not None else "moves"),
        max_moves=args.max_moves,
        budget=args.budget,
    )
    code = report.exit_code
    if args.strict and code == 0 and report.count("warning"):
        code = 1
    return code, report
