"""Each ruleset in examples/broken/ shows one kind of problem; `ruleset check` must report it at
its line with the message written in the file's `# expect: LINE SEVERITY MESSAGE` comments."""

from __future__ import annotations

import json
import re

import pytest

from conftest import EXAMPLES, run_cli
from interpreter.language.schema import validator

BROKEN = sorted((EXAMPLES / "broken").glob("*.rules"))
EXPECT = re.compile(r"^# expect: (\d+) (error|warning|info) (.+)$", re.M)


def expectations(path):
    """The (line, severity, message) a broken example promises."""
    return [(int(n), sev, msg.strip()) for n, sev, msg in EXPECT.findall(path.read_text("utf-8"))]


def test_there_is_a_broken_example_for_each_kind_of_problem():
    names = {p.stem for p in BROKEN}
    assert {"syntax-error", "names-and-types", "deck-too-small", "too-many-seats", "schedule-vs-rounds"} <= names
    assert {"no-such-value", "limit-beyond-deck", "zone-never-filled", "unused-param", "repeated-objective"} <= names
    assert {"unused-define"} <= names
    assert {"deadlock", "endless", "dead-rule", "repeated-value", "every-players-zone"} <= names
    assert all(expectations(p) for p in BROKEN)


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_check_reports_the_expected_message_at_the_expected_line(path):
    proc = run_cli("check", str(path.relative_to(EXAMPLES.parent)), "--games", "10", "--jobs", "1", "--format", "json")
    report = json.loads(proc.stdout)
    assert not list(validator("check").iter_errors(report))
    found = [(f.get("line"), f["severity"], f["message"]) for f in report["findings"]]
    for line, severity, message in expectations(path):
        assert any(n == line and s == severity and message in m for n, s, m in found), (line, message, found)
    errors = report["summary"]["errors"]
    expected_code = 2 if path.stem == "syntax-error" else (1 if errors else 0)
    assert proc.returncode == expected_code == report["exit_code"]
