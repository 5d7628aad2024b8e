"""`ruleset fmt FILE [--check]`: print a rules file in the canonical layout, comments kept."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from .console import syntax

ORDER = 70


def register(sub: Any) -> None:
    """Add the `fmt` command."""
    p = sub.add_parser(
        "fmt",
        help="print a rules file in the canonical layout (comments kept)",
        description="Print a .rules file in the canonical layout: two-space blocks, aligned card and zone "
        "columns, one spelling per construct; every comment is kept, and formatting twice changes nothing.",
    )
    p.add_argument("file", help="a .rules file")
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--check",
        action="store_true",
        help="print nothing on stdout; exit 1 (naming the file on stderr) if it is not in the canonical layout",
    )
    group.add_argument("-w", "--write", action="store_true", help="rewrite the file in place")
    p.set_defaults(run=cmd_fmt)


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print, check or rewrite the file in the canonical layout."""
    from ..language.variants import read_text
    from ..loader import locate
    from ..text.fmt import format_text

    path = locate(args.file)
    text = read_text(path)
    formatted = format_text(text, str(path))
    if args.check:
        if formatted != text:
            print(
                f"{args.file} is not in the canonical layout; `ruleset fmt --write {args.file}` fixes it",
                file=sys.stderr,
            )
            return 1
        return 0
    if args.write:
        if formatted != text:
            Path(path).write_text(formatted, encoding="utf-8")
        return 0
    from ..text.lexer import RulesLexer

    syntax(formatted, RulesLexer())
    return 0
