"""Belief by inference (issue 29): one replay a decision, played on from the seat's last decision,
then worlds dealt again under what the seat knows (agents/inference.py): they differ where the
seat cannot see (every world looks to the seat as the game does: test_belief.py); a decision late
in a round replays only the moves since the seat's last."""

from __future__ import annotations

import random

import interpreter
from conftest import EXAMPLES, RULESETS
from interpreter.agents.belief import Belief


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


def test_worlds_of_one_decision_differ_in_the_cards_the_seat_cannot_see():
    """The hidden cards are dealt again for each world: a search sees many worlds, not one."""
    game = interpreter.load(RULESETS / "poison.rules")
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
    game = interpreter.load(EXAMPLES / "classics" / "lost_cities.rules")
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


def test_a_card_the_seat_saw_played_is_never_traded_for_a_guess():
    """Five-card Poison: the seat draws after each play; the replay's draws are its guesses, which a
    repair may trade. A card the seat drew, played (in sight) and saw go to another's collected pile
    is no guess any more: a repair once traded it into a hand, the card then was played again in
    the sample, and the world had one card fewer played by the seat than the game (hypothesis found
    it: seed 2, 42 random moves, 4 players)."""
    from collections import Counter

    game = interpreter.load(RULESETS / "poison-five-card.rules")
    state = game.new_game(4, 2, {"rounds": 1})
    rng = random.Random(2)
    for _ in range(42):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    belief = Belief(game, state.observe(state.current_player), random.Random(2))
    for _ in range(3):
        sample = belief.sample()
        assert sample is not None
        assert Counter(sample.played_by) == Counter(state.played_by)
