"""The rule counts of a Game compiled with coverage (interpreter/engine/coverage.py): counted in a
list by rule index, read by position as a Counter is, in the order the rules were first counted."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from conftest import EXAMPLES
from interpreter.engine.coverage import RuleCounts
from interpreter.engine.game import compile_ir
from interpreter.loader import ir_from_path
from interpreter.simulation.one_game import game_seed, play_game
from interpreter.simulation.rule_counts import place
from interpreter.simulation.simulate import simulate

POSITIONS = [f"x.rules:{line}:1" for line in range(1, 6)]

# One operation on the counts: a closure's count (index, how many), a store, an update, a clear,
# or a snapshot taken then restored after the next operations.
operation = st.one_of(
    st.tuples(st.just("count"), st.sampled_from(POSITIONS), st.integers(1, 3)),
    st.tuples(st.just("set"), st.sampled_from(POSITIONS), st.integers(0, 3)),
    st.tuples(st.just("update"), st.lists(st.sampled_from(POSITIONS), max_size=4)),
    st.tuples(st.just("clear")),
    st.tuples(st.just("snapshot")),
    st.tuples(st.just("restore")),
)


def count(counts: RuleCounts, at: str, n: int) -> None:
    """What a counting closure compiled for ``at`` does (see coverage.py)."""
    i = counts.slot(at)
    was = counts.counts[i]
    if not was:
        counts.touched.append(i)
    counts.counts[i] = was + n


@given(st.lists(operation, max_size=30))
def test_the_counts_read_as_a_counter_of_the_same_counts_in_the_order_first_counted(ops) -> None:
    """Whatever the closures, stores, updates, clears and restores did, the counts read by position,
    and iterate, as a dict kept alongside does: a position counted reads its count, one never
    counted (or set back to 0) reads 0 and is not listed, and the list is in the order the
    positions were first counted since they were last 0."""
    counts, model = RuleCounts(), {}
    saved = None
    for op in ops:
        if op[0] == "count":
            count(counts, op[1], op[2])
            model[op[1]] = model.get(op[1], 0) + op[2]
        elif op[0] == "set":
            counts[op[1]] = op[2]
            if op[2]:
                model[op[1]] = op[2]
            else:
                model.pop(op[1], None)
        elif op[0] == "update":
            counts.update(op[1])
            for at in op[1]:
                model[at] = model.get(at, 0) + 1
        elif op[0] == "clear":
            counts.clear()
            model.clear()
        elif op[0] == "snapshot":
            saved = (counts.snapshot(), dict(model))
        elif saved is not None:
            counts.restore(saved[0])
            model = dict(saved[1])
        assert list(counts.items()) == list(model.items())
        assert all(counts[at] == model.get(at, 0) and (at in counts) == (at in model) for at in POSITIONS)
        assert sorted(counts.touched) == sorted(counts.slot(at) for at in model)
        assert counts.copy() == Counter(model) and len(counts) == len(model)


def test_a_played_game_counts_as_it_did_when_the_counts_were_a_counter() -> None:
    """Love Letter counts rules outside the rules table (its choices' guards): a game's counts,
    read by position, are the times each rule held, every count above 0, and Counter(coverage)
    holds the same; the engine's lists stay as long as the rules numbered."""
    game = compile_ir(ir_from_path(EXAMPLES / "classics" / "love_letter.rules"), coverage=True)
    counts = game.coverage
    assert isinstance(counts, RuleCounts) and counts.names and not counts
    play_game(game, 3, game_seed(4, 0))
    assert len(counts) > 5 and all(n > 0 for n in counts.values())
    assert Counter(counts) == Counter(dict(counts.items())) and len(counts.counts) == len(counts.names)
    assert sum(counts.counts) == sum(counts.values())


def test_the_rules_table_lists_the_rules_it_does_not_name_in_the_order_they_first_fired() -> None:
    """The rows of rules that countable_rules does not list (Love Letter's choice guards) come last,
    in the order the run first counted them: the order of a Counter filled game by game."""
    ir = ir_from_path(EXAMPLES / "classics" / "love_letter.rules")
    stats = simulate(compile_ir(ir), 3, 12, seed=2, jobs=1)
    extra = [row["at"] for row in stats["rules"] if row["rule"] == "rule"]
    game = compile_ir(ir, coverage=True)
    first: dict[str, None] = {}
    for index in range(12):
        game.coverage.clear()
        play_game(game, 3, game_seed(2, index))
        first.update(dict.fromkeys(game.coverage))
    named = {row["at"] for row in stats["rules"] if row["rule"] != "rule"}
    assert len(extra) > 2
    assert extra == [place(at) for at in first if place(at) not in named]
