# Cython's declarations for properties.py in the compiled engine (an augmenting .pxd: properties.py
# stays plain Python): the search for loops walks the graph of states in C integers.
cimport cython

from ..engine.state cimport State


cdef class Properties:
    cdef public object game
    cdef public object absent
    cdef public tuple checks
    cdef public dict words
    cdef public set seen

    @cython.locals(out=list)
    cpdef list check(self, State s)



@cython.locals(size=Py_ssize_t, index=list, low=list, on=bytearray, stack=list, out=list, work_v=list,
               work_i=list, counter=Py_ssize_t, root=Py_ssize_t, v=Py_ssize_t, i=Py_ssize_t, w=Py_ssize_t,
               u=Py_ssize_t, kids=tuple, component=list)
cpdef list cycles(list succ)
@cython.locals(v=Py_ssize_t, d=Py_ssize_t, w=Py_ssize_t)
cpdef bint rising(list succ, list depth)
