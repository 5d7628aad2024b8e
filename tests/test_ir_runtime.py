"""IR written by hand is schema-checked but not typed: a rule that fails while being evaluated is a
positioned error at that rule, and the CLI says so without a traceback."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import RULESETS, run_cli
from interpreter.engine.game import compile_ir
from interpreter.errors import PlayError


def mistyped_ir() -> dict:
    """AMIGO Poison's IR with the overflow trigger comparing a name with a number."""
    ir = interpreter.ir_from_path(RULESETS / "poison.rules")
    trigger = ir["round"]["phases"][0]["triggers"][0]
    trigger["if"] = {
        "op": "cmp",
        "cmp": ">",
        "left": {"op": "text", "value": "red"},
        "right": {"op": "num", "value": 3},
    }
    return ir


def test_a_rule_that_fails_at_run_time_is_an_error_at_that_rule():
    ir = mistyped_ir()
    game = compile_ir(ir)
    state = game.new_game(4, seed=1)
    with pytest.raises(PlayError) as info:
        state.apply(state.legal_moves()[0])
    assert info.value.span is not None
    assert (info.value.span.line, info.value.span.col) == (43, 5)  # the `after play if ...` line
    assert "trigger could not be evaluated" in info.value.message
    assert "after play if" in info.value.format()  # the rules file's own line is quoted
    # These rules were read from a .rules file, and typed: the hint about untyped IR would mislead.
    assert "schema-checked but not typed" not in info.value.format()
    assert "bug in ruleset" in info.value.hint


def test_the_cli_reports_it_with_exit_code_2_and_no_traceback(tmp_path):
    path = tmp_path / "mistyped.json"
    path.write_text(json.dumps(mistyped_ir()))
    out = run_cli("simulate", str(path), "--players", "4", "--games", "1", "--quiet")
    assert out.returncode == 2
    assert "poison.rules:43:5: error: this trigger could not be evaluated" in out.stderr
    assert "hint: rules written as IR (JSON/YAML) are schema-checked but not typed" in out.stderr
    assert "Traceback" not in out.stderr
