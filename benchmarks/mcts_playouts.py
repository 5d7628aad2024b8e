"""MCTS playouts per second on 4-player AMIGO Poison (a benchmark, not a test).

Plays whole games with an mcts agent at seat 0 and random agents elsewhere, and divides the
playouts the mcts agent ran by the time it spent choosing; also times one State.copy(). On a
shared machine, --repeat 3 reports the best of three runs of each (the same games each time).

    python benchmarks/mcts_playouts.py [--games 2] [--repeat 3] [--agent "mcts(iterations=200,depth=0)"]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter import load
from interpreter.agents import SeatView, make_agent, make_agents


def playouts_per_second(game, spec: str, games: int, players: int = 4) -> tuple[float, int, float]:
    """(playouts a second while choosing, playouts, seconds) for ``spec`` at seat 0."""
    playouts, seconds = 0, 0.0
    for g in range(games):
        state = game.new_game(players, g)
        agent = make_agent(spec, 0, g)
        others = make_agents("random", players, g)
        while not state.is_over:
            p = state.current_player
            if p == 0:
                t = time.perf_counter()
                move = agent.choose(SeatView(state, 0))
                seconds += time.perf_counter() - t
            else:
                move = others[p].choose(SeatView(state, p))
            state.apply(move)
        playouts += agent.playouts
    return playouts / seconds, playouts, seconds


def main() -> None:
    """Print playouts a second for each agent asked, and the cost of a State copy."""
    print(engine_path.describe(), file=sys.stderr)  # which engine the figures are of
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default=str(Path(__file__).resolve().parent.parent / "rulesets" / "poison.rules"))
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="runs of each measure; the best is printed")
    ap.add_argument("--agent", action="append")
    args = ap.parse_args()
    repeat = max(1, args.repeat)
    game = load(args.rules)
    state = game.new_game(4, 0)
    n = 5000
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(n):
            state.copy()
        best = min(best, (time.perf_counter() - t) / n)
    print(f"State.copy(): {best * 1e6:.1f} microseconds")
    for spec in args.agent or ["mcts:200", "mcts(iterations=200,depth=0)"]:
        rate, playouts, seconds = max(playouts_per_second(game, spec, args.games) for _ in range(repeat))
        print(f"{spec}: {rate:,.0f} playouts/s ({playouts} playouts in {seconds:.1f} s of choosing)", flush=True)


if __name__ == "__main__":
    main()
