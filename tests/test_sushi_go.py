"""The drafting game of examples/classics/sushi-go.rules in the situations its rulebook describes:
hands passed to the left, wasabi tripling the next nigiri only, maki rolls' first and second
places with ties split, the dumpling table, sets of tempura and sashimi, puddings at the end of the
game (and nobody losing for them with 2 players)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import record, replay
from interpreter.engine.scoring import score_round

SUSHI = ROOT / "examples" / "classics" / "sushi-go.rules"
NAMES = {
    "tempura": "Tempura",
    "sashimi": "Sashimi",
    "dumpling": "Dumpling",
    "maki": "Maki roll",
    "nigiri": "Nigiri",
    "pudding": "Pudding",
    "wasabi": "Wasabi",
    "chopsticks": "Chopsticks",
}


@pytest.fixture(scope="module")
def sushi() -> interpreter.Game:
    return interpreter.load(SUSHI)


def k(kind: str, **attrs) -> dict:
    return {"type": kind, "name": NAMES[kind], **attrs}


def maki(rolls: int) -> dict:
    return k("maki", rolls=rolls)


def fish(name: str) -> dict:
    return k("nigiri", fish=name)


def hand(state, seat: int) -> list[dict]:
    return state.observe(seat)["zones"]["hand"][seat]


def turn(state, picks: list[dict]) -> None:
    """One turn: every seat picks the given card of the hand it holds (in secret, then revealed)."""
    for _ in picks:
        seat = state.current_player
        (move,) = [m for m in state.legal_moves() if state.describe(m)["card"] == picks[seat]][:1]
        state.apply(move)


def table(game, picked: list[list[dict]], rounds: int = 3, puddings: list[int] | None = None):
    """A round about to be scored: each seat has picked these cards (one card left in hand)."""
    state = position(
        game, len(picked), {"picked": picked, "hand": [[k("chopsticks")]] * len(picked)}, {"rounds": rounds}
    )
    if puddings is not None:
        state.vars[[v["name"] for v in game.ir["vars"]].index("puddings")] = list(puddings)
    return state


# ---- the draft ------------------------------------------------------------------------------------


def test_everyone_picks_at_once_then_every_hand_passes_to_the_left(sushi):
    hands = [
        [k("tempura"), k("sashimi"), k("dumpling")],
        [k("wasabi"), k("pudding"), k("chopsticks")],
        [maki(1), maki(2), maki(3)],
    ]
    state = position(sushi, 3, {"hand": hands})
    turn(state, [k("tempura"), k("pudding"), maki(3)])
    assert hand(state, 1) == [k("sashimi"), k("dumpling")]  # seat 0's hand, less its pick
    assert hand(state, 2) == [k("wasabi"), k("chopsticks")]
    assert hand(state, 0) == [maki(1), maki(2)]  # the last seat passes to seat 0
    assert [state.observe(0)["zones"]["picked"][s] for s in range(3)] == [[k("tempura")], [k("pudding")], [maki(3)]]


@settings(max_examples=8, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_in_every_round_whoever_deals_each_hand_goes_to_the_next_seat_clockwise(sushi, players, seed):
    state = sushi.new_game(players, seed)
    while not state.is_over:
        before = [list(state.zones[state.layout.base[sushi.zone_index["hand"]] + s]) for s in range(players)]
        picks = {}
        for _ in range(players):
            seat, move = state.current_player, state.legal_moves()[seed % len(state.legal_moves())]
            picks[seat] = move.card
            state.apply(move)
        if state.is_over or all(len(h) == 1 for h in before):
            continue  # the round ended: the next one is dealt afresh
        for s in range(players):
            after = state.zones[state.layout.base[sushi.zone_index["hand"]] + (s + 1) % players]
            assert sorted(after) == sorted(c for c in before[s] if c != picks[s])
    assert len(state.history) == 3 and {r["dealer"] for r in state.history} == {0, 1, 2 % players}


def test_hands_of_ten_nine_eight_or_seven_cards_by_the_number_of_players(sushi):
    for players, size in [(2, 10), (3, 9), (4, 8), (5, 7)]:
        state = sushi.new_game(players, 1)
        assert [len(hand(state, s)) for s in range(players)] == [size] * players


# ---- wasabi and nigiri --------------------------------------------------------------------------


def test_wasabi_triples_the_next_nigiri_only(sushi):
    hands = [
        [k("wasabi"), k("tempura"), fish("egg"), k("tempura")],
        [k("dumpling"), fish("squid"), k("dumpling"), fish("salmon")],
    ]
    state = position(sushi, 2, {"hand": hands}, {"rounds": 3})
    turn(state, [k("wasabi"), k("dumpling")])
    turn(state, [fish("squid"), k("tempura")])  # onto the wasabi: 9
    turn(state, [fish("egg"), k("dumpling")])  # the wasabi is used: 1
    assert state.observe(1)["zones"]["dipped"][0] == [fish("squid")]
    turn(state, [fish("salmon"), k("tempura")])  # 2
    assert state.history[0]["scores"] == [9 + 1 + 2, 3 + 5]  # seat 1: two dumplings 3, two tempura 5


def test_a_nigiri_before_any_wasabi_is_not_tripled_and_each_wasabi_takes_one_nigiri(sushi):
    hands = [
        [fish("egg"), k("wasabi"), fish("squid"), k("tempura"), k("tempura"), k("tempura")],
        [k("wasabi"), fish("salmon"), fish("egg"), k("dumpling"), k("dumpling"), k("dumpling")],
    ]
    state = position(sushi, 2, {"hand": hands}, {"rounds": 3})
    turn(state, [fish("egg"), k("dumpling")])  # no wasabi yet: 1
    turn(state, [k("wasabi"), k("tempura")])
    turn(state, [k("wasabi"), k("dumpling")])  # two wasabi waiting
    turn(state, [fish("salmon"), k("tempura")])  # on the first: 6
    turn(state, [fish("squid"), k("dumpling")])  # on the second: 9
    assert state.observe(0)["zones"]["dipped"][0] == [fish("salmon"), fish("squid")]
    turn(state, [fish("egg"), k("tempura")])  # both wasabi used: 1
    assert state.history[0]["scores"] == [1 + 6 + 9 + 1, 5 + 6]


# ---- sets, dumplings and maki -------------------------------------------------------------------


@pytest.mark.parametrize(("dumplings", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 15)])
def test_dumplings_score_by_the_table(sushi, dumplings, points):
    state = table(sushi, [[k("dumpling")] * dumplings, []])
    assert score_round(state) == [points, 0]


def test_each_pair_of_tempura_scores_5_and_each_three_sashimi_10(sushi):
    state = table(sushi, [[k("tempura")] * 3 + [k("sashimi")] * 5, [k("tempura"), k("sashimi")] * 2])
    assert score_round(state) == [5 + 10, 5]


@pytest.mark.parametrize(
    ("rolls", "points"),
    [
        ([[3, 2], [3], [2, 1], []], [6, 1, 1, 0]),  # second place tied: 3 split, rounded down
        ([[2, 2], [3, 1], [2], [1]], [3, 3, 0, 0]),  # first place tied: 6 split, no second place
        ([[3, 1], [2, 2], [1, 3], [1]], [2, 2, 2, 0]),  # three tied for first: 2 each
        ([[3], [], [], []], [6, 0, 0, 0]),  # nobody else has a roll: no second place
        ([[], [], [], []], [0, 0, 0, 0]),  # no rolls at all: nobody scores
    ],
)
def test_most_maki_rolls_score_6_second_most_3_ties_split(sushi, rolls, points):
    state = table(sushi, [[maki(r) for r in seat] for seat in rolls])
    assert score_round(state) == points


# ---- puddings -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("puddings", "points"),
    [
        ([3, 1, 1], [6, -3, -3]),  # fewest tied: -6 split
        ([2, 2, 0, 1], [3, 3, -6, 0]),  # most tied: 6 split
        ([1, 1, 1], [0, 0, 0]),  # all alike: 6 and -6 split alike
        ([2, 0], [6, 0]),  # with 2 players nobody loses for puddings
        ([4, 4], [3, 3]),
    ],
)
def test_puddings_at_the_end_of_the_game_most_gain_6_fewest_lose_6(sushi, puddings, points):
    state = table(sushi, [[] for _ in puddings], rounds=1, puddings=puddings)
    assert score_round(state) == points


def test_puddings_score_nothing_before_the_last_round_and_are_kept_from_round_to_round(sushi):
    state = table(sushi, [[k("pudding")], []], rounds=3, puddings=[1, 0])
    assert score_round(state) == [0, 0]
    for seed in range(3):
        state = sushi.new_game(3, seed)
        while not state.is_over:
            state.apply(state.legal_moves()[0])
        rec = record(state)
        picks = [0, 0, 0]
        for rnd in rec["rounds"]:
            for m in rnd["moves"]:
                picks[m["player"]] += m["card"]["type"] == "pudding"
        counters = state.vars[[v["name"] for v in sushi.ir["vars"]].index("puddings")]
        assert counters == picks  # every pudding of the three rounds counted
        replay(sushi, rec)
