"""ruleset: card games as data. Load a ruleset, start a game, play it through its public API.

>>> import interpreter
>>> game = interpreter.load("rulesets/GAME.rules")
>>> state = game.new_game(4, seed=1)
>>> state.apply(state.legal_moves()[0])
"""

from .engine.game import Game
from .engine.state import Move, State
from .errors import RulesetError
from .loader import ir_from_path, ir_from_text, load, loads

__all__ = ["Game", "Move", "RulesetError", "State", "ir_from_path", "ir_from_text", "load", "loads"]
