"""What `ruleset check` reports: findings (error, warning, info) at a source position, and the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import RulesetError, Span, plural, shown

SEVERITIES = ("error", "warning", "info")


@dataclass
class Finding:
    """One problem (or fact) about a ruleset, at a position, with a hint how to fix it."""

    severity: str  # error | warning | info
    code: str  # a short, stable name of the kind of problem, e.g. "deck-too-small"
    message: str
    at: Span | None = None
    hint: str | None = None
    note: str | None = None  # the ruleset's own comment beside the rule, when it explains the finding
    replay: dict[str, Any] | None = None  # a playout that shows it: players, seed, moves, record

    def key(self) -> tuple:
        """Sort key: by file, line, column, then severity."""
        at = self.at
        return (
            at is None,
            at.file if at else "",
            at.line if at else 0,
            at.col if at else 0,
            SEVERITIES.index(self.severity),
            self.message,
        )

    def to_json(self) -> dict[str, Any]:
        """The finding as check.schema.json describes it."""
        out: dict[str, Any] = {"severity": self.severity, "code": self.code, "message": self.message}
        if self.at:
            out.update(file=shown(self.at.file), line=self.at.line, col=self.at.col)
        if self.hint:
            out["hint"] = self.hint
        if self.note:
            out["note"] = self.note
        if self.replay:
            out["replay"] = self.replay
        return out


def _shown_at(text: str) -> str:
    """A position written ``file:line:col`` as messages show it (a shipped ruleset by its name)."""
    span = at({"at": text})
    return span.shown() if span else text


def from_error(err: RulesetError, code: str = "load") -> Finding:
    """A loader error (syntax, names, types, schema) as an error finding."""
    return Finding("error", code, err.message, err.span, err.hint)


def at(node: dict[str, Any] | None) -> Span | None:
    """The source position of an IR node, if it has one."""
    text = node.get("at") if isinstance(node, dict) else None
    try:
        return Span.parse(text) if text else None
    except ValueError:
        return None


@dataclass
class Report:
    """All findings about one file, and what the playouts measured."""

    file: str
    ruleset: str | None = None
    findings: list[Finding] = field(default_factory=list)
    unreadable: bool = False  # the file could not be read or parsed (exit code 2)
    playouts: list[dict[str, Any]] = field(default_factory=list)
    coverage: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    _seen: set[tuple[Span | None, str]] = field(default_factory=set, repr=False, compare=False)

    def add(self, finding: Finding) -> None:
        """Add a finding, unless the same message is already reported at the same place (a set
        lookup: a file of thousands of findings is reported in time linear in their number)."""
        key = (finding.at, finding.message)
        if key not in self._seen:
            self._seen.add(key)
            self.findings.append(finding)

    def sorted(self) -> list[Finding]:
        """The findings by position."""
        return sorted(self.findings, key=Finding.key)

    def count(self, severity: str) -> int:
        """How many findings of one severity."""
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def exit_code(self) -> int:
        """0 clean (warnings allowed), 1 errors found, 2 the file could not be read or parsed."""
        if self.unreadable:
            return 2
        return 1 if self.count("error") else 0

    def summary(self) -> str:
        """The closing line: counts by severity and what was played."""
        parts = [plural(self.count(s), s) for s in SEVERITIES]
        games = sum(p["games"] for p in self.playouts)
        played = f"; {plural(games, 'playout')}" if games else ""
        return f"{self.file}: {', '.join(parts)}{played} ({self.seconds:.1f} s)"

    def to_json(self) -> dict[str, Any]:
        """The whole report as check.schema.json describes it."""
        return {
            "file": self.file,
            "ruleset": self.ruleset,
            "exit_code": self.exit_code,
            "summary": {s + "s": self.count(s) for s in SEVERITIES},
            "findings": [f.to_json() for f in self.sorted()],
            "playouts": self.playouts,
            "coverage": [{**c, "at": _shown_at(c["at"])} for c in self.coverage],
            "seconds": round(self.seconds, 3),
        }
