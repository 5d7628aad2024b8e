"""Choices that are not cards (a pass, a number, an attribute's value, a player, an option) and the
follow-up choices an effect asks for: legal moves, triggers reading the value, records, replay of a
forged choice, the agents, the play screen's words, fmt and render, and each misuse as a positioned
error. The game is the example of docs/language.md, so the reference's example is the one tested."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

import interpreter
from conftest import ROOT
from interpreter.engine.records import dumps, parse_line, record, replay
from interpreter.errors import RecordError, RulesetError
from interpreter.play.terminal import ask
from interpreter.simulation.simulate import simulate
from interpreter.text.fmt import format_text
from interpreter.text.move_words import choice_text
from interpreter.text.render import rulebook, to_markdown

DOC = (ROOT / "docs" / "language.md").read_text()
RULES = next(b for b in re.findall(r"```rules\n(.*?)```", DOC, flags=re.S) if b.startswith('game "Bids and asks"'))


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.loads(RULES, "bids.rules")


def said(state, moves=None):
    return [state.describe(m) for m in (moves if moves is not None else state.legal_moves())]


def by_words(state, move: str, value=None):
    """The legal move of that name and value."""
    return next(m for m in state.legal_moves() if state.describe(m) == _want(state, move, value))


def _want(state, move, value):
    out = {"player": state.current_player, "move": move}
    if value is not None:
        out["value"] = value
    return out


def test_a_bid_from_zero_to_the_hand_size_or_a_pass_and_the_dealers_own_choices(game):
    state = game.new_game(2, 1)
    assert state.current_player == 1  # the dealer's left
    assert said(state) == [{"player": 1, "move": "bid", "value": v} for v in range(4)] + [{"player": 1, "move": "pass"}]
    state.apply(by_words(state, "bid", 2))
    assert state.vars[0][1] == 2  # the trigger read the value by the move's name
    # the dealer may also name a trump suit (in declared order) and wish, once
    moves = said(state)
    assert {"player": 0, "move": "name_trump", "value": "red"} in moves
    assert [m["value"] for m in moves if m["move"] == "name_trump"] == ["red", "blue"]
    assert [m["value"] for m in moves if m["move"] == "wish"] == ["good_luck", "no_luck"]
    state.apply(by_words(state, "name_trump", "blue"))
    assert state.vars[1] == "blue"


def test_a_pass_binds_nothing_and_is_written_without_a_value(game):
    state = game.new_game(2, 1)
    state.apply(by_words(state, "pass"))
    assert state.vars[0][1] == 0
    rec = record(state)
    assert rec["rounds"][0]["moves"] == [{"player": 1, "move": "pass"}]


def _to_play_of_a_one(game, seed: int):
    """A game at the moment a 1 was just played (the asker must choose a victim)."""
    for s in range(seed, seed + 200):
        state = game.new_game(3, s)
        while state.game.phases[state.phase].name == "bidding":
            state.apply(state.legal_moves()[0])
        while not state.is_over and state.asking is None:
            plays = state.legal_moves()
            ones = [m for m in plays if game.cards.json[m.card]["rank"] == 1]
            state.apply(ones[0] if ones else plays[0])
        if state.asking is not None:
            return state
    raise AssertionError("no 1 played")


def test_a_card_power_asks_the_mover_for_a_victim_then_the_victim_answers(game):
    state = _to_play_of_a_one(game, 0)
    asker = state.current_player
    moves = said(state)
    assert moves == [{"player": asker, "move": "victim", "value": v} for v in range(3) if v != asker]
    victim = moves[0]["value"]
    luck = list(state.vars[2])
    state.apply(state.legal_moves()[0])
    assert state.current_player == victim  # the engine waits for the victim's answer
    assert said(state) == [{"player": victim, "move": "answer", "value": v} for v in ("accept", "refuse")]
    state.apply(by_words(state, "answer", "refuse"))
    assert state.vars[2][victim] == luck[victim] - 1 and state.vars[2][asker] == luck[asker] - 1
    assert state.current_player == (asker + 1) % 3  # then the turn passes on from the mover


def test_records_write_choices_and_answers_and_replay_them_and_refuse_a_forged_bid(game):
    state = _to_play_of_a_one(game, 0)
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    line = dumps(record(state))
    rec = parse_line(line, 1)  # the record schema admits choices
    replay(game, rec)
    moves = rec["rounds"][0]["moves"]
    assert moves[0] == {"player": 1, "move": "bid", "value": 0}
    assert any(m["move"] == "victim" and isinstance(m["value"], int) for m in moves)
    assert any(m["move"] == "answer" and m["value"] in ("accept", "refuse") for m in moves)
    forged = json.loads(line)
    forged["rounds"][0]["moves"][0]["value"] = 9
    with pytest.raises(RecordError, match=r"round 1, move 1: the rules do not allow this move"):
        replay(game, forged)
    forged = json.loads(line)
    forged["rounds"][0]["moves"][0]["value"] = "0"  # a text is not the number
    with pytest.raises(RecordError, match=r"round 1, move 1"):
        replay(game, forged)


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_every_agent_plays_the_choices(game, agent):
    games = 1 if agent == "mcts" else 4
    got = simulate(game, 2, games, seed=3, agents=[agent, "random"])
    assert got["games"] == games


def test_the_play_screen_offers_choices_in_words():
    assert choice_text({"player": 0, "move": "bid", "value": 3}, 0) == "bid 3"
    assert choice_text({"player": 0, "move": "pass"}, 0) == "pass"
    assert choice_text({"player": 0, "move": "victim", "value": 2, "kind": "player"}, 0) == "victim seat 2"


def test_the_terminal_asks_for_a_bid_by_number(game):
    state = game.new_game(2, 1)
    lines: list[str] = []
    move = ask(state, 1, io.StringIO("3\n"), lines.append)
    assert state.describe(move) == {"player": 1, "move": "bid", "value": 2}
    assert any("1) bid 0" in s for s in lines) and any("5) pass" in s for s in lines)


def test_fmt_keeps_the_example_canonical_and_render_says_the_choices(game):
    assert format_text(RULES, "bids.rules") == RULES
    text = to_markdown(rulebook(game.ir))
    assert "bid: a number from 0 to the number of cards in the player's hand" in text
    assert "name trump: a suit" in text and "pass: nothing (a pass)" in text
    assert "chooses a player (*victim*)" in text


@pytest.mark.parametrize(
    "old, new, at, words",
    [
        (
            "        add -1 to luck of victim\n",
            "        add -1 to luck of victim\n        require victim != 0\n",
            "        require victim != 0",
            "guards come before its effects",
        ),
        (
            "    ends when nobody can move\n  score",
            "      add 1 to luck of player\n    ends when nobody can move\n  score",
            "      add 1 to luck of player",
            "would run before the player chooses",
        ),
        (
            "value of suit",
            "value of colour",
            "    move name_trump value of colour",
            "no card has an attribute 'colour'",
        ),
        ("one of good_luck, no_luck", "one of no_luck, no_luck", "    move wish one of no_luck", "same option twice"),
    ],
)
def test_misused_choices_are_positioned_errors(old, new, at, words):
    """Each error names the line of the misuse (and its column), with words that say what is wrong."""
    assert old in RULES
    text = RULES.replace(old, new, 1)
    with pytest.raises(RulesetError) as err:
        interpreter.loads(text, "bids.rules")
    line = text.splitlines()[err.value.span.line - 1]
    assert line.startswith(at) and err.value.span.col == len(at) - len(at.lstrip()) + 1
    assert words in err.value.message


DRAWS = next(b for b in re.findall(r"```rules\n(.*?)```", DOC, flags=re.S) if b.startswith('game "Draw or take"'))


def test_a_draw_is_one_move_per_non_empty_pile_and_names_the_pile_not_the_card():
    game = interpreter.loads(DRAWS, "draws.rules")
    state = game.new_game(2, 1)
    state.apply(state.legal_moves()[0])  # seat 1 drops a card to discard 1
    top = state.zones[state.loc[state.history[-1]["moves"][0][1].card]][-1]
    state.apply(state.legal_moves()[0])  # seat 0 drops a card to discard 1 too
    assert said(state) == [
        {"player": 1, "move": "draw", "from": {"zone": "pile", "index": 0}},
        {"player": 1, "move": "draw", "from": {"zone": "discard", "index": 0}},
    ]
    mine = state.zones[state.layout.base[game.zone_index["discard"]]][-1]  # the top: put there last
    assert mine != top
    state.apply(state.legal_moves()[1])
    hand = state.zones[state.layout.base[game.zone_index["hand"]] + 1]
    assert hand[-1] == mine and len(hand) == 3
    # another seat sees the draw, not the card: the move names only the pile
    seen = state.observe(0)["moves"][-1]
    assert seen == {"player": 1, "move": "draw", "from": {"zone": "discard", "index": 0}}


def test_draws_replay_and_a_forged_draw_fails_at_its_position():
    game = interpreter.loads(DRAWS, "draws.rules")
    state, rng = game.new_game(2, 4), random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    line = dumps(record(state))
    replay(game, parse_line(line, 1))
    forged = json.loads(line)
    moves = forged["rounds"][0]["moves"]
    k = next(i for i, m in enumerate(moves) if m["move"] == "draw")
    moves[k]["from"] = {"zone": "hand", "index": 1}  # not a pile this move draws from
    with pytest.raises(RecordError, match=rf"round 1, move {k + 1}: "):
        replay(game, forged)


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_every_agent_draws(agent):
    game = interpreter.loads(DRAWS, "draws.rules")
    games = 1 if agent == "mcts" else 4
    assert simulate(game, 2, games, seed=2, agents=[agent, agent])["games"] == games


def test_fmt_and_render_of_a_draw():
    assert format_text(DRAWS, "draws.rules") == DRAWS
    text = to_markdown(rulebook(interpreter.loads(DRAWS, "draws.rules").ir))
    assert "draw: the top card of the pile or a discard, unseen until taken, into the player's hand" in text
