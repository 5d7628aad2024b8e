"""Shared fixtures: the shipped rulesets, loaded once per test session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import interpreter

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
EXAMPLES = ROOT / "examples"


def run_cli(*args: str, cwd: Path = ROOT, input: str | None = None, timeout: float = 120):
    """Run `ruleset ARGS` as a real process (python -m interpreter), from the repository root."""
    import subprocess

    return subprocess.run(
        [sys.executable, "-m", "interpreter", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        input=input,
        timeout=timeout,
    )


@pytest.fixture(scope="session")
def poison() -> interpreter.Game:
    return interpreter.load(RULESETS / "poison.rules")


@pytest.fixture(scope="session")
def five_card() -> interpreter.Game:
    return interpreter.load(RULESETS / "poison-five-card.rules")
