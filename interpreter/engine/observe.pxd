# Cython's declarations for observe.py in the compiled engine (an augmenting .pxd): the state a round's
# end reveals from, typed `StateFields` (State's base, state_fields.pxd), read in place.
from .state_fields cimport StateFields
