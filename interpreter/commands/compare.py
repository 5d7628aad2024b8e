"""`ruleset compare A.rules B.rules ...`: play each ruleset under the same seeds and agents, and
print the figures side by side with the significant differences from the first one marked."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import RulesetError
from .cli import load_game, parse_sets, player_count
from .console import blocks
from .simulate import add_run_options, progress_for, run_options

ORDER = 25


def register(sub: Any) -> None:
    """Add the `compare` command."""
    p = sub.add_parser(
        "compare",
        help="play variants under the same seeds; their figures side by side, significant differences marked",
        description="Play each ruleset with the same players, agents, games and seeds, and print per seat "
        "win rates and mean scores, game length, the first player's advantage and rule firings side by "
        "side; each difference from the first ruleset carries its 95% interval and a * when that "
        "interval excludes 0.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="two or more .rules files (the first is the base)")
    add_run_options(p)
    p.set_defaults(run=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    """Play every ruleset under the same seeds; print the comparison."""
    from ..simulation.report import compare_blocks, comparison
    from ..simulation.simulate import simulate

    options = run_options(args)
    if len(args.files) < 2:
        raise RulesetError("compare needs two rulesets or more", hint="ruleset compare BASE.rules VARIANT.rules")
    games = [load_game(f, args.max_moves, parse_sets(args.set)) for f in args.files]
    players = args.players if args.players is not None else max(g.min_players for g in games)
    for g in games:
        player_count(g, players)
    sets = parse_sets(args.set)
    runs = []
    for i, game in enumerate(games):
        label = f"{chr(65 + i)}: {game.name} ({args.files[i]})"
        progress = progress_for(args, label)
        seed = args.seed or 0
        runs.append(simulate(game, players, args.games or 100, seed, args.agents, sets, None, progress, **options))
    rows = comparison(runs)
    if args.plot:
        from ..simulation.plots import plot_compare

        plot_compare(runs, args.plot)
    if args.format == "json":
        doc = {"files": args.files, "runs": runs, "comparison": rows}
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0
    blocks(compare_blocks(runs, rows))
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0
