"""Make (or check) the pinned game records: seeded games of every shipped and example ruleset.

The records in ``tests/pinned/`` were written before the engine and the language grew; each
must stay byte for byte what the engine plays today (``tests/test_pinned_records.py``).
Run ``python tests/pin_records.py`` to write them anew, only when a change of games is meant.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINNED = ROOT / "tests" / "pinned"

# (ruleset, players, agents[, seeds]): every ruleset that loads, at a small and a large count.
CASES = [
    ("rulesets/poison.rules", 3, "random"),
    ("rulesets/poison.rules", 4, "random,greedy,random,greedy"),
    ("rulesets/poison.rules", 6, "random"),
    ("rulesets/poison-five-card.rules", 3, "random"),
    ("rulesets/poison-five-card.rules", 5, "greedy,random,random,random,random"),
    ("rulesets/poison-kedric-winks.rules", 2, "random"),
    ("rulesets/poison-kedric-winks.rules", 4, "random,greedy,random,random"),
    ("examples/poison-bitter.rules", 4, "random"),
    ("examples/poison-four-colors.rules", 5, "random"),
    ("examples/poison-kedric-winks-house-agendas.rules", 3, "random"),
    ("examples/seat-zero-wins.rules", 3, "random"),
    # The classics written as proof of the language's growth, pinned before it grows further.
    ("examples/classics/war.rules", 2, "random"),
    ("examples/classics/sevens.rules", 4, "random,greedy,random,greedy"),
    ("examples/classics/whist.rules", 4, "random,greedy,random,random"),
    ("examples/classics/sushi-go.rules", 3, "random,greedy,random"),
    ("examples/classics/go_fish.rules", 3, "random,greedy,random"),
    ("examples/classics/oh_hell.rules", 4, "random,greedy,random,random"),
    ("examples/classics/love_letter.rules", 4, "random,greedy,random,random"),
    # (one seed: each greedy decision replays the round so far on sampled deals, and a round of
    # Lost Cities is 90 moves long; the second seed's game doubled the check to half a minute)
    ("examples/classics/lost_cities.rules", 2, "random,greedy", (1,)),
    # Pinned as it was added: sets of several cards in one move.
    ("examples/classics/president.rules", 4, "random,greedy,random,random"),
    # Pinned as it was added: reveals and a reshuffled stock (events in the records).
    ("examples/low-hand.rules", 4, "random,greedy,random,random"),
    # Pinned as it was added: asks that choose several cards (Scopa's captures by sum).
    ("examples/classics/scopa.rules", 2, "random"),
    # Pinned as it was added: a zone every seat sees but its owner (`others see`), chips as counters.
    ("examples/classics/indian_poker.rules", 3, "random,greedy,random"),
    # Pinned as they were added: a turn order that reverses, lost turns, phases of effects only.
    ("examples/classics/switch.rules", 3, "greedy,random,random"),
    ("examples/classics/the_game.rules", 3, "greedy,random,random"),
    # Pinned as it was added: loops in effects (the dealer draws to 17) and named effects. Random
    # seats only: a greedy seat samples the shoe at every choice (18 s a pair of games, too slow a test).
    ("examples/classics/blackjack.rules", 3, "random"),
    # Pinned as it was added: typed variables, state kept per team, typed parameters.
    ("examples/classics/euchre.rules", 4, "random,greedy,random,random"),
    # Pinned as it was added: melds as set moves onto the first free place, a stock turned over.
    # (seeds where a random seat goes out: in most random hands the stock runs out twice first)
    ("examples/classics/rummy.rules", 2, "random", (10, 13)),
    # Pinned as they were added, written from docs/ alone: passing by a rotating direction and
    # shooting the moon; claims doubted in turn by asks; a layout of places turned face up.
    ("examples/classics/hearts.rules", 4, "random,greedy,random,random"),
    ("examples/classics/cheat.rules", 3, "random"),
    ("examples/classics/golf.rules", 2, "random,greedy"),
]
SEEDS = (1, 2)
# What a record says of the game itself (not where its rules were read from, nor when).
GAME_KEYS = ("ruleset", "players", "seed", "params", "agents", "rounds", "totals", "winners")


def name(case: tuple) -> str:
    """The pinned file of one case."""
    path, players, agents = case[:3]
    return f"{Path(path).stem}-{players}p-{agents.replace(',', '_')}.jsonl"


def records(case: tuple) -> str:
    """The case's games as record lines, one per seed (SEEDS unless the case names its own)."""
    from interpreter import load
    from interpreter.engine.records import dumps, record
    from interpreter.simulation.one_game import play_game

    path, players, agents = case[:3]
    game = load(ROOT / path)
    lines = []
    for seed in case[3] if len(case) > 3 else SEEDS:
        state = play_game(game, players, seed, agents.split(","))
        rec = record(state, agents.split(","))
        lines.append(dumps({key: rec[key] for key in GAME_KEYS if key in rec}))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    PINNED.mkdir(exist_ok=True)
    for case in CASES:
        (PINNED / name(case)).write_text(records(case))
        print("wrote", name(case))
