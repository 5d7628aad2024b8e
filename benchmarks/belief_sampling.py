"""The search agents' belief sampler, per classic and shipped ruleset (a benchmark, not a test).

Plays random games and, at positions along them, samples worlds for the seat to move the way
greedy and mcts do (belief.py: a deal of the unseen cards, the round replayed, repaired where a
move does not fit). For each ruleset it prints:

- ``consistent``: the share of replays that gave a world consistent with the seat's view
  (accepted / (accepted + rejected)); the rest is sampling work wasted;
- ``kept wrong``: worlds returned whose zones the seat sees differ from what it sees (should be 0);
- ``worlds/s``: worlds returned a second of sampling;
- ``mcts ms``: the time of one decision of ``mcts:N`` (N = --mcts, 50 by default), the mean over
  a few positions.

    python benchmarks/belief_sampling.py [--games 3] [--every 4] [--mcts 50] [--decisions 3] [--source]
    python benchmarks/belief_sampling.py rulesets/poison.rules     (some rulesets only)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter import load
from interpreter.agents import SeatView, make_agent
from interpreter.agents.belief import Belief

ROOT = Path(__file__).resolve().parent.parent


def positions(game, players: int, games: int, every: int) -> list:
    """States along random games of one round each, every ``every`` moves, the seat to move's."""
    params = {p.name: 1 for p in game.params if p.name in ("rounds", "hands")}
    out = []
    for g in range(games):
        state = game.new_game(players, g, params)
        rng = random.Random(g)
        step = 0
        while not state.is_over:
            if step % every == every - 1:
                out.append(state.copy())
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            step += 1
    return out


def seen_zones(obs: dict) -> dict:
    """The zones of an observation, each instance's cards sorted (what the seat sees of them)."""
    return {k: [v if isinstance(v, dict) else sorted(map(str, v)) for v in vs] for k, vs in obs["zones"].items()}


def measure(game, players: int, games: int, every: int, mcts: int, decisions: int) -> dict:
    """The figures of one ruleset."""
    accepted = rejected = wrong = 0
    seconds = 0.0
    states = positions(game, players, games, every)
    for i, state in enumerate(states):
        seat = state.current_player
        obs = state.observe(seat)
        belief = Belief(game, obs, random.Random(i))
        for _ in range(4):
            start = time.perf_counter()
            sample = belief.sample()
            seconds += time.perf_counter() - start
            if sample is None:
                continue
            accepted += 1
            if seen_zones(sample.observe(seat)) != seen_zones(obs):
                wrong += 1
        rejected += belief.failures
    chosen = states[:: max(1, len(states) // decisions)][:decisions] if decisions else []
    mcts_seconds = 0.0
    for i, state in enumerate(chosen):
        agent = make_agent(f"mcts:{mcts}", state.current_player, i)
        start = time.perf_counter()
        agent.choose(SeatView(state, state.current_player))
        mcts_seconds += time.perf_counter() - start
    replays = accepted + rejected
    return {
        "positions": len(states),
        "consistent": accepted / replays if replays else float("nan"),
        "replays": replays,
        "wrong": wrong,
        "worlds_per_s": accepted / seconds if seconds else float("nan"),
        "mcts_ms": 1000 * mcts_seconds / len(chosen) if chosen else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rules", nargs="*", help="rulesets (default: rulesets/*.rules and examples/classics/*.rules)")
    ap.add_argument("--games", type=int, default=3, help="random games per ruleset (one round each)")
    ap.add_argument("--every", type=int, default=4, help="a position every this many moves")
    ap.add_argument("--mcts", type=int, default=50, help="iterations of the timed mcts decision")
    ap.add_argument("--decisions", type=int, default=3, help="mcts decisions timed per ruleset")
    args = ap.parse_args()
    paths = [Path(p) for p in args.rules] or [
        *sorted((ROOT / "rulesets").glob("*.rules")),
        *sorted((ROOT / "examples" / "classics").glob("*.rules")),
    ]
    print(engine_path.describe())
    print(
        f"{'ruleset':<34} {'players':>7} {'positions':>9} {'consistent':>10} {'replays':>8} "
        f"{'kept wrong':>10} {'worlds/s':>9} {'mcts ms':>8}"
    )
    for path in paths:
        game = load(path)
        players = max(game.min_players, min(4, game.max_players))
        r = measure(game, players, args.games, args.every, args.mcts, args.decisions)
        print(
            f"{path.stem:<34} {players:>7} {r['positions']:>9} {r['consistent']:>10.1%} {r['replays']:>8} "
            f"{r['wrong']:>10} {r['worlds_per_s']:>9.1f} {r['mcts_ms']:>8.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
