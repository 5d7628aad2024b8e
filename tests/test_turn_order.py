"""The turn order (issue 30 item 4) and phases of effects only (item 5): `turn order reverses`,
`skip P` and `next of P` in play, on hand-built positions; a phase without moves run by the rules
alone; and each construct in every tool (check, fmt, render, diff, the lexer, observations, play)."""

from __future__ import annotations

import pytest

import interpreter
from conftest import position
from interpreter.errors import PlayError, RulesetError
from interpreter.text.diff import diff, diff_text
from interpreter.text.fmt import format_text
from interpreter.text.render import render

TURNS = """game "Turns"
players 2..5

cards
  card  rank 1..20

zones
  hand   per player, owner sees
  pile   shared, public
  stock  shared, hidden

var protected per player per round = 0
define after_dealer = next of dealer

round
  deal 3 to hand, rest to stock
  phase play
    move play card from hand to pile
      require rank of card != 20
    after play if rank of card = 1
      turn order reverses
    after play if rank of card = 2
      skip next of player
    after play if rank of card = 3
      skip player
    after play if rank of card = 4
      make player protected until their next turn
    after play if rank of card = 5
      next left of player
    after play if rank of card = 6
      next next of player
    after play if rank of card = 14
      next after_dealer
    ends when every hand is empty or count card in pile >= 12
    ends when nobody can move
  score
    count card in hand of player

game
  rounds 2
  winner lowest total
"""


def cards(*ranks: int) -> list[dict]:
    return [{"type": "card", "rank": r} for r in ranks]


@pytest.fixture(scope="module")
def turns() -> interpreter.Game:
    return interpreter.loads(TURNS, "turns.rules")


def play(state, rank: int) -> None:
    """The current player plays the card of that rank."""
    for m in state.legal_moves():
        if state.game.cards.json[m.card]["rank"] == rank:
            state.apply(m)
            return
    raise AssertionError(f"seat {state.current_player} cannot play {rank}")


def four(turns, *hands):
    return position(turns, 4, {"hand": [cards(*h) for h in hands]})


def test_after_the_order_reverses_the_turn_passes_to_the_right_and_back_at_the_next_reversal(turns):
    state = four(turns, (7, 8, 9), (1, 10, 11), (12, 13, 14), (15, 16, 1 + 16))
    assert state.current_player == 1  # the dealer's left
    play(state, 1)  # seat 1 reverses: seat 0 is next, then seat 3
    assert state.current_player == 0 and state.observe(2)["turn_order"] == "counterclockwise"
    play(state, 7)
    assert state.current_player == 3
    play(state, 17)
    assert state.current_player == 2


def test_turns_go_round_the_other_way_once_reversed(turns):
    state = four(turns, (7, 8, 9), (1, 10, 11), (12, 13, 14), (15, 16, 17))
    for rank, seat in ((1, 0), (7, 3), (15, 2), (12, 1)):
        play(state, rank)
        assert state.current_player == seat


def test_next_of_the_dealer_is_the_seat_after_the_dealer_in_the_current_order(turns):
    state = four(turns, (7, 8, 9), (1, 10, 11), (12, 13, 14), (15, 16, 17))
    play(state, 1)  # reversed: after the dealer (seat 0) comes seat 3
    play(state, 7)
    play(state, 15)
    play(state, 14)  # seat 2: `next after_dealer`
    assert state.current_player == 3


def test_an_explicit_next_names_a_seat_and_next_of_player_is_the_next_in_the_order(turns):
    state = four(turns, (7, 8, 9), (1, 10, 11), (12, 13, 14), (5, 6, 17))
    play(state, 1)  # seat 1 reverses
    play(state, 7)  # seat 0: seat 3 next
    play(state, 5)  # seat 3: `next left of player` is seat 0, the seat beside, whatever the order
    assert state.current_player == 0
    play(state, 8)  # seat 0: seat 3 again (reversed)
    play(state, 6)  # seat 3: `next next of player` is seat 2
    assert state.current_player == 2


def test_a_skip_passes_the_next_player_by_once(turns):
    state = four(turns, (7, 8, 9), (2, 10, 11), (12, 13, 14), (15, 16, 17))
    play(state, 2)  # seat 1 skips seat 2
    assert state.current_player == 3 and state.observe(0)["skipped"] == []
    play(state, 15)
    play(state, 7)
    assert state.current_player == 1
    play(state, 10)
    assert state.current_player == 2  # the skip is spent: seat 2's turns come again


def test_a_player_who_skips_themself_loses_their_next_turn_and_it_is_observed(turns):
    state = four(turns, (7, 8, 9), (3, 10, 11), (12, 13, 14), (15, 16, 17))
    play(state, 3)  # seat 1 will lose their next turn
    assert state.observe(0)["skipped"] == [1]
    play(state, 12)
    play(state, 15)
    play(state, 7)  # seat 0: seat 1's turn is lost, seat 2 moves
    assert state.current_player == 2 and state.observe(0)["skipped"] == []


def test_with_two_players_skipping_the_next_gives_the_mover_another_turn(turns):
    state = position(turns, 2, {"hand": [cards(7, 8, 9), cards(2, 10, 11)]})
    assert state.current_player == 1
    play(state, 2)
    assert state.current_player == 1


def test_a_lost_turn_ends_a_status_until_their_next_turn(turns):
    state = four(turns, (4, 8, 9), (10, 11, 7), (12, 13, 14), (2, 16, 17))
    protected = [v["name"] for v in turns.ir["vars"]].index("protected")
    for rank in (10, 12, 16, 4, 11, 13):  # seat 0 is protected until their next turn
        play(state, rank)
    assert state.vars[protected][0] == 1
    play(state, 2)  # seat 3 skips seat 0, whose turn comes and is lost
    assert state.current_player == 1 and state.vars[protected][0] == 0


def test_a_player_who_cannot_move_is_passed_by_in_the_reversed_order(turns):
    # seat 0 holds only 20s, which cannot be played: once reversed, seat 1 plays after seat 0's
    # turn is passed by, and seat 3 after seat 2 (not seat 0 again)
    state = four(turns, (20, 18, 19), (1, 10, 11), (12, 13, 14), (15, 16, 17))
    play(state, 1)  # seat 1 reverses: seat 0 next
    assert state.current_player == 0
    play(state, 18)
    play(state, 15)
    play(state, 12)
    play(state, 10)  # seat 1: seat 0 next, who holds 19 and 20 ...
    play(state, 19)
    play(state, 16)
    play(state, 13)
    play(state, 11)  # seat 1: seat 0 holds only the 20: passed by, to seat 3
    assert state.current_player == 3


def test_every_round_starts_clockwise_without_lost_turns(turns):
    state = four(turns, (1, 3, 9), (7, 10, 11), (12, 13, 14), (15, 16, 17))
    state.apply(state.legal_moves()[0])
    while state.round == 0 and not state.is_over:
        state.apply(state.legal_moves()[0])
    assert state.turn_step == 1 and state.skips == ()
    assert state.observe(0)["turn_order"] == "clockwise"


def test_the_terminal_says_the_order_is_reversed_and_who_loses_a_turn(turns):
    from interpreter.play.terminal import screen

    state = four(turns, (7, 8, 9), (1, 10, 11), (12, 13, 3), (15, 16, 17))
    play(state, 1)
    play(state, 7)
    play(state, 15)
    play(state, 3)  # seat 2 will lose a turn
    text = screen(state, 0)
    assert "turn order: reversed" in text and "loses their next turn: seat 2" in text


# ---- phases of effects only ---------------------------------------------------------------------

FLIP = """game "Flip"
players 2..3

cards
  card  rank 1..30

zones
  hand   per player, owner sees
  stock  shared, hidden
  pile   shared, public

round
  deal 3 to hand, rest to stock
  # turn up cards until one of rank 10 or less starts the pile
  repeat
    phase turn_up
      at start
        draw 1 from stock to pile
  until rank of last card in pile <= 10
  phase play
    move play card from hand to pile
    ends when some player where hand of it is empty
  score
    count card in hand of player

game
  rounds 1
  winner lowest total
"""


def test_a_phase_of_effects_only_runs_again_until_its_repeat_ends_and_nobody_moves_in_it():
    game = interpreter.loads(FLIP, "flip.rules")
    state = position(game, 2, {"hand": [cards(1, 2, 3), cards(4, 5, 6)], "stock": cards(25, 21, 7, 30)})
    pile = [game.cards.json[c]["rank"] for c in state.zone_cards(state.layout.base[game.zone_index["pile"]])]
    assert pile == [25, 21, 7] and state.history[0]["moves"] == []
    assert game.phases[state.phase].name == "play" and state.current_player == 1


def test_a_repeat_of_effects_whose_until_never_holds_stops_as_an_endless_round():
    game = interpreter.loads(FLIP.replace("<= 10", "<= 0"), "flip.rules")
    with pytest.raises(PlayError, match="phase 'turn_up' has no move and was played again and again"):
        position(game, 2, {"hand": [cards(1, 2, 3), cards(4, 5, 6)]})


AT_START = "      at start\n        draw 1 from stock to pile\n"


@pytest.mark.parametrize(
    ("phase", "message"),
    [
        ("    phase turn_up\n      ends when count card in pile > 2\n", "phase 'turn_up' has no move"),
        ("    phase turn_up, simultaneous\n" + AT_START, "nobody chooses in it at once"),
        ("    phase turn_up\n" + AT_START + "      ends when count card in pile > 2\n", "ends as soon as its effects"),
        ("    phase turn_up\n" + AT_START + "      ends when nobody can move\n", "ends as soon as its effects"),
        ("    phase turn_up\n      first player is dealer\n" + AT_START, "nobody plays first in it"),
    ],
)
def test_a_phase_without_moves_says_only_its_effects(phase, message):
    text = FLIP.replace("    phase turn_up\n" + AT_START, phase)
    with pytest.raises(RulesetError, match=message):
        interpreter.loads(text, "flip.rules")


# ---- every tool ---------------------------------------------------------------------------------


def test_fmt_writes_the_constructs_back_as_they_are():
    assert format_text(TURNS, "turns.rules") == TURNS
    assert format_text(FLIP, "flip.rules") == FLIP


def test_render_and_diff_say_the_order_the_skip_and_the_phase_of_effects():
    book = render(interpreter.loads(TURNS, "turns.rules").ir)
    assert "The turn order reverses: from now on in this round the turn passes the other way round." in book
    assert "The next player in the turn order loses their next turn" in book
    assert "and the other way round while the turn order is reversed" in book
    assert "the player after the dealer in the turn order" in book
    flip = render(interpreter.loads(FLIP, "flip.rules").ir)
    assert "Nobody moves in this phase: the rules play it alone" in flip
    plain = interpreter.loads(TURNS.replace("      turn order reverses\n", "      next player\n"), "t.rules").ir
    changes = diff_text(diff(plain, interpreter.loads(TURNS, "turns.rules").ir))
    assert "The turn order reverses" in changes


def test_the_lexer_colours_the_turn_order_words_as_rules():
    pytest.importorskip("pygments")
    from pygments import lex
    from pygments.token import Error, Keyword

    from interpreter.text.lexer import RulesLexer

    tokens = [(t, v) for t, v in lex(TURNS, RulesLexer()) if v.strip()]
    assert not [v for t, v in tokens if t in Error]
    roles = {v: t for t, v in tokens}
    assert roles["turn order reverses"] in Keyword and roles["skip"] in Keyword


def test_check_finds_nothing_wrong_in_the_constructs(tmp_path):
    from interpreter.checker import check

    for name, text in (("turns.rules", TURNS), ("flip.rules", FLIP)):
        (tmp_path / name).write_text(text)
        report = check(str(tmp_path / name), games=20)
        assert not [f for f in report.findings if f.severity != "info"], report.findings


def test_the_ir_schema_refuses_an_end_in_a_phase_without_moves():
    from interpreter.language.schema import check_ir
    from interpreter.loader import ir_from_text

    ir = ir_from_text(FLIP, "flip.rules")
    check_ir(ir)
    phase = ir["round"]["phases"][0]
    assert phase["moves"] == [] and phase["at_start"]
    phase["ends"] = {"when": {"op": "num", "value": 1}}
    with pytest.raises(RulesetError, match="schema"):
        check_ir(ir)


SIMULTANEOUS = TURNS.replace(
    "    ends when every hand is empty or count card in pile >= 12\n    ends when nobody can move\n",
    "    ends when count card in pile >= 1\n  phase reveal, simultaneous\n    move reveal card from hand to pile\n",
)


def test_a_simultaneous_phase_chooses_in_the_turn_order_once_reversed():
    game = interpreter.loads(SIMULTANEOUS, "simultaneous.rules")
    state = position(game, 4, {"hand": [cards(7, 8, 9), cards(1, 10, 11), cards(12, 13, 14), cards(15, 16, 17)]})
    play(state, 1)  # seat 1 reverses the order, and the first phase ends
    assert state.choosers == (1, 0, 3, 2)  # from the dealer's left, the other way round
