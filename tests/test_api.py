"""The Python API as someone at a prompt meets it: what a loaded game shows of itself."""

from __future__ import annotations

import interpreter
from conftest import RULESETS


def test_a_loaded_game_shows_itself_in_one_short_line() -> None:
    """Not its tables and closures (15 KB of them): the name, the players and the file."""
    game = interpreter.load(RULESETS / "poison.rules")
    shown = repr(game)
    assert shown == f"<Game 'Poison', 3-6 players, from {game.ir['source']}>"
    assert "\n" not in shown and len(shown) < 200
    assert str(game) == shown
