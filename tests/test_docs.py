"""Every example of the language reference (docs/language.md) parses; whole rulesets also play."""

from __future__ import annotations

import re

import pytest
from lark import Tree

import interpreter
from conftest import ROOT
from interpreter.checker import check
from interpreter.language.parser import parse
from interpreter.simulation.simulate import simulate

DOC = (ROOT / "docs" / "language.md").read_text()
BLOCKS = re.findall(r"```rules\n(.*?)```", DOC, flags=re.S)


def test_the_reference_has_examples():
    assert len(BLOCKS) >= 15


@pytest.mark.parametrize("block", BLOCKS, ids=[f"example{i}" for i in range(len(BLOCKS))])
def test_each_example_parses(block):
    parse(block, "docs/language.md")


def test_the_whole_rulesets_of_the_reference_load_and_play():
    whole = [b for b in BLOCKS if b.startswith("game ") and "\ncards" in b and "\nround" in b]
    assert whole
    for block in whole:
        game = interpreter.loads(block, "docs/language.md")
        assert simulate(game, game.min_players, 2, seed=1)["games"] == 2


def test_the_variant_example_is_the_shipped_five_card_variant_in_short(tmp_path):
    block = next(b for b in BLOCKS if b.startswith('extends "poison.rules"'))
    (tmp_path / "poison.rules").write_text((ROOT / "rulesets" / "poison.rules").read_text())
    (tmp_path / "v.rules").write_text(block)
    ours = interpreter.ir_from_path(tmp_path / "v.rules")
    shipped = interpreter.ir_from_path(ROOT / "rulesets" / "poison-five-card.rules")

    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("at", "note", "source", "origin")}
        if isinstance(node, list):
            return [strip(x) for x in node]
        return node

    assert strip(ours) == strip(shipped)


def table(heading: str) -> list[list[str]]:
    """The rows (after the header) of the first table under a heading of docs/language.md, cell by cell."""
    lines = DOC.split(heading, 1)[1].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[first + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def code(cell: str) -> str:
    """The text of an inline code cell (`x` or ``x``; `` `x` `` for backquotes inside, as Markdown
    drops the spaces)."""
    text = re.fullmatch(r"(``?)(.*?)\1", cell).group(2)
    return text[1:-1] if len(text) > 2 and text[0] == text[-1] == " " else text


PRECEDENCE = [row for row in table("### How an expression groups") if row[2]]


@pytest.mark.parametrize("row", PRECEDENCE, ids=[code(r[2]) for r in PRECEDENCE])
def test_the_precedence_table_says_how_the_parser_groups(row):
    """Each example parses exactly as its parenthesised meaning."""

    def tree(expression: str):
        return unwrap(parse(f"define x = {expression}\n", "docs/language.md").children[0].children[-1])

    def unwrap(node):  # the parser marks what was written in parentheses (for fmt): the grouping alone counts
        if not isinstance(node, Tree):
            return node
        if node.data == "paren":
            return unwrap(node.children[0])
        return Tree(node.data, [unwrap(c) for c in node.children])

    assert tree(code(row[2])) == tree(code(row[3]))


def test_the_precedence_table_goes_from_loosest_to_tightest():
    assert len(PRECEDENCE) >= 10
    assert PRECEDENCE[0][0] == "loosest" and table("### How an expression groups")[-1][0] == "tightest"


# Each row of the common errors table, made in the smallest whole ruleset of the page.
MISTAKES = {
    "no zone 'piles'": ("from hand to pile", "from hand to piles"),
    "unknown name 'colour'": ("ends when every hand is empty", "ends when colour of first card in pile = red"),
    "did you mean 'phase'?": ("  phase play", "  phaze play"),
    "`best` is a word of the language (`best card in trick`), reserved": (
        "  pile  shared, public\n\nround\n  deal all to hand, one at a time\n  phase play\n"
        "    move play card from hand to pile\n    ends when every hand is empty",
        "  pile  shared, public\nvar best = none\n\nround\n  deal all to hand, one at a time\n  phase play\n"
        "    move play card from hand to pile\n    ends when best is none",
    ),
    "names are lower case letters, digits and underscores": ("  hand  per", "  Hand  per"),
    "a range of players is written with two dots": ("players 2..4", "players 2-4"),
    "a move names its card": ("move play card from", "move play from"),
    "a deal gives a number of cards to a zone, without the word": (
        "deal all to hand, one at a time",
        "deal 4 cards to each hand",
    ),
    "a parameter needs `=` and a default": ("players 2..4", "players 2..4\nparam limit 20"),
    "a scoring rule over each card needs a colon before its points": (
        "    count hand of player",
        "    each card in hand of player -1",
    ),
    "a section name (cards, zones, round, game) must be followed by its indented lines": (
        "zones\n  hand",
        "zones hand",
    ),
    "indentation does not match any enclosing block": ("    ends when", "   ends when"),
    "expected a number, got a zone": ("    count hand of player", "    hand of player"),
    "the game does not say how many rounds it has": ("game\n  rounds 1\n  winner highest total\n", ""),
    "the deal cannot be made": ("deal all to hand, one at a time", "deal 20 to hand"),
    "is never used": ("players 2..4", "players 2..4\nparam limit = 20"),
    "nobody can move in phase": (
        "move play card from hand to pile",
        "move play card from hand to pile\n      allow color of card = red",
    ),
    "arithmetic takes numbers, not a player": ("    count hand of player", "    player + 1"),
    "`where` takes the rest of the expression as its condition": (
        "    count hand of player",
        "    count card in hand of player where color of it = red + 1",
    ),
    "nobody sits across the table with 3 players": (
        "    move play card from hand to pile\n",
        "    first player is across dealer\n    move play card from hand to pile\n",
    ),
    "cannot sit as teams of 2": ("players 2..4", "players 2..4\nteams of 2"),
    "takes 2 arguments": (
        "players 2..4",
        "players 2..4\ndefine beats(a, b) = rank of a > rank of b\ndefine x = beats(first card in pile)",
    ),
    "a copy count is known before the game starts": ("rank 1..5", "rank 1..5 x (count pile)"),
    "'player' is not known here": (
        "    ends when every hand is empty\n",
        "    ends when every hand is empty\n    at end\n      move card in hand of player to pile\n",
    ),
    "a set of cards has at least 1 card": ("move play card from hand to pile", "move play 0 cards from hand to pile"),
    "which its player does not see": ("  hand  per player, owner sees", "  hand  per player, hidden"),
}


def test_the_common_errors_table_lists_each_tested_mistake():
    listed = [code(row[0].split(" (with")[0]) for row in table("## Common errors and their fixes")]
    assert listed == list(MISTAKES)


@pytest.mark.parametrize("message", list(MISTAKES))
def test_each_common_error_is_what_check_says_for_that_mistake(message, tmp_path):
    smallest = next(b for b in BLOCKS if b.startswith('game "Snap-ish"'))
    old, new = MISTAKES[message]
    assert old in smallest
    path = tmp_path / "mistake.rules"
    path.write_text(smallest.replace(old, new, 1))
    report = check(str(path), games=20, seed=1)
    said = [f"{f.message} {f.hint or ''}" for f in report.findings if f.severity in ("error", "warning")]
    assert any(message in s for s in said), said


def test_the_error_of_a_choice_among_unseen_cards_is_the_one_shown():
    """*Only cards the player sees*: its example's error, word for word, made in the smallest
    ruleset of the page with the example's zone, deal and move."""
    from interpreter.errors import RulesetError

    smallest = next(b for b in BLOCKS if b.startswith('game "Snap-ish"'))
    rules = (
        smallest.replace("  pile  shared, public\n", "  pile  shared, public\n  stock  shared, hidden\n")
        .replace("deal all to hand, one at a time", "deal 2 to hand, rest to stock")
        .replace("    move play", "    move take 2 cards from stock to hand\n    move play")
    )
    section = DOC.split("### Only cards the player sees", 1)[1]
    shown = re.search(r"```text\n(.*?)```", section, flags=re.S).group(1).rstrip("\n")
    with pytest.raises(RulesetError) as err:
        interpreter.loads(rules, "take.rules")
    assert err.value.format() == shown
