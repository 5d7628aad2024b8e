"""Every example of the language reference (docs/language.md) parses; whole rulesets also play."""

from __future__ import annotations

import re

import pytest

import interpreter
from conftest import ROOT
from interpreter.language.parser import parse
from interpreter.simulation.simulate import simulate

DOC = (ROOT / "docs" / "language.md").read_text()
BLOCKS = re.findall(r"```rules\n(.*?)```", DOC, flags=re.S)


def test_the_reference_has_examples():
    assert len(BLOCKS) >= 15


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i}" for i in range(len(BLOCKS))])
def test_each_example_parses(block):
    parse(block, "docs/language.md")


def test_the_whole_rulesets_of_the_reference_load_and_play():
    whole = [b for b in BLOCKS if b.startswith("game ") and "\ncards" in b and "\nround" in b]
    assert whole
    for block in whole:
        game = interpreter.loads(block, "docs/language.md")
        assert simulate(game, game.min_players, 2, seed=1)["games"] == 2


def test_the_variant_example_is_the_shipped_five_card_variant_in_short(tmp_path):
    block = next(b for b in BLOCKS if b.startswith('extends "poison.rules"'))
    (tmp_path / "poison.rules").write_text((ROOT / "rulesets" / "poison.rules").read_text())
    (tmp_path / "v.rules").write_text(block)
    ours = interpreter.ir_from_path(tmp_path / "v.rules")
    shipped = interpreter.ir_from_path(ROOT / "rulesets" / "poison-five-card.rules")

    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("at", "note", "source")}
        if isinstance(node, list):
            return [strip(x) for x in node]
        return node

    assert strip(ours) == strip(shipped)
