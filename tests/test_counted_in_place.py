"""Rule counts made inside the tests themselves: a counted condition of a kind made `countable`
(ExprCompiler.countable) is compiled again adding to its count in place, one call instead of the
closure and a counting wrapper around it; a first-player key is read for every seat only when it
may count a rule; group_tally counts the groups among cards in C (kinds_among). Each must count
exactly what the plain way counts, rule by rule and in the same first-counted order, since
`simulate` prints the rules table in that order and `check` reads the same counts."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import EXAMPLES, RULESETS
from interpreter.engine.expressions import ExprCompiler
from interpreter.engine.game import compile_ir
from interpreter.engine.move_loops import kinds_among
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.simulation.one_game import game_seed, play_game

SHIPPED = sorted(RULESETS.glob("*.rules")) + sorted((EXAMPLES / "classics").glob("*.rules"))
SHIPPED += [EXAMPLES / "poison-kedric-winks-house-agendas.rules", EXAMPLES / "low-hand.rules"]


def wrapped_only(ir: dict, consults: bool = False) -> Any:
    """The ruleset compiled with rule counts, every counted condition wrapped (nothing countable)."""
    patch = pytest.MonkeyPatch()
    patch.setattr(ExprCompiler, "countable", lambda self, make: make(-1))
    try:
        return compile_ir(ir, coverage=True, consults=consults)
    finally:
        patch.undo()


def tables(game: Any, players: int, seeds: list[int]) -> list[list[tuple[str, int]]]:
    """Each game's counts, in the order the rules were first counted, random agents playing."""
    out = []
    for seed in seeds:
        game.coverage.clear()
        play_game(game, players, game_seed(seed, 0))
        out.append(list(game.coverage.items()))
    return out


def players_of(ir: dict) -> int:
    return ir["players"]["min"] if ir["players"]["min"] > 2 else min(3, ir["players"]["max"])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_counting_in_place_counts_what_the_wrapper_counted(path: Path) -> None:
    ir = ir_from_path(path)
    players = players_of(ir)
    game = compile_ir(ir, coverage=True)
    assert tables(game, players, [1, 2, 3]) == tables(wrapped_only(ir), players, [1, 2, 3])


@pytest.mark.parametrize("stem", ["poison", "poison-kedric-winks"])
def test_both_poisons_count_their_hot_conditions_in_place(stem: str) -> None:
    """The conditions consulted most (a phase's end, a trick's end, Poison's guard, a score of a
    variable) are of kinds made countable: the test that counts is one closure."""
    made = []
    real = ExprCompiler.countable

    def spy(self: ExprCompiler, make: Any) -> Any:
        made.append(make)
        return real(self, make)

    patch = pytest.MonkeyPatch()
    patch.setattr(ExprCompiler, "countable", spy)
    try:
        game = compile_ir(ir_from_path(RULESETS / f"{stem}.rules"), coverage=True)
    finally:
        patch.undo()
    assert made
    ends = game.phases[-1].ends
    assert ends is not None and "counted" not in ends.__qualname__  # not the wrapper


def test_a_guard_consulted_by_check_counts_its_consultations_as_before() -> None:
    """With `check`'s consultations on, a guard keeps its wrapper (it counts being asked too)."""
    ir = ir_from_path(RULESETS / "poison.rules")
    game = compile_ir(ir, coverage=True, consults=True)
    assert tables(game, 4, [5, 6]) == tables(wrapped_only(ir, consults=True), 4, [5, 6])
    assert any(at.endswith(" asked") for at, _ in tables(game, 4, [5])[0])


FIRST_BY_GOAL = """game "First by goal"
players 2..4

cards
  card  suit red | blue | green   rank 1..4

cards goals
  goal  suit red | blue | green   achieved when count card in hand of player > {more}

zones
  hand   per player, owner sees
  aims   per player, owner sees
  trick  shared, public

round
  deal 4 to hand
  deal 1 from goals to aims
  phase tricks
    first player {first}
    move play card from hand to trick
    ends when every hand is empty
  score
    count card in trick

game
  rounds 2
  winner highest total
"""

COUNTING_KEY = "highest count goal in aims of player where it is achieved, then lowest total of player"


def every_seat(game: Any) -> Any:
    """The game with every phase's first-player keys read for every seat (as when one may count)."""
    phases = tuple(dataclasses.replace(ph, first_counts=bool(ph.first_player)) for ph in game.phases)
    return dataclasses.replace(game, phases=phases)


def test_a_first_player_key_that_reads_a_condition_is_read_for_every_seat() -> None:
    ir = ir_from_text(FIRST_BY_GOAL.format(more=1, first=COUNTING_KEY))
    game = compile_ir(ir, coverage=True)
    assert game.phases[0].first_counts
    assert not compile_ir(ir).phases[0].first_counts  # no counts: the tied seats only
    plain = ir_from_text(FIRST_BY_GOAL.format(more=1, first="lowest total of player"))
    assert not compile_ir(plain, coverage=True).phases[0].first_counts


@pytest.mark.parametrize(
    "path", [RULESETS / "poison-kedric-winks.rules", EXAMPLES / "poison-kedric-winks-house-agendas.rules"]
)
def test_first_player_keys_that_count_nothing_count_the_same_read_for_the_tied_seats_only(path: Path) -> None:
    ir = ir_from_path(path)
    tied = compile_ir(ir, coverage=True)
    assert any(ph.first_player for ph in tied.phases) and not any(ph.first_counts for ph in tied.phases)
    every = every_seat(compile_ir(ir, coverage=True))
    for players in (3, 4):
        assert tables(tied, players, [1, 2, 3]) == tables(every, players, [1, 2, 3])


@given(
    cards=st.lists(st.integers(0, 99), max_size=20, unique=True),
    groups=st.sampled_from([1, 3, 64, 65, 100]),
    seed=st.integers(0, 2**16),
)
def test_kinds_among_counts_the_distinct_groups_of_the_cards(cards: list[int], groups: int, seed: int) -> None:
    kind = tuple((c * 7919 + seed) % groups for c in range(100))
    assert kinds_among(cards, kind, groups) == len({kind[c] for c in cards})
    assert kinds_among(cards, kind, -1) == len(cards)
