"""`after A, B`: one trigger after any of several moves, of every kind (cards moved, passes,
numbers, options, draws, sets), reading what every one of them binds; a name only some bind
(a choice's value, `card` beside a choice) is an error where it is read, which says why."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.errors import RulesetError
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

RULES = """game "Shared"
players 2..3

cards
  card  rank 1..6   suit red | blue

zones
  hand   per player, owner sees
  pile   shared, hidden
  table  shared, public

var bids per player per round = -1
var chosen per player = 0
var last = 0

round
  deal 2 to hand, rest to pile
  phase bidding
    move bid number from 0 to 2
      require bids of player = -1
    move pass
      require bids of player = -1
    after bid
      set bids of player to bid
    after pass
      set bids of player to 0
    after bid, pass{bidding_if}
{bidding}
    ends when no player where bids of it < 0
  phase play
    move lay card from hand to table
    move take top card from pile to hand
      require count hand of player < 2
    move fold
      require hand of player is empty
    after {play_after}
{play}
    ends when every hand is empty
  score
    chosen of player

game
  rounds 1
  winner highest total
"""


def rules(
    bidding: str = "add 1 to chosen of player",
    play_after: str = "lay, take, fold",
    play: str = "add 1 to chosen of player",
    bidding_if: str = "",
) -> str:
    block = "".join(f"      {line}\n" for line in bidding.splitlines())
    return RULES.format(
        bidding=block.rstrip("\n"),
        bidding_if=bidding_if,
        play_after=play_after,
        play="".join(f"      {line}\n" for line in play.splitlines()).rstrip("\n"),
    )


def play_out(text: str, seed: int, players: int = 2):
    state = interpreter.loads(text, "shared.rules").new_game(players, seed=seed)
    rng = random.Random(seed)
    moves = [0] * players
    while not state.is_over:
        moves[state.current_player] += 1
        state.apply(rng.choice(state.legal_moves()))
    return state, moves


@pytest.mark.parametrize("seed", range(4))
def test_one_trigger_after_choices_and_card_moves_runs_after_each_of_them(seed):
    """`after bid, pass` (a number and a pass) and `after lay, take, fold` (a card, a draw, a pass)."""
    state, moves = play_out(rules(), seed)
    assert state.scores() == moves


def test_a_shared_trigger_reads_player_in_its_condition_and_target_where_every_move_has_one():
    text = rules(
        bidding_if=" if player = dealer",
        play_after="lay, fold",
        play="if count table > 0\n  set last to count table",
    )
    state, _ = play_out(text, 1)
    assert state.scores()[state.dealer] >= 1 and sum(state.scores()) == 1  # the dealer's bid or pass only
    assert state.vars[2] == len(state.zones[state.layout.base[state.game.zone_index["table"]]])


@pytest.mark.parametrize(
    ("kwargs", "name", "moves"),
    [
        ({"bidding": "set last to bid"}, "bid", "bid"),
        ({"play": "set last to rank of card"}, "card", "lay, take"),  # (a draw's card: the card it took)
        ({"play": "set last to count take"}, "take", "take"),
        ({"play_after": "fold, lay", "play": "move card to pile"}, "card", "lay"),
    ],
    ids=["a number chosen", "card beside choices", "a draw's pile", "card after the first"],
)
def test_a_name_only_some_of_the_moves_bind_is_an_error_where_it_is_read(kwargs, name, moves):
    text = rules(**kwargs)
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, "shared.rules")
    err = info.value
    assert f"'{name}' has a value after {moves} only" in err.message
    assert "reads what every one of them binds" in err.message and f"after {moves.split(', ')[0]}" in (err.hint or "")
    line = text.splitlines()[err.span.line - 1]
    assert line[err.span.col - 1 :].startswith(name)


def test_fmt_keeps_and_render_says_a_trigger_shared_by_choices():
    text = rules()
    assert format_text(text) == text
    book = to_markdown(rulebook(interpreter.loads(text, "shared.rules").ir))
    assert "bid or pass" in book.replace("*", "")
