"""A definition over what every seat sees is known to every seat (engine/expr_analysis.py,
public_valued): a guard on a card played face down that compares it with such a definition
(`require suit of card = led`, `led` the suit of the card on the table) tells the other seats
that suit; one over a hidden zone tells nothing."""

from __future__ import annotations

import pytest

import interpreter
from conftest import random_game
from interpreter.engine.seat_log import round_log
from interpreter.text.event_words import entry_text

GAME = """game "Led face down"
players 3..3

cards
  card  suit red | blue   rank 1..4 x2

zones
  hand    per player, owner sees
  table   shared, public
  pile    shared, hidden
  secret  shared, hidden

define led = suit of first card in table else none
define buried = suit of first card in secret else none

round
  deal 4 to hand
  deal 1 to secret
  phase lead
    move lead card from hand to table
    ends when count table = 1
  phase follow
    move follow card from hand to pile
      require suit of card = SUIT
    ends when nobody can move
  score
    count pile

game
  rounds 1
  winner highest total
"""


def told(game: interpreter.Game, seeds: range) -> list[tuple[int, int, str | None, str]]:
    """(seat, mover, the seat's line, the card's suit) of every guard-told event of the games."""
    out = []
    for seed in seeds:
        state = random_game(game, 3, seed, narrate=True)
        played = [(p, m) for p, m in state.history[0]["moves"] if game.moves[m.rule].name == "follow"]
        for seat in range(3):
            entries = [e for e in round_log(state, seat, 0) if "known" in e.get("event", {})]
            for entry, (p, m) in zip(entries, played, strict=False):
                out.append((seat, p, entry_text(game, entry, seat, 3), game.cards.json[m.card]["suit"]))
    return out


def test_a_guard_against_a_definition_over_a_public_zone_tells_the_others_the_suit():
    game = interpreter.loads(GAME.replace("SUIT", "led"), "led.rules")
    lines = told(game, range(6))
    others = [(line, p, suit) for seat, p, line, suit in lines if seat != p]
    assert len(others) > 6
    assert all(line == f"seat {p}'s card in pile has suit {suit}" for line, p, suit in others)


@pytest.mark.parametrize("suit", ["buried", "suit of first card in secret"])
def test_a_guard_against_what_a_hidden_zone_holds_tells_nothing(suit):
    game = interpreter.loads(GAME.replace("SUIT", suit), "buried.rules")
    assert told(game, range(6)) == []
