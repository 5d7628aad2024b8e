"""The deal (interpreter/engine/deal.py) and the rounds of a game, by AMIGO Poison's rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.engine.deal import _shuffle
from interpreter.errors import PlayError


def hand_sizes(state) -> list[int]:
    base = state.layout.base[state.game.zone_index["hand"]]
    return [len(state.zones[base + p]) for p in range(state.n)]


def deck_left(state) -> int:
    return len(state.zones[state.layout.base[state.game.zone_index["deck"]]])


def test_three_players_are_dealt_as_four_and_the_spare_hand_is_removed_unseen(poison):
    state = poison.new_game(3, seed=1)
    # 50 cards to four hands make 13, 13, 12, 12 from the dealer's left; the spare is one of them.
    assert sorted([*hand_sizes(state), deck_left(state)]) == [12, 12, 13, 13]
    assert deck_left(state) in (12, 13)  # the fourth hand, out of the round
    obs = state.observe(0)
    assert obs["zones"]["deck"] == [{"count": deck_left(state)}]  # nobody sees it


def test_with_three_players_and_dealer_0_the_hands_are_13_13_12(poison):
    # Dealing starts at the dealer's left: seats 1, 2, then the spare seat (after seat 2), then 0.
    state = poison.new_game(3, seed=2)
    assert state.dealer == 0
    assert hand_sizes(state) == [12, 13, 13]
    assert deck_left(state) == 12


def test_three_players_play_six_rounds(poison):
    assert poison.new_game(3, seed=1).rounds == 6


def test_four_players_play_four_rounds_with_all_50_cards_dealt(poison):
    state = poison.new_game(4, seed=1)
    assert state.rounds == 4
    assert hand_sizes(state) == [12, 13, 13, 12]  # from the dealer's left: seats 1 and 2 get the 13th
    assert deck_left(state) == 0


@pytest.mark.parametrize("players", [5, 6])
def test_each_player_deals_once(poison, players):
    assert poison.new_game(players, seed=1).rounds == players


def test_the_dealer_rotates_clockwise(poison):
    import random

    state = poison.new_game(4, seed=3)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    assert [r["dealer"] for r in state.history] == [0, 1, 2, 3]


def test_a_dealer_who_stays_deals_every_round_and_the_tools_say_so():
    """`dealer stays`: seat 0 deals each round (the default is to rotate clockwise, as above)."""
    import random

    import interpreter
    from conftest import RULESETS
    from interpreter.text.diff import diff, diff_text
    from interpreter.text.fmt import format_text
    from interpreter.text.render import rulebook, to_markdown

    text = (RULESETS / "poison.rules").read_text("utf-8").replace("  dealer rotates clockwise\n", "  dealer stays\n")
    game = interpreter.loads(text, "stays.rules")
    state, rng = game.new_game(4, seed=3), random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    assert [r["dealer"] for r in state.history] == [0, 0, 0, 0]
    assert "  dealer stays\n" in format_text(text)
    assert "the same player deals every round" in to_markdown(rulebook(game.ir))
    rotating = interpreter.loads(text.replace("  dealer stays\n", ""), "default.rules").ir
    assert rotating["game"]["dealer"] == "clockwise"
    assert "Dealer: the same player deals every round -> the dealer passes clockwise" in diff_text(
        diff(game.ir, rotating)
    )


def test_a_player_count_outside_the_rules_is_refused(poison):
    with pytest.raises(PlayError, match="for 3 to 6 players, not 7"):
        poison.new_game(7)


@given(st.integers(0, 2**64), st.integers(0, 300))
def test_the_deal_shuffles_a_deck_as_random_shuffle_does_draw_for_draw(seed, size) -> None:
    """Seeded games and records made before the deal's own shuffle loop still play as they did:
    same order, and the generator left in the same state for what it draws next."""
    ours, theirs = random.Random(seed), random.Random(seed)
    deck, expected = list(range(size)), list(range(size))
    _shuffle(ours.getrandbits, deck)
    theirs.shuffle(expected)
    assert deck == expected and ours.getstate() == theirs.getstate()


PILED_DEAL = """game "Piles dealt"
players 2..2

cards
  card  rank 1..6

zones
  hand  per player, owner sees
  won   per player, public, piles

round
  deal 2 to hand
  deal 1 to won
  phase play
    move play card from hand to won
    ends when every hand is empty
  score
    count card in won of player

game
  rounds 1
  winner highest total
"""


def test_cards_dealt_to_a_zone_of_piles_are_one_pile_and_replay_as_one() -> None:
    import interpreter
    from interpreter.engine.records import record, replay

    game = interpreter.loads(PILED_DEAL, "piled.rules")
    state = game.new_game(2, seed=1)
    won = state.layout.base[game.zone_index["won"]]
    assert [len(state.zones[won + p]) for p in range(2)] == [1, 1]  # one pile of one card each
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert state.scores() == [3, 3]
    again = replay(game, record(state))
    assert again.scores() == [3, 3]
