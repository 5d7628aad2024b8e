# Cython's declarations for accounting.py in the compiled engine (an augmenting .pxd: accounting.py
# stays plain Python): the usual case, every card where the state places it, tested in C integers.
cimport cython


@cython.locals(seen=bytearray, placed=Py_ssize_t, inst=Py_ssize_t, c=Py_ssize_t)
cpdef bint _all_in_place(list zones, list loc, absent)
