"""Reveals and shuffles (engine/events.py): `reveal CARDS [to P]` is an event every seat is told of
and the record keeps, its cards known while they stay put; `shuffle ZONE` draws from the game's
seeded chance, forgets what was known of its cards and is laid out again by replay. Each in play,
in observations, records, the belief sampler, the tools and the example game."""

from __future__ import annotations

import json
import random

import pytest

import interpreter
from conftest import EXAMPLES, ROOT, run_cli
from interpreter.agents.belief import Belief
from interpreter.engine.records import dumps, record, replay
from interpreter.errors import RecordError, RulesetError
from interpreter.language.schema import check_record
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

HEAD = """game "Events"
players 2..4

cards
  card  rank 1..8   suit sun | moon

zones
  hand     per player, owner sees
  stock    shared, hidden
  discard  shared, public

var turns per round = 0

round
  deal 2 to hand, rest to stock
  phase play
    move drop card from hand to discard
    move draw top card from stock to hand
      require count hand of player < 2
"""
TAIL = """    ends when turns >= 6
  score
    sum of rank in hand of player

game
  rounds 1
  winner lowest total
"""


def load(body: str) -> interpreter.Game:
    return interpreter.loads(HEAD + body + TAIL, "events.rules")


def hand(state, seat: int) -> list[dict]:
    return [state.game.cards.json[c] for c in state.zones[state.layout.base[0] + seat]]


def play_out(state, seed: int = 1) -> None:
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])


def test_a_reveal_to_all_is_an_event_of_every_seat_and_its_cards_are_known_while_they_stay():
    state = load("    after drop\n      add 1 to turns\n      reveal hand of player\n").new_game(3, seed=2)
    p = state.current_player
    state.apply(state.legal_moves()[0])  # p drops a card and shows the one left
    (left,) = hand(state, p)
    for seat in range(3):
        obs = state.observe(seat)
        assert obs["events"] == [{"after": 1, "reveal": [{"card": left, "zone": "hand", "index": p}]}]
        assert obs["shown"] == ([] if seat == p else [{"card": left, "zone": "hand", "index": p}])
    state.apply(state.legal_moves()[0])  # the two other seats drop and reveal theirs
    state.apply(state.legal_moves()[0])
    assert state.current_player == p
    drop = next(m for m in state.legal_moves() if state.game.moves[m.rule].name == "drop")
    state.apply(drop)  # p's revealed card leaves the hand: no longer known there, the event stays
    q = (p + 1) % 3
    assert all(x["index"] != p for x in state.observe(q)["shown"])
    assert state.observe(q)["events"][0]["reveal"] == [{"card": left, "zone": "hand", "index": p}]


def test_a_reveal_to_some_seats_tells_the_others_that_it_happened_but_not_what():
    state = load("    after drop\n      add 1 to turns\n      reveal last card in stock to left of player\n")
    state = state.new_game(3, seed=5)
    p = state.current_player
    q, r = (p + 1) % 3, (p + 2) % 3
    top = state.game.cards.json[state.zones[state.layout.base[state.game.zone_index["stock"]]][-1]]
    state.apply(state.legal_moves()[0])
    want = {"after": 1, "reveal": [{"card": top, "zone": "stock", "index": 0}], "to": [q]}
    assert state.observe(q)["events"] == [want]
    assert state.observe(q)["shown"] == [{"card": top, "zone": "stock", "index": 0}]
    for seat in (p, r):
        assert state.observe(seat)["events"] == [{**want, "reveal": [{**want["reveal"][0], "card": None}]}]
        assert state.observe(seat)["shown"] == []


def test_a_shuffle_is_the_seeds_own_chance_and_forgets_what_was_revealed_of_its_cards():
    body = (
        "    after drop\n      add 1 to turns\n      reveal last card in stock\n"
        "      if turns = 2\n        shuffle stock\n"
    )
    game = load(body)
    orders = []
    for _ in range(2):
        state = game.new_game(2, seed=9)
        state.apply(state.legal_moves()[0])
        assert len(state.observe(0)["shown"]) == 1  # the stock's top, revealed to both
        state.apply(state.legal_moves()[0])  # the second drop: revealed, then shuffled
        stock = state.layout.base[game.zone_index["stock"]]
        orders.append(list(state.zones[stock]))
        assert state.observe(0)["shown"] == [] and state.observe(1)["shown"] == []
        assert state.observe(0)["events"][-1] == {"after": 2, "shuffle": {"zone": "stock", "index": 0}, "count": 12}
    assert orders[0] == orders[1]  # the same seed, the same order
    other = game.new_game(2, seed=10)
    other.apply(other.legal_moves()[0])
    other.apply(other.legal_moves()[0])
    assert list(other.zones[stock]) != orders[0]


def test_the_record_keeps_each_event_whole_and_replay_lays_out_each_shuffle_again():
    game = interpreter.load(EXAMPLES / "low-hand.rules")
    for seed in range(4):
        state = game.new_game(4, seed=seed)
        play_out(state, seed)
        rec = json.loads(dumps(record(state)))
        check_record(rec, 1)
        kinds = {k for r in rec["rounds"] for e in r.get("events", []) for k in e if k in ("reveal", "shuffle")}
        if kinds == {"reveal", "shuffle"}:
            break
    assert kinds == {"reveal", "shuffle"}
    assert replay(game, rec).totals == state.totals
    shuffled = next(e for r in rec["rounds"] for e in r.get("events", []) if "shuffle" in e)
    assert len(shuffled["cards"]) > 1
    shuffled["cards"][0] = {"type": "card", "rank": 99, "suit": "sun"}  # a card the stock does not hold
    with pytest.raises(RecordError, match="shuffle of stock holds a card that is not there"):
        replay(game, rec)


def test_a_record_that_leaves_out_a_reveal_is_refused():
    game = interpreter.load(EXAMPLES / "low-hand.rules")
    for seed in range(10):
        state = game.new_game(3, seed=seed)
        play_out(state, seed)
        rec = json.loads(dumps(record(state)))
        at = next((i for i, r in enumerate(rec["rounds"]) if any("reveal" in e for e in r.get("events", []))), None)
        if at is not None:
            break
    rec["rounds"][at]["events"] = [e for e in rec["rounds"][at]["events"] if "reveal" not in e]
    with pytest.raises(RecordError, match=f"round {at + 1}: the rules reveal and shuffle"):
        replay(game, rec)


def test_the_sampler_keeps_revealed_cards_and_forgets_the_order_of_a_shuffled_stock():
    body = (
        "    after drop\n      add 1 to turns\n      reveal hand of player\n      if turns = 2\n        shuffle stock\n"
    )
    game = load(body)
    state = game.new_game(2, seed=3)
    state.apply(state.legal_moves()[0])
    state.apply(state.legal_moves()[0])  # seat 1 drops and shows its last card; the stock is shuffled
    p = state.current_player
    other = 1 - p
    obs = state.observe(p)
    (known,) = [x["card"] for x in obs["shown"]]
    stock = state.layout.base[game.zone_index["stock"]]
    orders = set()
    for seed in range(12):
        sample = Belief(game, obs, random.Random(seed)).sample()
        assert sample is not None
        assert hand(sample, other) == [known]
        assert hand(sample, p) == hand(state, p)
        orders.add(tuple(sample.zones[stock]))
    assert len(orders) > 1  # nobody knows the shuffled stock's order: the samples differ


def test_misused_reveals_and_shuffles_have_positioned_errors():
    with pytest.raises(RulesetError) as info:
        load("    after drop\n      reveal rank of card\n")
    assert "reveal takes a card, cards or a zone" in str(info.value) and "events.rules:21:14" in str(info.value)
    with pytest.raises(RulesetError) as info:
        load("    after drop\n      shuffle card\n")
    assert "expected a zone" in str(info.value) and "events.rules:21:15" in str(info.value)
    with pytest.raises(RulesetError) as info:
        load("    after drop\n      reveal card to 2\n")
    assert "events.rules:21:22" in str(info.value)


def test_fmt_keeps_and_render_says_each_event():
    body = (
        "    after drop\n      add 1 to turns\n      reveal hand of player\n"
        "      reveal last card in stock to left of player, player\n"
        "      if stock is empty\n        move card in discard except last card in discard to stock\n"
        "        shuffle stock\n"
    )
    text = HEAD + body + TAIL
    assert format_text(text, "events.rules") == text
    words = to_markdown(rulebook(interpreter.loads(text, "events.rules").ir))
    for phrase in (
        "Reveal the cards of the player's hand to every player",
        "to the player to the left of the player and the player, who know them while they stay there",
        "Shuffle the stock: its cards in a random order",
    ):
        assert phrase in words


def test_the_example_is_check_clean_formatted_and_its_replay_as_a_seat_prints_the_events(tmp_path):
    path = EXAMPLES / "low-hand.rules"
    assert format_text(path.read_text(), str(path)) == path.read_text()
    proc = run_cli("check", "examples/low-hand.rules", "--games", "60", "--jobs", "1", "--format", "json")
    summary = json.loads(proc.stdout)["summary"]
    assert summary["errors"] == 0 and summary["warnings"] == 0
    records = tmp_path / "games.jsonl"
    run_cli("simulate", "examples/low-hand.rules", "--players", "4", "--games", "3", "--record", str(records))
    proc = run_cli("replay", str(records), "--seat", "1")
    assert proc.returncode == 0, proc.stderr
    assert "revealed to all: " in proc.stdout and "stock shuffled (" in proc.stdout


def test_the_play_screen_and_the_table_view_word_the_events():
    from interpreter.play.terminal import screen
    from interpreter.play.web.views import seat_view

    state = load("    after drop\n      add 1 to turns\n      reveal hand of player\n").new_game(2, seed=2)
    p = state.current_player
    state.apply(state.legal_moves()[0])
    (left,) = hand(state, p)
    name = f"{left['rank']} {left['suit']}"  # (a plain deck's type, card, is not said)
    assert f"{name} in hand of seat {p}" in screen(state, 1 - p).split("shown to you: ")[1]
    view = seat_view(state, 1 - p)
    (event,) = view["events"]
    assert event["text"] == f"revealed to all: {name} in hand of seat {p}"
    hands = next(z for z in view["zones"] if z["name"] == "hand")["instances"]
    assert hands[p]["count"] == 1 and hands[p]["shown"] == [left]  # the table draws it face up


def test_the_reference_example_reshuffles_and_the_old_records_have_no_events():
    doc = (ROOT / "docs" / "language.md").read_text()
    block = doc.split("### Reveals and shuffles\n\n```rules\n", 1)[1].split("```", 1)[0]
    game = interpreter.loads(block, "docs/language.md")
    state = game.new_game(4, seed=1)
    play_out(state)
    assert any("shuffle" in e for e in record(state)["rounds"][0]["events"])
    poison = interpreter.load(ROOT / "rulesets" / "poison.rules").new_game(3, seed=1)
    play_out(poison)
    assert all("events" not in r for r in record(poison)["rounds"])


def test_diff_words_an_added_reshuffle_and_check_reads_the_players_of_a_reveal(tmp_path):
    from interpreter.checker import check
    from interpreter.loader import ir_from_text
    from interpreter.text.diff import diff, diff_text

    base = HEAD + "    after drop\n      add 1 to turns\n" + TAIL
    other = base.replace(
        "      add 1 to turns\n",
        "      add 1 to turns\n      if stock is empty\n        move card in discard to stock\n        shuffle stock\n",
    )
    text = diff_text(diff(ir_from_text(base, "a.rules"), ir_from_text(other, "b.rules")))
    assert "changed" in text and "Shuffle the stock" in text
    # a parameter read only where a reveal names its players is used: check does not call it unused
    peek = HEAD.replace("var turns", "param peek = 1\nvar turns") + (
        "    after drop\n      add 1 to turns\n      reveal hand of player to peek seats left of player\n"
    )
    path = tmp_path / "peek.rules"
    path.write_text(peek + TAIL)
    report = check(str(path), games=20)
    assert report.ruleset == "Events"
    assert not [f.message for f in report.findings if f.severity != "info"]


def test_the_language_server_hovers_reveal_and_shuffle_with_their_grammar_shape():
    from interpreter.editor.hover import _keyword

    assert "`reveal expr [to expr (, expr)*]`" in _keyword("reveal")
    assert "`shuffle expr`" in _keyword("shuffle")


def test_sampled_worlds_look_to_the_seat_like_the_game_through_reveals_and_reshuffles():
    """At random points of games of the example, every sample for the seat to move shows it the
    zones it sees as they are, and holds each card revealed to it where it was revealed; most
    points get one (a sampler may fail to fit a deal: the agent then searches without it)."""
    game = interpreter.load(EXAMPLES / "low-hand.rules")
    checked = failed = 0
    for seed in range(3):
        state = game.new_game(4, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if rng.random() < 0.15:
                seat = state.current_player
                obs = state.observe(seat)
                sample = Belief(game, obs, random.Random(seed)).sample()
                if sample is None:
                    failed += 1
                    continue
                assert sample.observe(seat)["zones"] == obs["zones"]
                for x in obs["shown"]:
                    inst = sample.layout.base[game.zone_index[x["zone"]]] + x["index"]
                    assert x["card"] in [game.cards.json[c] for c in sample.zones[inst]]
                checked += 1
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
    assert checked > 20 and failed <= checked // 4
