"""Findings of `check` as the editor's diagnostics: each at its file, line and the word it names.

The static findings come from the analysis of every change; the playout findings from a
`ruleset check` run in a separate process after a save (so that the next edit can stop it).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from ..checker import Finding
from ..errors import Span, source_line
from . import protocol as P
from .analysis import name_pattern

SEVERITY = {
    "error": P.Severity.Error,
    "warning": P.Severity.Warning,
    "info": P.Severity.Information,
}


def diagnostic(finding: Finding, text: str | None = None) -> P.Json:
    """One finding, its range the word at its position (or one character)."""
    at = finding.at
    line, col = (at.line - 1, at.col - 1) if at else (0, 0)
    source = (text.splitlines()[line] if text and line < len(text.splitlines()) else None) if at else None
    if source is None and at:
        source = source_line(at.file, at.line)
    col, end = _word(source or "", col, finding.message)
    message = finding.message + (f"\nhint: {finding.hint}" if finding.hint else "")
    out = {
        "range": P.span(max(line, 0), max(col, 0), max(line, 0), max(end, 1)),
        "message": message,
        "severity": SEVERITY.get(finding.severity, P.Severity.Information),
        "code": finding.code,
        "source": "ruleset",
    }
    return {k: v for k, v in out.items() if v is not None}


def _word(line: str, col: int, message: str) -> tuple[int, int]:
    """The columns of what a finding is about: a name its message quotes, if the line writes it at
    or after the finding's column; else the word at that column; else one character."""
    for quoted in re.findall(r"'([^']+)'", message):
        m = re.compile(rf"(?<![a-z0-9_]){re.escape(quoted)}(?![a-z0-9_])").search(line, col)
        if m:
            return m.start(), m.end()
    m = name_pattern().match(line, col)
    return col, m.end() if m and m.end() > col else col + 1


def by_file(findings: list[Finding], path: str, text: str) -> dict[str, list[P.Json]]:
    """Diagnostics grouped by the file they are in (a base file's own problems go to it)."""
    out: dict[str, list[P.Json]] = {path: []}
    for f in sorted(findings, key=Finding.key):
        file = f.at.file if f.at else path
        out.setdefault(file, []).append(diagnostic(f, text if file == path else None))
    return out


def finding_of(data: dict[str, Any]) -> Finding:
    """A finding read back from `check --format json`."""
    at = Span(data["file"], data["line"], data["col"]) if data.get("file") and data.get("line") else None
    return Finding(data["severity"], data["code"], data["message"], at, data.get("hint"))


async def playout_findings(path: str, games: int) -> list[Finding]:
    """The findings of `ruleset check` with ``games`` playouts a player count, run in another process
    (cancelling the task stops the process)."""
    package_root = str(Path(__file__).resolve().parents[2])  # this very package, wherever it is installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))}
    args = ["-m", "interpreter", "check", path, "--games", str(games), "--jobs", "1", "--quiet", "--format", "json"]
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        stdin=asyncio.subprocess.DEVNULL,
        env=env,
    )
    try:
        out, _ = await proc.communicate()
    except asyncio.CancelledError:
        proc.kill()
        await proc.wait()
        raise
    try:
        report = json.loads(out)
    except json.JSONDecodeError:
        return []
    return [finding_of(f) for f in report.get("findings", [])]
