"""Properties of play (interpreter/engine/state.py) over random games: every shipped ruleset, every
player count. Cards are never created or lost, games end, seeds reproduce, records replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
from conftest import RULESETS
from interpreter.engine.records import dumps, record, replay

RULESET_FILES = ["poison.rules", "poison-five-card.rules"]
GAMES = {name: interpreter.load(RULESETS / name) for name in RULESET_FILES}


def check_one_zone_per_card(state) -> None:
    seen = [0] * len(state.game.cards)
    for inst in range(state.layout.size):
        for c in state.zone_cards(inst):
            seen[c] += 1
            assert state.loc[c] == inst
    assert seen == [1] * len(state.game.cards)


def play_out(game, players: int, seed: int, check_every_step: bool = False):
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_over:
        moves = state.legal_moves()
        assert moves, "a state that is not over has a legal move"
        state.apply(rng.choice(moves))
        steps += 1
        assert steps < 100_000
        if check_every_step:
            check_one_zone_per_card(state)
    return state


games_and_players = st.sampled_from(RULESET_FILES).flatmap(
    lambda name: st.tuples(st.just(name), st.integers(GAMES[name].min_players, GAMES[name].max_players))
)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_and_players, st.integers(0, 2**31 - 1))
def test_every_card_is_in_exactly_one_zone_at_every_step(which, seed):
    name, players = which
    play_out(GAMES[name], players, seed, check_every_step=True)


@settings(max_examples=25, deadline=None)
@given(games_and_players, st.integers(0, 2**31 - 1))
def test_every_game_ends_with_the_declared_number_of_rounds(which, seed):
    name, players = which
    state = play_out(GAMES[name], players, seed)
    assert len(state.history) == state.rounds
    assert all(len(r["scores"]) == players for r in state.history)
    assert state.winners()


@settings(max_examples=15, deadline=None)
@given(games_and_players, st.integers(0, 2**31 - 1))
def test_the_same_seed_gives_the_same_record_byte_for_byte(which, seed):
    name, players = which
    a = dumps(record(play_out(GAMES[name], players, seed)))
    b = dumps(record(play_out(GAMES[name], players, seed)))
    assert a == b


@settings(max_examples=15, deadline=None)
@given(games_and_players, st.integers(0, 2**31 - 1))
def test_every_record_replays_to_the_same_scores(which, seed):
    name, players = which
    state = play_out(GAMES[name], players, seed)
    again = replay(GAMES[name], record(state))
    assert again.totals == state.totals
    assert [r["scores"] for r in again.history] == [r["scores"] for r in state.history]


@pytest.mark.parametrize("memo", [False, True], ids=["copy", "copy-with-memos"])
@pytest.mark.parametrize("name", RULESET_FILES)
def test_a_copy_made_mid_round_plays_as_the_original_would(name, memo):
    """A copy (also one that keeps the original's computed values, as search does) plays the same
    game as the original, and playing it leaves the original as it was."""
    state = GAMES[name].new_game(4, 9)
    rng = random.Random(5)
    for _ in range(7):
        state.apply(rng.choice(state.legal_moves()))
    before = dumps(record(state))
    twin = state.copy(memo=memo)
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not twin.is_over:
        twin.apply(rng_b.choice(twin.legal_moves()))
    assert dumps(record(state)) == before
    while not state.is_over:
        state.apply(rng_a.choice(state.legal_moves()))
    assert dumps(record(twin)) == dumps(record(state))


@pytest.mark.parametrize("name", RULESET_FILES)
def test_a_copy_plays_on_independently(name):
    state = GAMES[name].new_game(4, 9)
    twin = state.copy()
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not state.is_over:
        state.apply(rng_a.choice(state.legal_moves()))
    assert not twin.is_over and twin.moves_in_round == 0
    while not twin.is_over:
        twin.apply(rng_b.choice(twin.legal_moves()))
    assert twin.totals == state.totals


def test_a_copy_has_every_slot_and_shares_nothing_a_move_changes_in_place():
    """State.copy names each slot (no loop over __slots__): a slot added to State and forgotten
    there, or a list shared that a move edits, would show here."""
    state = GAMES["poison.rules"].new_game(4, 9)
    rng = random.Random(5)
    for _ in range(5):
        state.apply(rng.choice(state.legal_moves()))
    twin = state.copy(memo=True)
    names = [name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())]
    assert "zones" in names  # (the slots are State's base's: state_fields.py)
    for name in names:
        assert hasattr(twin, name), name
    for name in ("zones", "loc", "played_by", "vars", "totals", "pending", "to_move", "cache", "zmemo"):
        assert getattr(twin, name) is not getattr(state, name), name
        assert getattr(twin, name) == getattr(state, name), name
    assert all(a is not b for a, b in zip(twin.zones, state.zones, strict=True))


@pytest.mark.parametrize("name", RULESET_FILES)
def test_a_copy_without_its_log_plays_the_same_game(name):
    """A copy that keeps no round log (verify's search) plays exactly as one that does: same
    zones, scores and outcome, move for move; its history is None, the original's untouched."""
    state = GAMES[name].new_game(4, 9)
    rng = random.Random(5)
    for _ in range(3):
        state.apply(rng.choice(state.legal_moves()))
    before = dumps(record(state))
    logged, silent = state.copy(), state.copy(log=False)
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not logged.is_over:
        logged.apply(rng_a.choice(logged.legal_moves()))
        silent.apply(rng_b.choice(silent.legal_moves()))
        assert silent.zones == logged.zones and silent.vars == logged.vars
    assert silent.is_over and silent.totals == logged.totals and silent.winners() == logged.winners()
    assert silent.history is None and silent.copy().history is None
    assert dumps(record(state)) == before


def test_an_observation_never_shows_what_the_seat_may_not_see(poison):
    state = poison.new_game(4, 3)
    rng = random.Random(3)
    for _ in range(30):
        state.apply(rng.choice(state.legal_moves()))
    obs = state.observe(2)
    hands = obs["zones"]["hand"]
    assert isinstance(hands[2], list)  # its own hand
    assert all(set(h) == {"count"} for i, h in enumerate(hands) if i != 2)
    # collected cards lie face down: hidden even from their owner
    assert all(set(c) == {"count"} for c in obs["zones"]["collected"])
    assert all(isinstance(c, list) for c in obs["zones"]["cauldron"])  # public
