"""Completion: the keywords the grammar accepts at the cursor (lark's interactive parser fed the
text before it) and, where a name may stand, the locals in scope and the declared names of the
kinds that fit there (an attribute after `sum of`, a zone after `from`)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

from lark import Lark, Token
from lark.exceptions import LarkError

from ..errors import RulesetError
from ..language.parser import RulesIndenter, open_grammar, parser
from ..language.resolve_flow import NOBODYS
from ..language.resolve_types import BUILTINS, PER_PLAYER_BUILTINS
from . import protocol as P
from .analysis import Analysis, name_pattern, scanner, spellings
from .locals import Local, locals_of
from .slots import ONLY_IN_OWN_PLACES

# The editor's icon for each kind of declared name (the kinds of text.diff's items).
KINDS = {
    "zone": P.CompletionItemKind.Field,
    "attribute": P.CompletionItemKind.Property,
    "cards": P.CompletionItemKind.Class,
    "parameter": P.CompletionItemKind.Constant,
    "definition": P.CompletionItemKind.Function,
    "variable": P.CompletionItemKind.Variable,
    "schedule": P.CompletionItemKind.Enum,
    "move": P.CompletionItemKind.Method,
    "phase": P.CompletionItemKind.Event,
    "effect": P.CompletionItemKind.Module,  # a named effect (`effect NAME`)
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
    return open_grammar("prefix", _OpenEndedIndenter(), maybe_placeholders=True)


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
    ("do",): frozenset({"effect"}),  # do NAME: a named effect
    ("each",): frozenset({"cards"}),  # a scoring rule's `each TYPE in ...`: a card type
    ("for", "each"): frozenset(),  # `for each NAME`: a new name, nothing to offer
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


def completions(analysis: Analysis, line: int, col: int) -> list[P.Json]:
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
    out: list[P.Json] = []
    words = sorted({w for t in accepted for w in spellings(t)})
    if "NAME" in accepted:
        seen = set()
        for local in locals_here(analysis, line, col):  # the nearest binding of a name first
            if local.name not in seen:
                seen.add(local.name)
                out.append(_item(local.name, P.CompletionItemKind.Variable, f"{local.kind}: {local.binding}", 0))
        fit = fitting(before)
        if fit is None:  # the names the rules have without declaring them (`player` in a move's rules)
            for name in sorted(set(NOBODYS) | set(BUILTINS) | set(PER_PLAYER_BUILTINS) - seen):
                out.append(_item(name, P.CompletionItemKind.Variable, "built in", 0))
        for name, decls in sorted(analysis.declarations.items()):
            fits = [d for d in decls if _fits(d.kind, fit)]
            if name in seen or not fits:  # hidden by a local here, or of no kind that fits
                continue
            detail = "; ".join(f"{d.label}: {d.meaning}" for d in fits)
            out.append(_item(name, KINDS.get(fits[0].kind, P.CompletionItemKind.Variable), detail, 0))
    out += [_item(w, P.CompletionItemKind.Keyword, None, 1) for w in words]
    typed = current[: len(current) - len(word)]
    if not typed.strip():  # at the start of a line: the blocks that may start here, and parse here
        for first, label, body in SNIPPETS:
            indented = body.replace("\n", "\n" + typed)
            if first in words and expected(before + expand(indented) + "\n") is not None:
                snippet = _item(first, P.CompletionItemKind.Snippet, label, 2)
                snippet.update(insertText=indented, insertTextFormat=P.SNIPPET)
                out.append(snippet)
    return [c for c in out if c["label"].startswith(word)]


def _fits(kind: str, fit: frozenset[str] | None) -> bool:
    """Whether a declaration of ``kind`` may be written where ``fit`` kinds fit (None: any name but a
    phase's or a named effect's, which only their own keyword is followed by)."""
    if fit is None:
        return kind not in ONLY_IN_OWN_PLACES
    return kind in fit or (bool(fit) and kind in ALWAYS_FIT)


def _item(label: str, kind: int, detail: str | None, group: int) -> P.Json:
    """A completion item, sorted in its group (0 names, 1 keywords, 2 snippets) by its label."""
    item = {"label": label, "kind": kind, "sortText": f"{group}{label}"}
    if detail is not None:
        item["detail"] = detail
    return item


def warm() -> None:
    """Build the parser of the text before a cursor now, not at the first completion."""
    _prefix_parser()


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
