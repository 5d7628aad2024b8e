# Cython's declarations for chance.py in the compiled engine (an augmenting .pxd: chance.py stays
# plain Python): a shuffle's orders listed in C integers, one after the other.
cimport cython


@cython.locals(g=Py_ssize_t, i=Py_ssize_t, out=list)
cpdef tuple _order(list seq, list ids, list taken)
@cython.locals(n=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t)
cpdef bint _next(list seq)
@cython.locals(out=bytearray, i=Py_ssize_t, at=bytes, start=Py_ssize_t, j=Py_ssize_t, k=Py_ssize_t,
               m=Py_ssize_t, token=Py_ssize_t, ranked=bint)
cpdef bytes _placed_at(bytes tokens, list places, bytes sorted_at)
@cython.locals(k=Py_ssize_t)
cpdef bint _advance(list seqs)
@cython.locals(n=Py_ssize_t, k=Py_ssize_t, i=Py_ssize_t, j=Py_ssize_t, g=Py_ssize_t, seq=list, kind=bytes, tokens=bytearray)
cpdef bytes _placed_groups(list seqs, list kinds, list places, bytes sorted_at)
