"""Cheat (examples/classics/cheat.rules) in the situations its rulebook ("I Doubt It") describes:
one to four cards laid face down as the rank due, aces, twos and on to kings and round again; a
doubted liar takes the pile, a doubted truth-teller's doubter takes it, and whoever takes it plays
the next rank; when several would doubt, the nearest to the player's left is heard; the first to
lay all their cards and not be caught wins. Also: the cards laid are hidden until doubted, the
rules format as written, and a game recorded replays to the same result."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position, random_game
from interpreter.engine.records import record, replay
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "cheat.rules"


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def start(game, hands):
    """Three players (seat 0 deals: seat 1 lays first), each holding ``hands[s]``."""
    return position(game, 3, {"hand": [[c(*x) for x in h] for h in hands]})


def lay(state, *cards: tuple[str, int]) -> None:
    want = sorted(cards)
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == "lay" and sorted((x["suit"], x["rank"]) for x in d["cards"]) == want:
            return state.apply(m)
    raise AssertionError(f"no lay of {cards}")


def answer(state, word: str) -> None:
    state.apply(next(m for m in state.legal_moves() if state.describe(m).get("value") == word))


def hand(state, seat: int) -> list[tuple[str, int]]:
    inst = state.layout.base[state.game.zone_index["hand"]] + seat
    return sorted((state.game.cards.json[i]["suit"], state.game.cards.json[i]["rank"]) for i in state.zone_cards(inst))


def claim(state) -> int:
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index("claim")]


HANDS = [
    [("clubs", 9), ("spades", 9)],
    [("clubs", 1), ("hearts", 1), ("clubs", 5)],
    [("hearts", 2), ("clubs", 7), ("spades", 2)],
]


def test_the_ranks_claimed_go_from_aces_up_and_every_other_player_may_doubt_in_turn(game):
    state = start(game, HANDS)
    assert state.current_player == 1 and claim(state) == 1  # the dealer's left plays aces
    lay(state, ("clubs", 1), ("hearts", 1))
    assert state.current_player == 2  # asked first: the player's left
    answer(state, "believe")
    assert state.current_player == 0
    answer(state, "believe")
    assert state.current_player == 2 and claim(state) == 2  # twos, by the next player
    assert hand(state, 1) == [("clubs", 5)]


def test_after_kings_come_aces_again(game):
    suits = ("clubs", "hearts", "spades")
    state = start(game, [[(suits[s], r) for r in range(1, 7)] for s in range(3)])
    seen = []
    for _ in range(14):
        seen.append(claim(state))
        lay(state, min(hand(state, state.current_player)))
        answer(state, "believe")
        answer(state, "believe")
    assert seen == [*range(1, 14), 1]


def test_a_liar_doubted_takes_the_whole_pile_and_plays_the_next_rank(game):
    state = start(game, HANDS)
    lay(state, ("clubs", 1), ("hearts", 1))  # true: two aces
    answer(state, "believe")
    answer(state, "believe")
    lay(state, ("clubs", 7))  # seat 2 claims a two: a lie
    answer(state, "believe")  # seat 0
    answer(state, "doubt")  # seat 1
    assert hand(state, 2) == [("clubs", 1), ("clubs", 7), ("hearts", 1), ("hearts", 2), ("spades", 2)]
    assert state.current_player == 2 and claim(state) == 3


def test_a_truth_doubted_gives_the_pile_to_the_doubter_who_plays_the_next_rank(game):
    state = start(game, HANDS)
    lay(state, ("clubs", 1), ("hearts", 1))
    answer(state, "believe")  # seat 2
    answer(state, "doubt")  # seat 0: wrong
    assert hand(state, 0) == [("clubs", 1), ("clubs", 9), ("hearts", 1), ("spades", 9)]
    assert state.current_player == 0 and claim(state) == 2


def test_the_first_doubter_from_the_players_left_is_heard_and_nobody_after(game):
    state = start(game, HANDS)
    lay(state, ("clubs", 5))  # a five claimed as an ace
    answer(state, "doubt")  # seat 2, the player's left, doubts first
    assert state.current_player == 1  # the liar plays next: seat 0 is not asked
    assert hand(state, 1) == [("clubs", 1), ("clubs", 5), ("hearts", 1)]
    assert hand(state, 0) == [("clubs", 9), ("spades", 9)]


def test_the_cards_laid_are_hidden_until_doubted(game):
    state = start(game, HANDS)
    lay(state, ("clubs", 5))
    pile = state.observe(2)["zones"]["pile"]
    assert pile == [{"count": 1}]


def test_a_card_revealed_then_laid_again_face_down_is_hidden_again(game):
    """A doubt reveals the cards laid; the liar takes them back and lays one again, face down:
    nobody else sees it in the pile (what a reveal showed is known only while the card stays)."""
    state = start(game, HANDS)
    lay(state, ("clubs", 5))  # seat 1 claims an ace: a lie
    answer(state, "doubt")  # seat 2 doubts: the five is revealed and goes back to seat 1
    assert ("clubs", 5) in hand(state, 1)
    lay(state, ("clubs", 5))  # a two claimed, the same five laid face down again
    for seat in (0, 2):
        seen = state.observe(seat)
        assert seen["zones"]["pile"] == [{"count": 1}]
        assert seen["shown"] == []


def test_laying_the_last_cards_wins_unless_caught_lying(game):
    hands = [[("clubs", 9), ("spades", 9)], [("clubs", 5)], [("hearts", 2), ("clubs", 7)]]
    state = start(game, hands)
    lay(state, ("clubs", 5))  # seat 1's last card, claimed as an ace: a lie
    answer(state, "believe")
    answer(state, "doubt")
    assert not state.is_over and hand(state, 1) == [("clubs", 5)]
    state = start(game, hands)
    lay(state, ("clubs", 5))
    answer(state, "believe")
    answer(state, "believe")
    assert state.is_over and state.winners() == [1]


def test_the_rules_format_as_written(game):
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text


def test_a_recorded_game_replays_to_its_result(game):
    state = random_game(game, 4, 4)
    again = replay(game, record(state))
    assert again.scores() == state.scores() and sum(state.scores()) == 1
