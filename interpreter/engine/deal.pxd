# Cython's declarations for deal.py in the compiled engine (an augmenting .pxd; deal.py stays plain
# Python): the shuffle's loop over a deck's places in C integers, a card swapped in place.
cimport cython

from .state_fields cimport StateFields


@cython.locals(i=Py_ssize_t, j=Py_ssize_t, n=Py_ssize_t, k=Py_ssize_t, low=Py_ssize_t)
cpdef _shuffle(getrandbits, list x)
