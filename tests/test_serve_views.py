"""What a browser seat is sent (interpreter/play/web/views.py), without a server."""

from __future__ import annotations

import io
import json
import random
import re
from unittest import mock

import pytest

import interpreter
from conftest import ROOT
from interpreter.play.terminal import Quit, ask
from interpreter.play.web import views
from interpreter.play.web.views import ALL, SPECTATOR, moves_view, seat_view
from interpreter.text.move_words import move_text, move_words

BLIND = """
game "Blind take"
players 2..3
cards
  chip  value 1..6
zones
  pile   shared, hidden
  hand   per player, owner sees
round
  deal 1 to hand, rest to pile
  phase draw
    move take card from pile to hand
      require card = first card in pile
    ends when count pile < 2
  score
    sum of value in hand of player
game
  rounds 1
  winner highest total
"""


def test_a_blind_move_is_offered_once_without_its_card_whatever_the_engine_offers():
    """A blind move takes the card the rules name from a face-down pile: one button, no card named.
    Were the engine to offer every card of the pile, still one button without a card (listing
    them would tell what lies there), standing for the first."""
    from interpreter.engine.moves import Move

    game = interpreter.loads(BLIND, "blind.rules")
    state = game.new_game(2, 3)
    seat = state.current_player
    legal = state.legal_moves()
    assert len(legal) == 1, "(the rules name the card)"
    pile = state.zone_cards(state.layout.instances[game.zone_index["pile"]][0])
    for offered in (legal, [Move(legal[0].rule, c, legal[0].target) for c in pile]):
        shown, moves = moves_view(state, seat, offered)
        assert len(shown) == 1 and moves == [offered[0]]
        assert shown[0]["card"] is None and shown[0]["from"] is None
        assert shown[0]["label"] == "take a card from pile to your hand"


def test_a_seat_is_sent_counts_of_what_it_cannot_see():
    """The pile and the other hand as counts; the seat's own hand card for card."""
    game = interpreter.loads(BLIND, "blind.rules")
    state = game.new_game(2, 3)
    view = seat_view(state, 0)
    zones = {z["name"]: z["instances"] for z in view["zones"]}
    assert zones["pile"] == [{"index": 0, "owner": None, "count": 4}]
    assert "cards" in zones["hand"][0] and zones["hand"][1] == {"index": 1, "owner": 1, "count": 1}
    assert "cards" not in json.dumps(seat_view(state, SPECTATOR)["zones"])
    every = {z["name"]: z["instances"] for z in seat_view(state, ALL)["zones"]}
    assert all("cards" in h for h in every["hand"]) and "cards" not in every["pile"][0], "nobody sees the pile"


def test_a_cauldrons_colour_and_sum_are_shown_and_no_sum_that_no_rule_reads():
    """Poison: each cauldron's derived colour and sum (its limit sums a cauldron); no sum on the hand,
    which no rule sums; nothing for hidden zones."""
    game = interpreter.load("poison")
    state = game.new_game(3, 1)
    for _ in range(4):
        state.apply(state.legal_moves()[0])
    view = seat_view(state, 0)
    zones = {z["name"]: z["instances"] for z in view["zones"]}
    played = [c for c in zones["cauldron"] if c["cards"]]
    assert played and all(any(d.startswith("color ") for d in c["derived"]) for c in played)
    assert all(any(d.startswith("sum of value ") for d in c["derived"]) for c in played)
    assert not any(d.startswith("sum of") for d in zones["hand"][0].get("derived", []))
    assert "derived" not in zones["hand"][1]


CLASSICS = ROOT / "examples" / "classics"


def labels(state, seat):
    shown, moves = moves_view(state, seat, state.legal_moves_of(seat))
    assert len(shown) == len(moves)
    return shown


def test_a_bid_is_offered_as_its_legal_numbers_and_the_dealers_hook_is_left_out():
    """Oh Hell!: each bid a button of its number, in the words `play` uses; the dealer, bidding
    last, is not offered the bid that makes the bids add up to the tricks."""
    game = interpreter.load(str(CLASSICS / "oh_hell.rules"))
    state = game.new_game(3, 2)
    seat = state.current_player
    shown = labels(state, seat)
    size = len(state.zone_cards(state.layout.instances[game.zone_index["hand"]][seat]))
    assert [(m["kind"], m["move"], m["value"], m["label"]) for m in shown] == [
        ("number", "bid", n, f"bid {n}") for n in range(size + 1)
    ]
    while state.current_player != state.dealer:
        state.apply(state.legal_moves()[1])  # everyone before the dealer bids 1
    values = [m["value"] for m in labels(state, state.dealer)]
    assert size - (state.n - 1) not in values and len(values) == size, "the hook: the dealer may not make it even"
    out = io.StringIO()
    with pytest.raises(Quit):
        ask(state, state.dealer, io.StringIO(), lambda t: out.write(t + "\n"))
    assert [m["label"] for m in labels(state, state.dealer)] == re.findall(r"^\s+\d+\) (.*)$", out.getvalue(), re.M)


def test_a_card_power_asks_for_a_rival_by_seat_then_shows_that_hand_to_the_asker_only():
    """Love Letter's priest: the ask's choices are the seats it may name; everyone sees who is asked;
    the rival's hand is shown in the asker's view only, on the rival's hand."""
    game = interpreter.load(str(CLASSICS / "love_letter.rules"))
    state = game.new_game(3, 58)
    me = state.current_player
    priest = next(mv for mv in state.legal_moves() if game.cards.json[mv.card]["type"] == "priest")
    state.apply(priest)
    rivals = labels(state, me)
    assert {m["kind"] for m in rivals} == {"player"} and all(m["move"] == "rival" for m in rivals)
    assert sorted(m["value"] for m in rivals) == sorted(p for p in range(3) if p != me)
    assert {m["label"] for m in rivals} == {f"rival seat {p}" for p in range(3) if p != me}
    for seat in range(3):
        assert seat_view(state, seat)["asking"] == {"seat": me, "move": "rival", "kind": "player"}
        assert seat == me or labels(state, seat) == [], "only the asked seat may answer"
    rival = rivals[0]["value"]
    state.apply(next(mv for mv in state.legal_moves() if mv.target == rival))
    hand = game.zone_index["hand"]
    for seat in range(3):
        view = {z["name"]: z["instances"] for z in seat_view(state, seat)["zones"]}
        shown = view["hand"][rival].get("shown")
        if seat == me:
            (card,) = shown
            assert card in [game.cards.json[c] for c in state.zone_cards(state.layout.instances[hand][rival])]
        else:
            assert shown is None, f"seat {seat} is not shown seat {rival}'s hand"
    assert seat_view(state, SPECTATOR)["shown"] == []


def test_statuses_and_who_is_out_are_in_every_seats_view():
    """Love Letter: a handmaid's protection is a status every seat sees; a seat put out is listed."""
    game = interpreter.load(str(CLASSICS / "love_letter.rules"))
    for seed in range(1, 300):
        state = game.new_game(3, seed)
        me = state.current_player
        handmaid = [mv for mv in state.legal_moves() if game.cards.json[mv.card]["type"] == "handmaid"]
        if handmaid:
            break
    state.apply(handmaid[0])
    for seat in range(3):
        view = seat_view(state, seat)
        assert view["statuses"] == ["protected"] and view["vars"]["protected"][me] == 1
    state.out = {(me + 1) % 3}  # (as `eliminate` leaves it)
    assert seat_view(state, me)["eliminated"] == [(me + 1) % 3]


def test_a_draw_names_its_pile_and_a_pass_its_move():
    """Lost Cities' draw is offered once per pile that holds a card, by the pile's name; Go Fish's
    restock is a pass, its ask for a rank a value."""
    game = interpreter.load(str(CLASSICS / "lost_cities.rules"))
    state = game.new_game(2, 3)
    state.apply(state.legal_moves()[0])
    draws = labels(state, state.current_player)
    assert draws and all(m["kind"] == "draw" for m in draws)
    assert "draw from stock" in [m["label"] for m in draws]
    assert all(m["from"]["zone"] in ("stock", "discard") for m in draws)
    game = interpreter.load(str(CLASSICS / "go_fish.rules"))
    state = game.new_game(2, 3)
    shown = labels(state, state.current_player)
    ranks = {
        game.cards.json[c]["rank"]
        for c in state.zone_cards(state.layout.instances[game.zone_index["hand"]][state.current_player])
    }
    assert {(m["kind"], m["label"]) for m in shown} == {("value", f"fish_for {r}") for r in ranks}


def test_moves_of_several_cards_are_worded_as_one_choice():
    """A move that lays several cards at once (its record form lists them) reads as one choice."""
    game = interpreter.loads(BLIND, "blind.rules")
    move = {"player": 1, "move": "lay", "cards": [{"type": "chip", "value": 3}, {"type": "chip", "value": 5}]}
    assert move_words(game, {**move, "to": {"zone": "pile", "index": 0}}, 0, 2) == "lay chip 3, chip 5 to pile"
    assert move_text(game, {**move, "to": {"zone": "hand", "index": 1}}, 1, 2) == "you: lay chip 3, chip 5 to your hand"


SHORT = {"oh_hell": {"largest": "2"}}  # (three deals of 2, 1 and 2 cards)


@pytest.mark.parametrize("name", sorted(p.stem for p in CLASSICS.glob("*.rules")))
def test_every_classic_is_played_to_its_end_by_people_choosing_what_the_table_offers(name):
    """A table of people only (no server): each seat is offered its moves as the page gets them, and
    choosing among them at random (a simultaneous choice held until its turn) ends the game, whose
    record replays."""
    from interpreter.engine.records import record, replay
    from interpreter.play.web.tables import Table

    game = interpreter.load(str(CLASSICS / f"{name}.rules"))
    players = max(game.min_players, 3) if game.max_players >= 3 else game.min_players
    setup = {"players": players, "seed": 4, "params": SHORT.get(name, {}), "seats": [{"kind": "human"}] * players}
    table = Table("t", setup, game, None)
    rng = random.Random(4)
    kinds = set()
    # (each message words the log's latest entries; a short log keeps a long game such as Cheat's
    # quick: the log's own test is in test_seat_log)
    with mock.patch.object(views, "LOG_KEPT", 10):
        _play_to_the_end(table, players, rng, kinds)
    assert replay(game, record(table.state)).totals == table.state.totals
    assert kinds, "the table offered moves"


def _play_to_the_end(table, players, rng, kinds):
    """Each seat's page asked, a random seat among those offered a move chooses one at random."""
    while not table.state.over:
        offers = {p: table.message(p)["moves"] for p in range(players)}
        movers = [p for p, moves in offers.items() if moves]
        assert movers, f"nobody is offered a move, yet {table.state.current} is to move"
        assert table.state.current in movers or table.state.current in table.chosen
        seat = rng.choice(movers)
        kinds.update(m["kind"] for m in offers[seat])
        table.choose(seat, rng.randrange(len(offers[seat])), table.version)
        table.pump()
        assert table.failure is None, table.failure


def test_the_references_choices_each_get_their_controls_and_words():
    """The reference's example of choices (docs/language.md): the dealer is offered a bid per number,
    a pass, a suit per value and a wish per option, each in its words, grouped by move."""
    doc = (ROOT / "docs" / "language.md").read_text()
    (text,) = [b for b in re.findall(r"```rules\n(.*?)```", doc, re.S) if "move wish one of" in b]
    game = interpreter.loads(text, "choices.rules")
    state = game.new_game(2, 1)
    while state.current_player != state.dealer:
        state.apply(next(mv for mv in state.legal_moves() if game.moves[mv.rule].name == "pass"))
    offered = {(m["kind"], m["label"]) for m in labels(state, state.dealer)}
    assert {("pass", "pass"), ("number", "bid 0"), ("number", "bid 3")} <= offered
    assert {("value", "name_trump red"), ("value", "name_trump blue")} <= offered
    assert {("option", "wish good_luck"), ("option", "wish no_luck")} <= offered


def test_the_replay_viewer_steps_through_powers_and_refuses_a_forged_answer_at_its_move():
    """serve --replay of Love Letter: one step per recorded move, asks included, each viewable by
    every seat; a record whose answer to an ask was forged is refused at that move, as replay does."""
    from interpreter.agents import SeatView, make_agents
    from interpreter.engine.records import record
    from interpreter.errors import RecordError
    from interpreter.play.web.replays import ReplayBook

    game = interpreter.load(str(CLASSICS / "love_letter.rules"))
    state = game.new_game(2, 5)
    agents = make_agents("random", 2, 5)
    while not state.is_over:
        state.apply(agents[state.current_player].choose(SeatView(state, state.current_player)))
    rec = record(state)
    book = ReplayBook([(rec, game)])
    moves = [m for r in rec["rounds"] for m in r["moves"]]
    assert len(book.steps(0)) == len(moves) + 1
    asks = [k for k, m in enumerate(moves, 1) if m["move"] == "rival"]
    assert asks, "(a random game of Love Letter names a rival)"
    view = book.view(0, asks[0] - 1, "all")["view"]
    assert view["asking"]["move"] == "rival", "the step before the answer shows who is asked"
    json.dumps([book.view(0, k, seat) for k in range(0, len(moves) + 1, 7) for seat in ("all", "table", 0, 1)])
    r_index, m_index = next(
        (r, k) for r, rnd in enumerate(rec["rounds"]) for k, m in enumerate(rnd["moves"], 1) if m["move"] == "rival"
    )
    rec["rounds"][r_index]["moves"][m_index - 1]["value"] = 9
    with pytest.raises(RecordError, match=f"game 1: round {r_index + 1}, move {m_index}: the rules do not allow"):
        ReplayBook([(rec, game)]).steps(0)
