# Cython's declarations for one_game.py in the compiled engine (an augmenting .pxd; one_game.py stays
# plain Python): a game's loop reads the State's fields (over, current) and calls its cpdef methods
# (apply, legal_moves) in place, not by name, once a move.
from ..engine.state cimport State
