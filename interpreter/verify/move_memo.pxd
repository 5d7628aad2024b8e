# Cython's declarations for move_memo.py in the compiled engine (an augmenting .pxd: move_memo.py
# stays plain Python): the memo is an extension type, called by the engine as a rule's generator.
cimport cython

from ..engine.state cimport State
from .score_memo cimport KeyedMemo, content_key


@cython.final
cdef class MoveMemo(KeyedMemo):
    cdef public object generate

    @cython.locals(got=tuple, found=list)
    cpdef moves(self, State s, Py_ssize_t p, list out)
