# Cython's declarations for scoring.py in the compiled engine (an augmenting .pxd): its closures' state
# argument, typed `StateFields` (State's base, state_fields.pxd), reads the state's fields in place.
cimport cython

from .state_fields cimport StateFields


@cython.locals(runs=tuple, points=list, out=list, env=list, i=Py_ssize_t, p=Py_ssize_t, size=Py_ssize_t)
cpdef list _by_rule(StateFields state)


# (called directly from the rules' closures: no Python call a rule)
@cython.locals(c=Py_ssize_t)
cpdef total_of(StateFields state, list env, items, Py_ssize_t slot, condition, bint negate, points, at, Py_ssize_t ti,
               tuple tidx)
