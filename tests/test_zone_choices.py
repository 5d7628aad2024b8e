"""Choosing one of a zone's instances (`ask P to choose NAME ZONE`, docs/language.md "Choosing one
of a zone's instances"), and a simultaneous phase's held moves, revealed together as they take
effect: the rows offered (only those the guards admit), the card put on the row chosen, what an
asked player sees of the others' picks, records and replay of a forged row, the words of the
terminal, fmt and render; a re-choice that starts from the seat a held move's `next P` names."""

from __future__ import annotations

import random
import re

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import record, replay
from interpreter.errors import RecordError
from interpreter.text.fmt import format_text
from interpreter.text.move_words import move_words
from interpreter.text.render import rulebook, to_markdown

DOC = (ROOT / "docs" / "language.md").read_text()
RULES = next(b for b in re.findall(r"```rules\n(.*?)```", DOC, flags=re.S) if b.startswith('game "Rows"'))


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.loads(RULES, "rows.rules")


def c(rank: int) -> dict:
    return {"type": "card", "rank": rank}


def pick(state, rank: int) -> None:
    state.apply(next(m for m in state.legal_moves() if state.describe(m).get("card") == c(rank)))


def rows_offered(state) -> list[int]:
    return [state.describe(m)["value"]["index"] for m in state.legal_moves()]


def test_the_lowest_pick_chooses_a_row_first_seeing_every_pick(game):
    rows = [[c(20)], [c(21), c(22), c(23)], [c(24)]]
    state = position(game, 2, {"hand": [[c(5), c(9)], [c(7), c(8)]], "row": rows})
    pick(state, 7)  # seat 1 (the dealer's left) chooses first, unseen
    pick(state, 5)  # seat 0's 5 is lowest: it takes effect first, and asks for a row
    assert state.current_player == 0
    assert rows_offered(state) == [0, 2]  # the middle row holds three cards already
    seen = state.observe(0)["moves"]
    assert [(m["player"], m.get("card")) for m in seen] == [(1, c(7)), (0, c(5))]  # seat 1's 7, revealed
    assert state.observe(0)["zones"]["picked"] == [[c(5)], []]  # (seat 1's 7 takes effect after)
    state.apply(state.legal_moves()[1])  # row 3
    assert state.observe(1)["zones"]["row"][2] == [c(24), c(5)]
    assert state.current_player == 1 and rows_offered(state) == [0, 2]  # (row 3 holds two now)


def test_records_write_the_row_chosen_and_replay_refuses_a_row_not_allowed(game):
    state = game.new_game(3, 4)
    rng = random.Random(4)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    rec = record(state)
    answers = [m for r in rec["rounds"] for m in r["moves"] if m["move"] == "chosen"]
    assert answers and all(set(m["value"]) == {"zone", "index"} and m["value"]["zone"] == "row" for m in answers)
    assert replay(game, rec).scores() == state.scores()
    answers[0]["value"]["index"] = 7
    with pytest.raises(RecordError, match=r"round 1, move \d+: the rules do not allow"):
        replay(game, rec)


def test_the_terminal_fmt_and_render_say_a_row(game):
    rows = [[c(20)], [c(21)], [c(24)]]
    state = position(game, 2, {"hand": [[c(5)], [c(7)]], "row": rows})
    pick(state, 7)
    pick(state, 5)
    words = [move_words(game, state.describe(m), 0, 2) for m in state.legal_moves()]
    assert words == ["chosen row 1", "chosen row 2", "chosen row 3"]
    assert format_text(RULES, "rows.rules") == RULES
    assert "chooses one of the row zones" in to_markdown(rulebook(game.ir))


AGAIN = """game "First again"
players 3..3

cards
  card  rank 1..9

zones
  hand    per player, owner sees
  picked  per player, public

round
  deal 3 to hand
  phase pick, simultaneous
    move pick card from hand to picked
    after pick if rank of card = 1
      next player
    ends when every hand is empty
  score
    count picked of player

game
  rounds 1
  winner highest total
"""


def test_a_next_among_the_held_moves_makes_that_seat_choose_first_again():
    game = interpreter.loads(AGAIN, "again.rules")
    hands = [[c(5), c(6), c(7)], [c(2), c(3), c(4)], [c(1), c(8), c(9)]]
    state = position(game, 3, {"hand": hands})
    assert state.current_player == 1  # the dealer's left chooses first
    pick(state, 2)
    pick(state, 1)  # seat 2's 1: `next player`
    pick(state, 5)
    assert state.current_player == 2 and state.to_move == [2, 0, 1]
    pick(state, 8)
    pick(state, 6)
    pick(state, 3)
    assert state.current_player == 2  # no `next` this time: the order stays


def test_without_revealed_together_the_picks_still_to_take_effect_stay_hidden():
    game = interpreter.loads(RULES.replace(", revealed together", ""), "rows.rules")
    state = position(game, 2, {"hand": [[c(5), c(9)], [c(7), c(8)]], "row": [[c(20)], [c(21)], [c(24)]]})
    pick(state, 7)
    pick(state, 5)
    assert state.current_player == 0 and [m["player"] for m in state.observe(0)["moves"]] == [0]


def test_render_and_diff_say_revealed_together(game):
    from interpreter.text.diff import diff, diff_text

    plain = interpreter.loads(RULES.replace(", revealed together", ""), "rows.rules")
    assert "all revealed before the first takes effect" in to_markdown(rulebook(game.ir))
    assert "revealed" not in to_markdown(rulebook(plain.ir))
    assert "revealed together" in diff_text(diff(plain.ir, game.ir))
