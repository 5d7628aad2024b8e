# Cython's declarations for random_agent.py in the compiled engine (an augmenting .pxd): the random
# agent an extension type, its fields read in place (its pick, once a move, reads its draw's bound
# method without a lookup in an instance dict).
cimport cython


cdef class RandomAgent:
    cdef public object seat
    cdef public object rng
    cdef public object bits

    cpdef pick(self, list moves)
