"""`ruleset render FILE`: the rules as a readable rulebook, in markdown or HTML."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .cli import parse_sets, write_output
from .console import markdown

ORDER = 60


def register(sub: Any) -> None:
    """Add the `render` command."""
    p = sub.add_parser(
        "render",
        help="write the rulebook (markdown or HTML) generated from the rules",
        description="Write a readable rulebook generated from the resolved rules: components, setup and "
        "deal for each player count, turns and legal moves, triggers, scoring, the end of the game, "
        "parameters; the comments written beside the rules appear as notes.",
    )
    p.add_argument("file", help="a .rules file (or IR as .json/.yaml, or a bundled name)")
    p.add_argument(
        "--format", choices=("markdown", "html"), default="markdown", help="output format (default markdown)"
    )
    p.add_argument(
        "--set",
        action="append",
        metavar="NAME=VALUE",
        help="render with a parameter set to a value (repeatable), e.g. --set limit=17",
    )
    p.add_argument("--no-source", action="store_true", help="leave out the appendix with the rules file itself")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.set_defaults(run=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    """Print (or write) the rulebook."""
    from ..language.deck_params import with_params
    from ..language.variants import read_text
    from ..loader import ir_from_path, locate
    from ..text.render import render

    sets = parse_sets(args.set)
    ir = with_params(ir_from_path(args.file), sets)  # (a deck that reads parameters, laid out with --set's)
    source = None
    path = locate(args.file)
    if not args.no_source and path.suffix not in (".json", ".yaml", ".yml"):
        source = read_text(path)
    text = render(ir, args.format, sets, source)
    if args.output:
        write_output(args.output, text)
    elif args.format == "markdown":
        markdown(text)
    else:
        sys.stdout.write(text)
    return 0
