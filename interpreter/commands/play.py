"""`ruleset play FILE`: a person at one seat, bots at the others, in the terminal."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import RulesetError
from .cli import add_common, load_game, parse_sets, player_count, write_output
from .console import PLAY_STYLES, StyledLines

ORDER = 15


def register(sub: Any) -> None:
    """Add the `play` command."""
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play at one seat against bots. The screen shows only what your seat may see. "
        "Type a move's number (or a card's name, e.g. 'red 7'); ? shows the rules of the phase; q quits.",
        epilog="agents: random, greedy (greedy:N averages N samples), mcts (mcts:N iterations a move, "
        "or mcts(iterations=N,time=SECONDS,c=C,depth=D,samples=S)); e.g. --agents mcts:200,greedy,random",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", help="a .rules file (or a shipped game by file name)")
    p.add_argument("--players", type=int, help="number of players (default: the fewest the rules allow)")
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    p.add_argument(
        "--agents",
        default="greedy",
        help="the bots, comma-separated: one for each other seat in order, or one for every seat "
        "(yours ignored); the last repeats (default greedy)",
    )
    p.add_argument("--record", metavar="FILE.jsonl", help="save the finished game as a record")
    add_common(p, fmt=None)
    p.set_defaults(run=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    """Play one game with a person at --seat; 0 when the game ends or the person quits."""
    from ..agents import make_agents
    from ..engine.records import dumps, record
    from ..play.terminal import _bot_spec, play

    game = load_game(args.file, args.max_moves, parse_sets(args.set))
    players = player_count(game, args.players)
    if not 0 <= args.seat < players:
        raise RulesetError(f"--seat must be from 0 to {players - 1}, not {args.seat}")
    make_agents(_bot_spec(args.agents, players, args.seat), players, args.seed)  # bad names: exit 2 now
    out = StyledLines(sys.stdout, PLAY_STYLES)
    state, finished = play(game, players, args.seat, args.agents, args.seed, parse_sets(args.set), sys.stdin, out)
    if finished and args.record:
        names = [a.name for a in make_agents(_bot_spec(args.agents, players, args.seat), players, args.seed)]
        names[args.seat] = "human"
        write_output(args.record, dumps(record(state, names)) + "\n")
        print(f"game saved to {args.record}")
    return 0
