"""Lost Cities (examples/classics/lost_cities.rules) in the situations its rulebook describes:
expeditions in rising order with wagers first, a discard pile per color, drawing from the deck or
the top of any discard pile (not the card just discarded), the scoring of an expedition; and
every tool on it."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.agents import SeatView, make_agents
from interpreter.engine.records import dumps, parse_line, record, replay
from interpreter.simulation.simulate import simulate
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "lost_cities.rules"


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def n(color: str, value: int) -> dict:
    return {"type": "number", "color": color, "value": value}


def w(color: str) -> dict:
    return {"type": "wager", "color": color, "value": 0}


STOCK = [n("red", 9), n("red", 10)]  # a deck that does not run out at once


def words(state) -> list[dict]:
    return [state.describe(m) for m in state.legal_moves()]


def plays(state) -> list[tuple[str, dict]]:
    return [(d["move"], d["card"]) for d in words(state) if "card" in d and d["move"] == "play"]


def test_an_expedition_rises_and_takes_wagers_only_before_its_numbers(game):
    hand = [n("yellow", 3), n("yellow", 7), w("yellow"), n("blue", 2)]
    state = position(game, 2, {"hand": [[], hand], "expedition": [[], [n("yellow", 5)]], "stock": STOCK}, {"rounds": 1})
    assert state.current_player == 1
    assert plays(state) == [("play", n("yellow", 7)), ("play", n("blue", 2))]  # not 3, not the wager


def test_after_a_card_the_same_player_draws_from_the_deck_or_any_discard_but_not_the_one_just_made(game):
    hand = [n("red", 4), n("white", 6)]
    discard = [[n("green", 8)], [], [], [], []]
    state = position(game, 2, {"hand": [[n("blue", 5)], hand], "discard": discard, "stock": STOCK}, {"rounds": 1})
    discards = [d for d in words(state) if d["move"] == "discard"]
    # the red card goes to an empty pile (the green pile is green's)
    assert {d["to"]["index"] for d in discards if d["card"] == n("red", 4)} == {1, 2, 3, 4}
    state.apply(next(m for m, d in zip(state.legal_moves(), words(state), strict=True) if d in discards))
    assert state.current_player == 1  # the same player draws
    assert words(state) == [
        {"player": 1, "move": "draw", "from": {"zone": "stock", "index": 0}},
        {"player": 1, "move": "draw", "from": {"zone": "discard", "index": 0}},
    ]  # not the pile the red card just went to
    state.apply(state.legal_moves()[1])  # take the green 8
    assert n("green", 8) in [game.cards.json[c] for c in state.zones[state.layout.base[game.zone_index["hand"]] + 1]]
    assert state.current_player == 0


def score_of(game, expedition: list[dict]) -> int:
    """Seat 0's score for one round with this expedition laid out: the round ends at once
    (the deck is empty)."""
    state = position(
        game, 2, {"hand": [[n("red", 2)], []], "expedition": [expedition, []], "stock": [n("red", 3)]}, {"rounds": 1}
    )
    state.apply(next(m for m in state.legal_moves() if state.describe(m)["move"] == "discard"))
    state.apply(state.legal_moves()[0])  # the deck's last card: the round ends
    assert state.is_over
    return state.history[0]["scores"][0]


def test_an_expedition_scores_its_sum_less_20_times_one_more_than_its_wagers_and_20_for_eight_cards(game):
    assert score_of(game, [w("yellow"), n("yellow", 4), n("yellow", 6), n("yellow", 9)]) == (19 - 20) * 2
    eight = [w("blue"), w("blue")] + [n("blue", v) for v in (2, 3, 4, 5, 6, 7)]
    assert score_of(game, eight) == (27 - 20) * 3 + 20
    assert score_of(game, [n("white", 10), n("green", 2)]) == (10 - 20) + (2 - 20)


@pytest.mark.parametrize("agents", [["random", "random"], ["greedy", "greedy"], ["mcts:8", "random"]], ids=",".join)
def test_every_agent_plays_a_round_to_its_end_and_its_record_replays(game, agents):
    """Each agent plays a round out from a deal with a short deck: greedy and mcts sample a world for
    each decision by replaying the round so far, so a whole round of 90 moves costs them a minute
    (the pinned record plays greedy through three whole rounds)."""
    deck = list(game.cards.json)
    random.Random(5).shuffle(deck)
    state = position(game, 2, {"hand": [deck[:8], deck[8:16]], "stock": deck[16:28]})
    seats = make_agents(agents, 2, 5)
    views = [SeatView(state, seat) for seat in range(2)]
    while not state.is_over:
        state.apply(seats[state.current].choose(views[state.current]))
    rec = parse_line(dumps(record(state, agents)), 1)
    assert any("from" in m for m in rec["rounds"][0]["moves"])  # draws, each from the deck or a pile
    replay(game, rec)


def test_a_whole_game_is_simulated_and_its_record_replays(game):
    got = simulate(game, 2, 2, seed=1, agents=["random", "random"])
    assert got["games"] == 2
    state, rng = game.new_game(2, 5), random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_moves()))
    rec = parse_line(dumps(record(state)), 1)
    assert len(rec["rounds"]) == 3  # the rulebook's three rounds
    replay(game, rec)


def test_the_file_is_canonical_and_checks_clean():
    from interpreter.checker import check

    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text
    report = check(str(RULES), games=10)
    assert not [f for f in report.findings if f.severity in ("error", "warning")]
