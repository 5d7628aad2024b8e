"""Completion: the keywords the grammar accepts at the cursor (lark's interactive parser fed the
text before it) and, where a name may stand, the locals in scope and the declared names of the
kinds that fit there (an attribute after `sum of`, a zone after `from`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from lark import Lark, Token
from lark.exceptions import LarkError
from lsprotocol import types as T

from ..errors import RulesetError
from ..language.parser import RulesIndenter, grammar_path, parser
from .analysis import Analysis, name_pattern, scanner, spellings
from .locals import Local, locals_of

# The editor's icon for each kind of declared name (the kinds of text.diff's items).
KINDS = {
    "zone": T.CompletionItemKind.Field,
    "attribute": T.CompletionItemKind.Property,
    "cards": T.CompletionItemKind.Class,
    "parameter": T.CompletionItemKind.Constant,
    "definition": T.CompletionItemKind.Function,
    "variable": T.CompletionItemKind.Variable,
    "schedule": T.CompletionItemKind.Enum,
    "move": T.CompletionItemKind.Method,
    "phase": T.CompletionItemKind.Event,
}


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
    return Lark.open(str(grammar_path()), parser="lalr", postlex=_OpenEndedIndenter(), maybe_placeholders=True)


def expected(before: str) -> set[str] | None:
    """The terminals the parser accepts after ``before`` (None when the text before is no valid start)."""
    interactive = _prefix_parser().parse_interactive(before)
    try:
        interactive.exhaust_lexer()
        return set(interactive.accepts())
    except (LarkError, IndexError):  # IndexError: the indenter meets a comment with no line end after it
        return None


# The kinds of declared name that fit after the words before the cursor (the last one or two); a
# place not listed takes any. Definitions and locals, whose type the editor does not know, always fit.
FITS: dict[tuple[str, ...], frozenset[str]] = {
    ("sum", "of"): frozenset({"attribute"}),
    ("max", "of"): frozenset({"attribute"}),
    ("min", "of"): frozenset({"attribute"}),
    ("from",): frozenset({"zone"}),
    ("in",): frozenset({"zone"}),
    ("shuffle",): frozenset({"zone"}),
    ("set",): frozenset({"variable"}),
}
ALWAYS_FIT = frozenset({"definition"})

# Blocks written often, offered as snippets where the grammar accepts their first word at the start
# of a line: (first word, label, body; each line after the first is indented as the cursor's line).
SNIPPETS = [
    (
        "move",
        "move with a guard",
        "move ${1:play} card from ${2:hand} to ${3:pile}\n  require ${4:count ${2:hand} of player > 0}",
    ),
    (
        "phase",
        "phase",
        "phase ${1:play}\n  move ${2:play} card from ${3:hand} to ${4:pile}\n  ends when ${5:nobody can move}",
    ),
    (
        "ask",
        "ask a player to choose",
        "ask ${1:player} to choose ${2:rival} player\n  require ${2:rival} != ${1:player}\n"
        "  ${3:show hand of ${2:rival} to ${1:player}}",
    ),
    ("after", "trigger after a move", "after ${1:play}\n  ${2:next left of player}"),
]


def fitting(before: str) -> frozenset[str] | None:
    """The kinds of name that fit after ``before`` (None: any)."""
    words = re.findall(r"[a-z_][a-z0-9_]*", before.split("\n")[-1])
    for n in (2, 1):
        if len(words) >= n and tuple(words[-n:]) in FITS:
            return FITS[tuple(words[-n:])]
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
        seen = set()
        for local in locals_here(analysis, line, col):  # the nearest binding of a name first
            if local.name not in seen:
                seen.add(local.name)
                detail = f"{local.kind}: {local.binding}"
                out.append(
                    T.CompletionItem(
                        local.name, kind=T.CompletionItemKind.Variable, detail=detail, sort_text=f"0{local.name}"
                    )
                )
        fit = fitting(before)
        for name, decls in sorted(analysis.declarations.items()):
            if name in seen:  # hidden by a local here
                continue
            if fit is not None and not any(d.kind in fit or d.kind in ALWAYS_FIT for d in decls):
                continue
            detail = "; ".join(f"{d.label}: {d.words}" for d in decls)
            kind = KINDS.get(decls[0].kind, T.CompletionItemKind.Variable)
            out.append(T.CompletionItem(name, kind=kind, detail=detail, sort_text=f"0{name}"))
    out += [T.CompletionItem(w, kind=T.CompletionItemKind.Keyword, sort_text=f"1{w}") for w in words]
    typed = current[: len(current) - len(word)]
    if not typed.strip():  # at the start of a line: the blocks that may start here, and parse here
        for first, label, body in SNIPPETS:
            indented = body.replace("\n", "\n" + typed)
            if first in words and expected(before + expand(indented) + "\n") is not None:
                out.append(
                    T.CompletionItem(
                        first,
                        kind=T.CompletionItemKind.Snippet,
                        detail=label,
                        insert_text=indented,
                        insert_text_format=T.InsertTextFormat.Snippet,
                        sort_text=f"2{first}",
                    )
                )
    return [c for c in out if c.label.startswith(word)]


def locals_here(analysis: Analysis, line: int, col: int) -> list[Local]:
    """The locals a name typed at the cursor could stand for, nearest binding first: from this text
    when it parses, else from the last text that resolved (a line being typed rarely parses). A
    scope is taken to reach the line after its end too, where a block's next line is typed."""
    for text in (analysis.text, analysis.ir_text):
        try:
            found = locals_of(analysis.path, text)
        except RulesetError:
            continue
        here = [
            loc
            for loc in found
            if (loc.at.line, loc.at.col) < (line, col)
            and loc.start <= (line, col)
            and line <= loc.end[0] + (loc.end[1] > 0)
        ]
        return sorted(here, key=lambda loc: loc.start, reverse=True)
    return []


def expand(snippet: str) -> str:
    """A snippet as accepting every placeholder's default text writes it."""
    while "${" in snippet:
        snippet = re.sub(r"\$\{\d+:([^${}]*)\}", r"\1", snippet)
    return snippet


def _partial_word(text: str) -> str:
    """The name being typed at the end of ``text``."""
    m = re.search(rf"(?:{name_pattern().pattern})$", text)
    return m.group(0) if m else ""
