"""The Pygments lexer of the rules language: every shipped file lexes cleanly, and it is registered."""

from __future__ import annotations

import tomllib

import pytest
from pygments import highlight, lex
from pygments.formatters import TerminalFormatter
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String

from conftest import ROOT, RULESETS
from interpreter.text.lexer import RulesLexer


@pytest.mark.parametrize("path", sorted(RULESETS.glob("*.rules")), ids=lambda p: p.name)
def test_every_shipped_ruleset_lexes_without_errors(path):
    """No error tokens, and the tokens give back the text exactly."""
    text = path.read_text()
    tokens = list(lex(text, RulesLexer()))
    assert not [v for t, v in tokens if t in Error]
    assert "".join(v for _, v in tokens) == text


def test_tokens_have_the_roles_a_reader_expects():
    """Sections, rule words, options, names, numbers, texts and comments each get their token type."""
    text = 'game "T"  # a comment\nzones\n  hand  per player, owner sees\nround\n  deal 5 to hand\n'
    tokens = [(t, v) for t, v in lex(text, RulesLexer()) if v.strip()]
    kinds = dict((v, t) for t, v in tokens)
    assert kinds["game"] in Keyword and kinds["zones"] in Keyword
    assert kinds['"T"'] in String and kinds["# a comment"] in Comment
    assert kinds["per player"] in Keyword and kinds["owner sees"] in Keyword
    assert kinds["deal"] in Keyword and kinds["5"] in Number and kinds["hand"] in Name


def test_the_lexer_is_registered_as_a_pygments_entry_point():
    """pyproject.toml registers it, so `pygmentize -l rules` finds it once the package is installed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pygments.lexers"]["rules"] == "interpreter.text.lexer:RulesLexer"
    assert any(dep.startswith("pygments") for dep in project["optional-dependencies"]["highlight"])
    assert "rules" in RulesLexer.aliases and "*.rules" in RulesLexer.filenames


def test_highlighting_for_a_terminal_works():
    """The lexer drives any Pygments formatter (what `pygmentize -l rules` does)."""
    out = highlight((RULESETS / "poison.rules").read_text(), RulesLexer(), TerminalFormatter())
    assert "\x1b[" in out and "Poison" in out


def test_the_words_of_players_teams_and_copies_by_formula_are_keywords():
    """Teams, seats, `for each`, `%`, `x (...)` and a counter's visibility get their roles; Whist lexes cleanly."""
    text = (
        "teams of 2, partners across\n"
        "var bid per player, hidden = 0\n"
        "define s = sum total of player for each player where seat of player % 2 = 0\n"
        "define o = 2 seats left of across partner of dealer\n"
        "cards\n  coin  value 1 x (2 * players)\n"
    )
    tokens = [(t, v) for t, v in lex(text, RulesLexer()) if v.strip()]
    assert not [v for t, v in tokens if t in Error]
    roles = {v: t for t, v in tokens}
    assert roles["teams"] in Keyword.Declaration and roles["partners across"] in Keyword.Pseudo
    assert roles["hidden"] in Keyword.Pseudo
    for word in ("for", "each", "seat", "seats", "left", "across", "partner"):
        assert roles[word] in Keyword, word
    assert roles["%"] in Operator and roles["x"] in Operator.Word
    whist = (ROOT / "examples" / "classics" / "whist.rules").read_text()
    assert not [v for t, v in lex(whist, RulesLexer()) if t in Error]


def test_the_checks_section_and_its_three_kinds_of_line_are_keywords():
    """`checks` opens a section; always, never and sometimes are rule words."""
    text = "checks\n  always count hand <= 4\n  never x > 1\n  sometimes every hand is empty\n"
    tokens = [(t, v) for t, v in lex(text, RulesLexer()) if v.strip()]
    assert not [v for t, v in tokens if t in Error]
    roles = {v: t for t, v in tokens}
    assert roles["checks"] in Keyword.Declaration
    for word in ("always", "never", "sometimes"):
        assert roles[word] in Keyword.Reserved, word
