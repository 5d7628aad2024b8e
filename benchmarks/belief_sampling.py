"""The search agents' belief sampler, per classic and shipped ruleset (a benchmark, not a test).

Plays random games and, at positions along them, samples worlds for the seat to move the way
greedy and mcts do (belief.py: one world found by replaying the round, or by playing on the one
found at the seat's last decision, then its hidden cards dealt again under what the seat knows,
inference.py). Each seat keeps its memory along a game, as an agent does. For each ruleset it prints:

- ``wasted``: the share of the sampling work wasted: replays that gave no world consistent with
  the seat's view, among all replays and worlds asked for;
- ``kept wrong``: worlds returned that look to the seat other than the game does (its zones, the
  cards shown and told to it, whose turn, the phase, the variables it sees, who is out of the
  round, the round's past as it saw it: the deal, the moves, the reveals and shuffles): should be 0;
- ``worlds/s``: worlds returned a second of sampling;
- ``failed at`` (a line under a ruleset whose replays failed): where the replays stopped, by share,
  with the observed move concerned: ``diverged before M after L`` (after the replay of move L, the
  next observed move M was not the replay's to make: L's outcome hid in unseen cards, and no trade
  mended it), ``no such move M`` (no trade made M legal), ``zones differ`` (at the end, the zones
  did not hold what the seat sees: counts of hidden places, its own cards), ``turn or phase``. A
  replay later mended counts here too, where it first stopped (the profile of what is hard to mend);
- ``mcts ms``: one decision of ``mcts:N`` (N = --mcts, 50 by default), each seat's agent deciding
  at every position of its own along the game (its memory kept, as in a game): the mean, and the
  longest (``max``), in wall time; ``cpu`` the mean in CPU time (what a loaded machine keeps).

    python benchmarks/belief_sampling.py [--games 3] [--every 4] [--mcts 50] [--samples 4] [--source]
    python benchmarks/belief_sampling.py rulesets/poison.rules     (some rulesets only)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter import load
from interpreter.agents import SeatView, make_agent
from interpreter.agents.belief import Belief

ROOT = Path(__file__).resolve().parent.parent


def games_positions(game, players: int, games: int, every: int) -> list[list]:
    """Per random game of one round, the states along it every ``every`` moves."""
    params = {p.name: 1 for p in game.params if p.name in ("rounds", "hands")}
    out = []
    for g in range(games):
        state = game.new_game(players, g, params)
        rng = random.Random(g)
        step, along = 0, []
        while not state.is_over:
            if step % every == every - 1:
                along.append(state.copy())
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            step += 1
        out.append(along)
    return out


def looks(obs: dict) -> tuple:
    """What a seat's observation shows of the game (zones' cards sorted within an instance), and of
    the round's past."""
    zones = {k: [v if isinstance(v, dict) else sorted(map(str, v)) for v in vs] for k, vs in obs["zones"].items()}
    shown = sorted(map(str, obs["shown"]))
    past = obs["deal"], obs["moves"], obs.get("events"), obs["eliminated"]
    return zones, shown, obs.get("told", []), obs["current"], obs["phase"], obs["vars"], past


def measure(game, players: int, games: int, every: int, mcts: int, samples: int) -> dict:
    """The figures of one ruleset."""
    asked = got = failures = wrong = 0
    why: Counter = Counter()
    seconds, decisions, cpu = 0.0, [], 0.0
    along = games_positions(game, players, games, every)
    for g, states in enumerate(along):
        memory: dict[int, dict] = {}
        agents: dict[int, object] = {}
        for i, state in enumerate(states):
            seat = state.current_player
            obs = state.observe(seat)
            belief = Belief(game, obs, random.Random(i), memory.setdefault(seat, {}))
            for _ in range(samples):
                start = time.perf_counter()
                sample = belief.sample()
                seconds += time.perf_counter() - start
                asked += 1
                if sample is None:
                    continue
                got += 1
                if looks(sample.observe(seat)) != looks(obs):
                    wrong += 1
            failures += belief.failures
            why.update(belief.why)
            if mcts and len(state.legal_moves()) > 1:
                agent = agents.setdefault(seat, make_agent(f"mcts:{mcts}", seat, g))
                start, used = time.perf_counter(), time.process_time()
                agent.choose(SeatView(state, seat))
                decisions.append(time.perf_counter() - start)
                cpu += time.process_time() - used
    return {
        "positions": sum(map(len, along)),
        "wasted": (failures + asked - got) / (failures + asked) if asked else float("nan"),
        "replays": failures,
        "wrong": wrong,
        "worlds_per_s": got / seconds if seconds else float("nan"),
        "mcts_ms": 1000 * sum(decisions) / len(decisions) if decisions else float("nan"),
        "mcts_max": 1000 * max(decisions) if decisions else float("nan"),
        "mcts_cpu": 1000 * cpu / len(decisions) if decisions else float("nan"),
        "why": why,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rules", nargs="*", help="rulesets (default: rulesets/*.rules and examples/classics/*.rules)")
    ap.add_argument("--games", type=int, default=3, help="random games per ruleset (one round each)")
    ap.add_argument("--every", type=int, default=4, help="a position every this many moves")
    ap.add_argument("--mcts", type=int, default=50, help="iterations of the timed mcts decisions (0: none)")
    ap.add_argument("--samples", type=int, default=4, help="worlds asked for at each position")
    args = ap.parse_args()
    paths = [Path(p) for p in args.rules] or [
        *sorted((ROOT / "rulesets").glob("*.rules")),
        *sorted((ROOT / "examples" / "classics").glob("*.rules")),
        ROOT / "examples" / "hints.rules",
    ]
    print(engine_path.describe())
    print(
        f"{'ruleset':<20} {'players':>7} {'positions':>9} {'wasted':>7} {'failed replays':>14} "
        f"{'kept wrong':>10} {'worlds/s':>9} {'mcts ms':>8} {'max':>6} {'cpu':>5}"
    )
    for path in paths:
        game = load(path)
        players = max(game.min_players, min(4, game.max_players))
        r = measure(game, players, args.games, args.every, args.mcts, args.samples)
        print(
            f"{path.stem:<20} {players:>7} {r['positions']:>9} {r['wasted']:>7.1%} {r['replays']:>14} "
            f"{r['wrong']:>10} {r['worlds_per_s']:>9.1f} {r['mcts_ms']:>8.0f} {r['mcts_max']:>6.0f} "
            f"{r['mcts_cpu']:>5.0f}",
            flush=True,
        )
        if r["why"]:  # the diagnosis: where the failed replays stopped, and at which observed move
            total = sum(r["why"].values())
            top = ", ".join(f"{what} {move} {n / total:.0%}" for (what, move), n in r["why"].most_common(4))
            print(f"{'':<20} failed at: {top}", flush=True)


if __name__ == "__main__":
    main()
