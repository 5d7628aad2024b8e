"""A player chooses only among cards they see (engine/unseen.py, docs/language.md "Only cards the
player sees"): the loader refuses a choice among unseen cards at its line, keeps blind moves, and
what a seat is offered never names a card it does not see, whatever the engine offers."""

from __future__ import annotations

import io
import json

import pytest

import interpreter
from interpreter.engine.card_sets import CardSet
from interpreter.engine.moves import NO_CARD, Move
from interpreter.errors import RulesetError
from interpreter.play.terminal import ask
from interpreter.play.web.views import moves_view
from interpreter.text.move_words import card_name

BASE = """game "Unseen"
players 2..3

cards
  card  rank 1..6   suit red | blue

zones
  hand   per player, owner sees
  stock  shared, hidden
  pile   shared, public

round
  deal 2 to hand, rest to stock
  phase play
    MOVE
    move drop 1..2 cards from hand to pile
    ends when stock is empty
  score
    sum of rank in hand of player

game
  rounds 1
  winner highest total
"""


def loads(move: str):
    return interpreter.loads(BASE.replace("MOVE", move), "unseen.rules")


def refused(move: str) -> RulesetError:
    with pytest.raises(RulesetError) as err:
        loads(move)
    return err.value


def test_one_card_chosen_from_a_hidden_stock_is_refused_at_its_line_with_the_hint_of_a_draw():
    err = refused("move take card from stock to hand")
    assert str(err.span) == "unseen.rules:15:5"
    assert "move 'take' chooses a card among those of 'stock', which its player does not see" in err.message
    assert "`move take top card from stock to hand`" in err.hint
    assert "`require card = first card in stock`" in err.hint


def test_a_hand_nobody_sees_is_no_hand_to_choose_from():
    with pytest.raises(RulesetError, match="'hand' is hidden: nobody sees its cards, its owner neither") as err:
        interpreter.loads(
            BASE.replace("MOVE", "move pass").replace("hand   per player, owner sees", "hand  per player, hidden")
        )
    assert "`move drop top N from hand to pile`" in err.value.hint


def test_a_blind_move_is_kept_and_one_that_reads_its_card_is_refused_at_that_guard():
    game = loads("move take card from stock to hand\n      require card = first card in stock")
    state = game.new_game(2, 1)
    (take,) = [m for m in state.legal_moves() if game.moves[m.rule].name == "take"]
    assert take.card == state.zone_cards(state.layout.instances[game.zone_index["stock"]][0])[0]
    err = refused(
        "move take card from stock to hand\n      require card = first card in stock\n      require rank of card > 2"
    )
    assert str(err.span) == "unseen.rules:17:7" and "whether the move is offered would tell" in err.message
    allowed = refused("move take card from stock to hand\n      allow card = first card in stock")
    assert "chooses a card among" in allowed.message, "an allow names no card: another allow may admit more"


def test_ir_written_as_data_is_held_to_the_same_rule(tmp_path):
    ir = interpreter.ir_from_text(BASE.replace("MOVE", "move pass"), "unseen.rules")
    drop = ir["round"]["phases"][0]["moves"][1]
    drop["choice"]["from"] = "stock"
    path = tmp_path / "unseen.json"
    path.write_text(json.dumps(ir))
    with pytest.raises(RulesetError, match="move 'drop' chooses cards among those of 'stock'") as err:
        interpreter.load(path)
    assert "`move drop top N from stock to pile`" in err.value.hint


def test_what_a_seat_is_offered_names_no_card_it_does_not_see_even_if_the_engine_offered_it():
    """Were the engine to offer a set of the other seat's cards, or a card of the stock: the page and
    the terminal word them without a name, and place none."""
    game = loads("move play card from hand to pile")
    state = game.new_game(2, 1)
    seat, lay = state.current_player, state.layout
    theirs = state.zone_cards(lay.instances[game.zone_index["hand"]][1 - seat])
    stock = state.zone_cards(lay.instances[game.zone_index["stock"]][0])
    drop, play = (next(r.index for r in game.moves if r.name == name) for name in ("drop", "play"))
    pile = lay.instances[game.zone_index["pile"]][0]
    forged = [Move(drop, NO_CARD, CardSet(tuple(theirs), pile)), Move(play, stock[0], pile)]
    shown, moves = moves_view(state, seat, forged)
    assert [m["label"] for m in shown] == [
        "drop a hidden card, a hidden card to pile",
        "play a card from stock to pile",
    ]
    assert shown[0]["cards"] == [None, None] and shown[1]["card"] is None and shown[1]["from"] is None
    assert moves == forged
    lines: list[str] = []
    ask(Offering(state, forged), seat, io.StringIO("1\n"), lines.append)  # (the terminal's menu too)
    names = {" ".join(str(v) for v in game.cards.json[c].values()) for c in [*theirs, stock[0]]}
    assert not [line for line in lines if any(n in line for n in names)], lines


class Offering:
    """A state whose legal moves are the ones given (as if the engine offered them)."""

    def __init__(self, state, moves):
        self._state, self._moves = state, moves

    def legal_moves(self):
        return self._moves

    def __getattr__(self, name):
        return getattr(self._state, name)


PEEK = """game "Peek and take"
players 2..2

cards
  card  rank 1..6   suit red | blue

zones
  hand   per player, owner sees
  pile   shared, public

round
  deal 3 to hand
  phase play
    move play card from hand to pile
    after play
      show hand of left of player to player
      ask player to choose loot card from hand of left of player
        move loot to hand of player
    ends when some hand where it is empty
  score
    count hand of player

game
  rounds 1
  winner highest total
"""


def test_an_ask_offers_the_cards_shown_to_its_player_by_name_and_nobody_else_hears_of_them():
    """A card of another player's hand may be chosen once shown to the asked player: named on that
    seat's page; the other seat is not offered it, nor shown it."""
    game = interpreter.loads(PEEK, "peek.rules")
    state = game.new_game(2, 2)
    seat = state.current_player
    state.apply(state.legal_moves()[0])
    assert state.asking is not None and state.asking[0] == seat
    rival = 1 - seat
    theirs = state.zone_cards(state.layout.instances[game.zone_index["hand"]][rival])
    shown, moves = moves_view(state, seat, state.legal_moves_of(seat))
    assert [m.card for m in moves] == list(theirs)
    assert [m["card"] for m in shown] == [game.cards.json[c] for c in theirs]
    assert all(m["from"] is None for m in shown), "(a button: the card's place in that hand is not the seat's to know)"
    assert all(m["label"] == f"loot {card_name(m['card'])} from hand of seat {rival}" for m in shown)
    assert not any("hidden" in m["label"] for m in shown)
    assert state.legal_moves_of(rival) == []
    assert state.observe(rival)["shown"] == []
