"""Agent strength: does agent A score more than agent B, with seats rotated?

Each game puts A at one seat (rotating through the seats) and B at the others; the game's
figure is A's total minus the mean total of the B seats ("score" as the ruleset orients it:
for a game won by the lowest total the sign is flipped, so a positive difference always means
A did better). Prints the mean difference and its 95% confidence interval (normal
approximation) for each pairing asked.

    python benchmarks/agents_strength.py rulesets/poison.rules --players 4 --games 500 \
        --pair greedy/random --pair mcts:100/greedy
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path and the hand-written loops
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter import load
from interpreter.simulation.one_game import game_seed, play_game


def compare(game, players: int, a: str, b: str, games: int, seed: int, first: int = 0) -> dict:
    """Mean (A - mean of B) over ``games`` games with A's seat rotated, and its 95% CI; the games
    from the ``first``-th of the seed's (a run split in parts: each part's games, as one run's)."""
    sign = 1 if game.winner_highest else -1
    diffs = []
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(first, first + games):
        seat = i % players
        names = [b] * players
        names[seat] = a
        state = play_game(game, players, game_seed(seed, i), names)
        others = [t for s, t in enumerate(state.totals) if s != seat]
        diffs.append(sign * (state.totals[seat] - sum(others) / len(others)))
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {
        "ruleset": game.name,
        "players": players,
        "a": a,
        "b": b,
        "games": n,
        "mean_difference": round(mean, 3),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
        "a_better": mean - half > 0,
        "seconds": round(time.perf_counter() - start, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),  # (the figure a loaded machine keeps)
    }


def main() -> None:
    """Run the pairings given on the command line and print one line each (text or JSON)."""
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rules")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--first", type=int, default=0, help="the seed's first game to play (a long run split in parts)")
    ap.add_argument("--pair", action="append", help="A/B, e.g. greedy/random or mcts:100/greedy")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = load(args.rules)
    for pair in args.pair or ["greedy:random"]:
        a, _, b = pair.partition("/") if "/" in pair else pair.partition(":")
        r = compare(game, args.players, a, b, args.games, args.seed, args.first)
        if args.json:
            print(json.dumps(r), flush=True)
        else:
            print(
                f"{r['ruleset']}, {r['players']} players, {r['games']} games: {a} - {b} = "
                f"{r['mean_difference']:+.2f} per game, 95% CI [{r['ci95'][0]:+.2f}, {r['ci95'][1]:+.2f}]"
                f"{' (A better)' if r['a_better'] else ''}; {r['seconds']} s, {r['cpu_seconds']} s of CPU",
                flush=True,
            )


if __name__ == "__main__":
    main()
