"""The engine: IR -> Game -> State.

Takes checked IR and compiles it once into a ``Game`` (card tables, zone layouts, closures);
``Game.new_game`` gives a ``State`` that lists legal moves, applies them, scores rounds, tells
what a seat may see, and keeps the history that a record is written from.
May import: ``interpreter.language`` and ``interpreter.errors``. Knows no game: every game fact
comes from the IR.
"""
