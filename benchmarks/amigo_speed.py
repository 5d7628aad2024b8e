"""Engine vs hand-written Python: random playouts of 4-player AMIGO Poison, moves per second.

    python benchmarks/amigo_speed.py [--games 1000] [--repeat 3]

Prints each side's best of ``--repeat`` runs and the ratio (issue 25's goal: at least 0.9), in CPU
time: on a busy shared machine wall-clock time moves with the others' load. Both sides list every
legal move each turn and pick one uniformly with a seeded Random.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path and the hand-written loops
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

import handwritten_amigo

import interpreter
from interpreter.simulation.simulate import simulate


def engine(games: int, players: int, seed: int) -> float:
    """The engine's moves per CPU second (random agents, as `ruleset simulate --no-rule-counts` plays)."""
    game = interpreter.load(ROOT / "rulesets" / "poison.rules")
    simulate(game, players, 1, seed, count_rules=False)  # (the run's first compiles its game: not timed)
    start = time.process_time()
    stats = simulate(game, players, games, seed, count_rules=False)
    return stats["moves_per_game"] * games / (time.process_time() - start)


def handwritten(games: int, players: int, seed: int) -> float:
    """The hand-written loop's moves per CPU second."""
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    for _ in range(games):
        moves += handwritten_amigo.play_game(players, rng)[1]
    return moves / (time.process_time() - start)


def main() -> None:
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ours = max(engine(args.games, args.players, s) for s in range(args.repeat))
    theirs = max(handwritten(args.games, args.players, s) for s in range(args.repeat))
    print(
        json.dumps(
            {
                "engine_moves_per_second": round(ours),
                "handwritten_moves_per_second": round(theirs),
                "ratio": round(ours / theirs, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
