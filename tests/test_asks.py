"""Follow-up asks wherever the rules run effects (docs/language.md, "Choices"): while a
simultaneous phase's held moves resolve, at the start and end of a round or a phase, one per
player in a `for each`, and asks that choose a card. The game is the reference's own example."""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import dumps, parse_line, record, replay
from interpreter.errors import RecordError, RulesetError
from interpreter.play.terminal import ask
from interpreter.simulation.simulate import simulate
from interpreter.simulation.tally import outcome
from interpreter.text.diff import diff, diff_text
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

DOC = (ROOT / "docs" / "language.md").read_text()
RULES = next(
    b for b in re.findall(r"```rules\n(.*?)```", DOC, flags=re.S) if b.startswith('game "Asks as the rules run"')
)


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.loads(RULES, "asks.rules")


def c(rank: int, suit: str = "red") -> dict:
    return {"type": "card", "rank": rank, "suit": suit}


def said(state) -> list[dict]:
    return [state.describe(m) for m in state.legal_moves()]


def answer(state, name: str, **want) -> None:
    (move,) = [
        m for m in state.legal_moves() if all(state.describe(m).get(k) == v for k, v in {"move": name, **want}.items())
    ][:1]
    state.apply(move)


def var(game, state, name: str):
    return state.vars[[v["name"] for v in game.ir["vars"]].index(name)]


HANDS = [[c(1), c(5), c(6), c(2)], [c(3), c(4, "blue"), c(2, "blue"), c(6, "blue")]]


def test_the_round_starts_with_each_player_asked_in_turn_before_the_first_move(game):
    state = position(game, 2, {"hand": HANDS})
    assert state.current_player == 0 and {m["move"] for m in said(state)} == {"gift"}
    assert [m["card"] for m in said(state)] == [c(5), c(6), c(2)]  # (`require rank of gift >= 2`)
    answer(state, "gift", card=c(6))
    assert state.current_player == 1 and {m["move"] for m in said(state)} == {"gift"}  # then seat 1
    assert said(state)[0]["from"] == {"zone": "hand", "index": 1}
    answer(state, "gift", card=c(6, "blue"))
    assert state.observe(0)["zones"]["pool"] == [[c(6), c(6, "blue")]]
    gifts = state.observe(1)["moves"]  # a card chosen in a hand the seat cannot see: not named
    assert gifts[0] == {"player": 0, "move": "gift", "card": None, "from": {"zone": "hand", "index": 0}}
    assert gifts[1]["card"] == c(6, "blue")
    assert state.current_player == 1 and {m["move"] for m in said(state)} == {"pick"}  # the phase starts


def test_an_ask_while_held_moves_resolve_waits_and_its_answer_takes_effect_before_the_next(game):
    state = position(game, 2, {"hand": HANDS})
    answer(state, "gift", card=c(6))
    answer(state, "gift", card=c(6, "blue"))
    answer(state, "pick", card=c(3))  # seat 1 chooses first (the dealer's left), unseen
    answer(state, "pick", card=c(1))  # seat 0's 1 is lowest: it takes effect first, and asks
    assert state.current_player == 0 and {m["move"] for m in said(state)} == {"extra"}
    assert [m["card"] for m in said(state)] == [c(5), c(2)]
    assert state.observe(0)["zones"]["picked"] == [[c(1)], []]  # seat 1's pick is still held, hidden
    assert [m["player"] for m in state.observe(0)["moves"]] == [0, 1, 0]  # (its move too)
    answer(state, "extra", card=c(5))
    seen = var(game, state, "seen")
    assert seen == [3, 3]  # seat 0's trigger went on after the answer; seat 1's pick took effect after it
    assert state.observe(1)["zones"]["picked"] == [[c(1)], [c(3)]]
    # then the phase ends: its `at end` asks the dealer before the `repeat` loops
    assert state.current_player == 0 and {m["move"] for m in said(state)} == {"wish"}
    answer(state, "wish", value=2)
    assert var(game, state, "luck") == 2
    assert {m["move"] for m in said(state)} == {"pick"}


def test_the_round_is_scored_once_its_end_has_been_answered(game):
    state = position(game, 2, {"hand": HANDS})
    while {m["move"] for m in said(state)} != {"favourite"}:
        state.apply(state.legal_moves()[0])
    assert state.current_player == state.history[0]["dealer"] == 0
    assert "scores" not in state.history[0]  # not scored yet
    before = list(var(game, state, "seen"))
    answer(state, "favourite", value=1)
    assert state.history[0]["scores"][1] == before[1] + 1 + 0  # seen, plus the dealer's favour
    assert state.history[0]["scores"][0] == before[0] + var(game, state, "luck")


def test_a_record_of_answers_replays_and_a_forged_card_is_refused_at_its_position(game):
    state = game.new_game(3, 5)
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    line = dumps(record(state))
    rec = parse_line(line, 1)  # the record schema admits an ask's card
    replay(game, rec)
    first = rec["rounds"][0]["moves"][0]
    assert first["move"] == "gift" and first["player"] == 0 and first["from"] == {"zone": "hand", "index": 0}
    forged = json.loads(line)
    forged["rounds"][0]["moves"][1]["card"] = c(1, "blue") if first["card"] != c(1, "blue") else c(1)
    forged["rounds"][0]["moves"][1]["card"]["rank"] = 9  # no such card in the hand
    with pytest.raises(RecordError, match=r"round 1, move 2: the rules do not allow this move"):
        replay(game, forged)
    forged = json.loads(line)
    forged["rounds"][0]["moves"][1]["player"] = 0  # seat 1 answers second, not seat 0
    with pytest.raises(RecordError, match=r"round 1, move 2: it is seat 1's turn"):
        replay(game, forged)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 3), seed=st.integers(0, 10_000), pick=st.integers(0, 50))
def test_games_with_asks_everywhere_end_and_keep_every_card_in_one_place(game, players, seed, pick):
    state = game.new_game(players, seed)
    total = len(game.cards)
    copy = None
    steps = 0
    while not state.is_over:
        moves = state.legal_moves()
        assert moves, "someone must be able to move"
        if copy is None and state.asking is not None and steps > 3:  # a copy taken while an ask waits
            copy, copied_at = state.copy(), steps
        state.apply(moves[(pick + steps) % len(moves)])
        steps += 1
        assert steps < 500
        held = [c for inst in range(state.layout.size) for c in state.zone_cards(inst)]
        assert sorted(held) == list(range(total))
    if copy is not None:  # goes on alone, to the same end under the same choices
        steps = copied_at
        while not copy.is_over:
            moves = copy.legal_moves()
            copy.apply(moves[(pick + steps) % len(moves)])
            steps += 1
        assert copy.totals == state.totals and record(copy)["rounds"] == record(state)["rounds"]


@pytest.mark.parametrize("agent", ["random", "greedy", "mcts"])
def test_every_agent_answers_asks_in_these_places(game, agent):
    games = 1 if agent == "mcts" else 4
    assert simulate(game, 2, games, seed=3, agents=[agent, "random"])["games"] == games


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ask player to choose gift card from secret", "nobody sees the cards of zone 'secret'"),
        ("ask player to choose gift card from deck", "nobody sees the cards of deck 'deck'"),
        ("ask player to choose gift card from seen of player", "expected a zone"),
    ],
)
def test_an_ask_of_a_card_from_what_is_not_a_seen_zone_is_refused_at_its_place(line, message):
    rules = RULES.replace("  pool    shared, public\n", "  pool    shared, public\n  secret  shared, hidden\n")
    rules = rules.replace("ask player to choose gift card from hand of player", line)
    with pytest.raises(RulesetError, match=message) as err:
        interpreter.loads(rules, "asks.rules")
    at = rules.splitlines().index(next(x for x in rules.splitlines() if line in x)) + 1
    assert f"asks.rules:{at}:" in str(err.value)


def test_the_terminal_offers_an_asked_card_in_words(game):
    state = position(game, 2, {"hand": HANDS})
    lines: list[str] = []
    move = ask(state, 0, io.StringIO("6 red\n"), lines.append)
    assert state.describe(move)["card"] == c(6)
    assert any("1) gift 2 red from your hand" in s for s in lines)


def test_fmt_render_and_diff_say_an_ask_of_a_card(game):
    assert format_text(RULES, "asks.rules") == RULES
    text = to_markdown(rulebook(game.ir))
    assert "The player chooses a card of the player's hand (*gift*):" in text
    assert "The dealer chooses a number from 0 to 2 (*wish*):" in text
    other = interpreter.loads(RULES.replace("gift card from hand of player", "gift card from picked of player"), "b")
    said = diff_text(diff(game.ir, other.ir))
    assert "a card of the player's hand (gift)" in said and "a card of the player's picked (gift)" in said


TURNS = """game "Gifts, then turns"
players 3..3

cards
  card  rank 1..6

zones
  hand  per player, owner sees
  pool  shared, public

round
  deal 2 to hand
  at start
    for each player
      ask player to choose gift card from hand of player
        move gift to pool
  phase play
    first player is left of left of dealer
    move play card from hand to pool
    ends when every hand is empty
  score
    count card in pool where rank of it > 3

game
  rounds 2
  winner highest total
"""


def test_an_answer_at_the_start_of_a_round_is_no_first_move_in_the_statistics():
    game = interpreter.loads(TURNS, "turns.rules")
    state = game.new_game(3, 1)
    assert state.describe(state.legal_moves()[0])["move"] == "gift" and state.current_player == 0
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert [first for first, _ in outcome(state)["rounds"]] == [2, 0]  # the dealer's second left, not seat 0
