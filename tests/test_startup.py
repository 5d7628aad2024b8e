"""`ruleset --help` starts at once: it imports no engine, no parser and no output library (the
figures are in the report of the change that made it so; no timed assert here)."""

from __future__ import annotations

import subprocess
import sys

from conftest import HANG, ROOT

HEAVY = ("interpreter.engine", "interpreter.loader", "interpreter.language", "lark", "jsonschema", "yaml", "rich")


def imported_by(*args: str) -> set[str]:
    """The modules `python -X importtime -m interpreter ARGS` imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "interpreter", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG,
    )
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_help_imports_nothing_heavy():
    """`ruleset --help` and `ruleset simulate --help` load neither the engine nor lark, jsonschema, yaml or rich."""
    for args in (("--help",), ("simulate", "--help")):
        modules = imported_by(*args)
        assert "interpreter.commands.cli" in modules
        heavy = sorted(m for m in modules if m.startswith(HEAVY))
        assert not heavy, (args, heavy)
