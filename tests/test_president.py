"""President (examples/classics/president.rules) in the situations its rules describe: a set of one
rank that beats the last set (same number of cards, higher rank) or a pass; the pile cleared once
everyone else has passed, its last player leading; the finishing order scored; and next hand the
Scum's two best cards to the President, who gives back two of their choice."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT
from interpreter.engine.records import record, replay
from interpreter.simulation.simulate import simulate
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "president.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def deal_of(hands: list[list[tuple[str, int]]]) -> dict:
    """A deal giving these hands; the other cards lie aside, face down (in the cleared zone)."""
    used = {x for h in hands for x in h}
    rest = [c(s, r) for s in SUITS for r in range(3, 16) if (s, r) not in used]
    return {"hand": [[c(*x) for x in h] for h in hands], "cleared": rest, "pile": [], "returned": [], "deck": []}


def dealt(game, *deals: list[list[tuple[str, int]]]):
    """A game whose hands are dealt as given, hand after hand. Seat 0 deals the first hand: seat 1
    leads it."""
    return game.new_game(len(deals[0]), 0, {"hands": len(deals)}, deals=[deal_of(h) for h in deals])


def lays(state) -> list[list[tuple[str, int]]]:
    """The sets the player to move may lay, as (suit, rank) lists."""
    out = []
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == "lay":
            out.append([(x["suit"], x["rank"]) for x in d["cards"]])
    return out


def play(state, move: str, cards: list[tuple[str, int]] | None = None) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == move and (cards is None or sorted((x["suit"], x["rank"]) for x in d["cards"]) == sorted(cards)):
            state.apply(m)
            return
    raise AssertionError(f"{move} {cards} is not among {[state.describe(m) for m in state.legal_moves()]}")


def zone(state, name: str, seat: int = 0) -> list[tuple[str, int]]:
    inst = state.layout.base[state.game.zone_index[name]] + seat
    return sorted((state.game.cards.json[x]["suit"], state.game.cards.json[x]["rank"]) for x in state.zones[inst])


def var(state, name: str):
    return state.vars[[v[0] for v in state.game.vars].index(name)]


def test_the_leader_lays_any_set_of_one_rank_and_may_not_pass(game):
    hands = [[("clubs", 3)], [("clubs", 7), ("hearts", 7), ("spades", 9)], [("clubs", 4)]]
    state = dealt(game, hands)
    assert state.current_player == 1
    assert lays(state) == [[("clubs", 7)], [("hearts", 7)], [("clubs", 7), ("hearts", 7)], [("spades", 9)]]
    assert all(state.describe(m)["move"] != "pass" for m in state.legal_moves())


def test_a_set_must_beat_the_last_one_with_as_many_cards(game):
    hands = [
        [("clubs", 3)],
        [("clubs", 7), ("hearts", 7), ("spades", 12)],
        [("clubs", 6), ("hearts", 6), ("diamonds", 8), ("clubs", 9), ("hearts", 9), ("spades", 9)],
    ]
    state = dealt(game, hands)
    play(state, "lay", [("clubs", 7), ("hearts", 7)])
    # On a pair of sevens: a higher pair only (not the sixes, not the single 8, not three nines).
    assert lays(state) == [[("clubs", 9), ("hearts", 9)], [("clubs", 9), ("spades", 9)], [("hearts", 9), ("spades", 9)]]
    assert any(state.describe(m)["move"] == "pass" for m in state.legal_moves())


def test_the_pile_clears_when_everyone_else_has_passed_and_the_last_player_leads(game):
    hands = [[("clubs", 3), ("clubs", 4)], [("clubs", 12), ("clubs", 5)], [("clubs", 6), ("hearts", 6)]]
    state = dealt(game, hands)
    play(state, "lay", [("clubs", 12)])
    play(state, "pass")  # seat 2
    assert zone(state, "pile") == [("clubs", 12)]
    play(state, "pass")  # seat 0: everyone else has passed
    assert zone(state, "pile") == []
    assert ("clubs", 12) in zone(state, "cleared")
    assert state.current_player == 1 and var(state, "last_count") == 0
    assert lays(state) == [[("clubs", 5)]]  # leads anew: anything, no pass


def test_going_out_in_order_scores_a_point_for_each_player_out_later(game):
    state = dealt(game, [[("clubs", 3), ("hearts", 3)], [("clubs", 4)], [("clubs", 5)]])
    play(state, "lay", [("clubs", 4)])  # seat 1 is out first: President
    play(state, "lay", [("clubs", 5)])  # seat 2 is out: only seat 0 holds cards, the Scum
    assert state.is_over
    assert state.history[0]["scores"] == [0, 2, 1]
    assert var(state, "president") == 1 and var(state, "scum") == 0


def test_the_scum_gives_the_president_their_two_best_cards_and_gets_two_back(game):
    first = [[("clubs", 3), ("hearts", 3)], [("clubs", 4)], [("clubs", 5)]]
    second = [
        [("spades", 14), ("clubs", 15), ("diamonds", 3), ("hearts", 9)],  # the Scum: an ace and a 2
        [("clubs", 3), ("diamonds", 4)],  # the President
        [("clubs", 8), ("hearts", 10)],
    ]
    state = dealt(game, first, second)
    play(state, "lay", [("clubs", 4)])
    play(state, "lay", [("clubs", 5)])
    assert state.round == 1 and not state.is_over
    assert zone(state, "hand", 1) == [("clubs", 3), ("clubs", 15), ("diamonds", 4), ("spades", 14)]
    assert zone(state, "hand", 0) == [("diamonds", 3), ("hearts", 9)]
    assert state.current_player == 1  # the President chooses two cards to give back: any two
    gifts = [state.describe(m)["cards"] for m in state.legal_moves()]
    assert len(gifts) == 6 and all(len(g) == 2 for g in gifts)
    play(state, "give_back", [("clubs", 3), ("diamonds", 4)])
    assert zone(state, "hand", 0) == [("clubs", 3), ("diamonds", 3), ("diamonds", 4), ("hearts", 9)]
    assert state.game.phases[state.phase].name == "play" and state.current_player == 0  # the Scum leads


def test_president_is_tidy_and_plays_with_every_agent_and_replays(game):
    assert format_text(RULES.read_text(), str(RULES)) == RULES.read_text()
    for agents in (["random"] * 4, ["greedy"] * 4, ["mcts:8"] * 4):
        params = {"hands": 2} if agents[0] != "mcts:8" else {"hands": 1}
        out = simulate(game, 4, 1, seed=3, agents=agents, params=params)
        assert out["games"] == 1
    state = game.new_game(4, 9, {"hands": 2})
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    assert replay(game, record(state)).scores() == state.scores()


def test_with_four_players_the_vice_scum_and_vice_president_trade_one_card(game):
    first = [[("clubs", 3), ("hearts", 3)], [("clubs", 4)], [("clubs", 5)], [("clubs", 6)]]
    second = [
        [("spades", 14), ("clubs", 15), ("diamonds", 3)],  # the Scum
        [("clubs", 3), ("diamonds", 4)],  # the President
        [("clubs", 8), ("hearts", 10)],  # the Vice-President
        [("hearts", 13), ("spades", 5), ("diamonds", 9)],  # the Vice-Scum: a king
    ]
    state = dealt(game, first, second)
    for rank in (4, 5, 6):  # seats 1, 2, 3 go out in turn; seat 0 is left holding cards
        play(state, "lay", [("clubs", rank)])
    assert [var(state, v) for v in ("president", "vice_president", "vice_scum", "scum")] == [1, 2, 3, 0]
    assert zone(state, "hand", 2) == [("clubs", 8), ("hearts", 10), ("hearts", 13)]  # the king went up
    while state.game.phases[state.phase].name == "exchange":
        mover = state.current_player
        if mover == 2:  # the Vice-President gives back one card of their choice
            assert {len(state.describe(m)["cards"]) for m in state.legal_moves()} == {1}
            play(state, "vice_give_back", [("clubs", 8)])
        else:
            play(state, "give_back", [("clubs", 3), ("diamonds", 4)])
    assert ("clubs", 8) in zone(state, "hand", 3) and len(zone(state, "hand", 3)) == 3
