"""`ruleset evaluate FILE`: is the game any good? Skill gap, decisions, drama, balance and the rules
that matter, each with its 95% interval and a line saying what it means (docs/evaluate.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import RulesetError
from ..simulation.quality_defaults import GAMES, LADDER, PAIRS, SKILL_GAMES
from .cli import load_game, parse_sets, player_count, positive
from .simulate import add_run_options, progress_for, run_options

ORDER = 27


def add_quality_options(p: argparse.ArgumentParser, games: str) -> None:
    """The options of `evaluate` and `tune`: those of `simulate` runs, the skill pairings."""
    add_run_options(p, games)
    p.add_argument(
        "--skill",
        action="append",
        metavar="AGENT/BASELINE",
        help="a skill pairing, repeatable: AGENT at one seat (rotated), BASELINE at the others "
        f"(default: {' and '.join(PAIRS)}); --skill none skips them",
    )
    p.add_argument(
        "--skill-games",
        type=positive,
        default=SKILL_GAMES,
        metavar="N",
        help=f"games a skill pairing (default {SKILL_GAMES}, rounded up to a multiple of the players)",
    )


def quality_options(args: argparse.Namespace) -> dict[str, Any]:
    """The checked --jobs/--scheduler/--plot options (simulate's)."""
    return run_options(args)


def pairs_of(args: argparse.Namespace) -> list[str]:
    """The skill pairings asked for (the defaults when none; none with --skill none)."""
    if not args.skill:
        return list(PAIRS)
    return [] if [s.strip().lower() for s in args.skill] == ["none"] else args.skill


def register(sub: Any) -> None:
    """Add the `evaluate` command."""
    p = sub.add_parser(
        "evaluate",
        help="is the game any good? skill gap, decisions, drama, balance, rules that matter",
        description="Play the game with bots and measure its quality, each figure with its 95% interval "
        "and what it means: the skill gap (a stronger agent against a baseline, its seat rotated), real "
        "choices per decision and the share of forced ones, lead changes, how often the eventual winner "
        "was behind and when the game was decided, the final margin, the seat and first-player advantage "
        "(Holm-corrected over the seats), game length, and the rules that never fire or fire in every "
        "game. Definitions and sources: docs/evaluate.md.",
    )
    p.add_argument("file", help="a .rules file (or a shipped game by file name)")
    add_quality_options(p, f"observed games, for decisions, drama, balance and rules (default {GAMES})")
    for action in p._actions:  # (simulate's help says random: here the default is chosen by a budget)
        if action.dest == "agents":
            action.help = (
                "agents of the observed games by seat, comma-separated, the last repeating (default: the strongest "
                "rung of the ladder whose games fit a budget of engine moves, counted, not timed; the report says "
                "which). Agents as in simulate: random, greedy, mcts:N, mcts(iterations=N,...)"
            )
    p.add_argument(
        "--ladder",
        nargs="?",
        const=",".join(LADDER),
        metavar="AGENT,AGENT,...",
        help="add the skill ladder: each agent (weakest first) against the one before it, and where more skill "
        f"stops paying (default rungs: {', '.join(LADDER)}); --skill-games games a step",
    )
    p.set_defaults(run=cmd_evaluate)


def game_and_players(args: argparse.Namespace) -> tuple[Any, int]:
    """The Game of the FILE argument and the player count asked (by default the fewest), checked."""
    game = load_game(args.file, args.max_moves, parse_sets(args.set))
    return game, player_count(game, args.players)


def emit(args: argparse.Namespace, doc: dict[str, Any], plot: str, text: str) -> int:
    """Draw the document with ``plots.<plot>`` when --plot asks, then print it: as JSON, or as
    ``evaluate_report.<text>`` gives it."""
    from ..simulation import evaluate_report, plots

    if args.plot:
        getattr(plots, plot)(doc, args.plot)
    if args.format == "json":
        sys.stdout.write(json.dumps(doc, indent=2) + "\n")
        return 0
    print(getattr(evaluate_report, text)(doc))
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0


def cmd_evaluate(args: argparse.Namespace) -> int:
    """Evaluate one ruleset; print the figures (text or JSON), draw them with --plot."""
    from ..simulation.evaluate import evaluate

    options = quality_options(args)
    game, players = game_and_players(args)
    stats = evaluate(
        game,
        players,
        args.games or GAMES,
        args.seed or 0,
        args.agents,
        parse_sets(args.set),
        pairs_of(args),
        args.skill_games,
        stage=lambda label: progress_for(args, label),
        ladder=ladder_of(args.ladder),
        **options,
    )
    return emit(args, stats, "plot_evaluate", "evaluate_text")


def ladder_of(text: str | None) -> list[str] | None:
    """The rungs of --ladder: agents separated by commas outside parentheses (mcts(a=1,b=2) is one)."""
    if text is None:
        return None
    rungs, depth, here = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            rungs.append(here.strip())
            here = ""
        else:
            here += ch
    rungs.append(here.strip())
    if len(rungs) < 2 or not all(rungs):
        raise RulesetError(
            f"--ladder takes two agents or more, weakest first, not {text!r}", hint="--ladder random,greedy,mcts:50"
        )
    return rungs
