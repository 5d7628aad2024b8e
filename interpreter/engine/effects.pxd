# Cython's declarations for effects.py in the compiled engine (an augmenting .pxd): its closures' state
# argument, typed `StateFields` (State's base, state_fields.pxd), reads the state's fields in place;
# typed `State` (state.pxd) where it moves cards, State.move_cards is called directly.
from .state cimport State
from .state_fields cimport StateFields
