# Cython's declarations for deal.py in the compiled engine (an augmenting .pxd; deal.py stays plain
# Python): the shuffle's loop over a deck's places in C integers, a card swapped in place; the deal's
# zones and places typed (each list's own methods, each card read and its place set in place).
cimport cython

from .state_fields cimport StateFields


@cython.locals(i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, k=Py_ssize_t, low=Py_ssize_t)
cpdef _shuffle(getrandbits, list x)


@cython.locals(
    n=Py_ssize_t, zones=list, loc=list, deck=list, dest=list, spare=list, line=tuple, deck_inst=Py_ssize_t,
    first=Py_ssize_t, aside=Py_ssize_t, seats=Py_ssize_t, start=Py_ssize_t, k=Py_ssize_t, seat=Py_ssize_t,
    inst=Py_ssize_t, c=Py_ssize_t, i=Py_ssize_t, lo=Py_ssize_t, hi=Py_ssize_t, step=Py_ssize_t, used=Py_ssize_t,
    each=Py_ssize_t, shared=bint, one_at_a_time=bint, piled=bint, place=object,
)
cpdef deal(StateFields state)
