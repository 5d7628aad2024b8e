"""One document as the editor sees it: its findings (the static part of `check`), its declarations
and the names written in it and in its bases.

A declaration is what ``text.diff.items`` cuts the IR into (a zone, a parameter, a phase, a move,
a card type ...) plus the attributes of the cards; its position is the name's token on the line of
the item's ``at``. A text that parses but names something unknown (a typo) still declares what
resolves; when the text does not parse (half typed), the last good declarations stay.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from lark import Tree

from ..checker import Report, check_static
from ..errors import RulesetError, Span, source_line
from ..language.parser import parse, parser
from ..language.resolve import resolve
from ..language.variants import BaseReader, load_program, read_text
from ..text import rule_phrases as R
from ..text.diff import items, plain


@dataclass(frozen=True)
class Token:
    """A name written in a file: 0-based line and column, as the editor counts."""

    file: str
    line: int
    col: int
    text: str

    @property
    def end(self) -> int:
        return self.col + len(self.text)


@dataclass(frozen=True)
class Declaration:
    """A declared name: what kind of thing it is, in words, and where its name is written."""

    name: str
    kind: str
    label: str
    words: str
    note: str | None
    at: Token

    @property
    def meaning(self) -> str:
        """Its words without the name they start with (`one per player; ...`, not `hand: one per ...`):
        hover and completion write the name already."""
        return self.words.removeprefix(f"{self.name}: ")


@dataclass
class Analysis:
    """What the server knows of one document after its last change."""

    path: str
    text: str
    report: Report
    ir: dict[str, Any] | None = None  # of this text, or of the last text that resolved
    ir_text: str = ""  # the text the IR was made from
    files: list[str] = field(default_factory=list)  # this file, then its bases (from the IR's positions)
    _declarations: dict[str, list[Declaration]] | None = field(default=None, repr=False)

    @property
    def declarations(self) -> dict[str, list[Declaration]]:
        """Every declared name (made when first asked: diagnostics do not need them)."""
        if self._declarations is None:
            self._declarations = {}
            # IR too broken to cut into items (schema errors) declares nothing
            with contextlib.suppress(KeyError, TypeError, AttributeError):
                if self.ir is not None:
                    self._declarations = declarations(self.ir, self.path, self.ir_text)
        return self._declarations

    def carried(self, text: str, report: Report | None = None) -> Analysis:
        """What this analysis found, for a newer text that is not analysed yet or does not resolve:
        its IR and declarations (made once, shared by all it is carried to), with ``report``'s
        findings (else its own)."""
        findings = self.report if report is None else report
        return Analysis(self.path, text, findings, self.ir, self.ir_text, self.files, self.declarations)

    def declared(self, name: str) -> list[Declaration]:
        """The declarations of a name (several when, say, a definition shares an attribute's name)."""
        return self.declarations.get(name, [])


@cache
def scanner() -> re.Pattern[str]:
    """Texts and comments (skipped) or a name, from the grammar's own patterns."""
    string = parser().get_terminal("STRING").pattern.to_regexp()
    name = parser().get_terminal("NAME").pattern.to_regexp()
    return re.compile(rf"{string}|#[^\n]*|(?P<name>{name})")


@lru_cache(maxsize=8)
def tree(file: str, text: str) -> Tree:
    """The parse tree of a text, made once for the locals, the names' kinds and every request on
    the same text (a parse is most of what they cost); read, never changed. Raises the text's
    RulesSyntaxError when it does not parse."""
    return parse(text, file)


@cache
def name_pattern() -> re.Pattern[str]:
    """A whole name, as the grammar's NAME terminal has it."""
    return re.compile(parser().get_terminal("NAME").pattern.to_regexp())


@cache
def spellings(terminal: str) -> list[str]:
    """The keywords a terminal is written as: `of` for OF, `allow` and `require` for GUARD_KIND,
    `partners across` and `partners adjacent` for PARTNERS; [] for a terminal that is no word
    (NAME, INT, an operator)."""
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return []
    if pattern.type == "str":
        return [pattern.value] if re.fullmatch(r"[a-z]+", pattern.value) else []
    text = re.sub(r"\[ (?:\t|\\t)\][+*]", " ", pattern.value).replace("\\b", "")
    m = re.fullmatch(r"([a-z ]*)\(([a-z|]+)\)([a-z ]*)", text)  # words before, (one|other), words after
    if m:
        return [m.group(1) + w + m.group(3) for w in m.group(2).split("|")]
    return [text] if re.fullmatch(r"[a-z]+( [a-z]+)*", text) else []


@cache
def keywords() -> frozenset[str]:
    """Every word the grammar writes literally (`from`, `allow`, `per player` ...)."""
    return frozenset(w for t in parser().terminals for w in spellings(t.name))


def names_in(file: str, text: str) -> list[Token]:
    """Every name written in a text (not in comments or quoted texts), keywords included."""
    out = []
    for number, line in enumerate(text.splitlines()):
        for m in scanner().finditer(line):
            if m.group("name"):
                out.append(Token(file, number, m.start(), m.group("name")))
    return out


def token_at(analysis: Analysis, line: int, col: int) -> Token | None:
    """The name under (or just before) the cursor."""
    lines = analysis.text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for t in names_in(analysis.path, lines[line]):
        if t.col <= col <= t.end:
            return Token(analysis.path, line, t.col, t.text)
    return None


def analyse(path: str, text: str, previous: Analysis | None = None, read: BaseReader | None = None) -> Analysis:
    """Check a document's text; keep the previous declarations when this text does not resolve.
    ``read`` gives the text of a base file (the editor's unsaved buffer when it is open)."""
    report = Report(path)
    # The resolver's IR fits the schema by construction (the tests check every shipped and fuzzed
    # ruleset); checking it again on every keystroke would take most of the time of an analysis.
    ir, _, _ = check_static(path, report, text=text, schema=False, read=read)
    if ir is None and report.findings:
        ir = partial_ir(path, text, read)
    if ir is not None:
        return Analysis(path, text, report, ir, text, list(dict.fromkeys([path, *_files(ir)])))
    if previous is not None:  # keep what the last text that resolved declared
        return previous.carried(text, report)
    return Analysis(path, text, report, files=[path])


def partial_ir(path: str, text: str, read: BaseReader | None = None) -> dict[str, Any] | None:
    """The IR of a text that parses but does not resolve (a misspelt name, reported by the check):
    the resolver goes on past each unknown name, so what still resolves is kept. None when the text
    does not parse or resolution stops (a missing section)."""
    try:
        return resolve(load_program(text, path, read=read), [])
    except RulesetError:
        return None


def _files(node: Any) -> list[str]:
    """The files named by the positions in an IR (a variant's bases among them)."""
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            at = n.get("at")
            if isinstance(at, str):
                out.append(at.rsplit(":", 2)[0])
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return sorted(set(out))


def declarations(ir: dict[str, Any], path: str, text: str) -> dict[str, list[Declaration]]:
    """Every declared name of an IR, at its token."""
    out: dict[str, list[Declaration]] = {}
    first_use = _attribute_lines(ir)
    for item in items(ir):
        data = item.data if isinstance(item.data, dict) and "op" not in item.data else {}  # not an expression
        name = data.get("name") or data.get("type") or (item.key if item.kind == "attribute" else None)
        at = data.get("at") if data.get("name") or data.get("type") else first_use.get(item.key)
        if not isinstance(name, str) or not isinstance(at, str):
            continue
        token = _name_token(at, name, path, text)
        decl = Declaration(name, item.kind, plain(item.label), plain(item.words), item.note, token)
        out.setdefault(name, []).append(decl)
    for attr, info in ir.get("attributes", {}).items():  # number attributes are no item of their own
        if attr in first_use and not any(d.kind == "attribute" for d in out.get(attr, [])):
            words = R.attribute_values(info) if info.get("kind") == "text" else f"a {info.get('kind')} on each card"
            token = _name_token(first_use[attr], attr, path, text)
            out.setdefault(attr, []).append(Declaration(attr, "attribute", "Attribute", plain(words), None, token))
    return out


def _attribute_lines(ir: dict[str, Any]) -> dict[str, str]:
    """Each attribute's first card line (where it is declared)."""
    out: dict[str, str] = {}
    for deck in ir.get("decks", []):
        for line in deck.get("cards", []):
            for a in line.get("attributes", []):
                if line.get("at"):
                    out.setdefault(a["name"], line["at"])
    return out


def _name_token(at: str, name: str, path: str, text: str) -> Token:
    """The token of ``name`` on the line of ``at`` (at or after its column), or ``at`` itself."""
    span = Span.parse(at)
    line = text.splitlines()[span.line - 1] if span.file == path and span.line <= len(text.splitlines()) else None
    if line is None:
        line = source_line(span.file, span.line) or ""
    word = re.compile(rf"(?<![a-z0-9_]){re.escape(name)}(?![a-z0-9_])")
    m = word.search(line, max(span.col - 1, 0)) or word.search(line)
    return Token(span.file, span.line - 1, m.start() if m else span.col - 1, name)


def buffer_reader(open_texts: dict[str, str]) -> BaseReader:
    """Read a base file from the editor's buffer when it is open (unsaved edits included), else from disk."""

    def read(path: Path) -> str:
        text = open_texts.get(str(Path(path).resolve()))
        return text if text is not None else read_text(path)

    return read


def file_text(path: str, open_texts: dict[str, str]) -> str | None:
    """A file's text: the editor's buffer if it is open, else what is saved."""
    if path in open_texts:
        return open_texts[path]
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
