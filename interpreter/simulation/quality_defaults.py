"""The default sizes of `ruleset evaluate` and `ruleset tune`, in a module of their own so that the
commands can show them in --help without loading the engine."""

from __future__ import annotations

GAMES = 200  # observed games (evaluate) and games a point (tune)
SKILL_GAMES = 30  # games a skill pairing
# mcts with few iterations and samples: strong enough to beat random play where skill pays, and
# cheap: its 30 games are a fraction of the default evaluation (docs/evaluate.md, "Speed")
PAIRS = ("mcts(iterations=20,samples=4)/random", "greedy/random")
BUDGET = 40  # most points tune plays before it searches instead of sweeping
# the skill ladder (`evaluate --ladder`): each rung against the one below, up to 4 times the search
LADDER = ("random", "greedy", "mcts(iterations=20,samples=4)", "mcts(iterations=80,samples=4)")
# the observed run's agents when --agents is not given (evaluate, and tune's balance and length): the
# strongest rung of the ladder whose games fit this many engine moves (the game's own and the agents'
# search, estimated from a pilot: simulation/observer.py). With the compiled engine a counted move
# costs 4 to 12 microseconds of CPU: the observed games take about 10 to 20 s, so that evaluate at
# its defaults, the skill pairings included, stays within 30 s of CPU (docs/evaluate.md)
OBSERVE_BUDGET = 1_500_000
