# Cython's declarations for score_memo.py in the compiled engine (an augmenting .pxd: score_memo.py
# stays plain Python): the memo is an extension type that reads the typed State's zones in place.
cimport cython

from ..engine.state cimport State


@cython.locals(zones=list, out=list, i=Py_ssize_t, k=Py_ssize_t, z=list, pile=list, v=list)
cpdef tuple content_key(State s, tuple instances, tuple variables, tuple parts, Py_ssize_t first)


cdef class KeyedMemo:
    cdef public tuple instances
    cdef public tuple vars
    cdef public tuple parts
    cdef public dict known
    cdef public Py_ssize_t calls
    cdef public bint off

    cpdef object kept(self, tuple key, value)


@cython.final
cdef class ScoreMemo(KeyedMemo):
    cpdef tuple key(self, State s)
    @cython.locals(got=list)
    cpdef list scored(self, State s, score)
