"""Speed of `ruleset verify`: states explored a second on shrunk games, the whole space of each.

Two instances, shrunk from the command line as docs/verify.md shows (the files are not edited):

- AMIGO Poison (rulesets/poison.rules), 3 players, one round, two colours, values 1 and 2, one
  copy of each potion and 2 poison cards, limit 3 (so that cauldrons overflow): 6 cards;
- Kedric Winks (rulesets/poison-kedric-winks.rules), 2 players, one hand of 2 cards, drinks of two
  suits ranked 1 and 2, their bottles, one poison, two copies of each agenda.

Prints, for each, the deals, the states reached and distinct, the depth, the CPU seconds and the
states a second (states reached over CPU time: the machine may be shared), as JSON lines. Usage:
``python benchmarks/verify_speed.py [--source] [--only amigo|kedric] [--repeat N]``. With
``--repeat N`` each instance is explored N times and its fastest run is the figure (timeit's
practice: the others were slowed by other work), with the spread of the N (``cpu_seconds_all``).
Compare two installs by running each from outside the source tree (cwd /tmp), alternately: the CPU
time of a shared machine still varies by a third from run to run. Figures: docs/verify.md, "Speed".
For where the time goes without the load's noise, count instructions:
``valgrind --tool=callgrind --toggle-collect=__pyx_pw_11interpreter_6verify_7explore_8explore python ...``
and divide by the states reached (the function's name as ``nm`` lists it in the compiled explore
module: its number follows the module's definitions; a wrong name collects 0 instructions).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # engine_path
import engine_path

engine_path.choose()  # the installed engine, or --source for the source tree

from interpreter.engine.game import compile_ir
from interpreter.loader import ir_from_path
from interpreter.verify import explore
from interpreter.verify.shrink import shrink

INSTANCES = {
    "amigo": (
        "rulesets/poison.rules",
        3,
        {"rounds": "1", "limit": "3"},
        ["potion.color=red,blue", "potion.value=1,2"],
        ["potion=1", "poison=2"],
        [],
    ),
    "kedric": (
        "rulesets/poison-kedric-winks.rules",
        2,
        {"hands": "1"},
        ["drink.suit=brandy,wine", "drink.rank=1,2", "bottle.suit=brandy,wine", "poison.rank=1"],
        ["agenda=2"],
        ["size=2"],
    ),
}


def measure(name: str, repeat: int = 1) -> dict:
    """Explore one instance whole, ``repeat`` times; its figures, from the fastest run."""
    path, players, sets, only, copies, schedules = INSTANCES[name]
    ir = shrink(ir_from_path(ROOT / path), only, copies, schedules)
    times, best = [], None
    for _ in range(repeat):
        game = compile_ir(ir, coverage=True)
        cpu = time.process_time()
        result = explore(game, players, sets, max_states=2_000_000)
        times.append(time.process_time() - cpu)
        if best is None or times[-1] < best[0]:
            best = (times[-1], result)
        del result  # (one exploration's graph kept at a time)
    cpu, result = best
    out = {
        "instance": name,
        "players": players,
        "deals": result.deals,
        "orders": result.orders,
        "states": result.states,
        "distinct": result.distinct,
        "depth": result.depth,
        "complete": result.complete,
        "cpu_seconds": round(cpu, 3),
        "states_per_s": round(result.states / cpu) if cpu else None,
        "properties_hold": result.exit_code == 0,
    }
    if repeat > 1:
        out["cpu_seconds_all"] = sorted(round(c, 3) for c in times)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(INSTANCES), help="measure one instance")
    parser.add_argument("--repeat", type=int, default=1, help="explore each instance N times, keep the fastest")
    args = parser.parse_args()
    print(engine_path.describe(), file=sys.stderr)
    for name in [args.only] if args.only else list(INSTANCES):
        print(json.dumps(measure(name, max(1, args.repeat))), flush=True)


if __name__ == "__main__":
    main()
