"""A deck shrunk from the command line: parameters for a card line's copies and a range's ends
(`value 1..values x (copies)`), laid out with `--set`'s values before the game is compiled, by
every command that takes --set; the IR of the defaults is the IR of old."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from interpreter.checker import check
from interpreter.engine.game import compile_ir
from interpreter.errors import ParameterError, RulesetError
from interpreter.language.deck_params import deck_params, with_params
from interpreter.loader import ir_from_text
from interpreter.verify import explore

RULES = """game "Deck params"
players 2..2
param values = 3
param copies = 2

cards
  card  color red | blue   value 1..values x (copies), 9
  joker value 0 x (copies * players)

zones
  hand  per player, owner sees
  pile  shared, public

round
  deal 2 to hand
  phase play
    move play card from hand to pile
    ends when every hand is empty

game
  rounds 1
  winner lowest total
"""


def deck(ir):
    game = compile_ir(ir)
    return sorted((c["type"], c.get("color"), c["value"]) for c in game.cards.json)


def test_the_defaults_lay_the_deck_out_as_a_number_would():
    ir = ir_from_text(RULES)
    assert deck_params(ir) == {"copies": 2, "values": 3}
    plain = ir_from_text(RULES.replace("1..values x (copies)", "1..3 x2").replace("copies * players", "2 * players"))
    assert deck(ir) == deck(plain)
    assert with_params(ir, {"values": "3"}) is ir  # (nothing changes: the IR itself)


def test_set_lays_the_deck_out_again_before_it_is_compiled():
    ir = ir_from_text(RULES)
    shrunk = with_params(ir, {"values": "1", "copies": "1"})
    cards = deck(shrunk)
    # a red 1, a blue 1 and the 9s (copies 1 each now), the jokers one per player
    assert cards == [
        ("card", "blue", 1),
        ("card", "blue", 9),
        ("card", "red", 1),
        ("card", "red", 9),
        ("joker", None, 0),
        ("joker", None, 0),
    ]
    grown = deck(with_params(ir, {"values": 5}))  # (a record's params are numbers)
    assert len(grown) == 2 * (5 * 2 + 1) + 2 * 2  # (2 colours of 5 values x2 and a 9; copies x players jokers)
    assert ir_from_text(RULES)["decks"] == ir["decks"]  # (the IR given is not changed)


@pytest.mark.parametrize(
    ("sets", "words"),
    [({"values": "0"}, "would be 1..0"), ({"copies": "two"}, "whole number"), ({"copies": "20000"}, "10,000")],
)
def test_a_value_the_deck_cannot_take_is_a_clear_error(sets, words):
    with pytest.raises(ParameterError, match=words):
        with_params(ir_from_text(RULES), sets)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (("param values = 3", "param values = 1 + players"), "not a whole number"),
        (("1..values", "1..vales"), "no parameter 'vales'"),
    ],
)
def test_the_deck_reads_only_parameters_that_are_numbers(change, words):
    with pytest.raises(RulesetError, match=words):
        ir_from_text(RULES.replace(*change))


def test_verify_explores_the_deck_set_shrinks(tmp_path):
    game = compile_ir(with_params(ir_from_text(RULES), {"values": "1", "copies": "1"}), coverage=True)
    result = explore(game, 2)
    assert result.complete and result.exit_code == 0
    # the command: the same figures, and the parameters said in its summary
    path = tmp_path / "deck.rules"
    path.write_text(RULES)
    proc = run_cli("verify", str(path), "--set", "values=1", "--set", "copies=1", "--format", "json", "--quiet")
    report = json.loads(proc.stdout)
    assert (report["distinct"], report["params"]) == (result.distinct, {"values": 1, "copies": 1})


def test_a_record_replays_with_the_deck_it_was_played_with(tmp_path):
    path = tmp_path / "deck.rules"
    path.write_text(RULES)
    records = tmp_path / "games.jsonl"
    sim = run_cli(
        "simulate", str(path), "--games", "2", "--set", "values=1", "--record", str(records), "--jobs", "1", "--quiet"
    )
    assert sim.returncode == 0, sim.stderr
    rec = json.loads(records.read_text().splitlines()[0])
    dealt = [c for rnd in rec["rounds"] for cards in rnd["deal"].values() for c in _cards(cards)]
    assert {c["value"] for c in dealt if c["type"] == "card"} <= {1, 9}
    proc = run_cli("replay", str(records), "--quiet")
    assert proc.returncode == 0, proc.stderr


def _cards(cards):
    for c in cards:
        if isinstance(c, list):
            yield from _cards(c)
        else:
            yield c


def test_check_counts_a_parameter_the_deck_reads_as_used(tmp_path):
    path = tmp_path / "deck.rules"
    path.write_text(RULES)
    report = check(str(path), games=0)
    assert not [f for f in report.findings if f.code == "unused-parameter"]


def test_a_game_compiled_for_other_deck_values_refuses_them():
    # (tune, or a program calling the library, giving a deck parameter without laying the deck out)
    game = compile_ir(ir_from_text(RULES))
    assert game.new_game(2, 0, {"values": "3"}).params["values"] == 3
    with pytest.raises(ParameterError, match="compiled with values=3"):
        game.new_game(2, 0, {"values": "1"})
