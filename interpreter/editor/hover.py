"""Hover: a declared name's kind, its meaning in the rulebook's words and its declaration; a
keyword's line of the grammar (the construct it opens, as docs/language.md documents it); an
unknown name's problem, as the check words it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from ..errors import source_line
from ..language.parser import grammar_path, parser
from . import protocol as P
from .analysis import Analysis, Declaration, Token, keywords, spellings, token_at
from .locals import describe, local_at
from .slots import meant


def hover(analysis: Analysis, line: int, col: int) -> P.Json | None:
    """What the word under the cursor means, as Markdown."""
    token = token_at(analysis, line, col)
    if token is None:
        return None
    local = local_at(analysis, token)
    _, decls = meant(analysis, token)
    if local is not None:
        text = describe(local)
    elif decls:
        text = "\n\n---\n\n".join(_declaration(d) for d in decls)
    elif token.text in _keyword_words():
        text = _keyword(token.text)
    else:
        text = _problem(analysis, token)
        if text is None:
            return None
    return {"contents": P.markdown(text), "range": P.span(line, token.col, line, token.end)}


def _declaration(d: Declaration) -> str:
    """**Zone** `hand`: one per player; only its owner sees it — and the line that declares it."""
    out = [f"**{d.label}** `{d.name}`: {d.meaning}"]
    if d.note:
        out.append(f"_{d.note}_")
    declared = source_line(d.at.file, d.at.line + 1)
    if declared is not None:
        out.append(f"```rules\n{declared.strip()}\n```\n{Path(d.at.file).name}, line {d.at.line + 1}")
    return "\n\n".join(out)


def _problem(analysis: Analysis, token: Token) -> str | None:
    """What the check says of an undeclared name on its line (an unknown name, with its hint)."""
    for f in analysis.report.findings:
        at = f.at
        if at and at.file == analysis.path and at.line - 1 == token.line and f"'{token.text}'" in f.message:
            return f"**{f.severity}**: {f.message}" + (f"\n\nhint: {f.hint}" if f.hint else "")
    return None


@cache
def _keyword_words() -> frozenset[str]:
    """Single words of the grammar (`per player` gives `per` and `player`)."""
    return frozenset(w for k in keywords() for w in k.split())


@cache
def _grammar_rules() -> list[tuple[str, str]]:
    """The grammar's rules as (rule line, the section comment above it)."""
    out, section = [], ""
    for raw in grammar_path().read_text(encoding="utf-8").splitlines():
        line = raw.strip().removeprefix("%extend ")  # (a rule given more forms further down)
        if line.startswith("// ----"):
            section = line.strip("/- ")
        elif re.match(r"^\??[a-z_]+(\.\d+)?\s*:", line):
            out.append((line, section))
        elif line.startswith("|") and out:  # another form of the rule above: its own line, under its name
            out.append((f"{out[-1][0].partition(':')[0]}: {line[1:].strip()}", section))
    return out


def _keyword(word: str) -> str:
    """The grammar rules that write ``word``, in the shape a ruleset writes them."""
    terminals = {t.name for t in parser().terminals if any(word in w.split() for w in spellings(t.name))}
    found = []
    for rule, section in _grammar_rules():
        head, _, body = rule.partition(":")
        if head.isupper() or not (f'"{word}"' in body or any(re.search(rf"\b{t}\b", body) for t in terminals)):
            continue
        shape = re.sub(r'"([^"]*)"', r"\1", body)
        shape = re.sub(r"\b_(NL|INDENT|DEDENT)\b|->\s*\w+", "", shape)
        shape = re.sub(r"\b[A-Z][A-Z_]+\b", _terminal_shape, shape)
        found.append(f"`{' '.join(shape.split())}` ({head.strip('?')}{', ' + section if section else ''})")
    if not found:
        return f"`{word}`: a word of the rules language (see docs/language.md)"
    return f"**{word}**\n\n" + "\n\n".join(found[:4]) + "\n\nSee docs/language.md."


def _terminal_shape(m: re.Match[str]) -> str:
    """A keyword terminal as its words (`allow|require`); NAME, INT and the like as they are."""
    words = spellings(m.group(0))
    return "|".join(words) if words else m.group(0)
