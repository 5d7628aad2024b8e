"""The project's errors: one root class, each kind with a one-line docstring.

Every error from a ruleset carries a position (``file:line:col``) and formats as
the offending line with a caret under the place, what was expected, and a hint.
"""

from __future__ import annotations

from dataclasses import dataclass

_SOURCES: dict[str, str] = {}
_SHOWN: dict[str, str] = {}


def remember_source(file: str, text: str) -> None:
    """Keep a file's text so that later errors can quote its lines."""
    _SOURCES[file] = text


def forget_source(file: str) -> None:
    """Drop a file's remembered text (a server's refused upload: nothing of it is kept)."""
    _SOURCES.pop(file, None)


def show_as(file: str, name: str) -> None:
    """Name ``file`` as ``name`` in messages: a shipped ruleset found by its name (`ruleset check
    NAME`) is named as the user knows it, not by where the package happens to be installed."""
    _SHOWN[file] = name


def shown(file: str) -> str:
    """The name of a file in messages (see ``show_as``)."""
    return _SHOWN.get(file, file)


def source_text(file: str) -> str | None:
    """The whole text of a file as it was read (remembered), or None."""
    return _SOURCES.get(file)


def source_line(file: str, line: int) -> str | None:
    """The text of line ``line`` (1-based) of a remembered file (or, for positions kept in IR, of
    the rules file they name, if it is readable), or None."""
    text = _SOURCES.get(file)
    if text is None:
        try:
            with open(file, encoding="utf-8") as f:
                text = _SOURCES[file] = f.read(1_000_001)
        except (OSError, UnicodeDecodeError, ValueError):
            return None
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


# An excerpt shows at most this many characters of its line, around the caret.
EXCERPT_WIDTH = 100


def quote(span: Span) -> list[str]:
    """The source line of a position, and a caret under the column (empty if the file is unknown);
    a long line is cut to a window of EXCERPT_WIDTH characters around the caret, marked with `...`."""
    text = source_line(span.file, span.line)
    if text is None:
        return []
    at = len(text[: max(0, span.col - 1)].expandtabs())  # (a tab counts as the spaces it shows as)
    text = text.expandtabs()
    start = max(0, min(at - EXCERPT_WIDTH // 2, len(text) - EXCERPT_WIDTH))
    end = start + EXCERPT_WIDTH
    head, tail = ("..." if start > 0 else ""), ("..." if end < len(text) else "")
    shown = head + text[start:end] + tail
    return [f"    {shown}", "    " + " " * (len(head) + at - start) + "^"]


@dataclass(frozen=True)
class Span:
    """A position in a source file (1-based line and column)."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def shown(self) -> str:
        """``file:line:col`` as messages show it (a shipped ruleset by its name, see ``show_as``)."""
        return f"{shown(self.file)}:{self.line}:{self.col}"

    @classmethod
    def parse(cls, text: str) -> Span:
        """Read back a span written as ``file:line:col``."""
        file, line, col = text.rsplit(":", 2)
        return cls(file, int(line), int(col))


class RulesetError(Exception):
    """Root of every error this package raises on bad input or impossible play."""

    def __init__(self, message: str, span: Span | str | None = None, hint: str | None = None):
        if isinstance(span, str):
            try:
                span = Span.parse(span)
            except ValueError:  # a malformed `at` in hand-written IR: no position rather than a crash
                span = None
        self.message = message
        self.span = span
        self.hint = hint
        super().__init__(self.format())

    def format(self) -> str:
        """The message as the CLI prints it: position, quoted line, caret, hint."""
        head = f"{self.span.shown()}: " if self.span else ""
        out = [f"{head}error: {self.message}"]
        if self.span:
            out += quote(self.span)
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class RulesSyntaxError(RulesetError):
    """The text does not follow the grammar of the rules language."""


class UnknownNameError(RulesetError):
    """A name that no declaration defines."""


class RulesTypeError(RulesetError):
    """A value of the wrong kind: a number where a card belongs, and so on."""


class DeclarationError(RulesetError):
    """A declaration is missing, repeated or contradicts another."""


class ExtendsError(RulesetError):
    """A variant's base file is missing, cyclic, or lacks what the variant overrides."""


class SchemaError(RulesetError):
    """The resolved rules (IR) do not match the IR's JSON Schema."""


class ParameterError(RulesetError):
    """A ``--set NAME=VALUE`` names no parameter or gives a value of the wrong type."""


class PlayError(RulesetError):
    """The rules cannot go on: nobody can move, a game never ends, a bad player count."""


class IllegalMoveError(RulesetError):
    """A move that the rules do not allow in this state."""


class SaveError(RulesetError):
    """A file the server could not write (a full disk, an I/O error): what it held is not kept."""


class RecordError(RulesetError):
    """A game record that is not valid JSON, breaks its schema, or does not replay."""


class ReadError(RulesetError):
    """A file that cannot be read: missing, a directory, not UTF-8, empty."""


class ExperimentError(RulesetError):
    """An experiment file (``simulate --config``) that does not fit its schema or names what does not exist."""


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """A count and its noun as a message says it: "1 game", "2 games" (``nouns`` for an irregular plural)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


RUNTIME_FAILURES = (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError)


def rule_failure(err: Exception, at: Span | str | None, what: str, read_from_ir: bool) -> PlayError:
    """A rule that failed while being evaluated, at the rule's line: ill-typed IR written by hand
    (``read_from_ir``: the rules were read from a JSON/YAML file), else a bug of the engine's."""
    hint = (
        "rules written as IR (JSON/YAML) are schema-checked but not typed: check the types here"
        if read_from_ir
        else "the rules were type-checked when read, so this is a bug in ruleset: please report it with the "
        "ruleset, the players and the seed"
    )
    return PlayError(f"this {what} could not be evaluated: {type(err).__name__}: {err}", at or None, hint)
