"""Hearts (examples/classics/hearts.rules) in the situations its rulebook describes: three cards
passed left, right, across, then none; the holder of the two of clubs leads it; no heart nor the
queen of spades on the first trick unless the hand holds nothing else; hearts led only once broken
(or from a hand of nothing but hearts), the queen of spades led at any time; a heart a point, the
queen thirteen, and shooting the moon; the game ends at 100, the lowest total wins. Also: the rules
format as written, and a game recorded replays to the same totals."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import ROOT, position, random_game
from interpreter.engine.records import record, replay
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "hearts.rules"
# Every seat's three cards to pass in the first hand (to the left): diamonds, so that after the
# pass seat s holds its own cards and the three diamonds of seat s - 1.
FILLERS = [[("diamonds", r) for r in range(2 + 3 * s, 5 + 3 * s)] for s in range(4)]


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def passed(game, hands, won=None):
    """The first hand (seat 0 deals), each seat holding ``hands[s]`` and its three fillers, the
    fillers passed to the left: the tricks are about to start."""
    zones = {"hand": [[c(*x) for x in hands[s] + FILLERS[s]] for s in range(4)]}
    if won:
        zones["won"] = [[c(*x) for x in w] for w in won]
    state = position(game, 4, zones)
    for _ in range(4):
        seat = state.current_player
        want = sorted(FILLERS[seat])
        move = next(
            m
            for m in state.legal_moves()
            if sorted((x["suit"], x["rank"]) for x in state.describe(m).get("cards", [])) == want
        )
        state.apply(move)
    return state


def legal(state) -> list[tuple[str, int]]:
    return sorted((d["card"]["suit"], d["card"]["rank"]) for d in map(state.describe, state.legal_moves()))


def play(state, card: tuple[str, int]) -> None:
    state.apply(next(m for m in state.legal_moves() if state.describe(m).get("card") == c(*card)))


def hand(state, seat: int) -> list[tuple[str, int]]:
    inst = state.layout.base[state.game.zone_index["hand"]] + seat
    return sorted((state.game.cards.json[i]["suit"], state.game.cards.json[i]["rank"]) for i in state.zone_cards(inst))


def test_the_passed_cards_reach_the_player_on_the_left_in_the_first_hand(game):
    state = passed(game, [[("clubs", 2)], [("clubs", 3)], [("clubs", 4)], [("clubs", 5)]])
    assert hand(state, 1) == sorted([("clubs", 3)] + FILLERS[0])
    assert hand(state, 0) == sorted([("clubs", 2)] + FILLERS[3])


def test_passing_goes_left_right_across_then_not_at_all_and_repeats(game):
    # Each card passed is later played by the seat it went to: 1, 3 (the right), 2 (across) seats
    # left of its passer, by hand; the fourth and eighth hands pass nothing.
    rng = random.Random(5)
    state = game.new_game(4, 5)
    while not state.is_over and len(state.history) < 9:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    rounds = record(state)["rounds"][:8]
    assert len(rounds) == 8
    for number, rnd in enumerate(rounds):
        by = [1, 3, 2, 0][number % 4]
        played_by = {(m["card"]["suit"], m["card"]["rank"]): m["player"] for m in rnd["moves"] if m["move"] == "play"}
        passes = [m for m in rnd["moves"] if m["move"] == "pass_on"]
        assert len(passes) == (4 if by else 0)
        for m in passes:
            for x in m["cards"]:
                assert played_by[(x["suit"], x["rank"])] == (m["player"] + by) % 4


def test_the_holder_of_the_two_of_clubs_leads_it(game):
    state = passed(game, [[("clubs", 9)], [("clubs", 3)], [("clubs", 2)], [("clubs", 5)]])
    assert state.current_player == 2
    assert legal(state) == [("clubs", 2)]


def test_no_point_card_on_the_first_trick_from_a_player_without_clubs(game):
    hands = [
        [("clubs", 2)],
        [("hearts", 9), ("spades", 12)],
        [("clubs", 4), ("hearts", 3)],
        [("clubs", 5), ("spades", 3)],
    ]
    state = passed(game, hands)
    play(state, ("clubs", 2))
    # seat 1 has no club: any card but a heart and the queen of spades (its diamonds from seat 0)
    assert legal(state) == FILLERS[0]


def test_a_hand_of_nothing_but_points_may_play_one_on_the_first_trick(game):
    # Seat 0 passes three hearts to seat 1, which passes its spades on: seat 1 then holds only
    # hearts and the queen of spades, and no club.
    deal = [
        [("clubs", 2), ("clubs", 6), ("hearts", 2), ("hearts", 3), ("hearts", 4)],
        [("hearts", 9), ("spades", 12), ("spades", 2), ("spades", 3), ("spades", 4)],
        [("clubs", 9), ("clubs", 10), ("clubs", 11), ("spades", 5), ("spades", 6)],
        [("clubs", 12), ("clubs", 13), ("clubs", 14), ("spades", 8), ("spades", 9)],
    ]
    give = [deal[0][2:], deal[1][2:], deal[2][:3], [("clubs", 12), ("spades", 8), ("spades", 9)]]
    state = position(game, 4, {"hand": [[c(*x) for x in h] for h in deal]})
    for _ in range(4):
        want = sorted(give[state.current_player])
        state.apply(
            next(
                m
                for m in state.legal_moves()
                if sorted((x["suit"], x["rank"]) for x in state.describe(m).get("cards", [])) == want
            )
        )
    assert hand(state, 1) == [("hearts", 2), ("hearts", 3), ("hearts", 4), ("hearts", 9), ("spades", 12)]
    play(state, ("clubs", 2))
    assert legal(state) == hand(state, 1)
    play(state, ("spades", 12))
    # seat 2 has no club either, and no point card: any of its spades
    assert legal(state) == [("spades", 2), ("spades", 3), ("spades", 4), ("spades", 5), ("spades", 6)]


def test_hearts_are_not_led_until_broken_but_the_queen_of_spades_may_be(game):
    hands = [
        [("clubs", 2), ("hearts", 5), ("spades", 12)],
        [("clubs", 3), ("spades", 4)],
        [("clubs", 14), ("spades", 5)],
        [("clubs", 5), ("spades", 6)],
    ]
    state = passed(game, hands)
    for card in [("clubs", 2), ("clubs", 3), ("clubs", 14), ("clubs", 5)]:
        play(state, card)
    # seat 2 took the first trick and leads; its hand: spades 5 and seat 1's diamonds
    assert state.current_player == 2
    play(state, ("spades", 5))
    play(state, ("spades", 6))
    # seat 0 follows spades with the queen
    assert legal(state) == [("spades", 12)]
    play(state, ("spades", 12))
    play(state, ("spades", 4))
    # the queen broke hearts (Yahoo's rule: a heart or the queen of spades played)
    assert state.current_player == 0
    assert ("hearts", 5) in legal(state)


def test_the_leader_cannot_lead_a_heart_while_hearts_are_unbroken(game):
    hands = [[("clubs", 2), ("hearts", 5)], [("clubs", 3)], [("clubs", 4)], [("clubs", 14)]]
    state = passed(game, hands)
    for card in [("clubs", 2), ("clubs", 3), ("clubs", 4), ("clubs", 14)]:
        play(state, card)
    play(state, ("diamonds", 8))  # seat 3 leads a diamond (from seat 2)
    play(state, ("diamonds", 11))  # seat 0
    play(state, ("diamonds", 2))
    play(state, ("diamonds", 5))
    assert state.current_player == 0
    assert legal(state) == [("diamonds", 12), ("diamonds", 13)]


def test_a_leader_with_only_hearts_may_lead_one(game):
    hands = [[("clubs", 2), ("hearts", 5)], [("clubs", 3)], [("clubs", 4)], [("clubs", 14)]]
    state = passed(game, hands)
    for card in [("clubs", 2), ("clubs", 3), ("clubs", 4), ("clubs", 14)]:
        play(state, card)
    # seat 3 leads; seat 0 wins three diamond tricks with its king, queen and jack
    for trick in [
        [("diamonds", 8), ("diamonds", 13), ("diamonds", 2), ("diamonds", 5)],
        [("diamonds", 12), ("diamonds", 3), ("diamonds", 6), ("diamonds", 9)],
        [("diamonds", 11), ("diamonds", 4), ("diamonds", 7), ("diamonds", 10)],
    ]:
        for card in trick:
            play(state, card)
    assert state.current_player == 0
    assert hand(state, 0) == [("hearts", 5)]
    assert legal(state) == [("hearts", 5)]


def score_of(state):
    while "scores" not in state.history[0]:
        state.apply(state.legal_moves()[0])
    return state.history[0]["scores"]


def test_a_heart_is_a_point_and_the_queen_of_spades_thirteen(game):
    won = [[], [("hearts", 2), ("hearts", 3), ("clubs", 9)], [("spades", 12), ("hearts", 4)], []]
    state = passed(game, [[("clubs", 2)], [("clubs", 3)], [("clubs", 4)], [("clubs", 5)]], won)
    assert score_of(state) == [0, 2, 14, 0]


def test_taking_every_point_card_shoots_the_moon(game):
    won = [[], [("hearts", r) for r in range(2, 15)] + [("spades", 12)], [], []]
    state = passed(game, [[("clubs", 2)], [("clubs", 3)], [("clubs", 4)], [("clubs", 5)]], won)
    assert score_of(state) == [26, 0, 26, 26]


def test_the_game_ends_at_a_hundred_and_the_lowest_total_wins(game):
    state = random_game(game, 4, 2)
    totals = state.scores()
    rounds = [r["scores"] for r in record(state)["rounds"]]
    assert max(totals) >= 100
    assert all(max(map(sum, zip(*rounds[:k], strict=True))) < 100 for k in range(1, len(rounds)))
    assert state.winners() == [s for s in range(4) if totals[s] == min(totals)]
    assert all(sum(r) in (26, 78) for r in rounds)


def test_the_rules_format_as_written(game):
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text


def test_a_recorded_game_replays_to_its_totals(game):
    state = random_game(game, 4, 3)
    again = replay(game, record(state))
    assert again.scores() == state.scores()
