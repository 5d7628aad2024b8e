"""Observations: a card moved where a seat cannot look is not shown to that seat."""

from __future__ import annotations

import interpreter
from interpreter.simulation.one_game import play_game

DISCARD = """game "Discard"
players 2..3

cards
  card  rank 1..6

zones
  hand     per player, owner sees
  discard  per player, hidden

round
  deal 2 to hand
  phase play
    move drop card from hand to discard
    ends when every hand is empty
  score
    each card in discard of player: rank of card

game
  rounds 1
  winner highest total
"""


def test_a_card_dropped_face_down_is_shown_only_to_the_seat_that_dropped_it(tmp_path):
    path = tmp_path / "discard.rules"
    path.write_text(DISCARD)
    game = interpreter.load(path)
    state = game.new_game(2, 0)
    mover = state.current_player
    state.apply(state.legal_moves()[0])
    assert state.observe(mover)["moves"][0]["card"] is not None
    assert state.observe(1 - mover)["moves"][0]["card"] is None
    assert state.observe(1 - mover)["last_moves"][0]["card"] is None


def test_the_deal_in_an_observation_shows_only_what_the_seat_saw(poison):
    state = poison.new_game(4, 3)
    deal = state.observe(2)["deal"]
    assert [isinstance(h, list) for h in deal["hand"]] == [False, False, True, False]
    assert deal["hand"][0] == {"count": len(state.zones[state.layout.base[0]])}


def test_search_agents_play_a_game_whose_moves_they_cannot_all_see(tmp_path):
    path = tmp_path / "discard.rules"
    path.write_text(DISCARD)
    state = play_game(interpreter.load(path), 3, 1, "mcts(iterations=10,samples=2),greedy,random")
    assert state.is_over
