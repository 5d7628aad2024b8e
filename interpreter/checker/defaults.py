"""The default sizes of `ruleset check`'s playouts, in a module of their own (it imports nothing)
so that `ruleset check --help` shows them without loading the engine."""

from __future__ import annotations

BUDGET = 70_000  # moves of random playouts, over all player counts, when no number of games is given
MOST_GAMES = 1000  # the most playouts a player count plays within the budget
CHUNK = 10  # games per task sent to a worker process (a budget is spent to the nearest chunk)
