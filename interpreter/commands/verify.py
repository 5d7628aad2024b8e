"""`ruleset verify FILE --players N`: every deal and every line of play of a (shrunk) game explored;
each property proved in every reachable state, or the shortest game that breaks it."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .cli import QUIET_HELP, add_common, jobs, parse_sets, player_count, positive, write_output
from .console import message, progress_bar

ORDER = 12


def register(sub: Any) -> None:
    """Add the `verify` command."""
    p = sub.add_parser(
        "verify",
        help="explore every deal and every play of a small game: properties proved, or a counterexample",
        description="Explore every reachable state of the game breadth-first: every distinct deal (alike "
        "cards alike), every legal move and every answer to an ask. Checks in every state: no deadlock, every "
        "round ends (no loop), no card made or lost, every offered move applies, scores are numbers, and the "
        "rules' own `checks`. A broken property is shown with the shortest game that breaks it. Shrink the "
        "game with --set first (see docs/verify.md). Exit code 0 every property holds in the whole space, "
        "1 one is broken, 3 none is broken but the space was cut off (--max-states), 2 bad input.",
    )
    p.add_argument("file", help="a .rules file (or IR as .json/.yaml, or a shipped game by file name)")
    p.add_argument("--players", type=int, help="the number of players (default: the fewest the rules allow)")
    p.add_argument(
        "--max-states",
        type=positive,
        default=500_000,
        metavar="K",
        help="stop after this many distinct states (default 500,000; each holds about 200 bytes)",
    )
    p.add_argument(
        "--counterexamples",
        metavar="FILE.jsonl",
        help="write the record of each counterexample, for `ruleset replay` (and replay --seat, serve --replay)",
    )
    p.add_argument(
        "--only",
        action="append",
        metavar="[TYPE.]ATTR=V,V",
        help="shrink the deck: keep only the cards whose attribute has one of these values (repeatable), "
        "e.g. --only suit=hearts,spades --only card.rank=1,2,3",
    )
    p.add_argument(
        "--copies",
        action="append",
        metavar="TYPE=N",
        help="shrink the deck: every card of this type comes N times (repeatable), e.g. --copies card=1",
    )
    p.add_argument(
        "--schedule",
        action="append",
        metavar="NAME=V,V",
        help="give a schedule other values, one a round (repeatable), e.g. hand sizes fit for a shrunk deck: "
        "--schedule size=3",
    )
    p.add_argument(
        "--jobs",
        type=jobs,
        default=1,
        metavar="N",
        help="share the deals out over N processes (0: one per CPU; default 1); the report is the same "
        "whatever N, the time aside",
    )
    p.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    add_common(p, seed=False, max_moves=False)
    p.set_defaults(run=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """Explore; print the report as text or JSON; exit 0, 1, 3 (or 2 for bad input)."""
    from ..engine.game import compile_ir
    from ..engine.records import dumps
    from ..language.deck_params import with_params
    from ..loader import ir_from_path
    from ..verify.jobs import verify
    from ..verify.report import format_text, to_json
    from ..verify.shrink import shrink

    sets = parse_sets(args.set)
    ir = ir_from_path(args.file)
    laid = with_params(ir, sets)  # (a deck that reads parameters: laid out with --set's; records keep them)
    shrunk = shrink(laid, args.only, args.copies, args.schedule)
    game = compile_ir(shrunk, coverage=True)
    players = player_count(game, args.players)
    result, examples = verify(
        game,
        players,
        sets,
        max_states=args.max_states,
        progress=progress_bar(not args.quiet and args.format == "text", unit="states"),
        jobs=args.jobs,
    )
    for line, ex in enumerate(examples.values(), 1):
        ex["line"] = line
    if args.counterexamples and examples:
        if shrunk is not laid:  # the records are of the shrunk rules: written beside them, and named as their source
            rules = str(Path(args.counterexamples).with_suffix(".rules.json"))
            write_output(rules, json.dumps(shrunk, indent=1, ensure_ascii=False) + "\n")
            for ex in examples.values():
                ex["record"]["source"] = rules
        write_output(args.counterexamples, "".join(dumps(ex["record"]) + "\n" for ex in examples.values()))
    if args.format == "json":
        sys.stdout.write(json.dumps(to_json(result, examples), indent=2, ensure_ascii=False) + "\n")
    else:
        written = args.counterexamples if examples and args.counterexamples else None
        message(format_text(result, examples, written), sys.stdout)
    return result.exit_code
