# Cython's declarations for rule_fields.py in the compiled engine (an augmenting .pxd): the fields
# State reads on every move, typed, in place. Each is `public`: the dataclasses' generated methods
# (in game.py, plain Python) set and read them by name. No pickling: a Game holds closures anyway.
cimport cython


@cython.auto_pickle(False)
cdef class FlowFields:
    cdef public object round_ends


@cython.auto_pickle(False)
cdef class GameFields:
    cdef public Py_ssize_t env_size
    cdef public object max_moves_per_round
    cdef public object plain_turns
    cdef public object target_piles
    cdef public object triggers
    cdef public object phases
    cdef public object moves
    cdef public FlowFields flow
    cdef public bint place_moves


@cython.auto_pickle(False)
cdef class PhaseFields:
    cdef public bint simultaneous
    cdef public object moves
    cdef public object ends
    cdef public bint ends_env
    cdef public object resolve


@cython.auto_pickle(False)
cdef class MoveFields:
    cdef public object generate
    cdef public object choice
    cdef public object slot


@cython.auto_pickle(False)
cdef class TriggerFields:
    cdef public object condition
    cdef public object effects
    cdef public bint light

