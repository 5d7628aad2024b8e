# Cython's declarations for comparison_exprs.py in the compiled engine (an augmenting .pxd): its closures' state
# argument, typed `StateFields` (State's base, state_fields.pxd), reads the state's fields in place.
from .state_fields cimport StateFields
from .value_exprs cimport tick  # (a C call: ExprCompiler.countable)
