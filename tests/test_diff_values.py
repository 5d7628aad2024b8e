"""`ruleset diff` on the values constructs: one change of each kind (teams, seating, a private
counter's visibility, a function's parameters, a derived attribute, a copy count, seat arithmetic,
a team scoring rule), each named as one change in rulebook words."""

from __future__ import annotations

import pytest

from conftest import ROOT
from interpreter.loader import ir_from_text
from interpreter.text.diff import diff

WHIST = (ROOT / "examples" / "classics" / "whist.rules").read_text()
LED = "define led = suit of first card in trick else none"
TEAM_RULE = "each team: count pile in won of team - 6 if count pile in won of team > 6"
EXTRA = LED + "\ndefine beats(a, b) = rank of a > rank of b\ndefine heads of card = if rank of card > 10 then 2 else 1"
BASE = WHIST.replace(LED, EXTRA).replace(
    "var trump per round = none", "var trump per round = none\nvar bid per player = 0"
)

CASES = [
    ("teams removed", "teams of 2, partners across\n", "", None),  # (needs the team words gone too)
    (
        "seating",
        "teams of 2, partners across",
        "teams of 2, partners adjacent",
        ("changed", "teams", "", "partners sit side by side: seats 0 and 1 against seats 2 and 3"),
    ),
    (
        "a counter made private",
        "var bid per player = 0",
        "var bid per player, owner sees = 0",
        ("changed", "variable", "bid", "seen by its owner only"),
    ),
    (
        "a function's parameters",
        "define beats(a, b) = rank of a > rank of b",
        "define beats(a, b) = rank of b > rank of a",
        ("changed", "definition", "beats", "whether the rank of b is more than the rank of a"),
    ),
    (
        "a derived attribute",
        "then 2 else 1",
        "then 3 else 1",
        ("changed", "definition", "heads", "is 3 if the card's rank is more than 10, else 1"),
    ),
    (
        "a copy count",
        "rank 2..14",
        "rank 2..14 x (players / 4)",
        ("changed", "cards", "deck/card", "rank 2 to 14, ×(the number of players ÷ 4) each"),
    ),
    (
        "seat arithmetic",
        "first player is left of dealer",
        "first player is 2 seats left of dealer",
        ("changed", "first player", "tricks", "the player 2 seats to the left of the dealer"),
    ),
    (
        "a team scoring rule",
        TEAM_RULE,
        TEAM_RULE + "\n    each team: 1 if count pile in won of team = 13",
        ("added", "score", None, "if the number of piles in the won of the players of the team is 13"),
    ),
]


@pytest.mark.parametrize("case", [c for c in CASES if c[3]], ids=lambda c: c[0])
def test_each_change_is_one_change_in_rulebook_words(case):
    _, old, new, (change, kind, key, words) = case
    assert old in BASE
    changes = diff(ir_from_text(BASE, "a.rules"), ir_from_text(BASE.replace(old, new, 1), "b.rules"))
    assert [(c.change, c.item.kind) for c in changes] == [(change, kind)], [c.as_text() for c in changes]
    (c,) = changes
    if key is not None:
        assert c.item.key == key
    assert words in c.as_text(), c.as_text()


def test_teams_added_are_one_added_item_with_who_sits_where():
    plain = BASE.replace("teams of 2, partners across\n", "").replace(TEAM_RULE, "count pile in won of player")
    plain = plain.replace("some team where", "some player where")
    teams = plain.replace("players 4..4\n", "players 4..4\nteams of 2, partners across\n")
    changes = diff(ir_from_text(plain, "a.rules"), ir_from_text(teams, "b.rules"))
    assert [(c.change, c.item.kind) for c in changes] == [("added", "teams")]
    assert "seats 0 and 2 against seats 1 and 3" in changes[0].as_text()
