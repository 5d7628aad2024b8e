"""What the seat learns of hidden hands from the moves it saw (issue 29; agents/facts.py), and a
replay's counts put right rather than thrown away (inference.fit_counts): Go Fish, where the seat
sees who asked whom for which rank and whose turn came next, never the cards handed over."""

from __future__ import annotations

import random

from test_belief import looks

import interpreter
from conftest import EXAMPLES
from interpreter.agents.belief import Belief

GO_FISH = interpreter.load(EXAMPLES / "classics" / "go_fish.rules")


def ranks_in_hand(state, player: int) -> list[int]:
    """The ranks ``player`` holds in ``state``."""
    game, lay = state.game, state.layout
    hand = lay.base[game.zone_index["hand"]] + player
    return [game.cards.json[c]["rank"] for c in state.zones[hand]]


def test_a_seat_deciding_now_and_then_finds_a_world_late_in_the_round_at_the_first_replay():
    """A seat of four that decides every fourth move (between its decisions, several asks answered
    unseen): the world kept from its last decision is played on and its counts put right, so it
    finds a world at almost every decision, each looking to it as the game does (79% of the replays
    were thrown away before, for counts alone, and late in a round a seat found none)."""
    state = GO_FISH.new_game(4, 1)
    rng = random.Random(1)
    memory: dict[int, dict] = {}
    found = failed = positions = 0
    step = 0
    while not state.is_over:
        if step % 4 == 3:
            seat = state.current_player
            belief = Belief(GO_FISH, state.observe(seat), random.Random(step), memory.setdefault(seat, {}))
            world = belief.sample()
            positions += 1
            failed += belief.failures
            if world is not None:
                found += 1
                assert looks(world.observe(seat)) == looks(state.observe(seat))
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        step += 1
    assert positions > 20
    assert found >= 0.9 * positions
    assert failed <= 0.1 * positions


def test_an_answer_none_of_that_rank_and_an_ask_for_it_are_kept_in_every_world():
    """P asks Q for a rank and the turn passes (Q had none: a hand-over would have kept P's turn):
    every world dealt for a third seat gives Q none of that rank and P at least one (the ask was
    legal only so), while the hidden cards still differ from world to world."""
    for seed in range(40):
        state = GO_FISH.new_game(4, seed)
        rng = random.Random(seed)
        for _ in range(60):
            if state.is_over:
                break
            history = state.observe(0)["moves"]
            if len(history) >= 2 and history[-1]["move"] == "asked" and state.current_player != history[-1]["player"]:
                asker, asked, rank = history[-1]["player"], history[-1]["value"], history[-2]["value"]
                seats = [s for s in range(4) if s not in (asker, asked)]
                if asked != state.current_player and rank not in ranks_in_hand(state, asked):
                    seat = seats[0]
                    belief = Belief(GO_FISH, state.observe(seat), random.Random(seed))
                    worlds = [belief.sample() for _ in range(8)]
                    assert all(w is not None for w in worlds)
                    assert all(rank not in ranks_in_hand(w, asked) for w in worlds)
                    if rank in ranks_in_hand(state, asker) and rank not in ranks_in_hand(state, seat):
                        assert all(rank in ranks_in_hand(w, asker) for w in worlds)
                    assert len({str(ranks_in_hand(w, asked)) for w in worlds}) > 1
                    return
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    raise AssertionError("no answer 'go fish' that passed the turn in 40 games")
