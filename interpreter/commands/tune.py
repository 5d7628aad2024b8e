"""`ruleset tune FILE --param NAME=LOW..HIGH --objective balance|skill|length=LOW..HIGH`: the value of
a parameter that serves an objective best, with intervals, and whether it is clearly better."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import RulesetError
from ..simulation.quality_defaults import BUDGET, GAMES
from .cli import parse_sets, positive
from .evaluate import add_quality_options, emit, game_and_players, pairs_of, quality_options
from .simulate import progress_for

ORDER = 28


def register(sub: Any) -> None:
    """Add the `tune` command."""
    p = sub.add_parser(
        "tune",
        help="sweep parameters for balance, skill or a game length; the best value and whether it is clearly better",
        description="Play the game at every point of a grid of parameter values (the same seeds at every "
        "point) and judge each by an objective: balance (the largest seat advantage), skill (the skill gap "
        "of the first --skill pairing) or length=LOW..HIGH (moves per game within LOW..HIGH). Prints the "
        "table with 95% intervals, the best point and whether its interval lies below every other's. A grid "
        "of more than --budget points is searched by coordinate descent. See docs/evaluate.md.",
    )
    p.add_argument("file", help="a .rules file (or a shipped game by file name)")
    p.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME=VALUES",
        help="a parameter and its values, repeatable: limit=9..17, limit=9..17:2 (a step) or rounds=2,4,6",
    )
    p.add_argument(
        "--objective",
        required=True,
        metavar="balance|skill|length=LOW..HIGH",
        help="what a point is judged by (lower loss is better)",
    )
    p.add_argument(
        "--budget",
        type=positive,
        default=BUDGET,
        metavar="N",
        help=f"most points to play; a larger grid is searched (default {BUDGET})",
    )
    add_quality_options(p, f"games a point, for --objective balance and length (default {GAMES})")
    p.set_defaults(run=cmd_tune)


def cmd_tune(args: argparse.Namespace) -> int:
    """Sweep the grid; print the table (text or JSON), plot it with --plot."""
    from ..simulation.tune import parse_objective, parse_param, tune

    options = quality_options(args)
    objective = parse_objective(args.objective)
    params = [parse_param(text) for text in args.param]
    game, players = game_and_players(args)
    fixed = parse_sets(args.set)
    clash = [name for name, _ in params if name in fixed]
    if clash:
        raise RulesetError(f"'{clash[0]}' is both swept (--param) and set (--set)", hint="drop one of them")
    result = tune(
        game,
        players,
        params,
        objective,
        args.games or GAMES,
        args.seed or 0,
        args.agents,
        fixed,
        pairs_of(args),
        args.skill_games,
        args.budget,
        stage=lambda label: progress_for(args, label),
        **options,
    )
    return emit(args, result, "plot_tune", "tune_text")
