# Cython's declarations for state.py in the compiled engine (an "augmenting" .pxd: state.py stays
# plain Python, which the source tree runs). State becomes an extension type, its fields typed on its
# base (state_fields.pxd): its own methods read and write them in place instead of through attribute
# lookups, and call one another directly. Only the
# methods on the path of every move are `cpdef` (called directly from the others); those passed as
# a frame to flow.suspend (State._moved ...) or holding a generator stay `def`: Cython cannot make a
# Python object of a cpdef method inside its own module, nor compile a closure in one. state.py's
# first line turns off Cython's reading of its annotations, so that these declarations are the types.
cimport cython

from .rule_fields cimport FlowFields, GameFields, MoveFields, PhaseFields, TriggerFields
from .state_fields cimport StateFields

cdef bint _COMPILED  # (state.py: whether this module is compiled, read as a C flag)


@cython.final
cdef class State(StateFields):

    cpdef list legal_moves(self)
    @cython.locals(other=State, z=list, copied=list)  # (each slot set in place: no attribute set by name)
    cpdef State copy(self, bint memo=*, chance=*, bint log=*)
    @cython.locals(game=GameFields, c=Py_ssize_t, logged=list, p=Py_ssize_t, fields=tuple)
    cpdef apply(self, move)
    cpdef list zone_cards(self, Py_ssize_t inst)
    @cython.locals(c=Py_ssize_t, emptied=list, target=list)  # (a card id: each list read and set in place)
    cpdef move_cards(self, list cards, Py_ssize_t dest, whole=*)
    cpdef tell(self, tuple event)
    @cython.locals(rule=MoveFields)
    cpdef list _moves_for(self, Py_ssize_t p)
    @cython.locals(rule_index=Py_ssize_t, c=Py_ssize_t)
    cpdef _perform(self, Py_ssize_t p, move)
    @cython.locals(src=Py_ssize_t, game=GameFields, trig=TriggerFields, source=list, dest=list, triggers=tuple, i=Py_ssize_t, x=Py_ssize_t)
    cpdef _play_card(self, Py_ssize_t p, Py_ssize_t rule_index, Py_ssize_t c, Py_ssize_t t)
    @cython.locals(game=GameFields, rule=MoveFields, trig=TriggerFields)
    cpdef _triggers(self, Py_ssize_t p, move, Py_ssize_t start)
    cpdef _hold(self)
    @cython.locals(game=GameFields, ph=PhaseFields, rule=MoveFields)
    cpdef _advance(self)
    cpdef bint _phase_over(self, PhaseFields ph)
    @cython.locals(game=GameFields)
    cpdef _start_round(self, bint advance=*)
    cpdef _next_phase(self)
    cpdef _end_round(self)
