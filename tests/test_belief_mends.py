"""The sampler mends a replay where a move's outcome depends on cards the seat cannot see (an
answer that hands cards over unseen, whether a card drawn fits), instead of dealing again
(agents/repairs.py): a seat deciding along a game finds its worlds, and every world kept looks to
the seat as the game does."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_belief import deck_counts, looks, one_round, visible_facts

import interpreter
from conftest import EXAMPLES
from interpreter.agents.belief import Belief

CLASSICS = {p.stem: interpreter.load(p) for p in sorted((EXAMPLES / "classics").glob("*.rules"))}


def decisions(game, players: int, seed: int, steps: int, samples: int = 2):
    """Random play; at every move the seat to move samples ``samples`` worlds with its memory, as an
    agent does. Yields (state, seat, the Belief, the worlds it gave)."""
    state = game.new_game(players, seed, one_round(game))
    rng = random.Random(seed)
    memory: dict[int, dict] = {}
    for step in range(steps):
        if state.is_over:
            return
        seat = state.current_player
        belief = Belief(game, state.observe(seat), random.Random(step), memory.setdefault(seat, {}))
        yield state, seat, belief, [w for w in (belief.sample() for _ in range(samples)) if w is not None]
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["go_fish", "switch", "love_letter", "whist", "sevens", "euchre"]),
    seed=st.integers(0, 2**20),
    steps=st.integers(1, 50),
)
def test_every_world_kept_along_a_game_looks_to_the_seat_as_the_game_does(name, seed, steps):
    """A seat deciding at every move of a classic, its worlds played on from its last decision and
    mended where they diverge: each world shows the seat its zones (piles in their order), the
    cards shown and told to it, the turn, the phase and the variables as the game does; each zone
    holds as many cards of each deck, and each player has played as many cards, as in the game."""
    game = CLASSICS[name]
    for state, seat, _, worlds in decisions(game, 4 if game.max_players >= 4 else game.max_players, seed, steps):
        for world in worlds:
            assert looks(world.observe(seat)) == looks(state.observe(seat))
            assert visible_facts(world, seat) == visible_facts(state, seat)
            assert deck_counts(world) == deck_counts(state)
            assert Counter(world.played_by) == Counter(state.played_by)


@pytest.mark.parametrize(("name", "seed"), [("switch", 1), ("switch", 2), ("go_fish", 3)])
def test_a_seat_finds_its_world_at_almost_every_decision_where_answers_and_draws_are_unseen(name, seed):
    """Switch (whether a card drawn fits decides who plays next) and Go Fish (an answer hands cards
    over unseen): a seat deciding at every move finds a world at nearly every decision, at the first
    replay. Rejecting worlds that diverge wasted 99% of the replays on both."""
    found = first = total = 0
    for _, _, belief, worlds in decisions(CLASSICS[name], 4, seed, 40, samples=1):
        total += 1
        found += bool(worlds)
        first += bool(worlds) and belief.failures == 0
    assert found >= 0.9 * total
    assert first >= 0.8 * total
