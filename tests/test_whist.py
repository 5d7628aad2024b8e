"""Whist with partners (examples/classics/whist.rules): its distinctive rules in concrete deals."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, position
from interpreter.engine.records import record, replay
from interpreter.engine.scoring import score_round
from interpreter.errors import RecordError
from interpreter.language.schema import check_record
from interpreter.simulation.report import run_text
from interpreter.simulation.simulate import simulate

WHIST = ROOT / "examples" / "classics" / "whist.rules"


@pytest.fixture(scope="module")
def whist():
    return interpreter.load(WHIST)


def c(suit: str, rank: int) -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def deal(game):
    """Dealer 0 is dealt the 2 of spades last: it is turned up, spades are trump; seat 1 leads."""
    hands = [
        [c("hearts", 5), c("spades", 2)],
        [c("hearts", 10), c("clubs", 3)],
        [c("hearts", 2), c("diamonds", 9)],
        [c("diamonds", 4), c("spades", 3)],
    ]
    return position(game, 4, {"hand": hands})


def play(state, seat: int, card: dict) -> None:
    (move,) = [m for m in state.legal_moves() if state.describe(m)["card"] == card]
    assert state.current_player == seat
    state.apply(move)


def test_a_player_who_holds_the_suit_led_must_follow(whist):
    state = deal(whist)
    play(state, 1, c("hearts", 10))
    assert [state.describe(m)["card"] for m in state.legal_moves()] == [c("hearts", 2)]


def test_a_trump_beats_the_highest_card_of_the_suit_led_and_the_winner_leads(whist):
    state = deal(whist)
    play(state, 1, c("hearts", 10))
    play(state, 2, c("hearts", 2))
    play(state, 3, c("spades", 3))  # void in hearts: trumps
    play(state, 0, c("hearts", 5))
    lay, won = state.layout, whist.zone_index["won"]
    assert len(state.zones[lay.base[won] + 3]) == 1
    assert state.current_player == 3


def test_each_trick_over_six_scores_one_point_for_the_partnership(whist):
    state = deal(whist)
    lay, won = state.layout, whist.zone_index["won"]
    spare = [cid for cid in range(len(whist.cards)) if state.loc[cid] == lay.base[whist.zone_index["deck"]]]
    tricks = {0: 5, 2: 3, 1: 4, 3: 1}  # seats 0 and 2 took 8 tricks, seats 1 and 3 took 5
    for seat, n in tricks.items():
        for _ in range(n):
            state.zones[lay.base[won] + seat].append([spare.pop()])
    scores = score_round(state)
    assert scores == [2, 0, 0, 0]  # a side's points are written on its first seat
    assert sum(scores[p] for p in (0, 2)) == 2 and sum(scores[p] for p in (1, 3)) == 0


def test_both_partners_win_together(whist):
    state = whist.new_game(4, 3)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    teams = {0: (0, 2), 1: (1, 3)}
    assert tuple(state.winners()) in (teams[0], teams[1], (0, 1, 2, 3))


def test_the_turned_up_card_is_seen_by_every_seat_before_the_opening_lead(whist):
    state = deal(whist)
    assert state.current_player == 1 and not state.history[0]["moves"]  # nobody has played yet
    for seat in range(4):
        view = state.observe(seat)
        assert view["zones"]["turned"] == [[c("spades", 2)]]
        assert view["vars"]["trump"] == "spades"
    assert state.observe(0)["zones"]["hand"][0] == [c("hearts", 5)]  # out of the dealer's hand meanwhile


def test_the_dealer_takes_the_turned_card_into_hand_at_the_first_trick_and_may_play_it(whist):
    hands = [
        [c("clubs", 5), c("spades", 2)],  # the dealer: void in hearts once the 2 of spades is turned up
        [c("hearts", 10), c("clubs", 3)],
        [c("hearts", 2), c("diamonds", 9)],
        [c("hearts", 4), c("spades", 3)],
    ]
    state = position(whist, 4, {"hand": hands})
    play(state, 1, c("hearts", 10))
    play(state, 2, c("hearts", 2))
    assert state.observe(0)["zones"]["turned"] == [[c("spades", 2)]]
    play(state, 3, c("hearts", 4))
    view = state.observe(1)
    assert view["zones"]["turned"] == [[]] and view["zones"]["hand"][0] == {"count": 2}
    assert sorted(state.describe(m)["card"]["rank"] for m in state.legal_moves()) == [2, 5]
    play(state, 0, c("spades", 2))  # the turned-up trump wins the trick; trump stays spades
    assert state.current_player == 0 and state.observe(2)["vars"]["trump"] == "spades"


def sides(rec: dict) -> list[int]:
    return [t["total"] for t in rec["teams"]]


@pytest.mark.parametrize("target", [2, 7])
def test_the_game_ends_after_the_deal_in_which_a_side_reaches_the_target(whist, target):
    state = whist.new_game(4, 11, {"target": target})
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    rec = record(state)
    running = [0, 0]
    for i, rnd in enumerate(rec["rounds"]):
        running = [running[0] + rnd["scores"][0] + rnd["scores"][2], running[1] + rnd["scores"][1] + rnd["scores"][3]]
        last = i == len(rec["rounds"]) - 1
        assert (max(running) >= target) == last  # no deal after the target is reached, none missing
    assert sides(rec) == running
    assert [p for t in rec["teams"] if t["won"] for p in t["seats"]] == rec["winners"]
    assert [t["won"] for t in rec["teams"]] == [x >= target for x in running]
    replay(whist, rec)


def test_a_record_says_each_team_its_total_and_whether_it_won(whist):
    state = whist.new_game(4, 3)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    rec = record(state)
    check_record(rec, 1)
    assert [t["seats"] for t in rec["teams"]] == [[0, 2], [1, 3]]
    assert [t["total"] for t in rec["teams"]] == [
        rec["totals"][0] + rec["totals"][2],
        rec["totals"][1] + rec["totals"][3],
    ]
    # thirteen tricks: one side takes seven or more and scores, so it alone wins
    assert [p for t in rec["teams"] if t["won"] for p in t["seats"]] == rec["winners"]
    replay(whist, rec)


def test_replay_refuses_a_record_whose_team_result_differs(whist):
    state = whist.new_game(4, 4)
    while not state.is_over:
        state.apply(state.legal_moves()[-1])
    rec = record(state)
    rec["teams"][0]["won"] = not rec["teams"][0]["won"]
    with pytest.raises(RecordError, match="the rules give the teams"):
        replay(whist, rec)


def test_an_unfinished_game_has_no_winning_team(whist):
    state = whist.new_game(4, 5)
    state.apply(state.legal_moves()[0])
    assert [t["won"] for t in record(state)["teams"]] == [False, False]


def test_simulate_gives_each_team_its_win_rate(whist):
    stats = simulate(whist, 4, 20, seed=2)
    teams = stats["teams"]
    assert [t["seats"] for t in teams] == [[0, 2], [1, 3]]
    for t in teams:  # both partners win together: the team's wins are each member's
        assert all(stats["seats"][p]["wins"] == t["wins"] for p in t["seats"])
        assert t["win_rate"]["rate"] == t["wins"] / 20
    assert sum(t["wins"] for t in teams) == 20  # thirteen tricks: one side always takes seven or more
    text = run_text(stats)
    assert "team  seats" in text and "0,2" in text


def test_a_game_without_teams_says_nothing_of_teams():
    game = interpreter.load(ROOT / "rulesets" / "poison.rules")
    stats = simulate(game, 3, 2, seed=1)
    assert "teams" not in stats
    state = game.new_game(3, 1)
    assert "teams" not in record(state)
