"""`ruleset replay FILE.jsonl`: play game records back through the rules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..engine.records import parse_line, replay
from ..errors import RecordError, RulesetError, plural
from ..loader import ir_from_path, locate
from .cli import QUIET_HELP, add_common, load_game

ORDER = 30


def register(sub: Any) -> None:
    """Add the `replay` command."""
    p = sub.add_parser(
        "replay",
        help="play game records back through the rules",
        description="Replay each record of a .jsonl file: every move must be legal and "
        "every score the same as recorded.",
    )
    p.add_argument("records", help="a .jsonl file written by `ruleset simulate --record`")
    p.add_argument("--rules", help="the rules file the games were played with (default: the record's source)")
    p.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    p.add_argument("--seat", type=int, help="step through each game as this seat saw it (0-based)")
    add_common(p, seed=False)
    p.set_defaults(run=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    """Play records back through the rules; fail on an illegal move or a differing score."""
    if args.set:
        raise RulesetError(
            "--set does not apply to a replay: each record carries the parameters it was played with",
            hint="the record's `params` are used; to try other values, simulate again with --set",
        )
    path = Path(args.records)
    if not path.is_file():
        raise RulesetError(f"no such record file: {args.records}")
    try:
        lines = path.read_text("utf-8").splitlines()
    except UnicodeDecodeError:
        raise RulesetError(f"{args.records} is not UTF-8 text") from None
    games: dict[str, Game] = {}
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        rec = parse_line(line, number)
        source = args.rules or _guess_rules(rec)
        if source not in games:
            games[source] = load_game(source, args.max_moves)
        if args.seat is not None:
            from ..play.terminal import replay_as

            replay_as(games[source], rec, args.seat, sys.stdout)
        state = replay(games[source], rec, number)
        count += 1
        if args.format == "text" and not args.quiet:
            print(
                f"line {number}: {rec['ruleset']}, {rec['players']} players: totals {state.totals}, "
                f"winners {state.winners()}: replayed"
            )
    if count == 0:
        raise RulesetError(
            f"{args.records} holds no records", hint="records are written by `ruleset simulate --record FILE.jsonl`"
        )
    if args.format == "json":
        print(json.dumps({"replayed": count, "ok": True}))
    else:
        print(f"{plural(count, 'game')} replayed; every move legal, every score the same")
    return 0


def _guess_rules(rec: dict[str, Any]) -> str:
    """The rules a record was played with: its `source`, or a bundled ruleset of that name."""
    if rec.get("source") and Path(rec["source"]).is_file():
        return rec["source"]
    for candidate in Path(str(locate("trump"))).parent.glob("*.rules"):
        try:
            if ir_from_path(candidate)["name"] == rec["ruleset"]:
                return str(candidate)
        except RulesetError:
            continue
    raise RecordError(
        f"cannot tell which rules '{rec['ruleset']}' was played with",
        hint="name them: ruleset replay FILE.jsonl --rules RULES",
    )
