"""`ruleset verify`: every deal and every line of play of a tiny game, each property proved or
broken by a shortest game that replays. The games are tiny on purpose (a second or two each)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import EXAMPLES, TINY_RULES, run_cli
from interpreter.checker import check
from interpreter.engine.game import compile_ir
from interpreter.engine.records import replay
from interpreter.errors import RecordError, RulesetError
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.verify import encode as encode_module
from interpreter.verify import explore
from interpreter.verify.chance import card_classes, count_orders, orders
from interpreter.verify.jobs import verify
from interpreter.verify.order import ordered_zones
from interpreter.verify.report import counterexample, to_json
from interpreter.verify.shrink import shrink

RARE = EXAMPLES / "broken" / "rare"


def tiny() -> object:
    return compile_ir(ir_from_text(TINY_RULES), coverage=True)


def test_a_sound_game_holds_every_property_in_every_state():
    result = explore(tiny(), 2)
    assert result.complete and not result.failures and result.exit_code == 0
    # 2 red and 2 blue cards, 2 to each hand: seat 0 holds 0, 1 or 2 reds (alike cards alike)
    assert result.deals == 3 and result.orders == 6
    assert result.depth == 4  # four cards played
    assert result.unreached == []


def test_a_space_cut_off_is_neither_proved_nor_broken():
    result = explore(tiny(), 2, max_states=2)
    assert result.cut and "--max-states" in result.cut
    assert result.exit_code == 3


def test_an_endless_round_is_a_loop_with_its_moves(tmp_path):
    game = compile_ir(ir_from_path(str(EXAMPLES / "broken" / "endless.rules")), coverage=True)
    result = explore(game, 2)
    assert result.complete and result.exit_code == 1
    (loop,) = [f for f in result.failures if f.kind == "loop"]
    ex = counterexample(result, loop)
    assert ex["note"] and "come back to the situation" in ex["note"]
    # the loop's moves are in the record: its situation repeats, so the record is no finished game
    moves = ex["record"]["rounds"][0]["moves"]
    assert len(moves) == ex["after"] + len(loop.loop)
    with pytest.raises(RecordError, match="end before the round does"):
        replay(game, ex["record"])


def test_dead_rules_are_exact_over_the_whole_space():
    # a scoring rule for a colour no card has is never reached, in any deal or line of play
    result = explore(
        compile_ir(ir_from_text(TINY_RULES.replace("color of it = red", "value of it > 1")), coverage=True),
        2,
    )
    kinds = Counter(kind for _, kind, _ in result.unreached)
    assert kinds == {"scoring rule": 1}


@pytest.mark.parametrize(
    ("name", "kind", "moves", "words"),
    [("red-opening.rules", "deadlock", 0, "nobody can move"), ("seven-reds.rules", "play", 7, "division by zero")],
)
def test_check_misses_a_rare_flaw_that_verify_finds_with_its_shortest_game(name, kind, moves, words):
    path = str(RARE / name)
    report = check(path, games=100, jobs=1)
    assert report.exit_code == 0 and not [f for f in report.findings if f.severity == "error"]

    game = compile_ir(ir_from_path(path), coverage=True)
    result = explore(game, 2)
    assert result.complete and result.exit_code == 1
    (failure,) = result.failures
    assert failure.kind == kind and words in failure.message
    # the counterexample is a record that replay plays back to the very failure
    rec = counterexample(result, failure)["record"]
    assert sum(len(r["moves"]) for r in rec["rounds"]) == moves
    with pytest.raises(RecordError, match=words):
        replay(compile_ir(ir_from_path(path)), rec)


def test_the_command_writes_each_counterexample_for_replay(tmp_path):
    path = str((RARE / "seven-reds.rules").relative_to(EXAMPLES.parent))
    out = tmp_path / "ce.jsonl"
    proc = run_cli("verify", path, "--quiet", "--counterexamples", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "error: play: division by zero" in proc.stdout
    assert "the shortest game that breaks it: 7 moves" in proc.stdout
    assert f"its record: {out}, line 1" in proc.stdout
    assert len(out.read_text().splitlines()) == 1


def test_a_space_cut_off_exits_3_with_json_figures_and_why():
    path = str((EXAMPLES / "broken" / "rare" / "red-opening.rules").relative_to(EXAMPLES.parent))
    proc = run_cli("verify", path, "--format", "json", "--max-states", "50")
    doc = json.loads(proc.stdout)
    assert proc.returncode == doc["exit_code"] == 3
    # 924 orders of its deck are more than 50 states could ever hold: shrink the deck, it says
    assert doc["complete"] is False and "924 distinct orders" in doc["cut"]
    assert {p["property"] for p in doc["properties"]} >= {"deadlock", "loop", "cards", "play", "score"}


@given(st.lists(st.integers(0, 2), max_size=7))
def test_orders_lists_each_distinct_order_once(tokens):
    cards = list(range(len(tokens)))
    got = list(orders(cards, tokens))
    as_tokens = {tuple(tokens[c] for c in order) for order in got}
    assert len(got) == len(as_tokens) == count_orders(tokens)
    assert all(sorted(order) == cards for order in got)
    # in one fixed sequence (the states' numbers, and so which shortest counterexample is shown,
    # follow it): lexicographic in the tokens as they first come, copies of a token in id order
    rank = {t: i for i, t in enumerate(dict.fromkeys(tokens))}
    ranked = [[rank[tokens[c]] for c in order] for order in got]
    assert ranked == sorted(ranked)
    assert all(
        [c for c in order if tokens[c] == t] == sorted(c for c in order if tokens[c] == t)
        for order in got
        for t in rank
    )


POISON = EXAMPLES.parent / "rulesets" / "poison.rules"
SHRUNK = ["--only", "potion.color=red,blue", "--only", "potion.value=1", "--copies", "potion=1", "--copies", "poison=1"]


def test_a_deck_is_shrunk_from_the_command_line_and_its_counterexample_replays(tmp_path):
    rules = tmp_path / "p.rules"
    rules.write_text(POISON.read_text() + "\nchecks\n  never every hand is empty\n")
    out = tmp_path / "ce.jsonl"
    proc = run_cli(
        "verify", str(rules), "--players", "3", "--set", "rounds=1", *SHRUNK, "--quiet", "--counterexamples", str(out)
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    # two potions and a poison: 3! orders, each a distinct deal (the poison falls to the removed fourth hand or not)
    assert "6 distinct deals (of 6 orders" in proc.stdout
    assert "error: never: never every hand is empty: broken in this state" in proc.stdout
    rec = json.loads(out.read_text())
    assert rec["source"] == str(tmp_path / "ce.rules.json")  # the shrunk rules, written beside the records
    replayed = run_cli("replay", str(out))
    assert replayed.returncode == 0, replayed.stderr


@pytest.mark.parametrize(
    ("only", "copies", "message"),
    [
        (["color=red,blue"], [], "leave no card of type poison"),
        (["potion.colour=red"], [], "no card of type potion has the attribute 'colour'"),
        (["potion.value=3"], [], "no card has value 3"),
        (["value"], [], "--only takes [TYPE.]ATTRIBUTE=VALUE"),
        ([], ["potion=0"], "--copies takes TYPE=N with N from 1"),
        ([], ["potions=1"], "no card type 'potions'"),
    ],
)
def test_a_shrink_that_cannot_apply_is_a_clear_error(only, copies, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        shrink(ir_from_path(str(POISON)), only, copies)


def test_the_command_says_why_a_shrink_cannot_apply():
    proc = run_cli("verify", str(POISON), "--players", "3", "--copies", "potions=1")
    assert proc.returncode == 2 and "no card type 'potions'" in proc.stderr and "Traceback" not in proc.stderr


def test_zones_whose_order_a_rule_reads_are_kept_in_order():
    def ordered(path):
        return ordered_zones(ir_from_path(str(path)), keys_distinct=False)

    assert ordered(POISON) == {"cauldron"}  # the colour of a cauldron is its first potion's
    assert {"hand", "trick"} <= ordered(EXAMPLES / "classics" / "whist.rules")  # `last card in hand of dealer`
    assert ordered(EXAMPLES / "broken" / "rare" / "seven-reds.rules") == set()


def test_sorting_the_hands_no_rule_reads_in_order_changes_no_verdict(monkeypatch):
    game = compile_ir(ir_from_path(str(RARE / "seven-reds.rules")), coverage=True)
    free = explore(game, 2)
    monkeypatch.setattr(encode_module, "ordered_zones", lambda ir, keys_distinct: None)  # every zone in order
    kept = explore(compile_ir(ir_from_path(str(RARE / "seven-reds.rules")), coverage=True), 2)
    assert [(f.kind, f.message) for f in free.failures] == [(f.kind, f.message) for f in kept.failures]
    assert free.graph.depth[free.failures[0].state] == kept.graph.depth[kept.failures[0].state]
    assert free.distinct < kept.distinct and free.deals < kept.deals


@pytest.mark.parametrize("path", [RARE / "seven-reds.rules", EXAMPLES / "broken" / "endless.rules"])
def test_zones_keyed_as_bytes_or_as_numbers_tell_the_same_states_apart(path, monkeypatch):
    # small games key their zones as one string of bytes; a game with too many kinds of card for
    # a byte, as numbers: the same states either way
    as_bytes = explore(compile_ir(ir_from_path(str(path)), coverage=True), 2)
    monkeypatch.setattr(encode_module, "PILE", 0)  # no token fits below it: numbers
    as_numbers = explore(compile_ir(ir_from_path(str(path)), coverage=True), 2)
    assert (as_bytes.distinct, as_bytes.deals, as_bytes.depth) == (
        as_numbers.distinct,
        as_numbers.deals,
        as_numbers.depth,
    )
    assert [(f.kind, f.message) for f in as_bytes.failures] == [(f.kind, f.message) for f in as_numbers.failures]


@pytest.mark.parametrize("path", [RARE / "red-opening.rules", EXAMPLES / "broken" / "endless.rules"])
def test_jobs_share_the_deals_out_and_report_what_one_process_does(path):
    # the deals explored by two processes, merged: the same figures, failures and counterexamples
    one, one_examples = verify(compile_ir(ir_from_path(str(path)), coverage=True), 2, jobs=1)
    two, two_examples = verify(compile_ir(ir_from_path(str(path)), coverage=True), 2, jobs=2)
    assert {**to_json(one, one_examples), "seconds": 0} == {**to_json(two, two_examples), "seconds": 0}
    assert one.exit_code == 1 and one_examples


def test_a_card_lost_doubled_or_misplaced_is_told_alike_by_check_and_verify():
    """One test of "no card made or lost" (engine.accounting.cards_accounted) for check's
    playouts and verify's states: the same message for the same broken state."""
    from interpreter.engine.accounting import cards_accounted
    from interpreter.verify.properties import Properties

    game = tiny()
    props = Properties(game, 2)

    def cards_finding(state):
        found = [why for kind, why, _ in props.check(state) if kind == "cards"]
        assert found == ([cards_accounted(state)] if cards_accounted(state) else [])
        return cards_accounted(state)

    state = game.new_game(2, 1)
    assert cards_finding(state) is None
    lost = state.copy()
    gone = lost.zones[0].pop()
    assert cards_finding(lost) == f"1 card in no zone: [{gone}]"
    doubled = state.copy()
    doubled.zones[0].append(doubled.zones[0][0])
    assert cards_finding(doubled) == f"1 card in more than one place: [{doubled.zones[0][0]}]"
    misplaced = state.copy()
    card = misplaced.zones[0][0]
    misplaced.loc[card] = 1
    assert cards_finding(misplaced) == f"card {card} is in zone instance 0, but the state places it in 1"


GAME = tiny()
CLASSES = card_classes(GAME)
GAME_STATE = GAME.new_game(2, seed=1)

# the values after the zones as the rules leave them: small numbers mostly, now and then a large
# one, a list, a tuple or a text (written the slow way: Encoder._tail)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-40, 210) | st.integers() | st.text(max_size=2),
    lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple),
    max_leaves=6,
)


@given(
    numbers=st.lists(st.integers(-40, 210), min_size=4, max_size=4),
    over=st.booleans(),
    values=st.lists(VALUES, min_size=6, max_size=6),
    out=st.frozensets(st.integers(0, 3), max_size=2),
    schedule=st.lists(VALUES, max_size=2),
)
def test_a_states_values_are_keyed_alike_written_at_once_or_one_by_one(numbers, over, values, out, schedule):
    encoder = encode_module.Encoder(GAME, CLASSES, 2)
    s = GAME_STATE.copy()
    s.round, s.dealer, s.phase, s.current = numbers
    s.over = over
    s.won_together, s.next_player, s.vars, s.totals, s.to_move, s.expiring = values
    s.out = out
    s.schedule = {f"s{i}": v for i, v in enumerate(schedule)}
    fast, slow = bytearray(b"zones" + bytes(encode_module.TAIL_ROOM)), bytearray(b"zones")
    encoder._tail(slow, s)
    end = encoder._small_tail(fast, 5, s)
    if end >= 0:
        assert fast[:end] == slow
    else:  # (a value it does not write: a large number, a text, lists three deep; or too many bytes)
        too_long = len(slow) > 5 + encode_module.TAIL_ROOM
        assert encode_module.MARSHALLED in slow[5:] or too_long or _deep([*values, schedule])


def _deep(values: list) -> bool:
    """Whether a list or tuple three deep is among ``values``."""
    seq = (list, tuple)
    return any(type(x) in seq and any(type(y) in seq and any(type(z) in seq for z in y) for y in x) for x in values)
