"""Euchre (examples/classics/euchre.rules) in the situations its rulebook describes, on hand-built
deals: the bowers' ranking by trump (and the left bower following as a trump), ordering up and the
dealer's discard, naming another suit in the second round, a march, a march alone, a euchre, a deal
thrown in; and the file canonical and clean."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.text.fmt import format_text

RULES = ROOT / "examples" / "classics" / "euchre.rules"


@pytest.fixture(scope="module")
def game() -> interpreter.Game:
    return interpreter.load(RULES)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def suited(suit: str, *ranks: int) -> list[dict]:
    return [c(suit, r) for r in ranks]


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def do(state, move: str, value=None, card: dict | None = None) -> None:
    """The current player makes the named move (with that value, or that card)."""
    for m in state.legal_moves():
        d = state.describe(m)
        if d["move"] == move and d.get("value") == value and (card is None or d.get("card") == card):
            state.apply(m)
            return
    raise AssertionError(f"no legal {move} {value or card or ''} for seat {state.current_player}")


def playable(state) -> list[dict]:
    return [state.describe(m)["card"] for m in state.legal_moves()]


# Seat 0 deals; seat 1 (the dealer's left) speaks first and leads. Hearts turned up.
HANDS = [
    suited("clubs", 9, 10, 12, 13, 14),
    [c("hearts", 11), c("diamonds", 11), c("hearts", 14), c("hearts", 13), c("hearts", 12)],
    suited("spades", 9, 10, 12, 13, 14),
    suited("diamonds", 9, 10, 12, 13, 14),
]
TURNED = [c("hearts", 10)]
KITTY = [c("hearts", 9), c("clubs", 11), c("spades", 11)]


def deal(game, hands=HANDS, turned=TURNED, kitty=KITTY):
    return position(game, 4, {"hand": hands, "turned": turned, "kitty": kitty})


def test_ordering_up_makes_the_turned_suit_trump_and_the_dealer_takes_it_and_discards(game):
    state = deal(game)
    assert state.current_player == 1
    do(state, "order_up")
    assert var(state, "trump") == "hearts" and var(state, "maker") == 1
    assert state.current_player == 0  # the dealer, to discard
    assert c("hearts", 10) in playable(state)  # the turned card is in the dealer's hand now
    do(state, "discard", card=c("clubs", 9))
    assert state.game.phases[state.phase].name == "tricks" and state.current_player == 1


def test_the_right_bower_beats_the_left_which_beats_the_ace_of_trump(game):
    hands = [
        [c("diamonds", 11), *suited("clubs", 9, 10, 12, 13)],  # the left bower (hearts trump)
        [c("hearts", 14), *suited("spades", 9, 10, 12, 13)],
        [c("hearts", 11), *suited("clubs", 14), *suited("diamonds", 9, 10, 12)],  # the right bower
        [c("hearts", 13), *suited("diamonds", 13, 14), *suited("spades", 14), c("clubs", 11)],
    ]
    state = deal(game, hands, [c("hearts", 9)], [c("hearts", 10), c("hearts", 12), c("spades", 11)])
    do(state, "order_up")  # seat 1 orders hearts
    do(state, "discard", card=c("clubs", 9))  # the dealer (seat 0) keeps the left bower
    do(state, "play", card=c("hearts", 14))  # seat 1 leads the ace of trump
    do(state, "play", card=c("hearts", 11))  # seat 2: the right bower
    do(state, "play", card=c("hearts", 13))  # seat 3
    do(state, "play", card=c("diamonds", 11))  # seat 0: the left bower, a trump
    assert var(state, "tricks") == [1, 0, 1, 0]  # seat 2's side took it, with the right bower
    assert state.current_player == 2  # and its winner leads next


def test_the_left_bower_follows_trump_not_its_own_suit(game):
    hands = [
        [c("diamonds", 11), c("clubs", 9), *suited("spades", 9, 10, 12)],  # its only "diamond" is the left bower
        [c("diamonds", 14), *suited("hearts", 14, 13, 12), c("clubs", 10)],
        suited("clubs", 12, 13, 14) + suited("spades", 13, 14),
        [*suited("diamonds", 9, 10, 12, 13), c("clubs", 11)],
    ]
    state = deal(game, hands, [c("hearts", 9)], [c("hearts", 10), c("hearts", 11), c("spades", 11)])
    do(state, "order_up")
    do(state, "discard", card=c("clubs", 9))
    do(state, "play", card=c("diamonds", 14))  # seat 1 leads a diamond
    do(state, "play", card=c("clubs", 12))  # seat 2 has none
    do(state, "play", card=c("diamonds", 9))  # seat 3 follows
    # The dealer's jack of diamonds is a trump: no diamond to follow with, so any card may go.
    assert len(playable(state)) == 5
    do(state, "play", card=c("diamonds", 11))  # and it trumps the trick
    assert var(state, "tricks")[0] == 1
    # With trump led, the left bower must follow: seat 2's jack of diamonds is its only trump.
    hands = [
        suited("clubs", 9, 10, 12, 13, 14),
        suited("hearts", 14, 13, 12) + suited("spades", 9, 10),
        [c("diamonds", 11), *suited("spades", 12, 13, 14), c("diamonds", 9)],
        [*suited("diamonds", 10, 12, 13, 14), c("clubs", 11)],
    ]
    state = deal(game, hands, [c("hearts", 9)], [c("hearts", 10), c("hearts", 11), c("spades", 11)])
    do(state, "order_up")
    do(state, "discard", card=c("clubs", 9))
    do(state, "play", card=c("hearts", 14))
    assert playable(state) == [c("diamonds", 11)]


def _play_out(state) -> None:
    while not state.is_over and state.round == 0:
        state.apply(state.legal_moves()[0])


def test_a_march_scores_two_and_a_march_alone_four(game):
    # Seat 1 holds the five highest hearts: it takes every trick whatever the others play.
    state = deal(game)
    do(state, "order_up")
    do(state, "discard", card=c("clubs", 9))
    _play_out(state)
    assert state.history[0]["scores"] == [0, 2, 0, 0]  # a side's points are written on its first seat
    state = deal(game)
    do(state, "order_alone")
    do(state, "discard", card=c("clubs", 9))
    assert state.current_player == 1  # seat 3, the lone maker's partner, sits out
    assert playable(state)
    _play_out(state)
    assert state.history[0]["scores"] == [0, 4, 0, 0]


def test_when_the_dealers_left_sits_out_the_next_player_leads(game):
    state = deal(game)
    for _ in range(2):
        do(state, "pass_up")
    do(state, "order_alone")  # seat 3 (the dealer's right) goes alone: seat 1, its partner, sits out
    do(state, "discard", card=c("clubs", 9))
    assert var(state, "maker") == 3 and var(state, "lone") == 1
    assert state.current_player == 2
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    assert sum(var(state, "tricks")) == 2  # a trick of three cards, counted for its side's two seats


def test_when_the_dealers_partner_orders_alone_the_dealer_takes_nothing_and_sits_out(game):
    # Rules decision: the dealer's hand is laid down unplayed, so the dealer neither takes the
    # turned card nor discards; the card is turned down on the kitty with the dealer's hand.
    state = deal(game)
    do(state, "pass_up")
    do(state, "order_alone")  # seat 2, the dealer's partner, goes alone
    assert var(state, "maker") == 2 and var(state, "lone") == 1 and var(state, "trump") == "hearts"
    assert state.game.phases[state.phase].name == "tricks"  # no discard was asked of the dealer
    assert state.current_player == 1  # the dealer's left leads
    kitty = [state.game.cards.json[i] for i in state.zone_cards(state.layout.base[game.zone_index["kitty"]])]
    assert c("hearts", 10) in kitty and HANDS[0][0] in kitty  # the turned card, the dealer's hand
    assert len(kitty) == 3 + 1 + 5
    _play_out(state)
    assert state.history[0]["scores"][1] == 2  # seat 1 holds the top hearts: the lone maker is euchred


def test_makers_who_take_fewer_than_three_tricks_are_euchred(game):
    # Seat 2 (the dealer's partner) orders hearts up with no trump in hand; seat 1 holds them all.
    state = deal(game)
    do(state, "pass_up")
    do(state, "order_up")
    assert var(state, "maker") == 2
    do(state, "discard", card=c("clubs", 9))
    _play_out(state)
    assert state.history[0]["scores"] == [0, 2, 0, 0]  # the defenders (seats 1 and 3) score 2


def test_the_second_round_names_another_suit_and_all_passing_throws_the_deal_in(game):
    state = deal(game)
    for _ in range(4):
        do(state, "pass_up")
    assert var(state, "turned_down") == "hearts"
    assert state.game.phases[state.phase].name == "name"
    names = {state.describe(m).get("value") for m in state.legal_moves() if state.describe(m)["move"] == "call"}
    assert names == {"clubs", "diamonds", "spades"}  # not the turned-down suit
    do(state, "call", "spades")
    assert var(state, "trump") == "spades" and var(state, "maker") == 1
    state = deal(game)
    for _ in range(8):
        do(state, "pass_up" if var(state, "passes") < 4 else "pass_name")
    assert state.round == 1 and state.history[0]["scores"] == [0, 0, 0, 0] and state.dealer == 1


def test_the_file_is_canonical_and_checks_clean():
    from interpreter.checker import check

    text = RULES.read_text()
    assert format_text(text, str(RULES)) == text
    report = check(str(RULES), games=20)
    assert not [f for f in report.findings if f.severity in ("error", "warning")]


def test_every_tool_takes_it_and_every_agent_plays_it():
    """show (IR valid against the schema), render, a record replayed, greedy and a small mcts."""
    from interpreter.engine.records import dumps, parse_line, record, replay
    from interpreter.language.schema import validator
    from interpreter.simulation.simulate import simulate
    from interpreter.text.render import render

    ir = interpreter.ir_from_path(RULES)
    assert not list(validator("ir").iter_errors(ir))
    book = render(ir)
    assert "Rounds are played until" in book and "one for each team" in book
    game = interpreter.load(RULES)
    state = game.new_game(4, 7, {"target": 3})
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    rec = parse_line(dumps(record(state)), 1)
    assert replay(game, rec).scores() == state.scores()
    got = simulate(game, 4, 1, seed=3, params={"target": 2}, agents=["mcts:8", "greedy", "random", "greedy"])
    assert got["games"] == 1
