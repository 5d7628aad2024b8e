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
from interpreter.errors import RecordError

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
        while not state.is_over and asked(state) == {"chopsticks_use"}:  # (see the chopsticks' tests)
            answer(state, "chopsticks_use", value="take_one")
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
                picks[m["player"]] += "card" in m and m["card"]["type"] == "pudding"  # (a second card too)
        counters = state.vars[[v["name"] for v in sushi.ir["vars"]].index("puddings")]
        assert counters == picks  # every pudding of the three rounds counted
        replay(sushi, rec)


# ---- chopsticks --------------------------------------------------------------------------------


def answer(state, name: str, **said) -> None:
    """The current (asked) seat answers ``name`` with the value or card given."""
    (move,) = [
        m
        for m in state.legal_moves()
        if state.describe(m)["move"] == name and all(state.describe(m).get(key) == v for key, v in said.items())
    ][:1]
    state.apply(move)


def asked(state) -> set[str]:
    return {state.describe(m)["move"] for m in state.legal_moves()}


def test_chopsticks_picked_earlier_take_a_second_card_and_go_back_into_the_hand_passed_on(sushi):
    hands = [
        [k("dumpling"), k("dumpling"), k("pudding"), k("wasabi")],
        [k("chopsticks"), k("tempura"), k("tempura"), k("sashimi")],
    ]
    state = position(sushi, 2, {"hand": hands})
    turn(state, [k("dumpling"), k("chopsticks")])  # chopsticks just picked: no second card this turn
    assert asked(state) == {"pick"}
    # seat 1 now holds seat 0's hand: [dumpling, pudding, wasabi]; seat 1's picks take effect first
    turn(state, [k("tempura"), k("dumpling")])
    assert state.current_player == 1 and asked(state) == {"chopsticks_use"}  # after the reveal
    assert state.observe(1)["zones"]["picked"][0] == [k("dumpling")]  # seat 0's pick waits, unseen
    answer(state, "chopsticks_use", value="take_two")
    assert state.current_player == 1 and {state.describe(m)["card"]["type"] for m in state.legal_moves()} == {
        "pudding",
        "wasabi",
    }
    answer(state, "second", card=k("wasabi"))
    picked = state.observe(0)["zones"]["picked"]
    assert picked[1] == [k("dumpling"), k("wasabi")]  # the chopsticks went back into the hand
    assert picked[0] == [k("dumpling"), k("tempura")]  # then seat 0's pick took effect
    # the hands passed: seat 0 holds seat 1's hand, with the chopsticks in it
    assert sorted(c["type"] for c in hand(state, 0)) == ["chopsticks", "pudding"]
    assert sorted(c["type"] for c in hand(state, 1)) == ["sashimi", "tempura"]
    assert state.current_player == 1 and asked(state) == {"pick"}


def test_without_chopsticks_picked_nobody_is_asked_and_declining_keeps_them(sushi):
    hands = [
        [k("chopsticks"), k("tempura"), k("tempura"), k("sashimi")],
        [k("dumpling"), k("dumpling"), k("pudding"), k("wasabi")],
    ]
    state = position(sushi, 2, {"hand": hands})
    turn(state, [k("tempura"), k("dumpling")])
    assert state.current_player == 1 and asked(state) == {"pick"}  # no chopsticks: the next turn at once
    turn(state, [k("dumpling"), k("chopsticks")])
    turn(state, [k("tempura"), k("wasabi")])
    assert state.current_player == 1 and asked(state) == {"chopsticks_use"}
    answer(state, "chopsticks_use", value="take_one")
    assert state.observe(0)["zones"]["picked"][1] == [k("dumpling"), k("chopsticks"), k("wasabi")]
    assert [len(hand(state, s)) for s in range(2)] == [1, 1]


def test_a_record_with_chopsticks_replays_and_a_forged_second_card_is_refused(sushi):
    from interpreter.simulation.one_game import play_game

    for seed in range(40):
        state = play_game(sushi, 3, seed, ["random"])
        rec = record(state)
        moves = [m for r in rec["rounds"] for m in r["moves"]]
        if any(m["move"] == "second" for m in moves):
            break
    else:
        pytest.fail("no game of 40 took a second card with chopsticks")
    replay(sushi, rec)
    r_index, m_index = next(
        (i, j) for i, r in enumerate(rec["rounds"]) for j, m in enumerate(r["moves"]) if m["move"] == "second"
    )
    forged = rec["rounds"][r_index]["moves"][m_index]
    forged["card"] = maki(4)  # (no such card: not in the hand)
    with pytest.raises(RecordError, match=f"round {r_index + 1}, move {m_index + 1}: the rules do not allow"):
        replay(sushi, rec)


def test_chopsticks_picked_again_by_the_same_seat_hide_only_the_new_pick(sushi):
    hands = [
        [k("dumpling"), k("dumpling"), k("pudding"), k("wasabi"), k("tempura"), k("sashimi")],
        [k("chopsticks"), k("tempura"), k("tempura"), k("sashimi"), maki(1), maki(2)],
    ]
    state = position(sushi, 2, {"hand": hands})
    turn(state, [k("dumpling"), k("chopsticks")])
    turn(state, [k("tempura"), k("dumpling")])
    answer(state, "chopsticks_use", value="take_two")
    answer(state, "second", card=k("pudding"))  # the chopsticks go back into the hand seat 0 gets
    turn(state, [k("wasabi"), k("tempura")])  # seat 0 passes them on, back to seat 1
    assert state.current_player == 1 and any(m.card >= 0 for m in state.legal_moves())
    answer(state, "pick", card=k("chopsticks"))  # the same card, to the same place, held unseen
    picks = [(m["player"], m["card"]) for m in state.observe(0)["moves"] if m["move"] == "pick"]
    assert picks.count((1, k("chopsticks"))) == 1  # the first pick stays seen; the new one is hidden
    assert len(picks) == 6
