"""`ruleset show FILE`: print the resolved rules (the IR) as JSON or YAML."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .cli import add_common, parse_sets

ORDER = 90


def register(sub: Any) -> None:
    """Add the `show` command."""
    p = sub.add_parser(
        "show",
        help="print the resolved rules (the IR) as JSON or YAML",
        description="Print the resolved rules (IR): what every other command reads.",
    )
    p.add_argument("file", help="a .rules file (or IR as .json/.yaml, or a shipped game by file name)")
    add_common(p, fmt=("json", "yaml"), seed=False, max_moves=False)
    p.set_defaults(run=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    """Print the resolved rules (IR) as JSON or YAML."""
    import yaml

    from ..engine.game import coerce, compile_ir
    from ..loader import ir_from_path

    ir = ir_from_path(args.file)
    ir.pop("origin", None)  # (where this machine read the file: not part of the rules)
    sets = parse_sets(args.set)
    if sets:
        game = compile_ir(ir)
        game.param_values(game.min_players, sets)  # checks names and types
        kinds = {p["name"]: p["type"] for p in ir["params"]}
        for p in ir["params"]:
            if p["name"] in sets:
                value = coerce(next(x for x in game.params if x.name == p["name"]), sets[p["name"]])
                p["default"] = {"op": "num" if kinds[p["name"]] == "number" else "text", "value": value}
    if args.format == "yaml":
        sys.stdout.write(yaml.safe_dump(ir, sort_keys=False, allow_unicode=True))
    else:
        sys.stdout.write(json.dumps(ir, indent=2, ensure_ascii=False) + "\n")
    return 0
