"""Belief by inference (issue 29): one replay a decision, played on from the seat's last decision,
then worlds dealt again under what the seat knows (agents/inference.py). Every world looks to the
seat as the game does; a decision late in a round replays only the moves since the seat's last."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
from conftest import EXAMPLES, RULESETS
from interpreter.agents.belief import Belief

PATHS = {p.name: p for p in [*sorted(RULESETS.glob("*.rules")), *sorted(EXAMPLES.glob("**/*.rules"))]}
PATHS = {k: v for k, v in PATHS.items() if "broken" not in str(v)}
GAMES: dict[str, object] = {}


def game_of(name: str):
    if name not in GAMES:
        GAMES[name] = interpreter.load(PATHS[name])
    return GAMES[name]


def one_round(game) -> dict[str, int]:
    return {p.name: 1 for p in game.params if p.name in ("rounds", "hands")}


def looks(obs: dict) -> tuple:
    """What an observation shows of the game now: zones (each instance's cards sorted), the cards
    shown and told to the seat, whose turn, the phase, the variables it sees."""
    zones = {k: [v if isinstance(v, dict) else sorted(map(str, v)) for v in vs] for k, vs in obs["zones"].items()}
    return zones, sorted(map(str, obs["shown"])), obs.get("told", []), obs["current"], obs["phase"], obs["vars"]


def hidden(state, seat: int) -> list:
    """The card kinds of every place the seat does not see, in order."""
    game, lay, kind = state.game, state.layout, state.game.cards.kind
    out = []
    for inst in range(lay.size):
        spec = game.zones[lay.zone_of[inst]]
        seen = spec.visibility == "public" or (spec.visibility == "owner" and lay.owner[inst] == seat)
        if not seen and not spec.piles:
            out.append([kind[c] for c in state.zones[inst]])
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(PATHS)), seed=st.integers(0, 2**20), steps=st.integers(0, 80))
def test_every_world_dealt_again_looks_to_the_seat_as_the_game_does(name, seed, steps):
    """Several worlds from one decision's belief: each shows the seat the zones, the cards shown and
    told to it, the turn, the phase and the variables of the game, and holds as many cards of each
    deck in every place as the game does."""
    game = game_of(name)
    players = min(game.max_players, game.min_players + seed % 2)
    state = game.new_game(players, seed, one_round(game))
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            return
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    if state.is_over:
        return
    seat = state.current_player
    obs = state.observe(seat)
    belief = Belief(game, obs, random.Random(seed))
    deck_of = game.cards.deck_of
    for _ in range(3):
        sample = belief.sample()
        if sample is None:
            return
        assert looks(sample.observe(seat)) == looks(obs)
        assert [Counter(deck_of[c] for c in z) for z in map(sample.zone_cards, range(sample.layout.size))] == [
            Counter(deck_of[c] for c in z) for z in map(state.zone_cards, range(state.layout.size))
        ]


def test_worlds_of_one_decision_differ_in_the_cards_the_seat_cannot_see():
    """The hidden cards are dealt again for each world: a search sees many worlds, not one."""
    game = game_of("poison.rules")
    state = game.new_game(4, 5)
    rng = random.Random(5)
    for _ in range(9):
        state.apply(state.legal_moves()[rng.randrange(len(state.legal_moves()))])
    seat = state.current_player
    belief = Belief(game, state.observe(seat), random.Random(1))
    worlds = {str(hidden(belief.sample(), seat)) for _ in range(6)}
    assert len(worlds) == 6


def test_a_decision_late_in_a_round_replays_only_the_moves_since_the_seats_last():
    """Lost Cities, a seat deciding at each of its turns with its memory: after its first decision,
    a decision replays the moves made since its last one, not the round (the time a decision takes
    does not grow with the round), and finds its world at once."""
    game = game_of("lost_cities.rules")
    state = game.new_game(2, 3, {"rounds": 1})
    rng = random.Random(3)
    memory: dict = {}
    seat, last, decisions, at_once = 0, None, 0, 0
    while not state.is_over and len(state.history[-1]["moves"]) < 70:
        if state.current_player == seat:
            obs = state.observe(seat)
            belief = Belief(game, obs, random.Random(len(obs["moves"])), memory)
            assert belief.sample() is not None
            if last is not None:
                decisions += 1
                at_once += belief.replayed == len(obs["moves"]) - last and belief.failures == 0
            last = len(obs["moves"])
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert decisions >= 20
    assert at_once >= 0.9 * decisions
