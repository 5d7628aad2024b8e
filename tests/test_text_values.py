"""`render` and `show` on the values constructs: teams and team winners in rulebook sentences,
definitions over players, teams and functions that read as English, and `show`'s IR that loads
back and plays the same game."""

from __future__ import annotations

import json

import pytest

import interpreter
from conftest import ROOT, run_cli
from interpreter.engine.records import dumps, record
from interpreter.loader import ir_from_text
from interpreter.text.render import render

WHIST = ROOT / "examples" / "classics" / "whist.rules"
DEFINES = """
define leader_total = max total of player for each player
define chips_left = sum chips of player for each player where player != dealer
define anyone_out = some player where count hand of it = 0
define all_in = every player where chips of it > 0
define active = count player where chips of it > 0
define ahead = some team where total of it > total of team of dealer
define side_cards = count card in won of team of dealer
define beats(a, b) = suit of a = suit of b and rank of a > rank of b
define last_beats_first = beats(last card in trick, first card in trick)
define low_seat = seat of dealer >= 0
"""


@pytest.fixture(scope="module")
def values_text() -> str:
    text = WHIST.read_text().replace(
        "var trump_seen per round = none", "var trump_seen per round = none\nvar chips per player, owner sees = 3"
    )
    return text.replace(
        "define led = suit of first card in trick else none",
        "define led = suit of first card in trick else none" + DEFINES,
    )


def rulebook(text: str) -> str:
    return " ".join(render(ir_from_text(text, "whist.rules")).split())  # one line: sentences may wrap


def test_the_rulebook_says_who_sits_with_whom_and_that_teams_win_together():
    book = rulebook(WHIST.read_text())
    assert (
        "For 4 players, in 2 teams of 2; partners sit across the table from each other: "
        "seats 0 and 2 against seats 1 and 3." in book
    )
    assert "Seats are numbered clockwise from 0, the first dealer's." in book
    assert "each team scores the sum of:" in book
    assert (
        "- The number of piles in the won of the players of the team − 6, "
        "if the number of piles in the won of the players of the team is more than 6." in book
    )
    assert "A team's points are written on its first (lowest) seat." in book
    assert "The game lasts 1 round (`rounds`)" in book  # one round, not "1 rounds"
    assert (
        "the team with the highest total (its players' totals together) wins, "
        "and all its players with it; tied teams share the win." in book
    )
    assert "*team*" not in book  # the team a team rule scores is "the team", in its condition too


def test_definitions_over_players_teams_and_functions_read_as_sentences(values_text):
    book = rulebook(values_text)
    for sentence in (
        "*leader total* is the highest total of any player",
        "*chips left* is the sum of the chips of every player, "
        "counting a player only when that player is not the dealer",
        "*anyone out* is whether there is a player for whom the number of cards in the hand of that player is 0",
        "*all in* is whether, for every player, the chips of that player is more than 0",
        "*active* is the number of players for whom the chips of that player is more than 0",
        "*ahead* is whether there is a team for which the total of that team "
        "is more than the total of the team of the dealer",
        "*side cards* is the number of cards in the won of the players of the team of the dealer",
        "*beats* of a card *a* and a card *b* is whether the suit of *a* is the suit of *b*",
        "*last beats first* is *beats* of the last card in the trick and the first card in the trick",
        "*low seat* is whether the seat number of the dealer is at least 0",
        "Chips: one for each player, seen by its owner only, starting at 3",
    ):
        assert sentence in book, sentence
    definitions = book.split("### Definitions")[1].split("## Parameters")[0]
    assert "(from 0)" not in definitions and " of it " not in definitions


def test_show_prints_the_new_ir_and_it_loads_back_to_the_same_game(tmp_path, values_text):
    path = tmp_path / "whist.rules"
    path.write_text(values_text)
    result = run_cli("show", str(path))
    assert result.returncode == 0, result.stderr
    ir = json.loads(result.stdout)
    defines = {d["name"]: d for d in ir["defines"]}
    assert [p["name"] for p in defines["beats"]["params"]] == ["a", "b"]
    assert [p["type"] for p in defines["beats"]["params"]] == ["card", "card"]
    assert (ir["teams"]["size"], ir["teams"]["seating"], ir["teams"]["at"]) == (2, "across", f"{path}:8:1")
    assert {v["name"]: v.get("visibility") for v in ir["vars"]}["chips"] == "owner"
    assert ir["round"]["phases"][0]["first_player"]["seat"]["op"] == "seat_offset"
    (tmp_path / "whist.json").write_text(result.stdout)
    games = [interpreter.load(tmp_path / "whist.json"), interpreter.load(path)]
    played = []
    for game in games:
        state = game.new_game(4, 7)
        while not state.is_over:
            state.apply(state.legal_moves()[len(state.legal_moves()) // 2])
        played.append(record(state))
    where = {"source": "", "origin": None}  # (where the rules were read from differs; the game may not)
    assert dumps({**played[0], **where}) == dumps({**played[1], **where})


def test_a_derived_attribute_is_shown_as_a_definition_of_a_card_and_an_attribute(tmp_path):
    text = WHIST.read_text().replace(
        "order cards by rank", "order cards by rank\ndefine heads of card = if rank of card > 10 then 2 else 1"
    )
    path = tmp_path / "h.rules"
    path.write_text(text)
    ir = json.loads(run_cli("show", str(path)).stdout)
    assert ir["attributes"]["heads"] == {"kind": "number", "derived": True}
    (heads,) = [d for d in ir["defines"] if d["name"] == "heads"]
    assert heads["of"] == "card" and heads["body"]["op"] == "if"
