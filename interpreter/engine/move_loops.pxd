# Cython's declarations for move_loops.py in the compiled engine (an augmenting .pxd): its closures' state
# argument, typed `StateFields` (State's base, state_fields.pxd), reads the state's fields in place.
from .state_fields cimport StateFields


# the move loops' shared steps, called directly (no Python call) from their closures
cpdef tuple current_plan(list planner, StateFields s)
cpdef emit(tuple plan, Py_ssize_t p, list chosen, list out)
cpdef list passing(list cards, tuple table, v, bint negate)
cpdef Py_ssize_t kinds_among(list cards, tuple kind, Py_ssize_t groups)
