"""Rule counts through the engine's fast paths: a rule whose legal moves are found from a set
(``require ATTR of card = V [when C]``: the cards whose ATTR is V, or all) counts its guard
exactly as the test of each card in turn would, once per group of alike cards, so that `simulate`
prints the same rule counts (and `check` the same consultations) whichever loop found the moves.
Each test plays the same games twice, with the fast path and with it forced off, and compares
the whole count tables after every game."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES, RULESETS
from interpreter.engine import moves
from interpreter.engine.game import compile_ir
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.simulation.one_game import play_game

SHIPPED = sorted(RULESETS.glob("*.rules")) + sorted((EXAMPLES / "classics").glob("*.rules"))
KEDRIC = RULESETS / "poison-kedric-winks.rules"


def compiled(ir: dict, fast: bool, consults: bool = False) -> tuple[Any, bool]:
    """The ruleset compiled with rule counting, with the attribute filter on or forced off; and
    whether some move rule has its legal moves found by the filter."""
    real = moves.attr_filter
    taken = []

    def filter_or_not(*args: Any) -> tuple | None:
        taken.append(real(*args))
        return taken[-1] if fast else None

    patch = pytest.MonkeyPatch()
    patch.setattr(moves, "attr_filter", filter_or_not)
    try:
        game = compile_ir(ir, coverage=True, max_moves=400, consults=consults)
    finally:
        patch.undo()
    return game, any(shape is not None for shape in taken)


def counts_per_game(game: Any, players: int, seeds: list[int]) -> list[Counter]:
    """The count table of each game, random agents playing."""
    out = []
    for seed in seeds:
        game.coverage.clear()
        play_game(game, players, seed)
        out.append(Counter(game.coverage))
    return out


FAST = {"poison-kedric-winks", "whist", "oh_hell"}  # the shipped rulesets that take the filter


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_ruleset_counts_the_same_with_the_fast_path(path: Path) -> None:
    ir = ir_from_path(path)
    fast, taken = compiled(ir, fast=True)
    assert taken or path.stem not in FAST
    if not taken:  # compiled alike either way: nothing to compare
        return
    slow, _ = compiled(ir, fast=False)
    players = ir["players"]["min"] if ir["players"]["min"] > 2 else min(3, ir["players"]["max"])
    seeds = [1, 2, 3]
    assert counts_per_game(fast, players, seeds) == counts_per_game(slow, players, seeds)


@functools.cache
def kedric(fast: bool) -> Any:
    return compiled(ir_from_path(KEDRIC), fast)[0]


@settings(max_examples=15)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 6))
def test_kedric_winks_counts_the_same_with_the_fast_path_for_any_seed(seed: int, players: int) -> None:
    assert counts_per_game(kedric(True), players, [seed]) == counts_per_game(kedric(False), players, [seed])


# Each shape the attribute filter takes: = or !=, C first or last, C the "no card passes" test or
# another condition, V a definition or a variable; with `check`'s consultations counted too.
GUARDS = {
    "follow": "require suit of card = led when some card in hand of player where suit of it = led",
    "differ": "require suit of card != led when some card in hand of player where suit of it != led",
    "when_other": "require suit of card = led when count trick > 0",
    "c_first": "require count trick = 0 or suit of card = led",
    "c_last": "require suit of card = led or count pile = 0",
    "by_var": "require suit of card != wanted of player when wanted of player != none",
    "alone": "require suit of card != led",
}
# V reads a card's `achieved` condition, counted each time it holds: the filter would evaluate it
# fewer times than the test of each card does (inside C), so with counting on it is not taken.
AIM = "(suit of first goal in aims of player where it is achieved else none)"
ACHIEVED = f"require suit of card = {AIM} when some card in hand of player where suit of it = {AIM}"

TEMPLATE = """game "Shapes"
players 2..4

cards
  card  suit red | blue | green   rank 1..4

cards goals
  goal  suit red | blue | green   achieved when count card in pile > 2

zones
  hand   per player, owner sees
  aims   per player, owner sees
  trick  shared, public
  pile   shared, public

var wanted per player = none

define led = suit of first card in trick else none

round
  deal 4 to hand
  deal 1 from goals to aims
  phase tricks
    move play card from hand to trick
      {guard}
    after play
      set wanted of player to suit of card
    after play if count trick = players
      move trick to pile
    ends when every hand is empty
    ends when nobody can move
  score
    count card in pile

game
  rounds 1
  winner highest total
"""


@pytest.mark.parametrize("shape", [*sorted(GUARDS), "achieved"])
def test_each_shape_of_the_filter_counts_as_each_card_tested(shape: str) -> None:
    ir = ir_from_text(TEMPLATE.format(guard=GUARDS.get(shape, ACHIEVED)), f"{shape}.rules")
    seeds = list(range(6))
    for consults in (False, True):
        game, taken = compiled(ir, fast=True, consults=consults)
        assert taken == (shape != "achieved")
        fast = counts_per_game(game, 3, seeds)
        slow = counts_per_game(compiled(ir, fast=False, consults=consults)[0], 3, seeds)
        assert fast == slow
        assert [list(c) for c in fast] == [list(c) for c in slow]  # the same keys in the same order
    guard = ir["round"]["phases"][0]["moves"][0]["guards"][0]["at"]
    assert sum(c[guard] for c in fast) > len(seeds)  # the guard held, and was counted
