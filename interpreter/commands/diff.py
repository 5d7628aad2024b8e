"""`ruleset diff A B`: what ruleset B changes relative to A, in the rulebook's words."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .console import DIFF_STYLES, message

ORDER = 65


def register(sub: Any) -> None:
    """Add the `diff` command."""
    p = sub.add_parser(
        "diff",
        help="say what ruleset B changes relative to ruleset A, rule by rule",
        description="List each rule, deck line, zone and parameter that B adds, removes or changes relative "
        "to A, in the words of `ruleset render`. Positions and comments are not compared; nothing is "
        "printed when the rules are the same. Exit code 0 when they are the same, 1 when they differ "
        "(as `diff` and `git diff --exit-code`), 2 when a file cannot be read.",
    )
    p.add_argument("a", help="the base ruleset (.rules, IR as .json/.yaml, or a bundled name)")
    p.add_argument("b", help="the ruleset to compare with it (a variant)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format (default text)")
    p.set_defaults(run=cmd_diff)


def cmd_diff(args: argparse.Namespace) -> int:
    """Print the changes from A to B."""
    from ..loader import ir_from_path
    from ..text.diff import diff, diff_json, diff_text

    changes = diff(ir_from_path(args.a), ir_from_path(args.b))
    if args.format == "json":
        sys.stdout.write(json.dumps(diff_json(changes, args.a, args.b), indent=2, ensure_ascii=False) + "\n")
    else:
        if changes:
            message(diff_text(changes).rstrip("\n"), sys.stdout, DIFF_STYLES)
    return 1 if changes else 0
