"""A set chosen card by card (card_sets.Listing) offers exactly the sets the rules allow, each one
way only, and the same ones a listing at once offers: a property over small hands with alike
copies, sizes, `of one rank`, and guards that read the set, read no set, or refuse every set
(those last two pick without looking at any set)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
from interpreter.engine import card_sets
from interpreter.engine.card_sets import Pick
from interpreter.errors import PlayError

KINDS = [(color, rank) for color in ("red", "blue") for rank in (1, 2, 3)]  # two copies of each, alike

# each guard: its line in the rules, and what it says of a set (as its cards' kinds)
GUARDS = {
    "none": ("", lambda kinds: True),
    "sum": ("require sum of rank in lay <= 5", lambda kinds: sum(r for _, r in kinds) <= 5),
    "size": ("require count lay = 2", lambda kinds: len(kinds) == 2),
    "color": ("require distinct of color in lay = 1", lambda kinds: len({c for c, _ in kinds}) == 1),
    "holds": ("require count pile = 0", lambda kinds: True),  # reads no set: holds for every one
    "fails": ("require count pile > 0", lambda kinds: False),  # reads no set: refuses every one
}


def rules(low: int, high: int, same: bool, guard: str) -> str:
    of = " of one rank" if same else ""
    return f"""game "Picks"
players 2..2

cards
  card  color red | blue   rank 1..3 x2

zones
  hand  per player, owner sees
  pile  shared, public

round
  deal 1 to hand, one at a time
  phase play
    move lay {low}..{high} cards{of} from hand to pile
      {GUARDS[guard][0]}
    ends when nobody can move
  score
    count pile where player of it = player

game
  rounds 1
  winner highest total
"""


def card(kind: tuple[str, int]) -> dict:
    return {"type": "card", "color": kind[0], "rank": kind[1]}


def kinds_of(state, move) -> tuple:
    """A finished set's cards as their kinds, sorted (a multiset: alike cards are one choice)."""
    return tuple(sorted((x["color"], x["rank"]) for x in state.describe(move)["cards"]))


@contextlib.contextmanager
def picking_above(n: int) -> Iterator[None]:
    """Sets chosen card by card when a listing would offer more than ``n`` moves (0: always)."""
    old = card_sets.PICK_ABOVE
    card_sets.PICK_ABOVE = n
    try:
        yield
    finally:
        card_sets.PICK_ABOVE = old


def finished_sets(state, key: Callable[[Any, Any], Any]) -> list:
    """Every set move reached from ``state``, every pick followed (on a copy), as ``key(state, move)``."""
    found: list = []

    def walk(s):
        for m in s.legal_moves():
            if type(m.target) is Pick:
                nxt = s.copy()
                nxt.apply(m)
                walk(nxt)
            else:
                found.append(key(s, m))

    walk(state)
    return found


def sets_offered(game, hand: list, pick_above: int) -> list:
    """The sets seat 1 (to move first) may play from ``hand``, as kinds, each as often as a way to
    choose it is offered: listed at once, or (``pick_above`` 0) picked card by card, every pick
    followed (none when seat 1 cannot move: passed by, or nobody can)."""
    rest = [card(k) for k in KINDS for _ in range(2)]
    for k in hand:
        rest.remove(card(k))
    deal = {"hand": [[rest.pop()], [card(k) for k in hand]], "deck": rest}
    with picking_above(pick_above):
        try:
            state = game.new_game(2, 0, deals=[deal])
        except PlayError as err:
            assert "nobody can move" in err.message
            return []
        if state.is_over or state.current_player != 1:
            return []
        return sorted(finished_sets(state, kinds_of))


def allowed(hand: list, low: int, high: int, same: bool, guard: str) -> list:
    """The sets the rules allow, by brute force: every choice of cards of the hand, as kinds, once."""
    test = GUARDS[guard][1]
    out = set()
    for k in range(low, min(high, len(hand)) + 1):
        for chosen in combinations(hand, k):
            kinds = tuple(sorted(chosen))
            if (not same or len({r for _, r in kinds}) == 1) and test(kinds):
                out.add(kinds)
    return sorted(out)


_GAMES: dict = {}


def compiled(low: int, high: int, same: bool, guard: str):
    key = (low, high, same, guard)
    if key not in _GAMES:
        _GAMES[key] = interpreter.loads(rules(*key), "picks.rules")
    return _GAMES[key]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(KINDS), min_size=1, max_size=7).filter(lambda h: all(h.count(k) <= 2 for k in h)),
    st.integers(1, 3),
    st.integers(0, 3),
    st.booleans(),
    st.sampled_from(sorted(GUARDS)),
)
def test_picking_card_by_card_offers_exactly_the_sets_the_rules_allow(hand, low, more, same, guard):
    high = low + more
    same = same and high > 1  # (`of one rank` of a single card is refused as saying nothing)
    game = compiled(low, high, same, guard)
    want = allowed(hand, low, high, same, guard)
    picked = sets_offered(game, hand, pick_above=0)
    at_once = sets_offered(game, hand, pick_above=10**9)
    assert picked == want  # every allowed set, once each (a pick never leads nowhere, nor twice to a set)
    assert at_once == want


@pytest.mark.parametrize("guard", ["none", "fails"])
def test_a_set_whose_guards_read_no_set_is_offered_with_every_next_card_that_can_still_make_one(guard):
    """From 1..3 copies-free cards needing at least 2: the last card in the hand's order cannot
    start a set (nothing follows it), every other can; when a guard refuses every set, nothing."""
    hand = [("red", 1), ("blue", 2), ("red", 3), ("blue", 1)]
    game = compiled(2, 3, False, guard)
    rest = [card(k) for k in KINDS for _ in range(2)]
    for k in hand:
        rest.remove(card(k))
    with picking_above(0):
        deal = {"hand": [[rest.pop()], [card(k) for k in hand]], "deck": rest}
        state = game.new_game(2, 0, deals=[deal])
        if guard == "fails":  # no pick offered: nobody could move, and the round ended
            assert state.is_over and state.zones[state.layout.base[game.zone_index["pile"]]] == []
            return
        first = [state.describe(m)["pick"] for m in state.legal_moves()]
        assert [(x["color"], x["rank"]) for x in first] == hand[:3]
        state.apply(state.legal_moves()[2])  # the red 3: one card follows it, enough for a set of 2
        now = state.legal_moves()
        assert [type(m.target) for m in now] == [Pick]  # not yet a set (1 card); the blue 1 after it
