"""Go Fish (examples/classics/go_fish.rules) in the situations its rules describe: asking a player
for a rank you hold, receiving every card of it and asking again, going fish (and asking again when
the pond gives the rank asked), books of four laid down, and the game that ends when all thirteen
books are made."""

from __future__ import annotations

import random

import pytest

import interpreter
from conftest import ROOT
from interpreter.engine.records import record, replay
from interpreter.simulation.simulate import simulate
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "go_fish.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def dealt(
    game, hands: list[list[tuple[str, int]]], stock_top: list[tuple[str, int]], booked: bool = False, narrate=False
):
    """A game whose deal gives these hands and puts these cards on top of the pond (the rest
    below, in suit and rank order; or, ``booked``, in seat 0's books and the pond empty). Seat 0
    deals: seat 1 asks first. ``narrate``: the state tells what the rules do (seat_log.py)."""
    used = {x for h in hands for x in h} | set(stock_top)
    rest = [(s, r) for s in SUITS for r in range(1, 14) if (s, r) not in used]
    deal = {
        "hand": [[c(*x) for x in h] for h in hands],
        "stock": [c(*x) for x in [*stock_top, *([] if booked else rest)]],
        "books": [[c(*x) for x in rest] if booked and p == 0 else [] for p in range(len(hands))],
        "lacks": [[] for _ in hands],
        "deck": [],
        "markers": [{"type": "marker", "rank": r} for r in range(1, 14) for _ in range(5)],
    }
    state = game.new_game(len(hands), 0, deals=[deal], narrate=narrate)
    state.deals_given = None
    return state


def ranks(state, seat: int) -> list[int]:
    inst = state.layout.base[state.game.zone_index["hand"]] + seat
    return sorted(state.game.cards.json[x]["rank"] for x in state.zones[inst])


def choose(state, move: str, value) -> None:
    found = [m for m in state.legal_moves() if state.describe(m)["move"] == move and m.target == value]
    assert found, f"{move} {value!r} is not among {[state.describe(m) for m in state.legal_moves()]}"
    state.apply(found[0])


def test_a_player_asks_only_for_ranks_they_hold(game):
    state = dealt(game, [[("clubs", 2)], [("clubs", 5), ("hearts", 9)]], [])
    assert state.current_player == 1
    assert sorted(m.target for m in state.legal_moves()) == [5, 9]


def test_the_asked_player_hands_over_every_card_of_the_rank_and_the_asker_asks_again(game):
    hands = [[("clubs", 5), ("hearts", 5), ("clubs", 2)], [("spades", 5), ("clubs", 9)]]
    state = dealt(game, hands, [])
    choose(state, "fish_for", 5)
    choose(state, "asked", 0)
    assert ranks(state, 1) == [5, 5, 5, 9] and ranks(state, 0) == [2]
    assert state.current_player == 1


def test_go_fish_draws_from_the_pond_and_the_rank_asked_lets_the_asker_go_again(game):
    hands = [[("clubs", 2)], [("spades", 5), ("clubs", 9)]]
    state = dealt(game, hands, [("hearts", 5), ("hearts", 7)])
    choose(state, "fish_for", 5)
    choose(state, "asked", 0)  # no 5 there: go fish, and the pond gives a 5
    assert ranks(state, 1) == [5, 5, 9] and state.current_player == 1
    choose(state, "fish_for", 9)
    choose(state, "asked", 0)  # go fish again: a 7, and the turn passes on
    assert ranks(state, 1) == [5, 5, 7, 9] and state.current_player == 0


def test_every_seat_is_told_the_rank_handed_over_and_only_those_who_saw_them_the_suits(game):
    """Everybody heard the ask, so everybody knows the cards handed over are of the rank asked: the
    seat left out reads how many and their rank; the suits stay with the two seats that held them."""
    from interpreter.engine.seat_log import round_log
    from interpreter.text.event_words import entry_text

    hands = [[("clubs", 5), ("hearts", 5), ("clubs", 2)], [("spades", 5), ("clubs", 9)], [("diamonds", 9)]]
    state = dealt(game, hands, [], narrate=True)
    choose(state, "fish_for", 5)
    choose(state, "asked", 0)

    def told(seat: int) -> tuple[list, list[str]]:
        entries = [e["event"] for e in round_log(state, seat, 0) if "event" in e and "moved" in e["event"]]
        return entries, [entry_text(game, {"event": e}, seat, 3) for e in entries]

    events, lines = told(2)
    assert lines == ["moved 2 cards of rank 5 from hand of seat 0 to hand of seat 1"]
    assert events[0]["moved"] == [{"card": None, "zone": "hand", "index": 0}] * 2  # no suit, no card
    assert not any(s in line for line in lines for s in SUITS)
    assert told(0)[1] == ["moved clubs 5, hearts 5 from your hand to hand of seat 1"]
    assert told(1)[1] == ["moved clubs 5, hearts 5 from hand of seat 0 to your hand"]


def test_four_of_a_rank_are_laid_down_as_a_book(game):
    hands = [[("clubs", 5), ("hearts", 5), ("clubs", 2)], [("spades", 5), ("diamonds", 5), ("clubs", 9)]]
    state = dealt(game, hands, [])
    choose(state, "fish_for", 5)
    choose(state, "asked", 0)
    assert ranks(state, 1) == [9]
    books = state.zones[state.layout.base[state.game.zone_index["books"]] + 1]
    assert [sorted(state.game.cards.json[x]["suit"] for x in pile) for pile in books] == [list(SUITS)]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_ends_when_all_thirteen_books_are_made(game, players):
    state = game.new_game(players, 11)
    rng = random.Random(11)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    assert sum(state.totals) == 13
    assert replay(game, record(state)).totals == state.totals


def test_go_fish_plays_with_every_agent(game):
    for agents in (["mcts:20", "random"], ["greedy", "random"]):
        assert simulate(game, players=2, games=2, agents=agents, seed=1)["games"] == 2


def test_the_file_is_in_canonical_form():
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text


def test_with_the_pond_empty_a_player_who_said_go_fish_to_a_rank_is_not_asked_for_it_again(game):
    """The loop `ruleset verify` found, in the full game: with the pond empty, seat 1 asks seat 0
    (who has no 1s) for 1s, seat 2 asks seat 0 for 1s, seat 0 asks seat 1 for 2s, and the table is
    back where it was, for ever. Nobody can come to hold a rank they lack once the pond is empty:
    a "go fish" is remembered (a marker before the player), and the rank is asked of the others."""
    hands = [[("hearts", 2), ("spades", 2)], [("clubs", 1), ("diamonds", 1)], [("hearts", 1), ("spades", 1)]]
    hands[2] += [("clubs", 2), ("diamonds", 2)]
    state = dealt(game, hands, [], booked=True)
    choose(state, "fish_for", 1)
    choose(state, "asked", 0)  # go fish, with nothing to fish: the turn passes
    assert state.current_player == 2 and ranks(state, 0) == [2, 2]
    lacks = state.layout.base[game.zone_index["lacks"]]
    assert [game.cards.json[x] for x in state.zones[lacks]] == [{"type": "marker", "rank": 1}]
    choose(state, "fish_for", 1)
    assert [m.target for m in state.legal_moves()] == [1]  # seat 0 said "go fish" to 1s: not asked again
    choose(state, "asked", 1)
    assert ranks(state, 2) == [2, 2] and ranks(state, 1) == []
    assert state.current_player == 2  # the 1s booked, seat 2 asks again


def test_a_book_dealt_whole_is_laid_down_at_once(game):
    """A player dealt four 1s, who never asked for them, could end holding every card left with
    nobody to ask, asking for ever: a dealt book is laid down before the first turn."""
    hands = [[("clubs", 2)], [(s, 1) for s in SUITS] + [("hearts", 2)]]
    state = dealt(game, hands, [])
    books = state.layout.base[game.zone_index["books"]] + 1
    assert ranks(state, 1) == [2] and len(state.zones[books]) == 1  # one pile: the four 1s
    assert [m.target for m in state.legal_moves()] == [2]
