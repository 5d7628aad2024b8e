"""`ruleset diff A B`: exactly what B changes, in the rulebook's words; nothing for the same rules."""

from __future__ import annotations

import json

from conftest import RULESETS, run_cli
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.text.diff import diff, diff_text
from interpreter.text.fmt import format_text

POISON = RULESETS / "poison.rules"


def test_the_five_card_variant_diffs_to_exactly_its_overrides():
    """The name, the draw_pile zone, the deal line, the new trigger and the end condition: nothing else."""
    changes = diff(ir_from_path(POISON), ir_from_path(RULESETS / "poison-five-card.rules"))
    assert [(c.change, c.item.kind, c.item.key) for c in changes] == [
        ("changed", "name", ""),
        ("added", "zone", "draw_pile"),
        ("changed", "deal", "hand"),
        ("added", "trigger", "play/play/null#1"),
        ("changed", "end", "play"),
    ]


def test_the_variant_changes_read_as_rulebook_words():
    """Each change says what the rule was and what it becomes, and the variant's note with it."""
    result = run_cli("diff", "rulesets/poison.rules", "rulesets/poison-five-card.rules")
    assert result.returncode == 1  # (the rules differ)
    lines = [x for x in result.stdout.splitlines() if not x.startswith(" ")]
    assert lines == [
        "changed  Name: Poison -> Poison, five-card variant",
        "added    Zone: draw pile: one, shared; face down: nobody sees it",
        "changed  Deal into the hand: all cards, one at a time from the dealer's left, into each player's hand; "
        "when the number of players is 3, deal as if for 4 players and remove the spare hands unseen -> "
        "5 cards each, one at a time from the dealer's left, into each player's hand; "
        "the rest form the draw pile, face down",
        "added    Phase play, trigger: After each play: Draw 1 card from the draw pile to the player's hand, "
        "while any are left.",
        "changed  Phase play, end: when every player's hand is empty -> "
        "when the draw pile is empty and every player's hand is empty",
    ]
    assert "         note: Whoever plays a card then draws a new one, while the pile lasts." in result.stdout


def test_a_ruleset_against_itself_is_empty():
    """`diff A A` prints nothing, for every shipped ruleset."""
    for path in sorted(RULESETS.glob("*.rules")):
        result = run_cli("diff", str(path), str(path))
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_positions_and_comments_are_not_changes(tmp_path):
    """The same rules laid out differently, with other comments, at another path: no change."""
    moved = tmp_path / "elsewhere.rules"
    text = format_text(POISON.read_text(), str(POISON)).replace("# Poison cards", "\n\n# Poison, the green cards")
    moved.write_text("# a copy\n\n" + text)
    assert diff(ir_from_path(POISON), ir_from_path(moved)) == []


def test_a_parameter_override_is_one_changed_parameter(tmp_path):
    """A variant that only raises the limit diffs to that one line."""
    variant = tmp_path / "high.rules"
    variant.write_text(f'extends "{POISON}"\nparam limit = 17\n')
    changes = diff(ir_from_path(POISON), ir_from_path(variant))
    assert diff_text(changes) == "changed  Parameter limit: 13 -> 17\n"


def test_removed_rules_are_listed():
    """What A has and B lacks is `removed`, in A's words."""
    base = ir_from_path(RULESETS / "poison-five-card.rules")
    changes = diff(base, ir_from_path(POISON))
    assert ("removed", "zone") in [(c.change, c.item.kind) for c in changes]
    assert "removed  Phase play, trigger: After each play: Draw 1 card" in diff_text(changes)


def test_json_gives_the_changes_as_data_without_positions():
    """`--format json`: each change with its kind, key, words before and after, and the IR (no `at`)."""
    result = run_cli("diff", "rulesets/poison.rules", "rulesets/poison-five-card.rules", "--format", "json")
    assert result.returncode == 1  # (the rules differ)
    data = json.loads(result.stdout)
    assert data["a"] == "rulesets/poison.rules"
    kinds = [(c["change"], c["kind"]) for c in data["changes"]]
    assert kinds == [
        ("changed", "name"),
        ("added", "zone"),
        ("changed", "deal"),
        ("added", "trigger"),
        ("changed", "end"),
    ]
    deal = data["changes"][2]
    assert deal["before_ir"]["amount"] is None and deal["after_ir"]["amount"] == {"op": "num", "value": 5}
    assert deal["after_ir"]["rest"] == "draw_pile"
    assert '"at"' not in result.stdout
    same = run_cli("diff", "rulesets/poison.rules", "rulesets/poison.rules", "--format", "json")
    assert json.loads(same.stdout)["changes"] == []


def test_guards_and_cards_are_compared_one_by_one():
    """A changed card line and an added guard are each one change."""
    base = 'game "T"\nplayers 2..3\ncards\n  gem value 1..3\nzones\n  hand per player\n  pot shared\nround\n'
    base += "  deal all to hand\n  phase p\n    move m card from hand to pot\n      allow value of card > 1\n"
    base += "    ends when every hand is empty\n  score\n    count hand of player\n"
    base += "game\n  rounds 1\n  winner lowest total\n"
    other = base.replace("value 1..3", "value 1..4").replace(
        "      allow value of card > 1\n", "      allow value of card > 1\n      require count pot < 3\n"
    )
    changes = diff(ir_from_text(base, "a.rules"), ir_from_text(other, "b.rules"))
    text = diff_text(changes)
    assert "changed  Cards: gem: value 1 to 3 — 3 cards -> gem: value 1 to 4 — 4 cards" in text
    assert "added    Phase p, move m, require: the number of cards in the pot is less than 3" in text
    assert len(changes) == 2


def test_a_missing_file_is_an_error_not_a_traceback():
    """A bad path gives a message and exit code 2."""
    result = run_cli("diff", "rulesets/poison.rules", "no-such.rules")
    assert result.returncode == 2 and "no such file" in result.stderr and "Traceback" not in result.stderr
