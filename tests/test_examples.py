"""The authored variants in examples/ load, play and change what they say they change."""

from __future__ import annotations

import pytest

import interpreter
from conftest import EXAMPLES, position
from interpreter.simulation.simulate import simulate

VARIANTS = sorted(p for p in EXAMPLES.glob("*.rules"))


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: p.name)
def test_each_example_variant_simulates(path):
    game = interpreter.load(path)
    stats = simulate(game, game.min_players + 1, 3, seed=1)
    assert stats["games"] == 3 and stats["moves_per_game"] > 0


def test_four_colors_has_56_potions_four_cauldrons_and_a_limit_of_17():
    game = interpreter.load(EXAMPLES / "poison-four-colors.rules")
    assert sum(1 for t in game.cards.types if t == "potion") == 56
    state = game.new_game(4, seed=1)
    assert len(state.layout.instances[game.zone_index["cauldron"]]) == 4
    assert state.params["limit"] == 17


def test_bitter_poison_costs_three():
    game = interpreter.load(EXAMPLES / "poison-bitter.rules")
    poison = {"type": "poison", "color": "green", "value": 4}
    state = position(game, 4, {"collected": [[poison, poison], [], [], []]})
    assert state.history[0]["scores"] == [-6, 0, 0, 0]
