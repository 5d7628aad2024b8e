"""Definitions are computed when read: a value the engine keeps (by argument, with a zone, per
card, a guard's hoisted part) never outlives a change it depends on, whatever effect makes it
(`set`, `add`, `pay`, `make`, a card moved...) and wherever it runs (a trigger, at start or end,
an ask's block, held moves resolving). cache_probe.py compares each definition through the
engine's caches with its value computed afresh, after every effect of random games."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cache_probe import probe_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
from conftest import EXAMPLES, HANG, RULESETS

SHIPPED = sorted(RULESETS.glob("*.rules")) + sorted((EXAMPLES / "classics").glob("*.rules"))
MAX_MOVES = 120  # a probed game stops after this many moves (the probes are many per move)

ONWARD = """game "Onward"
players 3..4

cards
  card  rank 1..8

zones
  hand  per player, owner sees
  pile  shared, public

var direction = 1
var seen per player = 0
define onward(p) = if direction = 1 then left of p else right of p

round
  deal 2 to hand
  phase play
    move lay card from hand to pile
    after lay
      let before = onward(player)
      set direction to -direction
      let after = onward(player)
      if after = before
        set seen of player to 1
      next after
    ends when every hand is empty
  score
    seen of player

game
  rounds 1
  winner highest total
"""


def test_a_definition_read_after_a_set_sees_the_new_value() -> None:
    """With 3 players `left of p` and `right of p` differ: reversing the direction changes who is
    onward, so no seat ever sees the same player twice (the second read once returned the first's)."""
    game = interpreter.loads(ONWARD, "onward.rules")
    for seed in range(3):
        state = game.new_game(3, seed=seed)
        order = []
        while not state.is_over:
            order.append(state.current_player)
            state.apply(state.legal_moves()[0])
        assert state.scores() == [0, 0, 0]
        # each move reverses the direction and passes onward in the new one: right, then left...
        assert order[:3] == [order[0], (order[0] - 1) % 3, order[0]]


@pytest.mark.parametrize(
    ("counter", "condition", "effect"),
    [
        ("var direction = 1", "direction = 1", "set direction to -direction"),
        ("var direction = 1", "direction = 1", "add -2 to direction"),
        ("var direction = 1\nvar stock = 0", "direction = 1", "pay 1 direction to stock"),
        ("var direction per player = 0", "direction of p = 0", "make player direction"),
        ("var direction per player = 0", "direction of p = 0", "make player direction until their next turn"),
    ],
    ids=["set", "add", "pay", "make", "make-until"],
)
def test_every_effect_that_writes_a_counter_is_seen_by_the_next_read(counter: str, condition: str, effect: str) -> None:
    """`set`, `add`, `pay` and a status each change what a definition reads, inside one trigger."""
    rules = ONWARD.replace("var direction = 1", counter).replace("direction = 1 then", f"{condition} then")
    rules = rules.replace("set direction to -direction", effect)
    state = interpreter.loads(rules, "onward.rules").new_game(3, seed=0)
    mover = state.current_player
    state.apply(state.legal_moves()[0])
    seen = [v["name"] for v in state.game.ir["vars"]].index("seen")
    assert state.vars[seen][mover] == 0
    assert state.current_player == (mover - 1) % 3  # onward after the change: right of the mover


@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**16), players=st.integers(2, 5))
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_definition_kept_equals_its_value_computed_afresh(path: Path, seed: int, players: int) -> None:
    game = interpreter.load(path)
    players = max(game.min_players, min(players, game.max_players))
    found, probes = probe_games([(str(path), players, seed)], MAX_MOVES)
    assert probes > 0
    assert found == []


def test_the_probe_sees_a_value_kept_past_a_change(monkeypatch, tmp_path) -> None:
    """The probe itself: with `set` no longer clearing what the state keeps, it finds the stale value."""
    from interpreter.engine import effects

    set_effect = effects._BUILDERS["set"]

    def stale_set(cx, node, scope):
        k = cx.var_index[node["var"]]
        value = cx.compile(node["value"], scope)

        def write(s, e):  # the value written, nothing cleared
            s.vars[k] = value(s, e)

        return write if node.get("of") is None else set_effect(cx, node, scope)

    monkeypatch.setitem(effects._BUILDERS, "set", stale_set)
    path = tmp_path / "onward.rules"
    path.write_text(ONWARD)
    found, _ = probe_games([(str(path), 3, 0)], 4)
    assert any("onward(" in f and "after `set`" in f for f in found)


def test_the_compiled_engine_keeps_no_value_past_a_change(installed, tmp_path) -> None:
    """The same probe in an isolated interpreter that sees only the installed (compiled) package."""
    games = []
    for path in SHIPPED:
        game = interpreter.load(path)
        games.append([str(path), max(game.min_players, min(3, game.max_players)), 1])
    program = (Path(__file__).parent / "cache_probe.py").read_text()
    done = subprocess.run(
        [sys.executable, "-I", "-c", program, json.dumps([games, MAX_MOVES])],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["build"] == "compiled" and out["probes"] > 0
    assert out["found"] == []
