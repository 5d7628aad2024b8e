# Cython's declarations for value_exprs.py in the compiled engine (an augmenting .pxd): its closures' state
# argument, typed `StateFields` (State's base, state_fields.pxd), reads the state's fields in place.
from .state_fields cimport StateFields


cpdef tick(tuple tallies, Py_ssize_t c)  # (called in C from the other mixins' closures)
