# Cython's declarations for state_fields.py in the compiled engine (an augmenting .pxd): State's fields,
# typed, on its base class (state.pxd declares State's methods). Every field is `public`, so the other
# modules (compiled or not) read and set them as before; a field typed `list` or `dict` takes exactly
# that type or None (the source keeps to it). The modules that cimport StateFields read them in place.
cimport cython
from .rule_fields cimport GameFields


@cython.auto_pickle(False)
cdef class LayoutFields:
    cdef public Py_ssize_t players
    cdef public tuple base
    cdef public tuple instances
    cdef public tuple zone_of
    cdef public tuple owner
    cdef public tuple number
    cdef public tuple piles


cdef class StateFields:
    cdef public object _legal
    cdef public object asking
    cdef public dict cache
    cdef public object choosers
    cdef public Py_ssize_t current
    cdef public Py_ssize_t dealer
    cdef public object deals_given
    cdef public object expiring
    cdef public GameFields game
    cdef public list history
    cdef public LayoutFields layout
    cdef public list loc
    cdef public Py_ssize_t moves_in_round
    cdef public Py_ssize_t n
    cdef public bint narrating
    cdef public object next_player
    cdef public object out
    cdef public bint over
    cdef public object params
    cdef public list pending
    cdef public Py_ssize_t phase
    cdef public object picking
    cdef public list played_by
    cdef public bint resolving
    cdef public object rng
    cdef public Py_ssize_t round
    cdef public object rounds
    cdef public object schedule
    cdef public object seed
    cdef public object shown
    cdef public object shuffles_given
    cdef public object skips
    cdef public list to_move
    cdef public object told
    cdef public list totals
    cdef public Py_ssize_t turn_step
    cdef public list vars
    cdef public object won_together
    cdef public dict zmemo
    cdef public list zones
