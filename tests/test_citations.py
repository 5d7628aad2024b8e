"""The repository stands alone: it cites the rulebooks by name and keeps its rules decisions
(docs/rules-decisions.md), never a file of somewhere else that a reader of the repository lacks."""

from __future__ import annotations

import os
import re

from conftest import ROOT

# (written so that this file does not name what it looks for)
ELSEWHERE = re.compile(r"\bshared" + "/" + r"|(?<![\w-])design\." + "md")
SKIP_DIRS = {".git", "__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache", "build", "dist", ".venv"}
SKIP_DIRS |= {"node_modules"}


def repository_files():
    """Every file of the working tree but git's own and caches."""
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in files:
            yield os.path.join(folder, name)


def test_no_file_cites_a_file_outside_the_repository():
    """No file names the design or rulebook files of the session that wrote the project."""
    found = []
    for path in repository_files():
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if ELSEWHERE.search(line):
                found.append(f"{os.path.relpath(path, ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_rules_decisions_are_kept_in_the_repository():
    """docs/rules-decisions.md holds a section per rulebook, and the rulesets point to it."""
    decisions = (ROOT / "docs" / "rules-decisions.md").read_text()
    assert "AMIGO" in decisions and "Kedric Winks" in decisions and "five-card" in decisions.lower()
    for name in ("poison.rules", "poison-five-card.rules", "poison-kedric-winks.rules"):
        head = "\n".join((ROOT / "rulesets" / name).read_text().splitlines()[:5])
        assert "rulebook" in head.lower(), name
