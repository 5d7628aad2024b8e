"""What a browser seat is sent (interpreter/play/web/views.py), without a server."""

from __future__ import annotations

import json

import interpreter
from interpreter.play.web.views import ALL, SPECTATOR, moves_view, seat_view

BLIND = """
game "Blind draw"
players 2..3
cards
  chip  value 1..6
zones
  pile   shared, hidden
  hand   per player, owner sees
round
  deal 1 to hand, rest to pile
  phase draw
    move take card from pile to hand
      allow value of card > 2
    ends when no card in pile where value of it > 2
  score
    sum of value in hand of player
game
  rounds 1
  winner highest total
"""


def test_a_move_from_a_hidden_pile_is_offered_once_without_its_card():
    """Drawing from a face-down pile: one button, no card named (listing them would tell which the rule allows)."""
    game = interpreter.loads(BLIND, "blind.rules")
    state = game.new_game(2, 3)
    seat = state.current_player
    legal = state.legal_moves()
    assert len(legal) > 1, "(several cards of the pile may be taken)"
    shown, moves = moves_view(state, seat, legal)
    assert len(shown) == 1 and moves == [legal[0]]
    assert shown[0]["card"] is None and shown[0]["from"] is None
    assert shown[0]["label"] == "take a card from pile to your hand"


def test_a_seat_is_sent_counts_of_what_it_cannot_see():
    """The pile and the other hand as counts; the seat's own hand card for card."""
    game = interpreter.loads(BLIND, "blind.rules")
    state = game.new_game(2, 3)
    view = seat_view(state, 0)
    zones = {z["name"]: z["instances"] for z in view["zones"]}
    assert zones["pile"] == [{"index": 0, "owner": None, "count": 4}]
    assert "cards" in zones["hand"][0] and zones["hand"][1] == {"index": 1, "owner": 1, "count": 1}
    assert "cards" not in json.dumps(seat_view(state, SPECTATOR)["zones"])
    every = {z["name"]: z["instances"] for z in seat_view(state, ALL)["zones"]}
    assert all("cards" in h for h in every["hand"]) and "cards" not in every["pile"][0], "nobody sees the pile"


def test_a_cauldrons_colour_and_sum_are_shown_and_no_sum_that_no_rule_reads():
    """Poison: each cauldron's derived colour and sum (its limit sums a cauldron); no sum on the hand,
    which no rule sums; nothing for hidden zones."""
    game = interpreter.load("poison")
    state = game.new_game(3, 1)
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    view = seat_view(state, 0)
    zones = {z["name"]: z["instances"] for z in view["zones"]}
    played = [c for c in zones["cauldron"] if c["cards"]]
    assert played and all(any(d.startswith("color ") for d in c["derived"]) for c in played)
    assert all(any(d.startswith("sum of value ") for d in c["derived"]) for c in played)
    assert not any(d.startswith("sum of") for d in zones["hand"][0].get("derived", []))
    assert "derived" not in zones["hand"][1]
