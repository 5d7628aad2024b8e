"""The `checks` section (always / never / sometimes): parsed, typed and positioned as any rule,
in the IR, written back by fmt, shown by render and diff; proved by verify, asserted by check
and simulate. Tiny games only."""

from __future__ import annotations

import pytest

import interpreter
from conftest import TINY_RULES
from interpreter.checker import check
from interpreter.engine.game import compile_ir
from interpreter.errors import PlayError, RulesTypeError
from interpreter.language.schema import check_ir
from interpreter.loader import ir_from_text
from interpreter.simulation.simulate import simulate
from interpreter.text.diff import diff
from interpreter.text.fmt import format_text
from interpreter.text.render import render
from interpreter.verify import explore
from interpreter.verify.report import counterexample

BASE = TINY_RULES

CHECKS = """
checks
  always count cards in pile <= 4
  never count cards in pile where color of it = red = 2 and count cards in pile = 2
  sometimes count cards in pile = 5
"""


def test_checks_are_in_the_ir_with_their_positions_and_the_schema_accepts_them():
    ir = ir_from_text(BASE + CHECKS, "pairs.rules")
    check_ir(ir)
    assert [c["kind"] for c in ir["checks"]] == ["always", "never", "sometimes"]
    assert [c["at"] for c in ir["checks"]] == ["pairs.rules:24:3", "pairs.rules:25:3", "pairs.rules:26:3"]
    assert ir["checks"][0]["if"]["op"] == "cmp"
    assert "checks" not in ir_from_text(BASE)  # rules without checks: their IR as it was


def test_a_check_is_typed_as_a_condition_at_its_position():
    with pytest.raises(RulesTypeError) as err:
        ir_from_text(BASE + "\nchecks\n  always count cards in pile\n", "pairs.rules")
    assert err.value.span.line == 24


def test_fmt_render_and_diff_carry_the_checks():
    text = BASE + CHECKS
    out = format_text(text)
    assert "checks\n  always count cards in pile <= 4\n" in out and format_text(out) == out
    book = render(ir_from_text(text), "markdown")
    assert "What the rules promise" in book and "Never: the number of cards in the pile whose color is red" in book
    changes = diff(ir_from_text(text), ir_from_text(text.replace("<= 4", "<= 3")))
    assert any("at most 3" in str(c) for c in changes)


def test_verify_proves_breaks_and_misses_each_kind_with_its_shortest_game():
    game = compile_ir(ir_from_text(BASE + CHECKS), coverage=True)
    result = explore(game, 2)
    assert result.complete and result.exit_code == 1
    by_kind = {f.kind: f for f in result.failures}
    assert set(by_kind) == {"never", "sometimes"}  # the `always` holds in every state
    ex = counterexample(result, by_kind["never"])
    assert ex["after"] == 2 and ex["finished"]  # two reds played first; the game then played out
    assert ex["record"]["rounds"][0]["moves"][0]["card"]["color"] == "red"
    assert counterexample(result, by_kind["sometimes"]) is None


def test_check_and_simulate_assert_always_and_never():
    path_text = BASE + CHECKS
    game = interpreter.loads(path_text)
    with pytest.raises(PlayError, match="`never` check is broken"):
        simulate(game, 2, 50, seed=1)


def test_check_reports_a_broken_never_and_a_sometimes_that_never_held(tmp_path):
    path = tmp_path / "pairs.rules"
    path.write_text(BASE + CHECKS)
    report = check(str(path), games=40, jobs=1)
    codes = {(f.code, f.at.line if f.at else None) for f in report.findings}
    assert ("check", 25) in codes and ("dead-rule", 26) in codes
    assert not any(code == "check" and line == 24 for code, line in codes)


def test_a_variant_adds_its_checks_to_its_bases(tmp_path):
    (tmp_path / "base.rules").write_text(BASE + "\nchecks\n  always count cards in pile <= 4\n")
    (tmp_path / "v.rules").write_text('extends "base.rules"\n\nchecks\n  sometimes every hand is empty\n')
    ir = interpreter.ir_from_path(tmp_path / "v.rules")
    assert [c["kind"] for c in ir["checks"]] == ["always", "sometimes"]


def test_the_language_server_completes_and_explains_the_check_words():
    from interpreter.editor.analysis import spellings
    from interpreter.editor.completion import expected
    from interpreter.editor.hover import _keyword

    accepted = expected(BASE + "\nchecks\n  ")
    assert {w for t in accepted for w in spellings(t)} == {"always", "never", "sometimes"}
    assert "checks" in _keyword("never") and "verify" in _keyword("sometimes")
