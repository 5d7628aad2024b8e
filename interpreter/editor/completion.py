"""Completion: the keywords the grammar accepts at the cursor (lark's interactive parser fed the
text before it) and, where a name may stand, the names the rules declare."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from lark import Lark, Token
from lark.exceptions import LarkError
from lsprotocol import types as T

from ..language.parser import RulesIndenter, open_grammar, parser
from .analysis import Analysis, name_pattern, scanner, spellings


class _OpenEndedIndenter(RulesIndenter):
    """The indenter, but the text stops at the cursor: the blocks open there stay open."""

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        done = []

        def marked() -> Iterator[Token]:
            yield from stream
            done.append(True)

        for token in super().process(marked()):
            if done:  # what follows closes the blocks at the end of the text
                return
            yield token


@cache
def _prefix_parser() -> Lark:
    """The rules parser for the text before a cursor."""
    return open_grammar("prefix", _OpenEndedIndenter(), maybe_placeholders=True)


def expected(before: str) -> set[str] | None:
    """The terminals the parser accepts after ``before`` (None when the text before is no valid start)."""
    interactive = _prefix_parser().parse_interactive(before)
    try:
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except (LarkError, IndexError):  # IndexError: the indenter meets a comment with no line end after it
        return None


def completions(analysis: Analysis, line: int, col: int) -> list[T.CompletionItem]:
    """Keywords valid at the cursor, then declared names if a name may stand there."""
    lines = analysis.text.splitlines()
    current = lines[line][:col] if line < len(lines) else ""
    if any(m.group(0).startswith("#") for m in scanner().finditer(current)):
        return []  # in a comment
    word = _partial_word(current)
    before = "\n".join([*lines[:line], current[: len(current) - len(word)]])
    accepted = expected(before)
    if accepted is None:  # an error before the cursor: offer every name and keyword that fits the word
        accepted = {t.name for t in parser().terminals}
    out: list[T.CompletionItem] = []
    words = sorted({w for t in accepted for w in spellings(t)})
    if "NAME" in accepted:
        for name, decls in sorted(analysis.declarations.items()):
            detail = "; ".join(f"{d.label}: {d.words}" for d in decls)
            out.append(T.CompletionItem(name, kind=T.CompletionItemKind.Variable, detail=detail, sort_text=f"0{name}"))
    out += [T.CompletionItem(w, kind=T.CompletionItemKind.Keyword, sort_text=f"1{w}") for w in words]
    return [c for c in out if c.label.startswith(word)]


def _partial_word(text: str) -> str:
    """The name being typed at the end of ``text``."""
    m = re.search(rf"(?:{name_pattern().pattern})$", text)
    return m.group(0) if m else ""
