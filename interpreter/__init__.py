"""ruleset: card games as data. Load a ruleset, start a game, play it through its public API.

>>> import interpreter
>>> game = interpreter.load("rulesets/GAME.rules")
>>> state = game.new_game(4, seed=1)
>>> state.apply(state.legal_moves()[0])

The names below are imported when first used, so that `ruleset --help` starts at once.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .engine.game import Game
    from .engine.state import Move, State
    from .errors import RulesetError
    from .loader import ir_from_path, ir_from_text, load, loads

__all__ = ["Game", "Move", "RulesetError", "State", "ir_from_path", "ir_from_text", "load", "loads"]

# Where each public name lives.
_HOMES = {
    "Game": ".engine.game",
    "Move": ".engine.state",
    "State": ".engine.state",
    "RulesetError": ".errors",
    "ir_from_path": ".loader",
    "ir_from_text": ".loader",
    "load": ".loader",
    "loads": ".loader",
}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(import_module(_HOMES[name], __name__), name)
    globals()[name] = value
    return value
