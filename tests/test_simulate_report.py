"""`ruleset simulate` reports what the library's `simulate` gives for the same seed: the command's
own start-up and loop (made faster for issue 25) change no figure, in JSON or in text."""

from __future__ import annotations

import json

from conftest import RULESETS, run_cli
from interpreter.commands.console import blocks
from interpreter.loader import load
from interpreter.simulation.report import run_blocks
from interpreter.simulation.simulate import simulate

TIMED = ("seconds", "games_per_second", "moves_per_second")  # (the only figures that vary run to run)
ARGS = ("simulate", "poison-kedric-winks", "--players", "4", "--games", "12", "--seed", "5", "--jobs", "1")


def _untimed(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k not in TIMED}


def test_the_command_reports_what_the_library_gives_for_the_same_seed(capsys) -> None:
    """The JSON report equals the library's statistics but for the timings; the text report is the
    library's statistics printed as the command prints them, line for line but the throughput line."""
    game = load(str(RULESETS / "poison-kedric-winks.rules"))
    library = simulate(game, 4, 12, 5, jobs=1)
    out = run_cli(*ARGS, "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.dumps(_untimed(json.loads(out.stdout))) == json.dumps(_untimed(library))

    text = run_cli(*ARGS)
    assert text.returncode == 0, text.stderr
    blocks(run_blocks(library))
    printed = capsys.readouterr().out.splitlines()
    shown = text.stdout.splitlines()
    assert len(shown) == len(printed) and shown[-1].startswith("12 games in ")
    assert shown[:-1] == printed[:-1]
