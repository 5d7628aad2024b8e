"""Fuzzed front end: whatever text comes in, it loads or raises our own error with a position.

Three sources of input: random text, random sequences of the grammar's own tokens, and
mutations of the shipped rulesets (truncated, a line dropped or doubled, words swapped,
numbers changed). Nothing but a RulesetError may escape: no RecursionError, KeyError,
VisitError or AttributeError from a stage that was not ready for what it got.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
from conftest import RULESETS
from interpreter.engine.game import compile_ir
from interpreter.errors import RulesetError
from interpreter.language.parser import parser
from interpreter.loader import ir_from_data

SHIPPED = sorted(RULESETS.glob("*.rules"))
# More examples for a longer hunt: RULESET_FUZZ_EXAMPLES=5000 python -m pytest tests/test_fuzz.py
EXAMPLES = int(os.environ.get("RULESET_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def loads_or_positioned_error(text: str, file: str = "<fuzz>") -> interpreter.Game | None:
    """Load ``text``; a RulesetError must carry a position. Anything else fails the test."""
    try:
        return interpreter.loads(text, file)
    except RulesetError as err:
        assert err.span is not None, f"error without a position: {err.message}"
        assert err.span.line >= 1 and err.span.col >= 1, err.span
        assert err.format().startswith(f"{err.span.shown()}: error: ")  # (a shipped file by its name)
        return None


# ---- strategies -----------------------------------------------------------------------------


@cache
def _terminal_strategies() -> tuple[st.SearchStrategy[str], ...]:
    """One strategy per terminal of the grammar: its literal text, or strings its regexp matches."""
    out = []
    for term in parser().terminals:
        if term.name.startswith("__IGNORE"):
            continue
        if term.pattern.type == "str":
            out.append(st.just(term.pattern.value))
        else:
            out.append(st.from_regex(term.pattern.to_regexp(), fullmatch=True))
    return tuple(out)


def token_text() -> st.SearchStrategy[str]:
    """Text made of the grammar's own tokens, separated by spaces, newlines and indentation."""
    token = st.one_of(*_terminal_strategies())
    sep = st.sampled_from([" ", " ", " ", "\n", "\n  ", "\n    ", "\n\t"])
    pieces = st.lists(st.tuples(token, sep), max_size=40)
    return pieces.map(lambda ps: "".join(t + s for t, s in ps))


def lines_of(text: str) -> list[str]:
    """The lines of a text (without their line ends)."""
    return text.splitlines()


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped ruleset (its path and text) with one to three random mutations."""
    path = draw(st.sampled_from(SHIPPED))
    text = path.read_text("utf-8")
    for _ in range(draw(st.integers(1, 3))):
        lines = lines_of(text) or [""]
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["truncate", "drop", "duplicate", "swap", "number", "insert_word"]))
        if kind == "truncate":
            text = text[: draw(st.integers(0, max(len(text) - 1, 0)))]
            continue
        if kind == "drop":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            words = lines[i].split(" ")
            a, b = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
            words[a], words[b] = words[b], words[a]
            lines[i] = " ".join(words)
        elif kind == "number":
            number = draw(st.sampled_from(["0", "1", "2", "-1", "99", "10000", "1000000000000", "007"]))
            lines[i] = re.sub(r"\d+", number, lines[i], count=draw(st.integers(0, 3)))
        else:
            word = draw(st.sampled_from(text.split() or ["x"]))
            words = lines[i].split(" ")
            words.insert(draw(st.integers(0, len(words))), word)
            lines[i] = " ".join(words)
        text = "\n".join(lines) + "\n"
    return str(path), text


# ---- the properties -----------------------------------------------------------------------------


@FUZZ
@given(st.text(max_size=300))
def test_random_text_loads_or_fails_with_a_position(text: str) -> None:
    """Any text at all: a Game, or a RulesetError pointing into the text."""
    loads_or_positioned_error(text)


@FUZZ
@given(st.text(alphabet='abcdefghijklmnopqrstuvwxyz0123456789 .,:=<>|"()#-+*/\n\t', max_size=300))
def test_random_text_near_the_alphabet_of_the_language(text: str) -> None:
    """Text in the language's own characters gets further into the parser, and still only fails cleanly."""
    loads_or_positioned_error(text)


@FUZZ
@given(token_text())
def test_random_token_sequences_load_or_fail_with_a_position(text: str) -> None:
    """Sequences of the grammar's own terminals (keywords, names, numbers, newlines, indents)."""
    loads_or_positioned_error(text)


@FUZZ
@given(st.sampled_from(SHIPPED), token_text(), st.integers(0, 10_000))
def test_tokens_spliced_into_a_shipped_ruleset(path, tokens: str, where: int) -> None:
    """Grammar tokens inserted somewhere in a real ruleset reach the later stages (resolve, schema, compile)."""
    text = path.read_text("utf-8")
    cut = where % (len(text) + 1)
    loads_or_positioned_error(text[:cut] + tokens + text[cut:], str(path))


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_shipped_rulesets_load_or_fail_with_a_position(case: tuple[str, str]) -> None:
    """Truncated, dropped, doubled, swapped and renumbered lines of the shipped rulesets."""
    path, text = case
    loads_or_positioned_error(text, path)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_truncation_of_a_shipped_ruleset_at_a_line_end(path) -> None:
    """A ruleset cut after any of its lines loads or fails cleanly (the half-saved file)."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    for n in range(len(lines) + 1):
        loads_or_positioned_error("".join(lines[:n]), str(path))


# ---- IR written as data ---------------------------------------------------------------------------


@cache
def shipped_ir_json() -> tuple[str, ...]:
    """The IR of each shipped ruleset, as JSON text."""
    return tuple(json.dumps(interpreter.ir_from_path(p)) for p in SHIPPED)


def paths_in(data: object, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) to a value inside JSON data."""
    out = [prefix] if prefix else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths_in(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths_in(v, (*prefix, i))
    return out


@st.composite
def mutated_ir(draw: st.DrawFn) -> str:
    """A shipped ruleset's IR with values deleted or replaced (by other names, numbers, nulls)."""
    data = json.loads(draw(st.sampled_from(shipped_ir_json())))
    names = [v for v in json.dumps(data).split('"') if v.isidentifier()]
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths_in(data)))
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(st.one_of(st.sampled_from(names), st.sampled_from([0, -1, 7, None, True, [], {}])))
    return json.dumps(data)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_ir())
def test_mutated_ir_data_loads_or_fails_with_our_error(text: str) -> None:
    """IR as JSON with dangling names or wrong values: the schema, the reference check or the compiler
    refuse it with a SchemaError; nothing else escapes."""
    try:
        compile_ir(ir_from_data(text, "fuzz.json"))
    except RulesetError as err:
        assert err.message
