"""Six-card Golf (examples/classics/golf.rules) in the situations its rulebook describes: two cards
of each layout turned up before play; a card drawn from the stock may replace a layout card or be
thrown away, a card taken from the discards must replace one; the card replaced, face down or up,
goes face up to the discards; play ends as soon as one layout is all face up; aces 1, jacks and
queens 10, kings 0, an equal pair in a column 0. Also: the rules format as written, and a game
recorded replays to the same totals."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position, random_game
from interpreter.engine.records import record, replay
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "golf.rules"
SUITS = ("clubs", "diamonds", "hearts", "spades")
PLACES = ("top1", "top2", "top3", "bottom1", "bottom2", "bottom3")


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def start(game, layouts, up=(), discard=("spades", 6), stock=None):
    """Two players, one hole; ``layouts[s]`` the six cards of seat s by place (PLACES), those of
    the places in ``up`` face up already; the discard pile's card; the stock (or the rest)."""
    zones = {}
    for k, place in enumerate(PLACES):
        face = [[c(*layouts[s][k])] for s in range(2)]
        zones[place + "_up" if place in up else place] = face
    zones["discard"] = [c(*discard)]
    used = {x for layout in layouts for x in layout} | {discard}
    rest = [(s, r) for s in SUITS for r in range(1, 14) if (s, r) not in used]
    zones["stock"] = [c(*x) for x in (rest if stock is None else stock)]
    return position(game, 2, zones, {"holes": 1})


def moves(state) -> list[tuple]:
    out = []
    for d in map(state.describe, state.legal_moves()):
        out.append((d["move"], d.get("from", {}).get("zone")))
    return out


def do(state, name: str, pile: str | None = None) -> None:
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == name and (pile is None or d.get("from", {}).get("zone") == pile):
            return state.apply(m)
    raise AssertionError(f"no move {name} {pile} among {moves(state)}")


def cards(state, zone: str, seat: int | None = None) -> list[tuple[str, int]]:
    inst = state.layout.base[state.game.zone_index[zone]] + (seat or 0)
    return [(state.game.cards.json[i]["suit"], state.game.cards.json[i]["rank"]) for i in state.zone_cards(inst)]


LAYOUT = [
    [("clubs", 8), ("clubs", 5), ("clubs", 7), ("hearts", 8), ("hearts", 3), ("hearts", 9)],
    [("diamonds", 1), ("diamonds", 2), ("diamonds", 3), ("diamonds", 4), ("diamonds", 5), ("diamonds", 11)],
]


def test_each_player_turns_two_cards_up_before_play(game):
    state = start(game, LAYOUT)
    seen = 0
    while moves(state)[0][0].startswith("flip"):
        do(state, moves(state)[0][0])
        seen += 1
    assert seen == 4  # two flips each, then the play
    for seat in range(2):
        assert sum(len(cards(state, p + "_up", seat)) for p in PLACES) == 2
    assert moves(state) == [("draw", "stock"), ("draw", "discard")]


def test_a_card_taken_from_the_discards_must_replace_a_layout_card(game):
    state = start(game, LAYOUT, up=("top1", "top2"))
    assert state.current_player == 1
    do(state, "draw", "discard")
    assert state.current_player == 1  # the same player uses it
    assert "drop" not in [m for m, _ in moves(state)]
    assert sorted(m for m, _ in moves(state)) == sorted("put_" + p for p in PLACES)


def test_a_card_drawn_from_the_stock_may_be_thrown_away(game):
    state = start(game, LAYOUT, up=("top1", "top2"))
    do(state, "draw", "stock")
    assert "drop" in [m for m, _ in moves(state)]
    do(state, "drop")
    assert state.current_player == 0 and len(cards(state, "discard")) == 2


def test_the_replaced_card_goes_face_up_to_the_discards_and_the_new_one_takes_its_place(game):
    state = start(game, LAYOUT, up=("top1", "top2"))
    do(state, "draw", "discard")  # the six of spades
    do(state, "put_bottom3")  # over the jack of diamonds, face down
    assert cards(state, "bottom3_up", 1) == [("spades", 6)] and cards(state, "bottom3", 1) == []
    assert cards(state, "discard") == [("diamonds", 11)]
    assert state.observe(0)["zones"]["discard"] == [[c("diamonds", 11)]]  # face up: the other player sees it


def test_play_ends_when_a_layout_is_all_face_up_and_the_columns_score(game):
    # Seat 1's columns: 1 + 4, 2 + 5, 3 + jack (10) once the last card is up: 5 + 7 + 13 = 25.
    # Seat 0's, turned up at the end: the eights pair (0), 5 + 3, 7 + 9: 24 (the rulebook's example).
    up = ("top1", "top2", "top3", "bottom1", "bottom2")
    state = start(game, LAYOUT, up=up, stock=[("spades", 12)])
    do(state, "draw", "stock")  # the queen of spades
    do(state, "drop")
    assert not state.is_over  # seat 1 threw it away: still a face-down card
    state = start(game, LAYOUT, up=up)
    do(state, "draw", "discard")  # the six of spades over the face-down jack
    do(state, "put_bottom3")
    assert state.is_over
    assert state.history[0]["scores"] == [24, 5 + 7 + 9]


def test_kings_are_nothing_and_jacks_and_queens_ten_unless_paired(game):
    layouts = [
        [("clubs", 13), ("clubs", 11), ("clubs", 12), ("hearts", 1), ("hearts", 12), ("hearts", 11)],
        [("diamonds", 13), ("diamonds", 2), ("diamonds", 3), ("spades", 13), ("diamonds", 5), ("diamonds", 11)],
    ]
    up = ("top1", "top2", "top3", "bottom1", "bottom2")
    state = start(game, layouts, up=up)
    do(state, "draw", "discard")  # the six of spades over seat 1's face-down jack
    do(state, "put_bottom3")
    # seat 0: king + ace 1, jack + queen 20, queen + jack 20; seat 1: two kings 0, 2 + 5, 3 + 6
    assert state.history[0]["scores"] == [41, 16]


def test_the_rules_format_as_written(game):
    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text


def test_a_recorded_game_replays_to_its_totals(game):
    state = random_game(game, 3, 6)
    assert len(record(state)["rounds"]) == 9
    again = replay(game, record(state))
    assert again.scores() == state.scores()
