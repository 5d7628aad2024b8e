# Cython's declarations for accounting.py in the compiled engine (an augmenting .pxd: accounting.py
# stays plain Python): the usual case, every card where the state places it, tested in C integers.
cimport cython

from .state_fields cimport StateFields


cpdef object cards_accounted(StateFields state, absent=*)
@cython.locals(seen=list, placed=Py_ssize_t, inst=Py_ssize_t, c=Py_ssize_t, z=list, pile=list)
cpdef bint _all_in_place(list zones, list loc, absent)
