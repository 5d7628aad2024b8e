# Cython's declarations for encode.py in the compiled engine (an augmenting .pxd: encode.py stays
# plain Python, which the source tree runs). Encoder becomes an extension type and reads the typed
# State's fields directly (no attribute lookup by name); a zone's cards become tokens in C integers
# (the classes and seats' parts read from bytes), written one byte each, and so do the other values.
cimport cython

from ..engine.state cimport State

# the marks of a key, C integers (encode.py gives their values)
cdef int TAIL_ROOM, HELD, PILE, END, BYTES, NUMBERS, SMALL, NEGATIVE, NONE, FALSE, TRUE, LIST, TUPLE, CLOSE, MARSHALLED, TEXT


@cython.final
cdef class Encoder:
    cdef public object classes
    cdef public Py_ssize_t kinds
    cdef public object played
    cdef public object card_slots
    cdef public object free
    cdef public bytes sorted_at
    cdef public bint as_bytes
    cdef public Py_ssize_t room
    cdef public bytes spare
    cdef public bytearray buf
    cdef public bytes alike

    @cython.locals(classes=bytes, played=bytes, by=list, sorted_at=bytes, flat=bytearray, zones=list, z=list,
                   pile=list, i=Py_ssize_t, n=Py_ssize_t, c=Py_ssize_t, p=Py_ssize_t, token=Py_ssize_t,
                   j=Py_ssize_t, k=Py_ssize_t, start=Py_ssize_t, ranked=bint)
    cpdef Py_ssize_t _zone_bytes(self, State s, bytearray flat) except -2
    @cython.locals(by=list, sorted_at=bytes, flat=list, z=list, pile=list, i=Py_ssize_t)
    cpdef list _zone_list(self, State s)
    @cython.locals(buf=bytearray, flat=bytearray, k=Py_ssize_t, end=Py_ssize_t)
    cpdef str key(self, State s)
    cpdef _value(self, bytearray flat, v)
    @cython.locals(c=Py_ssize_t, inst=Py_ssize_t)
    cpdef object move_class(self, State s, move)
    cpdef _tail(self, bytearray flat, State s)
    @cython.locals(end=Py_ssize_t, k=Py_ssize_t)
    cpdef Py_ssize_t _small_tail(self, bytearray flat, Py_ssize_t start, State s) except -2
    @cython.locals(start=Py_ssize_t, end=Py_ssize_t, k=Py_ssize_t, loc=list, zones=list, inst=Py_ssize_t, z=list)
    cpdef bint _held_moves(self, bytearray flat, State s) except -1
    @cython.locals(t=object, x=object)
    cdef Py_ssize_t _put(self, bytearray flat, Py_ssize_t k, Py_ssize_t end, object v, int depth) except -2
    cpdef _number(self, bytearray flat, Py_ssize_t n)
    cpdef _escaped(self, bytearray flat, int mark, bytes data)
