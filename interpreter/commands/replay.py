"""`ruleset replay FILE.jsonl`: play game records back through the rules."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import RecordError, RulesetError, plural
from .cli import QUIET_HELP, add_common, load_game
from .console import done, message

if TYPE_CHECKING:
    from ..engine.game import Game

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
    from ..engine.records import parse_line, replay

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
    notes: set[str] = set()
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        rec = parse_line(line, number)
        game = find_rules(rec, args.rules, games, args.max_moves)
        if args.seat is not None:
            from ..play.terminal import replay_as

            replay_as(game, rec, args.seat, sys.stdout)
        try:
            state = replay(game, rec, number)
        except RecordError as err:
            changed = _changed(rec, game)
            if changed:
                raise RecordError(f"{err.message}; {changed}", hint="replay with the rules as they were") from None
            raise
        changed = _changed(rec, game)
        if changed and changed not in notes:
            notes.add(changed)
            message(f"note: {changed}; its games still replay the same")
        count += 1
        if args.format == "text" and not args.quiet:
            print(
                f"line {number}: {rec['ruleset']}, {rec['players']} players: totals {state.totals}, "
                + (
                    f"the players {rec['cooperative']} together: replayed"
                    if game.cooperative
                    else f"winners {state.winners()}: replayed"
                )
            )
    if count == 0:
        raise RulesetError(
            f"{args.records} holds no records", hint="records are written by `ruleset simulate --record FILE.jsonl`"
        )
    if args.format == "json":
        print(json.dumps({"replayed": count, "ok": True}))
    else:
        done(f"{plural(count, 'game')} replayed; every move legal, every score the same")
    return 0


def find_rules(rec: dict[str, Any], rules: str | None, games: dict[str, Game], max_moves: int | None) -> Game:
    """The rules a record was played with: --rules if given; else, of the record's `source` (as
    named where it was made), its `origin` path and its shipped name, the first whose text has the
    recorded sha256, or the first that exists; else a shipped ruleset of the record's name."""
    from ..loader import bundled

    if rules:
        candidates = [rules]
    else:
        origin = rec.get("origin") or {}
        shipped = bundled(origin["shipped"]) if origin.get("shipped") else None
        candidates = [c for c in (rec.get("source"), origin.get("path"), shipped) if c and Path(c).is_file()]
        candidates = [str(c) for c in candidates] or _shipped_named(rec["ruleset"])
    params = rec.get("params") or {}  # (a deck that reads parameters is laid out with the record's)
    keys = [f"{c} {sorted(params.items())}" for c in candidates]
    for source, key in zip(candidates, keys, strict=True):
        if key not in games:
            games[key] = load_game(source, max_moves, params)
    best = [k for k in keys if not _changed(rec, games[k])]
    return games[(best or keys)[0]]


def _shipped_named(name: str) -> list[str]:
    """The shipped ruleset whose game is called ``name`` (a record of old, without an `origin`)."""
    from ..loader import ir_from_path, shipped

    for candidate in shipped():
        try:
            if ir_from_path(candidate)["name"] == name:
                return [str(candidate)]
        except RulesetError:
            continue
    raise RecordError(
        f"cannot tell which rules '{name}' was played with",
        hint="name them: ruleset replay FILE.jsonl --rules RULES",
    )


def _changed(rec: dict[str, Any], game: Game) -> str | None:
    """How the rules differ from those the record was made with (by their sha256), or None."""
    then, now = (rec.get("origin") or {}).get("sha256"), (game.ir.get("origin") or {}).get("sha256")
    if then and now and then != now:
        path = game.ir["origin"]["path"]
        return f"the rules in {path} have changed since this game was recorded (their sha256 differs)"
    return None
