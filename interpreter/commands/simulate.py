"""`ruleset simulate FILE`: play many games with bots; statistics and throughput."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..cli import add_common, load_game, parse_sets, progress_bar
from ..errors import RulesetError
from ..simulate import simulate

ORDER = 20


def register(sub: Any) -> None:
    """Add the `simulate` command."""
    p = sub.add_parser(
        "simulate",
        help="play many games with bots; statistics and throughput",
        description="Play games with bots and report, per seat, the mean score and wins; "
        "moves per game; games and moves per second.",
    )
    p.add_argument("file", help="a .rules file (or a bundled name like poison)")
    p.add_argument("--players", type=int, help="number of players (default: the fewest the rules allow)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument(
        "--agents",
        default="random",
        help="agents by seat, comma-separated; the last repeats (default random). Agents: random, "
        "greedy (greedy:N averages N samples), mcts (mcts:N iterations a move, or "
        "mcts(iterations=N,time=SECONDS,c=C,depth=D,samples=S)); e.g. mcts:200,greedy,random",
    )
    p.add_argument("--record", metavar="FILE.jsonl", help="write each game's record, one JSON line a game")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_common(p)
    p.set_defaults(run=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play games with bots; print statistics and throughput."""
    game = load_game(args.file)
    players = args.players if args.players is not None else game.min_players
    if args.games < 1:
        raise RulesetError(f"--games must be at least 1, not {args.games}")
    stats = simulate(
        game,
        players,
        args.games,
        args.seed,
        args.agents,
        parse_sets(args.set),
        args.record,
        progress_bar(not args.quiet),
    )
    if args.format == "json":
        sys.stdout.write(json.dumps(stats, indent=2) + "\n")
        return 0
    print(f"{stats['ruleset']}: {stats['games']} games, {players} players, seed {stats['seed']}")
    if stats["params"]:
        print("parameters: " + ", ".join(f"{k}={v}" for k, v in stats["params"].items()))
    print(f"{'seat':<6}{'agent':<10}{'mean score':>12}{'wins':>8}{'win rate':>10}")
    for s in stats["seats"]:
        print(f"{s['seat']:<6}{s['agent']:<10}{s['mean_score']:>12.2f}{s['wins']:>8}{s['win_rate']:>10.1%}")
    print(f"moves per game {stats['moves_per_game']:.1f}, rounds per game {stats['rounds_per_game']:.1f}")
    print(
        f"{stats['games']} games in {stats['seconds']:.2f} s: {stats['games_per_second']:,.1f} games/s, "
        f"{stats['moves_per_second']:,.0f} moves/s"
    )
    if args.record:
        print(f"records written to {args.record}")
    return 0
