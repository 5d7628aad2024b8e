"""Card powers as effects: resources paid never below zero, cards shown to one seat, zones
swapped, statuses until a player's next turn, and players eliminated from a round; each in play,
in observations, in the belief sampler, in the tools, and misused."""

from __future__ import annotations

import random

import pytest

import interpreter
from interpreter.agents.belief import Belief
from interpreter.errors import PlayError, RulesetError
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

HEAD = """game "Powers"
players 2..4

cards
  card  rank 1..8

zones
  hand  per player, owner sees
  pile  shared, public

var chips per player = 1
var pot = 0
var protected per player per round = 0

round
  deal 2 to hand
  phase play
    move play card from hand to pile
"""
TAIL = """    ends when every hand is empty
    ends when nobody can move
  score
    chips of player

game
  rounds 1
  winner highest total
"""


def load(body: str) -> interpreter.Game:
    return interpreter.loads(HEAD + body + TAIL, "powers.rules")


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def test_pay_moves_chips_to_the_pot_and_all_of_it_back():
    state = load("    after play\n      pay 1 chips to pot\n").new_game(3, seed=1)
    p = state.current_player
    state.apply(state.legal_moves()[0])
    assert var(state, "chips")[p] == 0 and sum(var(state, "chips")) == 2 and var(state, "pot") == 1
    game = load("    after play\n      pay 1 chips to pot\n      pay all pot to chips of left of player\n")
    state = game.new_game(2, seed=1)
    p = state.current_player
    state.apply(state.legal_moves()[0])
    assert var(state, "chips")[p] == 0 and var(state, "chips")[1 - p] == 2 and var(state, "pot") == 0


def test_a_pay_beyond_what_there_is_is_an_error_at_its_line_and_a_guard_makes_the_move_illegal():
    state = load("    after play\n      pay 2 chips to pot\n").new_game(2, seed=1)
    with pytest.raises(PlayError) as info:
        state.apply(state.legal_moves()[0])
    assert "powers.rules:20:7" in str(info.value) and "below zero" in str(info.value)
    guarded = "      require chips of player >= 1\n    after play\n      pay 1 chips to pot\n"
    state = load(guarded).new_game(2, seed=1)
    state.apply(state.legal_moves()[0])  # seat 0 pays its chip
    state.apply(state.legal_moves()[0])  # seat 1 pays its chip
    assert state.is_over or state.legal_moves() == []


def test_shown_cards_are_seen_by_that_seat_alone_until_they_move():
    state = load("    after play\n      show hand of left of player to player\n").new_game(3, seed=4)
    p = state.current_player
    q, r = (p + 1) % 3, (p + 2) % 3
    state.apply(state.legal_moves()[0])  # p looks at q's hand
    hand = [state.game.cards.json[c] for c in state.zones[state.layout.base[0] + q]]
    assert [x["card"] for x in state.observe(p)["shown"]] == hand
    assert {(x["zone"], x["index"]) for x in state.observe(p)["shown"]} == {("hand", q)}
    assert state.observe(q)["shown"] == [] and state.observe(r)["shown"] == []
    state.apply(state.legal_moves()[0])  # q plays one of them: that card is no longer shown
    assert len(state.observe(p)["shown"]) == 1


def test_the_belief_sampler_of_the_seat_keeps_what_it_was_shown():
    game = load("    after play\n      show hand of left of player to player\n")
    state = game.new_game(2, seed=7)
    p = state.current_player
    state.apply(state.legal_moves()[0])  # p looks at the other's two cards
    state.apply(state.legal_moves()[0])  # the other plays one; p still knows the other card
    obs = state.observe(p)
    (shown,) = obs["shown"]
    for seed in range(10):
        sample = Belief(game, obs, random.Random(seed)).sample()
        assert sample is not None
        assert [game.cards.json[c] for c in sample.zones[sample.layout.base[0] + 1 - p]] == [shown["card"]]


def test_swap_exchanges_two_hands():
    state = load("    after play\n      swap hand of player with hand of left of player\n").new_game(2, seed=3)
    base, p = state.layout.base[0], state.current_player
    mine, theirs = list(state.zones[base + p]), list(state.zones[base + 1 - p])
    move = state.legal_moves()[0]
    state.apply(move)
    assert state.zones[base + p] == theirs
    assert state.zones[base + 1 - p] == [c for c in mine if c != move.card]
    assert all(state.loc[c] == base + p for c in theirs)


def test_a_status_lasts_until_the_players_next_turn_and_guards_read_it():
    body = "      require player is not protected\n    after play\n      make left of player protected\n"
    state = load(body).new_game(2, seed=1)
    p = state.current_player
    state.apply(state.legal_moves()[0])  # the other is now protected for the round: it cannot play
    assert var(state, "protected")[1 - p] == 1 and state.current_player == p
    body = "    after play\n      make player protected until their next turn\n"
    state = load(body).new_game(3, seed=1)
    p = state.current_player
    state.apply(state.legal_moves()[0])
    assert var(state, "protected")[p] == 1 and sum(var(state, "protected")) == 1
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])
    assert var(state, "protected")[p] == 0 and sum(var(state, "protected")) == 2  # p's turn has come again


def test_an_eliminated_player_is_passed_by_and_the_round_ends_when_one_remains():
    text = HEAD + "    after play\n      eliminate left of player\n" + TAIL
    text = text.replace("every hand is empty", "every hand is empty or (count player where it is not eliminated) = 1")
    state = interpreter.loads(text, "powers.rules").new_game(3, seed=1)
    p = state.current_player
    state.apply(state.legal_moves()[0])  # p eliminates p + 1, whose turn is passed by
    assert state.current_player == (p + 2) % 3 and state.observe(p)["eliminated"] == [(p + 1) % 3]
    state.apply(state.legal_moves()[0])  # p + 2 eliminates p: p + 2 remains
    assert state.is_over


@pytest.mark.parametrize(
    ("effect", "message", "column"),
    [
        ("pay 1 chip to pot", "no variable 'chip'", 7),
        ("make player shielded", "no per-player variable 'shielded'", 7),
        ("show rank of card to player", "show takes a card, cards or a zone", 12),
        ("swap hand of player with 3", "zone", 32),
        ("eliminate card", "player", 17),
    ],
)
def test_misused_powers_have_positioned_errors(effect, message, column):
    with pytest.raises(RulesetError) as info:
        load(f"    after play\n      {effect}\n")
    assert message in str(info.value) and f"powers.rules:20:{column}" in str(info.value)


def test_pay_in_the_rules_own_effects_must_say_whose_counter():
    text = (HEAD + TAIL).replace("  score\n", "  at end\n    pay 1 chips to pot\n  score\n")
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, "powers.rules")
    assert "say whose" in str(info.value)


def test_fmt_and_render_say_every_power():
    body = (
        "    after play\n      pay all pot to chips of player\n      show hand of left of player to player\n"
        "      swap hand of player with hand of left of player\n"
        "      make player protected until their next turn\n      if left of player is protected\n"
        "        eliminate left of player\n"
    )
    text = HEAD + body + TAIL
    assert format_text(text, "powers.rules") == text
    words = to_markdown(rulebook(interpreter.loads(text, "powers.rules").ir))
    for phrase in (
        "Pay all of the pot to the player's chips",
        "to the player alone",
        "Swap the cards of the player's hand",
        "The player is protected until their next turn.",
        "is eliminated: no more moves this round",
    ):
        assert phrase in words


def test_the_play_screen_shows_the_seat_what_it_was_shown_and_who_is_out():
    from interpreter.play.terminal import screen

    text = HEAD + "    after play\n      show hand of left of player to player\n      eliminate left of player\n" + TAIL
    state = interpreter.loads(text, "powers.rules").new_game(3, seed=4)
    p = state.current_player
    state.apply(state.legal_moves()[0])
    q = (p + 1) % 3
    mine, theirs = screen(state, p), screen(state, (p + 2) % 3)
    assert f"in hand of seat {q}" in mine.split("shown to you: ")[1]
    assert "shown to you" not in theirs
    assert f"eliminated this round: seat {q}" in theirs
