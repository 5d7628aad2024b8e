"""Love Letter (examples/classics/love_letter.rules) in the situations its rulebook describes: a
Guard's right guess, the Handmaid's protection until its player's next turn, the Countess that must
be discarded beside the King or a Prince, the Princess discarded, the Baron's secret comparison, the
King's trade, the round that ends with one player left, and the tokens that win by player count."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import ROOT
from interpreter.agents.belief import Belief
from interpreter.engine.records import record, replay
from interpreter.engine.seat_log import round_log
from interpreter.simulation.simulate import simulate
from interpreter.text.event_words import entry_text
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "love_letter.rules"
COPIES = {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1, "countess": 1, "princess": 1}
VALUE = {"guard": 1, "priest": 2, "baron": 3, "handmaid": 4, "prince": 5, "king": 6, "countess": 7, "princess": 8}


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(kind: str) -> dict:
    return {"type": kind, "value": VALUE[kind]}


def dealt(game, hands: list[str], deck: list[str], aside: str = "guard", revealed: list[str] = (), narrate=False):
    """A round-one state: each seat's one card, the deck from its top, the card set aside (and, with
    two players, the three turned up); the cards not named go to the bottom of the deck. Seat 0
    deals: seat 1 draws and starts."""
    left = dict(COPIES)
    for k in [*hands, *deck, aside, *revealed]:
        left[k] -= 1
        assert left[k] >= 0, k
    rest = [k for k, n in left.items() for _ in range(n)]
    deal = {
        "hand": [[c(k)] for k in hands],
        "discard": [[] for _ in hands],
        "aside": [c(aside)],
        "revealed": [c(k) for k in revealed],
        "deck": [c(k) for k in [*deck, *rest]],
    }
    state = game.new_game(len(hands), 0, deals=[deal], narrate=narrate)
    state.deals_given = None  # later rounds are dealt by chance
    return state


def hand(state, seat: int) -> list[str]:
    inst = state.layout.base[state.game.zone_index["hand"]] + seat
    return [state.game.cards.json[x]["type"] for x in state.zones[inst]]


def play(state, kind: str) -> None:
    """The current player discards a card of that kind."""
    moves = [m for m in state.legal_moves() if m.card >= 0 and state.game.cards.json[m.card]["type"] == kind]
    assert moves, f"no legal play of a {kind}: {[state.describe(m) for m in state.legal_moves()]}"
    state.apply(moves[0])


def choose(state, value) -> None:
    """The asked player's answer (a seat or a value)."""
    moves = [m for m in state.legal_moves() if m.card < 0 and m.target == value]
    assert moves, f"{value!r} is not among {[state.describe(m) for m in state.legal_moves()]}"
    state.apply(moves[0])


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def test_a_guards_right_guess_puts_the_other_player_out_and_wins_the_round(game):
    state = dealt(game, ["baron", "guard"], ["priest"], revealed=["king", "prince", "handmaid"])
    assert state.current_player == 1 and sorted(hand(state, 1)) == ["guard", "priest"]
    play(state, "guard")
    choose(state, 0)  # the rival: seat 0
    assert 1 not in [m.target for m in state.legal_moves()]  # a Guard may not name a Guard
    choose(state, VALUE["baron"])
    assert state.round == 1 and state.totals == [0, 1]  # seat 0 out: seat 1 wins a token


def test_the_round_ends_at_once_when_one_player_is_left_nobody_draws(game):
    # (the rulebook: the round ends when one player remains; the winner shows the one card held)
    state = dealt(game, ["baron", "guard"], ["priest", "prince"], revealed=["king", "handmaid", "countess"])
    play(state, "guard")
    choose(state, 0)
    choose(state, VALUE["baron"])  # seat 0 out: seat 1 alone wins, holding the Priest alone
    assert state.history[0]["revealed"]["hand"] == [[], [c("priest")]]
    assert state.totals == [0, 1] and state.history[0]["scores"] == [0, 1]


def test_a_guards_wrong_guess_does_nothing(game):
    state = dealt(game, ["baron", "guard"], ["priest", "guard"], revealed=["king", "prince", "handmaid"])
    play(state, "guard")
    choose(state, 0)
    choose(state, VALUE["king"])
    assert state.round == 0 and state.current_player == 0 and sorted(hand(state, 0)) == ["baron", "guard"]


def test_the_handmaid_protects_until_her_players_next_turn(game):
    state = dealt(game, ["guard", "guard"], ["handmaid", "priest", "guard"], revealed=["king", "prince", "baron"])
    play(state, "handmaid")
    assert var(state, "protected") == [0, 1]
    play(state, "guard")  # seat 0's Guard finds nobody to target: discarded without effect
    assert state.current_player == 1 and var(state, "protected") == [0, 0]  # seat 1's turn: protection over


def test_the_countess_must_be_discarded_beside_the_king_or_a_prince(game):
    state = dealt(game, ["guard", "countess"], ["king"], revealed=["priest", "prince", "baron"])
    assert {state.game.cards.json[m.card]["type"] for m in state.legal_moves()} == {"countess"}
    state = dealt(game, ["guard", "countess"], ["prince"], revealed=["priest", "king", "baron"])
    assert {state.game.cards.json[m.card]["type"] for m in state.legal_moves()} == {"countess"}
    state = dealt(game, ["guard", "countess"], ["priest"], revealed=["king", "prince", "baron"])
    assert {state.game.cards.json[m.card]["type"] for m in state.legal_moves()} == {"countess", "priest"}


def test_the_princess_discarded_puts_her_player_out(game):
    state = dealt(game, ["guard", "princess"], ["priest"], revealed=["king", "prince", "baron"])
    play(state, "princess")
    assert state.totals == [1, 0]
    state = dealt(game, ["princess", "guard"], ["prince", "guard"], revealed=["king", "priest", "baron"])
    play(state, "prince")
    choose(state, 0)  # the Prince makes seat 0 discard the Princess: out
    assert state.totals == [0, 1]


def test_the_priest_shows_a_hand_to_its_player_alone(game):
    state = dealt(game, ["baron", "priest", "king"], ["guard", "guard"])
    play(state, "priest")
    choose(state, 2)
    assert [x["card"]["type"] for x in state.observe(1)["shown"]] == ["king"]
    assert state.observe(0)["shown"] == [] and state.observe(2)["shown"] == []
    obs = state.observe(1)
    for seed in range(5):  # the seat's samples keep the King in seat 2's hand
        sample = Belief(game, obs, random.Random(seed)).sample()
        assert sample is not None and "king" in hand(sample, 2)


def test_the_baron_puts_the_lower_hand_out_and_the_king_trades(game):
    state = dealt(game, ["priest", "baron", "guard"], ["prince", "guard"])
    play(state, "baron")
    choose(state, 0)  # prince 5 against priest 2: seat 0 out
    assert state.observe(2)["eliminated"] == [0] and state.current_player == 2
    state = dealt(game, ["priest", "king", "guard"], ["baron", "guard"])
    play(state, "king")
    choose(state, 2)
    assert hand(state, 1) == ["guard"] and hand(state, 2)[0] == "baron"


def test_the_kings_trade_tells_each_trader_the_card_they_now_hold_and_nobody_else(game):
    state = dealt(game, ["priest", "king", "guard"], ["baron", "guard"], narrate=True)
    play(state, "king")  # seat 1 keeps the Baron, trades it for seat 2's Guard
    choose(state, 2)
    swaps = {p: [e for e in round_log(state, p, 0) if "swap" in e.get("event", {})] for p in range(3)}
    told = {p: [entry_text(game, e, p, 3) for e in swaps[p]] for p in range(3)}
    assert told[1] == ["your hand and hand of seat 2 swapped; your hand now: guard 1"]
    assert told[2] == ["hand of seat 1 and your hand swapped; your hand now: baron 3"]
    assert told[0] == ["hand of seat 1 and hand of seat 2 swapped"]
    assert swaps[0][0]["event"]["swap"] == [{"zone": "hand", "index": 1}, {"zone": "hand", "index": 2}]


@pytest.mark.parametrize(("players", "tokens"), [(2, 7), (3, 5), (4, 4)])
def test_the_game_ends_when_a_player_has_the_tokens_for_the_player_count(game, players, tokens):
    state = game.new_game(players, 3)
    rng = random.Random(3)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert max(state.totals) == tokens and state.round >= tokens


@pytest.mark.parametrize("players", [2, 3, 4])
def test_love_letter_plays_with_every_agent_and_replays(game, players):
    for agents in (["mcts:20", "greedy", "random", "random"], ["random", "mcts:20", "greedy", "greedy"]):
        result = simulate(game, players=players, games=2, agents=agents[:players], seed=1)
        assert result["games"] == 2
    state = game.new_game(players, 5)
    rng = random.Random(5)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert replay(game, record(state)).totals == state.totals


def test_the_file_is_in_canonical_form():
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text
