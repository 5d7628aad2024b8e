"""Each way of misusing players, seats, teams, private counters, definitions with parameters,
derived attributes and copy counts gives a positioned error: file:line:col, the line with a caret
under the misuse, what was expected, and a hint."""

from __future__ import annotations

import pytest

import interpreter
from conftest import ROOT, RULESETS, run_cli
from interpreter.errors import DeclarationError, RulesetError, RulesTypeError

WHIST = (ROOT / "examples" / "classics" / "whist.rules").read_text()
POISON = (RULESETS / "poison.rules").read_text()
LED = "define led = suit of first card in trick else none"


def misuse(base: str, old: str, new: str) -> tuple[str, RulesetError]:
    assert old in base, old
    text = base.replace(old, new, 1)
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, "bad.rules")
    return text, info.value


def position(text: str, needle: str, after: int = 0) -> tuple[int, int]:
    """The 1-based line and column of ``needle``, the first after offset ``after``."""
    start = text.index(needle, after)
    return text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1


# (name, base, replaced, replacement, the text the caret points at, error class, words of the
# message, words of the hint)
CASES = [
    (
        "a player in arithmetic",
        WHIST,
        "next player of winning",
        "next player of winning + 1",
        "player of winning + 1",
        RulesTypeError,
        "arithmetic takes numbers, not a player",
        "left of P",
    ),
    (
        "a player modulo a number",
        WHIST,
        LED,
        LED + "\ndefine z = dealer % 2",
        "dealer % 2",
        RulesTypeError,
        "not a player",
        "seat of P",
    ),
    (
        "a seat number where a player goes",
        WHIST,
        "first player is left of dealer",
        "first player is 3",
        "3\n",
        RulesTypeError,
        "expected a player, got a number",
        "seats left of dealer",
    ),
    (
        "seat of a card",
        WHIST,
        LED,
        LED + "\ndefine z = seat of first card in trick",
        "first card in trick\n",
        RulesTypeError,
        "`seat of` is said of a player, not of a card",
        "name a player",
    ),
    (
        "seats counted up",
        WHIST,
        LED,
        LED + "\ndefine z = 2 seats up of dealer",
        "2 seats up",
        RulesTypeError,
        "`left` or `right`, not 'up'",
        "2 seats left of dealer",
    ),
    (
        "for each card",
        WHIST,
        LED,
        LED + "\ndefine z = sum rank of card for each card",
        "sum rank of card for each card",
        RulesTypeError,
        "goes over `player` or `team`, not 'card'",
        "sum of ATTRIBUTE in ZONE",
    ),
    (
        "the maximum of teams",
        WHIST,
        LED,
        LED + "\ndefine z = max team of player for each player",
        "team of player for",
        RulesTypeError,
        "`max` adds or compares numbers, not a team",
        "total of player",
    ),
    (
        "every player without a condition",
        WHIST,
        LED,
        LED + "\ndefine z = every player",
        "every player",
        RulesTypeError,
        "needs a condition",
        "every player where",
    ),
    (
        "across with an odd number of players",
        POISON,
        "phase play\n",
        "phase play\n    first player is across dealer\n",
        "across dealer",
        RulesTypeError,
        "nobody sits across the table with 3 players",
        "2 seats left of P",
    ),
    (
        "teams that do not divide every player count",
        WHIST,
        "players 4..4",
        "players 4..6",
        "teams of 2",
        DeclarationError,
        "5 players cannot sit as teams of 2",
        "multiple of 2",
    ),
    (
        "teams of three among four",
        WHIST,
        "teams of 2, partners across",
        "teams of 3, partners across",
        "teams of 3",
        DeclarationError,
        "4 players cannot sit as teams of 3",
        "players 6..",
    ),
    (
        "team words without teams",
        WHIST,
        "teams of 2, partners across\n",
        "\n",
        "team: count",
        RulesTypeError,
        "there are no teams in this game",
        "teams of 2, partners across",
    ),
    (
        "a partner in teams of three",
        WHIST.replace("players 4..4", "players 6..6"),
        "teams of 2, partners across",
        "teams of 3, partners across\ndefine z = partner of dealer",
        "partner of dealer",
        RulesTypeError,
        "team of 2; these teams have 3",
        "team of P",
    ),
    (
        "a shared counter that only its owner sees",
        WHIST,
        "var trump per round = none",
        "var trump per round, owner sees = none",
        "var trump",
        DeclarationError,
        "not kept per player",
        "hidden",
    ),
    (
        "a derived attribute that reads a zone",
        WHIST,
        LED,
        LED + "\ndefine heads of card = rank of first card in hand of dealer",
        "hand of dealer",
        DeclarationError,
        "computed from the card alone",
        "define NAME(c)",
    ),
    (
        "a derived attribute that reads a total",
        WHIST,
        LED,
        LED + "\ndefine heads of card = total of dealer",
        "total of dealer",
        DeclarationError,
        "computed from the card alone",
        "define NAME(c)",
    ),
    (
        "a derived attribute that is a truth value",
        WHIST,
        LED,
        LED + "\ndefine high of card = rank of card > 10",
        "rank of card > 10",
        RulesTypeError,
        "a number or a name, not a bool",
        "if CONDITION then 1 else 0",
    ),
    (
        "a derived attribute named as a printed one",
        WHIST,
        LED,
        LED + "\ndefine suit of card = 3",
        "define suit of card",
        DeclarationError,
        "'suit' is already an attribute",
        "another name",
    ),
    (
        "a function called with too few arguments",
        WHIST,
        LED,
        LED + "\ndefine beats(a, b) = rank of a > rank of b\ndefine z = beats(first card in trick)",
        "beats(first card in trick)",
        RulesTypeError,
        "beats takes 2 arguments (a, b), not 1",
        "beats(a, b)",
    ),
    (
        "a function called with a player for a card",
        WHIST,
        LED,
        LED + "\ndefine beats(a, b) = rank of a > rank of b\ndefine z = beats(first card in trick, dealer)",
        "dealer)",
        RulesTypeError,
        "beats takes a card as 'b', not a player",
        "its use in the body",
    ),
    (
        "a parameter whose use tells nothing",
        WHIST,
        LED,
        LED + "\ndefine same(x) = x",
        "x) = x",
        RulesTypeError,
        "does not tell what it is",
        "declare its type: `same(x card)`",
    ),
    (
        "a function called without arguments",
        WHIST,
        LED,
        LED + "\ndefine beats(a, b) = rank of a > rank of b\ndefine z = beats",
        "beats\n",
        RulesTypeError,
        "takes arguments",
        "a value for each parameter",
    ),
    (
        "a copy count that reads a zone",
        WHIST,
        "rank 2..14",
        "rank 2..14 x (count trick)",
        "trick)",
        DeclarationError,
        "a copy count is known before the game starts",
        "2 * players",
    ),
    (
        "a copy count that reads a player",
        WHIST,
        "rank 2..14",
        "rank 2..14 x (seat of dealer)",
        "seat of dealer)",
        DeclarationError,
        "number of players, parameters and numbers only",
        "2 * players",
    ),
    (
        "a copy count below zero",
        WHIST,
        "rank 2..14",
        "rank 2..14 x (players - 5)",
        "players - 5",
        DeclarationError,
        "with 4 players this gives -1 copies",
        "players 4..4",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_misuse_is_named_at_its_place_with_a_hint(case) -> None:
    _, base, old, new, at, kind, said, hint = case
    text, err = misuse(base, old, new)
    assert isinstance(err, kind), err.format()
    assert (err.span.line, err.span.col) == position(text, at, base.index(old)), err.format()
    assert said in err.message, err.format()
    shown = err.format().splitlines()
    assert shown[0].startswith(f"bad.rules:{err.span.line}:{err.span.col}: error: ")
    assert shown[2].strip() == "^"
    assert err.hint and hint in err.hint, err.format()  # every misuse says what to write instead


def test_a_bad_copy_count_is_the_only_error_check_reports(tmp_path) -> None:
    """The card line stands with one copy, so its attributes are not reported unknown after it."""
    path = tmp_path / "bad.rules"
    path.write_text(WHIST.replace("rank 2..14", "rank 2..14 x (count trick)", 1))
    result = run_cli("check", str(path))
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout + result.stderr
    line, col = position(path.read_text(), "trick)")
    assert f"bad.rules:{line}:{col}: error: a copy count is known before the game starts" in out
    assert "hint: write a formula of `players`" in out
    assert out.count(": error:") == 1, out
    assert "Traceback" not in out
