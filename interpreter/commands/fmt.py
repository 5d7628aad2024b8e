"""`ruleset fmt FILE... [--check | --write]`: rules files in the canonical layout, comments kept."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import RulesetError
from .console import message, syntax

ORDER = 70


def register(sub: Any) -> None:
    """Add the `fmt` command."""
    p = sub.add_parser(
        "fmt",
        help="print rules files in the canonical layout (comments kept)",
        description="Print .rules files in the canonical layout: two-space blocks, aligned card and zone "
        "columns, one spelling per construct; every comment is kept, and formatting twice changes nothing. "
        "Exit code 0, 1 (--check: a file is not in the layout), 2 (a file could not be read or parsed; "
        "the other files are still done).",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="one or more .rules files")
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--check",
        action="store_true",
        help="print nothing on stdout; exit 1 (naming each such file on stderr) if any is not in the canonical layout",
    )
    group.add_argument("-w", "--write", action="store_true", help="rewrite the files in place")
    p.set_defaults(run=cmd_fmt)


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print, check or rewrite each file in the canonical layout; the worst exit code of them."""
    code = 0
    for name in args.files:
        try:
            code = max(code, _fmt_one(name, args, several=len(args.files) > 1))
        except RulesetError as err:
            if len(args.files) == 1:
                raise
            message(err.format())
            code = 2
    return code


def _fmt_one(name: str, args: argparse.Namespace, several: bool) -> int:
    from ..language.variants import read_text
    from ..loader import locate
    from ..text.fmt import format_text

    path = locate(name)
    text = read_text(path)
    formatted = format_text(text, str(path))
    if args.check:
        if formatted != text:
            print(f"{name} is not in the canonical layout; `ruleset fmt --write {name}` fixes it", file=sys.stderr)
            return 1
        return 0
    if args.write:
        if formatted != text:
            Path(path).write_text(formatted, encoding="utf-8")
        return 0
    from ..text.lexer import RulesLexer

    if several:  # which file each layout is, as a comment: the output is still rules text
        print(f"# ==> {name} <==", flush=True)
    syntax(formatted, RulesLexer())
    return 0
