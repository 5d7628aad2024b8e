"""Every effect that takes a zone takes it however it is written: `hand of target`, a name bound to
a zone (a `let`, a draw's pile), a definition or an `if`. A zone held in a name
was once read by `show` and `move` as the card whose id is the zone's instance number: `show` of a
draw's pile showed a card inside the hidden pile. A value that cannot be a zone is a typed error
at its position."""

from __future__ import annotations

import pytest

import interpreter
from interpreter.errors import RulesetError

RULES = """game "Zones by name"
players 2..3

cards
  card  rank 1..9

zones
  hand   per player, owner sees
  pile   shared, hidden
  spare  shared, hidden
  table  shared, public

define mine(p) = hand of p

round
  deal 2 to hand, rest to pile
  phase play
    move take top card from pile or spare to hand
      require count hand of player = 2
    move drop card from hand to table
      require count hand of player = 3
    after {after}
{effects}
    ends when pile is empty
  score
    0

game
  rounds 1
  winner highest total
"""


def first_move(after: str, *effects: str, players: int = 2, seed: int = 3):
    """A game of these rules, its first move (a draw from the pile) played: (before, after)."""
    text = RULES.format(after=after, effects="".join(f"      {e}\n" for e in effects))
    state = interpreter.loads(text, "zones.rules").new_game(players, seed=seed)
    before = state.copy()
    state.apply(next(m for m in state.legal_moves() if m.target == state.layout.base[state.game.zone_index["pile"]]))
    return before, state


def inst(state, zone: str, of: int = 0) -> int:
    return state.layout.base[state.game.zone_index[zone]] + of


def test_show_of_a_draws_pile_shows_the_piles_cards_not_the_card_numbered_like_it():
    before, state = first_move("take", "show take to left of player")
    p, pile = before.current_player, inst(state, "pile")
    assert sorted(c for _, c, _ in state.shown) == sorted(state.zones[pile])
    assert {(seat, where) for seat, _, where in state.shown} == {((p + 1) % 2, pile)}


@pytest.mark.parametrize(
    "effects",
    [
        ("let z = hand of left of player", "show z to player"),
        ("show mine(left of player) to player",),
        ("show (if players = 2 then hand of left of player else table) to player",),
    ],
    ids=["let", "definition", "if"],
)
def test_show_of_a_zone_held_in_a_name_shows_that_zones_cards(effects):
    before, state = first_move("take", *effects)
    p = before.current_player
    theirs = inst(state, "hand", (p + 1) % 2)
    assert sorted(state.shown) == sorted((p, c, theirs) for c in state.zones[theirs])


def test_move_of_a_zone_held_in_a_name_moves_its_cards():
    before, state = first_move("take", "let z = hand of left of player", "move z to table")
    p = before.current_player
    theirs = before.zones[inst(before, "hand", (p + 1) % 2)]
    assert state.zones[inst(state, "hand", (p + 1) % 2)] == []
    assert state.zones[inst(state, "table")] == theirs
    assert all(state.loc[c] == inst(state, "table") for c in theirs)


def test_move_of_a_draws_pile_moves_the_pile():
    before, state = first_move("take", "move take to table")
    assert state.zones[inst(state, "pile")] == []
    assert len(state.zones[inst(state, "table")]) == len(before.zones[inst(before, "pile")]) - 1


def test_move_to_a_zone_held_in_a_name():
    before, state = first_move("take", "let z = table", "move first card in hand of left of player to z")
    p = before.current_player
    assert state.zones[inst(state, "table")] == before.zones[inst(before, "hand", (p + 1) % 2)][:1]


def test_swap_with_a_zone_held_in_a_name_and_with_a_draws_pile_of_several():
    before, state = first_move("take", "let z = hand of left of player", "swap z with hand of player")
    p = before.current_player
    mine = before.zones[inst(before, "hand", p)]
    assert state.zones[inst(state, "hand", (p + 1) % 2)][:2] == mine
    before, state = first_move("take", "swap take with table")  # (pile or spare: which zone is not known)
    assert state.zones[inst(state, "pile")] == [] and len(state.zones[inst(state, "table")]) == 4


def test_draw_from_a_zone_held_in_a_name():
    before, state = first_move("take", "let z = pile", "draw 2 from z to hand of left of player")
    p = before.current_player
    assert len(state.zones[inst(state, "hand", (p + 1) % 2)]) == 4


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        ("show rank of card to player", "show takes a card, cards or a zone, not a number"),
        ("move player to table", "move takes a card, cards or a zone's cards, not a player"),
        ("draw 1 from player to hand of player", "a zone"),
        ("let z = rank of card\n      swap z with hand of player", "a zone"),
    ],
)
def test_a_value_that_cannot_be_a_zone_is_a_typed_error_at_its_position(effect, message):
    text = RULES.format(after="drop", effects=f"      {effect}\n")
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, "zones.rules")
    assert message in str(info.value)
    line = text.splitlines().index(f"      {effect.splitlines()[-1].strip()}") + 1
    assert f"zones.rules:{line}:" in str(info.value)
