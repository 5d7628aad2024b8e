"""What the sampler takes the seat to have seen, and where (agents/belief.py): a card shuffled
into a hidden pile is unseen again, even one the same move drew from it at once; a round's start
laid out by the rules agrees with what the seat sees of it."""

from __future__ import annotations

import random

import interpreter
from conftest import EXAMPLES
from interpreter.agents.belief import Belief


def test_a_card_drawn_from_a_pile_shuffled_in_the_same_move_is_unseen_again():
    """Switch: a pick-up empties the stock, the pile is shuffled into a new stock and the rest owed
    drawn from it, all in one move. The cards drawn after the shuffle lie in a hand the seat does
    not see: it saw them on the pile, not where they are now (it took them as seen, so no trade
    could move them, and the kept world broke at the next play that needed one: 83% of Switch's
    sampling wasted)."""
    game = interpreter.load(EXAMPLES / "classics" / "switch.rules")
    state, rng = game.new_game(3, 0, {}), random.Random(0)
    for _ in range(904):
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    before = len(state.history[-1].get("events", ()))
    moves = state.legal_moves()
    state.apply(moves[rng.randrange(len(moves))])
    shuffled = [ev[3] for ev in state.history[-1]["events"][before:] if ev[0] == "shuffle"]
    lay = game.layout(3)
    hand = game.zone_index["hand"]
    drawn = [c for c in shuffled[0] if lay.zone_of[state.loc[c]] == hand]
    assert drawn  # (the position: cards drawn from the stock the move shuffled)
    for seat in range(3):
        belief = Belief(game, state.observe(seat), random.Random(1))
        seen = set(range(len(game.cards.kind)))
        assert belief._events(state, seen, before) is not None
        assert not seen & {c for c in drawn if lay.owner[state.loc[c]] != seat}
