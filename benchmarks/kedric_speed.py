"""Speed of Kedric Winks' Poison: the engine's random playouts against the hand-written loop.

Runs ``interpreter.simulation.simulate`` (random agents, the rules in rulesets/poison-kedric-winks.rules)
and benchmarks/handwritten_kedric.py on the same number of 4-player games, and prints both
throughputs and their ratio. The engine counts the agenda choices as moves (a record holds
them), the hand-written loop only the card plays, so the games/s ratio is the like-for-like one;
both are printed, each side's best of ``--repeat`` runs, in CPU time (on a busy shared machine
wall-clock time moves with the others' load). Usage:
``python benchmarks/kedric_speed.py [--games N] [--players N] [--seed S] [--repeat N] [--source]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path and the hand-written loops
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

import interpreter
from interpreter.simulation.simulate import simulate


def handwritten_module():
    """The hand-written loop, imported from its file next to this one."""
    spec = importlib.util.spec_from_file_location("handwritten_kedric", ROOT / "benchmarks" / "handwritten_kedric.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_engine(players: int, games: int, seed: int) -> dict:
    """Random playouts through the engine: moves and games per CPU second."""
    game = interpreter.load(ROOT / "rulesets" / "poison-kedric-winks.rules")
    simulate(game, players, 1, seed=seed, count_rules=False)  # (the run's first compiles its game: not timed)
    start = time.process_time()
    stats = simulate(game, players, games, seed=seed, count_rules=False)
    seconds = time.process_time() - start
    moves = stats["moves_per_game"] * games
    return {"moves_per_second": moves / seconds, "games_per_second": games / seconds, "moves_per_game": moves / games}


def run_handwritten(players: int, games: int, seed: int) -> dict:
    """Random playouts of the hand-written loop: moves and games per CPU second."""
    hw = handwritten_module()
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    for _ in range(games):
        moves += hw.play_game(players, rng)[1]
    seconds = time.process_time() - start
    return {"moves_per_second": moves / seconds, "games_per_second": games / seconds, "moves_per_game": moves / games}


def main() -> None:
    """Measure both, print them and the ratios (text, then one JSON line)."""
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each side; the best counts (default 3)")
    args = parser.parse_args()
    # best of --repeat runs of each, alternating, so that a busy moment of a shared machine counts once
    engines, hands = [], []
    for _ in range(max(1, args.repeat)):
        engines.append(run_engine(args.players, args.games, args.seed))
        hands.append(run_handwritten(args.players, args.games, args.seed))
    engine = max(engines, key=lambda r: r["games_per_second"])
    hand = max(hands, key=lambda r: r["games_per_second"])
    ratio_moves = engine["moves_per_second"] / hand["moves_per_second"]
    ratio_games = engine["games_per_second"] / hand["games_per_second"]
    for name, r in (("engine", engine), ("hand-written", hand)):
        print(
            f"{name:>12}: {r['moves_per_second']:10,.0f} moves/s {r['games_per_second']:8,.1f} games/s"
            f"  ({r['moves_per_game']:.0f} moves a game)"
        )
    print(f"{'ratio':>12}: {ratio_moves:10.2f} (moves/s) {ratio_games:8.2f} (games/s); goal at least 0.75 (issue 25)")
    print(
        json.dumps(
            {
                "players": args.players,
                "games": args.games,
                "engine": engine,
                "handwritten": hand,
                "ratio_moves_per_second": ratio_moves,
                "ratio_games_per_second": ratio_games,
            }
        )
    )


if __name__ == "__main__":
    main()
