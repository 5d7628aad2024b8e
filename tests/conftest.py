"""Shared fixtures: the shipped rulesets, loaded once per test session."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import interpreter

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """What the commands keep (the parser's tables, rulesets' IR: interpreter/language/ir_cache.py)
    goes to a folder of the test run's own, for every test and every command they start, never the
    user's home: under pytest-xdist, of each worker's own (each worker process runs this hook).
    (Set here, not on import: a benchmark that imports this module keeps the user's.)"""
    folder = tempfile.mkdtemp(prefix="ruleset-test-cache-")
    os.environ["RULESET_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    # The Python processes the tests start (hundreds of `ruleset` commands) keep their compiled bytecode
    # in a folder of the run's own too, even where PYTHONDONTWRITEBYTECODE keeps it out of the source
    # tree: else each one compiles the modules it imports anew (a quarter of a second of CPU each).
    bytecode = tempfile.mkdtemp(prefix="ruleset-test-bytecode-")
    os.environ["PYTHONPYCACHEPREFIX"] = bytecode
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    config.add_cleanup(lambda: shutil.rmtree(bytecode, ignore_errors=True))


RULESETS = ROOT / "rulesets"
EXAMPLES = ROOT / "examples"

# A two-player game of four cards, small enough to explore whole (`ruleset verify`).
TINY_RULES = """game "Tiny"
players 2..2

cards
  card  color red | blue   value 1 x2

zones
  hand  per player, owner sees
  pile  shared, public

round
  deal 2 to hand
  phase play
    move play card from hand to pile
    ends when every hand is empty
  score
    each card in pile where color of it = red: 1

game
  rounds 1
  winner lowest total
"""

# No test may fail because the machine is slow: every wall-clock limit in the tests is a guard
# against a hang, never a speed test. Each wait (a subprocess, a server starting or answering, a
# socket, a poll until something shows) is bounded by HANG seconds, and only by it: 30 minutes, so
# that a machine 5-10x slower than an idle 2-core one (a loaded CI runner) still passes (the longest
# single waits, games played in a subprocess, take well under a minute idle), while a real
# hang fails its own test and the suite goes on, within CI's 90 minutes. RULESET_TEST_HANG=SECONDS
# sets another bound (a short one finds a hang sooner on a fast machine).
HANG = float(os.environ.get("RULESET_TEST_HANG", "1800"))

# The same for hypothesis: no deadline per example and no "too slow" health check (both wall-clock).
settings.register_profile("hang-guards-only", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hang-guards-only")


def wait_until(condition, what: str, every: float = 0.05) -> None:
    """Poll ``condition()`` until it is true; fail the test after HANG seconds (a hang, not slowness)."""
    import time

    deadline = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < deadline, f"waited {HANG:.0f} s for {what}: a hang"
        time.sleep(every)


def run_cli(*args: str, cwd: Path = ROOT, input: str | None = None, timeout: float = HANG):
    """Run `ruleset ARGS` as a real process (python -m interpreter), from the repository root or
    ``cwd``: either way this tree's package is the one run (a hang fails after ``timeout`` seconds)."""
    import subprocess

    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep),
    }
    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        input=input,
        timeout=timeout,
    )


def ctrl_c_as_at_a_terminal() -> None:
    """A child process's ``preexec_fn``: Ctrl-C (SIGINT) interrupts it as at a terminal, even when the
    tests run in the background, where a shell starts them with SIGINT ignored (and a program
    started so rightly keeps ignoring it)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def poison() -> interpreter.Game:
    return interpreter.load(RULESETS / "poison.rules")


@pytest.fixture(scope="session")
def five_card() -> interpreter.Game:
    return interpreter.load(RULESETS / "poison-five-card.rules")


def position(game: interpreter.Game, players: int, zones: dict, params: dict | None = None, dealer: int = 0):
    """A game whose first round, dealt by seat ``dealer``, starts from the given zone contents (cards
    as record objects); every card not placed stays in its deck's own zone. One round (when the
    game has a `rounds` parameter) unless ``params`` says more."""
    from interpreter.engine.cards import signature

    placed = {}
    for name, content in zones.items():
        placed[name] = content
    pool = game.cards.by_signature()
    used: dict = {}

    def take(items):
        for item in items:
            if isinstance(item, list):
                take(item)
            else:
                sig = signature(item)
                used[sig] = used.get(sig, 0) + 1

    take(list(zones.values()))
    for deck in game.cards.deck_names:
        rest = []
        for sig, ids in pool.items():
            extra = len(ids) - used.get(sig, 0)
            if game.cards.deck_names[game.cards.deck_of[ids[0]]] == deck and extra > 0:
                rest += [game.cards.json[ids[0]]] * extra
        placed[deck] = rest
    one_round = {"rounds": 1} if any(p.name == "rounds" for p in game.params) else {}
    state = game.new_game(players, 0, {**one_round, **(params or {})}, deals=[placed], dealer=dealer)
    state.deals_given = None  # any later round is dealt by chance
    return state


def random_game(game: interpreter.Game, players: int, seed: int, **options):
    """A whole game of seeded random moves (each a choice among the legal moves, drawn from
    ``random.Random(seed)``), its state at the end."""
    import random

    state, rng = game.new_game(players, seed, **options), random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def card(type_: str, **attrs) -> dict:
    """A card object as records write it."""
    return {"type": type_, **attrs}


# What the installed package says of itself, read by an isolated interpreter (no source tree on its path).
PROBE = """
import json
from importlib import metadata
from interpreter.build import DISTRIBUTION, engine_build
dist = metadata.distribution(DISTRIBUTION)
print(json.dumps({"build": engine_build(), "version": dist.version, "direct_url": dist.read_text("direct_url.json")}))
"""


def installed_engine(where: Path) -> dict | None:
    """The installed package's engine build, version and where pip installed it from (PEP 610's
    direct_url.json: its url, and whether the install is editable); None when there is none, or
    it is older than this source tree (no interpreter.build)."""
    import json
    import subprocess

    probe = subprocess.run([sys.executable, "-I", "-c", PROBE], cwd=where, capture_output=True, text=True)
    if probe.returncode != 0:
        return None
    out = json.loads(probe.stdout)
    url = json.loads(out.pop("direct_url") or "{}")
    out["editable"] = bool(url.get("dir_info", {}).get("editable"))
    out["source"] = url.get("url", "")
    return out


def built_from_this_tree(engine: dict) -> bool:
    """Whether the installed package is a regular (not editable) install of this very tree at its
    version: what `pip install ".[test]"` (the README's test command, .ci/run) makes."""
    import tomllib
    from urllib.parse import unquote, urlparse

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    url = urlparse(engine["source"])
    same_tree = url.scheme == "file" and Path(unquote(url.path)).resolve() == ROOT
    return same_tree and not engine["editable"] and engine["version"] == version


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> None:
    """Skip unless the installed engine is the compiled one (tests/test_build.py): the tests run the
    source tree; these compare it with what `pip install .` installed. (A pure-Python install
    built from this tree fails tests/test_build.py instead, unless it was built so on purpose.)"""
    engine = installed_engine(tmp_path_factory.mktemp("probe"))
    if engine is None:
        pytest.skip("ruleset is not installed, or is older than this source tree (only the source is tested)")
    if engine["build"] != "compiled":
        pytest.skip("the installed engine is pure Python (built without Cython or a C compiler)")
