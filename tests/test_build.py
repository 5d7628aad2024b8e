"""The compiled engine (the wheel `pip install .` builds, see hatch_build.py) plays exactly as the
pure-Python source does: same records byte for byte, same check results. The tests run the
source tree; these compare it with the installed package when that one is compiled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_card_sets import BIG

from conftest import EXAMPLES, HANG, ROOT, RULESETS, built_from_this_tree, installed_engine, run_cli
from interpreter.build import engine_build

# (ruleset, players, agents): every shipped kind of game, and the agents that search.
GAMES = [
    (RULESETS / "poison.rules", 3, "random"),
    (RULESETS / "poison.rules", 4, "greedy,random,random,random"),
    (RULESETS / "poison-five-card.rules", 5, "random"),
    (RULESETS / "poison-kedric-winks.rules", 4, "random"),
    (EXAMPLES / "poison-kedric-winks-house-agendas.rules", 3, "random"),
    # choices that are not cards, asks, sets, powers and a greedy seat whose sampler replays them
    # (Cython holds the annotated types the pure-Python source leaves unchecked)
    (EXAMPLES / "classics" / "love_letter.rules", 4, "greedy,random,random,random"),
    (EXAMPLES / "classics" / "sushi-go.rules", 3, "random,greedy,random"),
    (EXAMPLES / "classics" / "president.rules", 4, "random"),
    (EXAMPLES / "classics" / "lost_cities.rules", 2, "random"),
    # a draw from the stock or a discard pile, reveals and a reshuffled stock, and a greedy seat whose
    # sampler replays them (Lost Cities' greedy seat replays a 90-move round for each of its samples:
    # two minutes of this test; its pinned record keeps it playing as it did)
    (EXAMPLES / "low-hand.rules", 4, "random,greedy,random,random"),
    # asks of several cards (sets of table cards summing to the card played)
    (EXAMPLES / "classics" / "scopa.rules", 2, "random"),
    # melds of several cards onto the first free place of many, a discard pile turned over
    (EXAMPLES / "classics" / "rummy.rules", 2, "random"),
    # the flow's own effects in loops (`for each`, `repeat until`: loops.py, flow.py)
    (EXAMPLES / "classics" / "blackjack.rules", 3, "random"),
    # asks in a move's triggers, the turn order reversed and turns skipped
    (EXAMPLES / "classics" / "switch.rules", 3, "random"),
    # asks that `tell` (knowledge.py), moves of a card by its place, a greedy seat that samples them
    (EXAMPLES / "hints.rules", 3, "greedy,random,random"),
]
MCTS_GAME = (RULESETS / "poison.rules", 4, "mcts(iterations=20),random,random,random")
SEEDS = range(4)

# The same program runs in this process (the source tree) and in an isolated interpreter that
# sees only the installed package; it prints a digest of every game's record.
PROGRAM = """
import hashlib, json, sys
import interpreter
from interpreter.build import engine_build
from interpreter.engine.records import dumps, record
from interpreter.simulation.one_game import play_game
games, seeds = json.loads(sys.argv[1])
out = {"build": engine_build(), "digests": []}
for path, players, agents in games:
    game = interpreter.load(path)
    for seed in seeds:
        state = play_game(game, players, seed, agents)
        rec = record(state, agents.split(","))
        rec.pop("origin", None)  # where the rules were read from (shipped or not) is not the game
        rec = dumps(rec)
        out["digests"].append(hashlib.sha256(rec.encode()).hexdigest())
print(json.dumps(out))
"""


def _digests(games: list, isolated: bool, cwd: Path) -> dict:
    args = json.dumps([[[str(p), n, a] for p, n, a in games], list(SEEDS)])
    flags = ["-I"] if isolated else []  # -I: no PYTHONPATH, no working directory on the path
    done = subprocess.run(
        [sys.executable, *flags, "-c", PROGRAM, args], cwd=cwd, capture_output=True, text=True, timeout=HANG
    )
    if isolated and "No module named 'interpreter'" in done.stderr:
        pytest.skip("ruleset is not installed (only the source tree is tested)")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_source_tree_is_the_pure_python_engine() -> None:
    assert engine_build() == "pure Python"


def test_a_package_installed_from_this_tree_has_the_compiled_engine(tmp_path) -> None:
    """`pip install ".[test]" && python -m pytest` (the README, .ci/run) must not pass with a wheel
    that fell back to pure Python (a build hook that could not compile says so only in a warning
    pip hides). Only a regular install of this tree at its version is held to it: an editable
    install, another checkout's or none is the developer's, and RULESET_PURE_PYTHON=1 asks for
    a pure-Python build on purpose."""
    engine = installed_engine(tmp_path)
    if engine is None or not built_from_this_tree(engine):
        pytest.skip("the installed package (if any) was not built from this tree by `pip install .`")
    if os.environ.get("RULESET_PURE_PYTHON"):
        pytest.skip("RULESET_PURE_PYTHON is set: a pure-Python build was asked for")
    assert engine["build"] == "compiled", (
        "the package installed from this tree is pure Python: the build hook could not compile the engine "
        "(run `pip install -v .` to see why; hatch_build.py's COMPILED list must be free of repeats)"
    )


@pytest.mark.parametrize("games", [GAMES, [MCTS_GAME]], ids=["random-and-greedy", "mcts"])
def test_the_compiled_engine_plays_the_same_games_as_the_source(installed, games, tmp_path) -> None:
    ours = _digests(games, isolated=False, cwd=Path(__file__).resolve().parent.parent)
    theirs = _digests(games, isolated=True, cwd=tmp_path)
    assert ours["build"] == "pure Python" and theirs["build"] == "compiled"
    assert theirs["digests"] == ours["digests"]
    assert len(set(ours["digests"])) == len(ours["digests"])  # different seeds, different games


# The typed classes of the compiled engine (engine/state.pxd, state_fields.pxd, rule_fields.pxd): a field of an
# extension type is a getset descriptor; of a plain class with __slots__, a member descriptor, and of
# a dataclass, no class attribute at all.
TYPED = """
import json
from interpreter.engine.game import Game, MoveRule, PhaseRule
from interpreter.engine.state import State
from interpreter.engine.zones import Layout
from interpreter.verify.encode import Encoder
print(json.dumps([type(vars(c).get(f) or getattr(c, f, None)).__name__
                  for c, f in ((State, "zones"), (Game, "phases"), (PhaseRule, "moves"), (MoveRule, "generate"),
                               (Encoder, "classes"), (Layout, "base"))]))
"""


def test_the_compiled_engine_has_the_typed_state_and_rules(installed, tmp_path) -> None:
    """The .pxd files beside the engine's modules reach the build (a wheel built without them, from
    an sdist that left them out say, would play the same games, only slower, without a word);
    verify's keys too (verify/encode.pxd)."""
    done = subprocess.run(
        [sys.executable, "-I", "-c", TYPED], cwd=tmp_path, capture_output=True, text=True, timeout=HANG
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["getset_descriptor"] * 6


def _declared(pxd: str) -> dict[str, list[str]]:
    """Each `cdef class` of a .pxd file with the fields it declares."""
    classes: dict[str, list[str]] = {}
    for line in (ROOT / "interpreter" / pxd).read_text().splitlines():
        words = line.split()
        if line.startswith("cdef class "):
            classes[words[2].rstrip(":")] = fields = []
        elif words[:2] == ["cdef", "public"]:
            fields.append(words[-1])
    return classes


def test_the_typed_declarations_name_exactly_the_fields_of_the_source() -> None:
    """A field State gains in state_fields.py needs its line in state_fields.pxd (the compiled State has no other
    fields), and a field rule_fields.pxd types must be one of the record's (else it stays unset in
    the compiled engine): checked here on the source, before any build."""
    from dataclasses import fields

    from interpreter.engine.game import Flow, Game, MoveRule, PhaseRule, TriggerRule
    from interpreter.engine.state_fields import StateFields
    from interpreter.engine.zones import Layout

    assert sorted(_declared("engine/state_fields.pxd")["StateFields"]) == sorted(StateFields.__slots__)
    assert sorted(_declared("engine/state_fields.pxd")["LayoutFields"]) == sorted(f.name for f in fields(Layout))
    records = {"GameFields": Game, "PhaseFields": PhaseRule, "MoveFields": MoveRule}
    records |= {"TriggerFields": TriggerRule, "FlowFields": Flow}
    for base, typed in _declared("engine/rule_fields.pxd").items():
        assert set(typed) <= {f.name for f in fields(records[base])}, base


def test_the_typed_key_declares_exactly_the_fields_the_encoder_sets() -> None:
    """verify's Encoder is an extension type in the compiled engine (verify/encode.pxd): a field it
    sets that the .pxd does not declare fails there only, at run time."""
    from interpreter.engine.game import compile_ir
    from interpreter.loader import ir_from_path
    from interpreter.verify.chance import card_classes
    from interpreter.verify.encode import Encoder

    game = compile_ir(ir_from_path(RULESETS / "poison.rules"))
    encoder = Encoder(game, card_classes(game), 3)
    assert sorted(_declared("verify/encode.pxd")["Encoder"]) == sorted(vars(encoder))


def test_the_typed_moments_declare_exactly_the_fields_of_the_source() -> None:
    """Moments is an extension type in the compiled engine (simulation/stats.pxd): a field the
    dataclass gains needs its line there, or the compiled class has no place for it."""
    from dataclasses import fields

    from interpreter.simulation.stats import Moments

    assert _declared("simulation/stats.pxd")["Moments"] == [f.name for f in fields(Moments)]


def test_the_typed_random_agent_declares_exactly_the_fields_it_sets() -> None:
    """The random agent is an extension type in the compiled engine (agents/random_agent.pxd): a field
    it sets that the .pxd does not declare fails there only, at run time."""
    from interpreter.agents.random_agent import RandomAgent

    assert sorted(_declared("agents/random_agent.pxd")["RandomAgent"]) == sorted(vars(RandomAgent(0, 1)))


# test_card_sets' game of sets with a hand of 16: 1 to 4 cards of 16 (2,516 sets), each set chosen
# card by card (card_sets.Listing)
PICKED = BIG.replace("deal 34 to hand", "deal 16 to hand")


def test_the_compiled_engine_picks_sets_card_by_card_as_the_source_does(installed, tmp_path) -> None:
    rules = tmp_path / "picked.rules"
    rules.write_text(PICKED)
    games = [(rules, 2, "random")]
    ours = _digests(games, isolated=False, cwd=Path(__file__).resolve().parent.parent)
    theirs = _digests(games, isolated=True, cwd=tmp_path)
    assert theirs["build"] == "compiled" and theirs["digests"] == ours["digests"]


def test_the_compiled_engine_checks_a_ruleset_as_the_source_does(installed, tmp_path) -> None:
    """`ruleset check --format json` of the installed command equals the source tree's."""
    target = str(RULESETS / "poison-kedric-winks.rules")
    ours = run_cli("check", target, "--games", "30", "--format", "json")
    theirs = subprocess.run(
        [sys.executable, "-I", "-m", "interpreter", "check", target, "--games", "30", "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert theirs.returncode == ours.returncode, theirs.stderr

    def report(text: str) -> dict:
        out = json.loads(text)
        del out["seconds"]  # the only field that may differ
        return out

    assert report(theirs.stdout) == report(ours.stdout)
    assert report(ours.stdout)["coverage"]  # the playouts ran and counted rules


def test_the_compiled_engine_reports_a_simulation_as_the_source_does(installed) -> None:
    """`ruleset simulate --format json` of the installed command equals the source tree's but for its
    timings: the compiled statistics once printed each score's min and max as floats (-67.0) where
    the source printed ints (its typed Moments took every value as a C double)."""
    argv = ["simulate", str(RULESETS / "poison.rules"), "--players", "4", "--games", "20", "--format", "json"]
    ours = run_cli(*argv)
    theirs = subprocess.run(
        [sys.executable, "-I", "-m", "interpreter", *argv], cwd=ROOT, capture_output=True, text=True, timeout=HANG
    )
    assert theirs.returncode == ours.returncode == 0, theirs.stderr

    def report(text: str) -> str:
        out = json.loads(text)
        for timing in ("seconds", "games_per_second", "moves_per_second"):  # the only fields that may differ
            del out[timing]
        return json.dumps(out, sort_keys=True)  # as text: -67 and -67.0 are equal numbers, not equal reports

    assert report(theirs.stdout) == report(ours.stdout)


@pytest.mark.parametrize("name", ["red-opening.rules", "seven-reds.rules"])
def test_the_compiled_engine_verifies_a_ruleset_as_the_source_does(installed, tmp_path, name) -> None:
    """`ruleset verify --format json` of the installed command equals the source tree's, its
    counterexample too: a deadlock found at the deal once lost the deal's state in the compiled
    engine only (the error's frame, which compiled code does not keep), and no test saw it."""
    target = str(EXAMPLES / "broken" / "rare" / name)
    ours = run_cli("verify", target, "--format", "json")
    theirs = subprocess.run(
        [sys.executable, "-I", "-m", "interpreter", "verify", target, "--format", "json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert theirs.returncode == ours.returncode == 1, theirs.stderr
    mine, installed_one = json.loads(ours.stdout), json.loads(theirs.stdout)
    del mine["seconds"], installed_one["seconds"]  # the only field that may differ
    assert installed_one == mine
    assert mine["failures"]  # the flaw found, with what shows it


def test_the_build_hook_lists_each_compiled_module_once_and_every_one_exists() -> None:
    """A module listed twice or missing makes the hook fall back to a pure-Python wheel (with only a
    warning that pip hides): the installed engine would silently be the slow one."""
    import ast

    root = Path(__file__).resolve().parent.parent
    tree = ast.parse((root / "hatch_build.py").read_text())
    listed = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED"
    )
    assert len(listed) == len(set(listed)), f"listed twice: {sorted({m for m in listed if listed.count(m) > 1})}"
    assert [m for m in listed if not (root / m).is_file()] == []


def test_one_extra_installs_every_extra_in_one_build() -> None:
    """Each `pip install ".[EXTRA]"` builds and compiles the engine again (3-5 CPU minutes): `.[all]`
    gets every extra for one build, and the README offers it."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    (everything,) = extras["all"]
    name, listed = everything.rstrip("]").split("[")
    assert name == project["name"]
    assert set(listed.split(",")) == set(extras) - {"all"}
    assert 'pip install -v ".[all]"' in (ROOT / "README.md").read_text()
