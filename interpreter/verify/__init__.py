"""`ruleset verify`: every deal and every line of play of a (shrunk) game explored, breadth-first.

Takes a compiled Game (with coverage), a player count and parameters; gives a ``Result``: how
much of the space was covered, each property and whether it held in every reachable state, or
the shortest game that breaks it (as words and as a record `ruleset replay` plays back).

- chance.py: the shuffles, enumerated (every distinct order of a deck, alike cards alike);
- encode.py: the canonical key of a state (the visited set);
- explore.py: the breadth-first search over states, with the graph it found;
- properties.py: the built-in properties and the designer's `checks`, per state and over the graph;
- score_memo.py, move_memo.py: a final state's scoring and a move rule's legal moves, remembered
  by what the rules read (reads.py) for the search's time;
- report.py: the result as text or JSON, counterexamples as words and records;
- jobs.py: the deals shared out over processes (`--jobs`), and what each found merged.

May import: ``interpreter.checker`` (rule positions, as check counts them), ``interpreter.engine``,
``interpreter.text`` (moves in words), ``interpreter.language``, ``interpreter.loader``,
``interpreter.errors``.
"""

from __future__ import annotations

from .explore import Result, explore

__all__ = ["Result", "explore"]
