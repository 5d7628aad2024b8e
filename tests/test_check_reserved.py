"""`check` on a name declared with a word of the language (`var best`): no rule can read it (a
reading is an error at the reading), so a name only set, or never read, is a warning at its
declaration with the hint to rename it."""

from __future__ import annotations

import pytest

from interpreter.checker import check

GAME = """game "Reserved"
players 2..3

cards
  card  suit red | blue   rank 1..6

zones
  hand  per player, owner sees
  pile  shared, public

DECLARED

round
  deal 2 to hand
  phase play
    move play card from hand to pile
    after play
      SET
    ends when every hand is empty
  score
    count hand of player

game
  rounds 1
  winner highest total
"""


@pytest.mark.parametrize(
    ("declared", "effect", "kind"),
    [
        ("var last = 0", "set last to rank of card", "variable"),
        ("var best = none", "set best to card", "variable"),
        ("param count = 2", "add 1 to tally", "parameter"),
    ],
)
def test_a_reserved_name_only_set_is_a_warning_that_says_how_to_rename_it(tmp_path, declared, effect, kind):
    path = tmp_path / "reserved.rules"
    text = GAME.replace("DECLARED", declared + ("\nvar tally = 0" if "tally" in effect else ""))
    path.write_text(text.replace("SET", effect))
    report = check(str(path), games=5, seed=1)
    name = declared.split()[1]
    found = [f for f in report.findings if f.code == "reserved-name"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].message.startswith(f"{kind} '{name}' can never be read: `{name}` is a word of the language")
    assert found[0].at.line == text.splitlines().index(declared) + 1
    assert f"`{name}_so_far`" in found[0].hint


def test_a_name_that_is_no_word_of_the_language_is_not_warned_of(tmp_path):
    path = tmp_path / "fine.rules"
    path.write_text(GAME.replace("DECLARED", "var latest = 0").replace("SET", "set latest to rank of card"))
    assert not [f for f in check(str(path), games=5, seed=1).findings if f.code == "reserved-name"]
