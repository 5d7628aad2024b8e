"""Bad rulesets get a positioned error (file:line:col, the line, a caret, a hint), never a traceback."""

from __future__ import annotations

import re

import pytest

import interpreter
from conftest import ROOT, RULESETS
from interpreter.checker import check
from interpreter.errors import (
    DeclarationError,
    ReadError,
    RulesetError,
    RulesSyntaxError,
    RulesTypeError,
    UnknownNameError,
)

BASE = (RULESETS / "poison.rules").read_text()


def error_of(text: str, file: str = "bad.rules") -> RulesetError:
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, file)
    return info.value


def line_col(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """The 1-based line and column of the ``nth`` occurrence of ``needle``."""
    start = -1
    for _ in range(nth + 1):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start) + 1
    return line, start - (text.rfind("\n", 0, start) + 1) + 1


def test_an_unknown_name_says_where_and_suggests_the_near_one():
    text = BASE.replace("allow color of target = color of card", "allow colour of target = color of card")
    err = error_of(text)
    assert isinstance(err, UnknownNameError)
    assert (err.span.line, err.span.col) == line_col(text, "colour")
    assert "did you mean 'color'" in err.format()
    shown = err.format().splitlines()
    assert shown[0].startswith(f"bad.rules:{err.span.line}:{err.span.col}: error: unknown name 'colour'")
    assert shown[1].strip().startswith("allow colour of target")
    assert shown[2].index("^") - 4 == shown[1].index("colour") - 4


def test_an_unknown_zone_in_a_move_is_named():
    text = BASE.replace("from hand to cauldron", "from hand to caudron")
    err = error_of(text)
    assert isinstance(err, UnknownNameError) and "no zone 'caudron'" in err.message
    assert "did you mean 'cauldron'" in err.format()


def test_a_number_where_a_card_belongs_is_a_type_error():
    text = BASE.replace("allow card is poison", "allow 3 is poison")
    err = error_of(text)
    assert isinstance(err, RulesTypeError)
    assert err.span.line == line_col(text, "allow 3 is poison")[0]


def test_comparing_a_card_attribute_with_a_number_of_another_kind_is_a_type_error():
    text = BASE.replace("sum of value in target > limit", "sum of color in target > limit")
    err = error_of(text)
    assert isinstance(err, RulesTypeError) and "sum needs a number attribute" in err.message


def test_a_number_where_a_name_belongs_is_a_syntax_error_with_what_was_expected():
    text = BASE.replace("cauldron   3, public", "3 cauldron, public")
    err = error_of(text)
    assert isinstance(err, RulesSyntaxError)
    assert (err.span.line, err.span.col) == line_col(text, "3 cauldron")
    assert "expected" in err.message


def test_a_missing_section_is_named():
    text = BASE[: BASE.index("\ngame\n")]
    err = error_of(text)
    assert isinstance(err, DeclarationError) and "rounds" in err.message
    assert "game" in err.format()


def test_a_ruleset_without_cards_is_refused_with_a_hint():
    err = error_of('game "X"\nplayers 2..4\n')
    assert "no cards" in err.message and err.hint


def test_a_common_mistake_gets_its_hint():
    err = error_of(BASE.replace("players 3..6", "players 3-6"))
    assert isinstance(err, RulesSyntaxError)
    assert "3..6" in err.hint


def test_one_player_count_reads_as_english_and_gets_the_ranges_hint():
    """`players 4` (a newcomer's first line): "unexpected end of the line" (not "unexpected the end
    of the line"), and the hint writes the range, `4..4` for exactly four."""
    err = error_of(BASE.replace("players 3..6", "players 4"))
    assert err.message == "unexpected end of the line; expected `..`"
    assert "`players 4..4`: exactly four" in err.hint


def test_a_bad_indentation_is_a_positioned_syntax_error():
    text = BASE.replace("      allow card is poison", "     allow card is poison")
    err = error_of(text)
    assert isinstance(err, RulesSyntaxError)
    assert err.span.line == line_col(text, "     allow card is poison")[0]


def test_an_empty_file_is_a_read_error(tmp_path):
    path = tmp_path / "empty.rules"
    path.write_text("  \n")
    with pytest.raises(ReadError, match="is empty"):
        interpreter.load(path)


def test_a_file_that_is_not_utf8_is_a_read_error_at_the_bad_byte(tmp_path):
    path = tmp_path / "latin.rules"
    path.write_bytes(b'game "Po\xefson"\n')
    with pytest.raises(ReadError) as info:
        interpreter.load(path)
    assert "not UTF-8" in info.value.message
    assert (info.value.span.line, info.value.span.col) == (1, 9)


def test_a_missing_file_and_a_directory_are_read_errors(tmp_path):
    with pytest.raises(ReadError, match="no such file"):
        interpreter.load(tmp_path / "nope.rules")
    with pytest.raises(ReadError, match="is a directory"):
        interpreter.load(tmp_path)


def test_a_repeated_declaration_is_refused():
    err = error_of(BASE.replace("param limit = 13", "param limit = 13\nparam limit = 14"))
    assert isinstance(err, DeclarationError) and "declared twice" in err.message


POISON_RULE = "    each poison in collected of player: -2\n"


def test_two_scoring_rules_over_the_same_cards_are_told_to_differ_by_a_where():
    """A scoring rule is known by what it scores; the second over the same cards is refused, and the
    hint says how to keep both: a `where` that tells them apart."""
    text = BASE.replace(POISON_RULE, POISON_RULE + "    each poison in collected of player: -3 if round > 1\n")
    err = error_of(text)
    assert isinstance(err, DeclarationError) and "declared twice" in err.message
    assert (err.span.line, err.span.col) == line_col(text, "each poison", 1)
    assert "`each poison in collected of player where ATTRIBUTE of it = VALUE: POINTS`" in (err.hint or "")
    fixed = text.replace(": -3 if", " where value of it = 4: -3 if")
    assert len(interpreter.loads(fixed, "fixed.rules").ir["round"]["score"]) == 3


def test_two_scoring_rules_with_the_same_points_are_told_how_to_join_them():
    err = error_of(BASE.replace(POISON_RULE, POISON_RULE + "    1 if round > 1\n    1 if round > 2\n"))
    assert isinstance(err, DeclarationError) and "scoring rule '1' is declared twice" in err.message
    assert "`1 if A or B`" in (err.hint or ""), err.format()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("    ends when every hand is empty\n", "    ends when every hand is empty\n    ends when cauldron is empty\n"),
        ("  score\n", "  ends when every hand is empty\n  ends when cauldron is empty\n  score\n"),
        ("  rounds rounds\n", "  rounds rounds\n  ends when total of player > 9\n  ends when total of player < -9\n"),
    ],
    ids=["phase", "round", "game"],
)
def test_two_ends_when_lines_in_one_place_are_refused_with_a_hint_to_join_them(old, new):
    """A phase (or the round, or the game) with two `ends when` lines would leave the reader guessing
    whether both must hold: the second line is an error, with a hint to join them with `or`."""
    text = BASE.replace(old, new, 1)
    err = error_of(text)
    assert isinstance(err, DeclarationError) and "two `ends when` lines" in err.message
    assert (err.span.line, err.span.col) == line_col(text, "ends when", text[: text.index(new)].count("ends when") + 1)
    assert "`ends when A or B`" in err.hint


def test_a_variants_ends_when_replaces_its_bases(tmp_path):
    """One `ends when` per file: a variant's own line replaces the base's, it is not a second line."""
    (tmp_path / "poison.rules").write_text(BASE)
    variant = tmp_path / "v.rules"
    variant.write_text('extends "poison.rules"\ngame "V"\nround\n  phase play\n    ends when cauldron is empty\n')
    game = interpreter.load(variant)
    assert "cauldron" in str(game.ir["round"]["phases"][0]["ends"])


@pytest.mark.parametrize(
    ("old", "new", "hint"),
    [
        ("color red | blue", "color Red | blue", "write `red`, not `Red`"),
        ("allow card is poison", "allow card is Poison", "write `poison`, not `Poison`"),
        ("\nzones\n", "\nZones\n", "write `zones`, not `Zones`"),
        ("color of target = color of card", "color of target == color of card", "write `a = b`, not `a == b`"),
    ],
)
def test_a_capitalised_name_or_a_double_equals_gets_a_hint(old, new, hint):
    """`Red` is told that names are lower case, `==` that a comparison is one `=`."""
    err = error_of(BASE.replace(old, new, 1))
    assert isinstance(err, RulesSyntaxError)
    assert hint in (err.hint or ""), err.format()


@pytest.mark.parametrize(
    ("old", "typo", "keyword"),
    [
        ("\nzones\n", "zone", "zones"),
        ("  phase play", "phaze", "phase"),
        ("      allow card is poison", "alow", "allow"),
        ("    ends when every hand", "wen", "when"),
        ("winner highest total", "higest", "highest"),
    ],
)
def test_a_misspelt_keyword_gets_the_nearest_keyword_expected_there(old, typo, keyword):
    """As a misspelt name does: the keyword is one the parser would have taken at that place, even
    when the list of what was expected is cut short (`zones` is among the "5 more")."""
    text = BASE.replace(old, old.replace(keyword, typo), 1)
    err = error_of(text)
    assert isinstance(err, RulesSyntaxError)
    assert (err.span.line, err.span.col) == line_col(text, typo + (" " if typo != "zone" else "\n"))
    assert err.hint == f"did you mean '{keyword}'?", err.format()


@pytest.mark.parametrize("written", ["partners acros", "partner across"])
def test_a_keyword_of_two_words_is_suggested_whole(written):
    """`partners across|adjacent` is two keywords of two words each, not `partners (across` and `adjacent`."""
    whist = (ROOT / "examples" / "classics" / "whist.rules").read_text()
    err = error_of(whist.replace("partners across", written, 1))
    assert "expected `partners across` or `partners adjacent`" in err.message
    assert err.hint == "did you mean 'partners across'?", err.format()


def test_a_word_far_from_every_keyword_gets_no_guess():
    err = error_of(BASE.replace("  phase play", "  banana play", 1))
    assert isinstance(err, RulesSyntaxError) and "did you mean" not in (err.hint or ""), err.format()


def test_an_error_on_a_very_long_line_quotes_a_window_around_the_caret(tmp_path):
    """A line of a million characters is not echoed whole: a window, cut with `...`, caret under the place."""
    line = "x" * 5000 + " ==" + "y" * 5000
    err = error_of(f'game "X"\nplayers 2..4\n{line}\n')
    text = err.format()
    assert len(text) < 600, len(text)
    excerpt, caret = text.splitlines()[1:3]
    assert excerpt.strip().startswith("xxx") and excerpt.endswith("...")
    assert excerpt[caret.index("^")] == "x"  # the caret under the first character: column 1
    long_line = "param limit = 1" + " and 1" * 2000 + " == 2" + " and 2" * 2000  # (few operators: a syntax error)
    err = error_of(BASE.replace("param limit = 13", long_line))
    excerpt, caret = err.format().splitlines()[1:3]
    assert excerpt.strip().startswith("...") and excerpt.endswith("...")
    assert excerpt[caret.index("^") - 1 : caret.index("^") + 2] == " ==" or excerpt[caret.index("^")] == "="


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    """A file saved by Windows Notepad (a UTF-8 byte-order mark first) loads as the same rules."""
    path = tmp_path / "bom.rules"
    path.write_bytes(b"\xef\xbb\xbf" + BASE.encode("utf-8"))
    game = interpreter.load(path)
    assert (game.name, len(game.cards.json)) == ("Poison", len(interpreter.loads(BASE).cards.json))


def test_a_zone_named_as_the_deck_is_the_one_error_at_the_zone_with_its_hint(tmp_path):
    """A zone called `deck` (the first deck's name) is refused at the zone; the deck's cards are
    still read, so the rules naming their attributes (War's `rank`) add no "unknown name"."""
    text = re.sub(r"\bpot\b", "deck", (ROOT / "examples" / "classics" / "war.rules").read_text())
    err = error_of(text)
    assert isinstance(err, DeclarationError) and err.message == "the deck 'deck' has the name of a zone"
    assert (err.span.line, err.span.col) == line_col(text, "deck     shared, hidden")
    assert err.hint == "give the deck or the zone another name"
    path = tmp_path / "war.rules"
    path.write_text(text)
    report = check(str(path), games=0)
    assert [(f.message, f.at.line) for f in report.findings if f.severity == "error"] == [
        ("the deck 'deck' has the name of a zone", err.span.line)
    ]


@pytest.mark.parametrize(
    ("declared", "read"),
    [
        ("var best = none", "best is none"),
        ("var last per player = 0", "last of player = 0"),
        ("define count = 3", "count > 2"),
        ("param some = 1", "some = 1"),
    ],
)
def test_a_reserved_word_declared_as_a_name_is_told_reserved_where_it_is_read(declared, read):
    """`var best` parses (a name is expected there) but `best is none` reads `best CARDS`: the error
    points at the word, says it is reserved and on which line it was declared, and how to rename it."""
    text = BASE.replace("\nround\n", f"\n{declared}\nround\n", 1).replace(
        "allow card is poison", f"allow card is poison and {read}", 1
    )
    err = error_of(text)
    word = read.split()[0]
    assert isinstance(err, RulesSyntaxError)
    line, col = line_col(text, f"and {word}")
    assert (err.span.line, err.span.col) == (line, col + 4)
    assert f"`{word}` is a word of the language" in err.message, err.format()
    assert f"declared on line {line_col(text, declared)[0]}" in err.message
    assert f"`{word}_so_far`" in (err.hint or "")


def test_a_reserved_word_used_as_the_language_s_word_is_not_blamed():
    """A file that reads `best card in ...` and has an unrelated mistake gets the usual error."""
    err = error_of(BASE.replace("allow card is poison", "allow best card in cauldron is poison poison", 1))
    assert isinstance(err, RulesSyntaxError)
    assert "is a word of the language" not in err.message, err.format()
