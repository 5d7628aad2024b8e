"""verify's deals by place: an order of the decks that deals what an earlier order did is not dealt
again (chance.outcomes_by_place). Exact or useless: every figure, failure and counterexample must
be the one dealing every order gives."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import EXAMPLES, TINY_RULES
from interpreter.engine.game import compile_ir
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.verify.chance import Scripted, card_classes, placed
from interpreter.verify.encode import Encoder
from interpreter.verify.jobs import verify
from interpreter.verify.order import dealt_by_place
from interpreter.verify.report import to_json
from interpreter.verify.shrink import shrink

explore_module = __import__("interpreter.verify.explore", fromlist=["_deal_places"])
RULESETS = EXAMPLES.parent / "rulesets"
RARE = EXAMPLES / "broken" / "rare"

# (rules, players, --set, --only, --copies, --schedule): games whose deal places cards by place
KEDRIC = (
    RULESETS / "poison-kedric-winks.rules",
    2,
    {"hands": "1"},
    ["drink.suit=brandy,wine", "drink.rank=1", "bottle.suit=brandy,wine", "poison.rank=1"],
    ["agenda=2"],
    ["size=2"],
)
GAMES = [
    (RARE / "seven-reds.rules", 2, None, [], [], []),
    (RARE / "red-opening.rules", 2, None, [], [], []),
    (EXAMPLES / "broken" / "endless.rules", 2, None, [], [], []),
    (
        RULESETS / "poison.rules",
        3,
        {"rounds": "1", "limit": "3"},
        ["potion.color=red,blue", "potion.value=1"],
        ["potion=1", "poison=2"],
        [],
    ),
    KEDRIC,
]


def _game(path, only, copies, schedules):
    return compile_ir(shrink(ir_from_path(str(path)), only, copies, schedules), coverage=True)


def _report(path, players, sets, only, copies, schedules, jobs=1):
    result, examples = verify(_game(path, only, copies, schedules), players, sets, jobs=jobs)
    return {**to_json(result, examples), "seconds": 0}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0].stem)
def test_orders_that_deal_alike_are_dealt_once_and_the_report_is_the_same(game, monkeypatch):
    path, players, sets, only, copies, schedules = game
    compiled = _game(path, only, copies, schedules)
    classes = card_classes(compiled)
    step = explore_module._dealing(compiled, players, compiled.param_values(players, sets))
    assert explore_module._deal_places(compiled, players, step, classes, 10**6) is not None  # dealt by place
    by_place = _report(*game)
    monkeypatch.setattr(explore_module, "_deal_places", lambda *args: None)  # every order dealt
    every_order = _report(*game)
    assert by_place == every_order


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0].stem)
def test_the_keys_and_moves_shortcuts_leave_the_report_as_it_was(game, monkeypatch):
    """The key's values and held moves written at once, and a move of a card alike to one just
    played not played again (encode.py): the whole report is the one without them."""
    fast = _report(*game)
    monkeypatch.setattr(Encoder, "_small_tail", lambda self, flat, start, s: -1)
    monkeypatch.setattr(Encoder, "_held_moves", lambda self, flat, s: False)
    monkeypatch.setattr(Encoder, "move_class", lambda self, s, move: None)
    assert _report(*game) == fast


def test_jobs_deal_by_place_too_and_report_what_one_process_does():
    one = _report(*KEDRIC)
    assert _report(*KEDRIC, jobs=2) == one
    # 5! orders of the drinks and 6 of the agendas; the hands kept in order, the offers not: 120 x 3 deals
    assert (one["orders"], one["deals"]) == (720, 360)


def _kedric_deal():
    path, players, sets, only, copies, schedules = KEDRIC
    game = _game(path, only, copies, schedules)
    classes = card_classes(game)
    step = explore_module._dealing(game, players, game.param_values(players, sets))
    shuffles, places, sorted_at = explore_module._deal_places(game, players, step, classes, 10**6)
    return Encoder(game, classes, players), classes, step, shuffles, places, sorted_at


KEDRIC_DEAL = _kedric_deal()


@given(st.data())
def test_orders_placed_alike_deal_states_with_one_key(data):
    # two orders of the decks that put the same kinds of card in each zone (in any order in a zone
    # keyed as a sorted hand) deal one state: what lets verify deal the first only
    encoder, classes, step, shuffles, places, sorted_at = KEDRIC_DEAL
    first = tuple(tuple(data.draw(st.permutations(cards))) for cards, _ in shuffles)
    flat = [c for order in first for c in order]
    other = list(flat)
    for at, free in zip(places, sorted_at, strict=True):
        if free:  # the cards of a zone keyed sorted, in another order
            moved = data.draw(st.permutations([flat[j] for j in at]))
            for j, c in zip(at, moved, strict=True):
                other[j] = c
    sizes = [len(order) for order in first]
    second = tuple(tuple(other[sum(sizes[:k]) : sum(sizes[: k + 1])]) for k in range(len(sizes)))
    kinds = bytes(classes)
    assert placed(first, places, kinds, sorted_at) == placed(second, places, kinds, sorted_at)
    assert encoder.key(step(Scripted(first, classes))) == encoder.key(step(Scripted(second, classes)))


def test_a_deal_whose_amount_reads_the_cards_or_a_variable_is_dealt_order_by_order():
    ir = ir_from_text(TINY_RULES)
    assert dealt_by_place(ir)
    deal = ir["round"]["deals"][0]
    deal["amount"] = {"op": "count", "of": {"op": "zone", "name": "hand", "of": None}}
    assert not dealt_by_place(ir)
    deal["amount"] = {"op": "var", "name": "x", "of": None}
    assert not dealt_by_place(ir)
