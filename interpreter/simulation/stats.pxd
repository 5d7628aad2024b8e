# Cython's declarations for stats.py in the compiled engine (an augmenting .pxd; stats.py stays plain
# Python): Moments is an extension type, so that Tally.add's fold of a game (a Moments.add for each
# seat, each agent, each round's seats and the game's length) reads and writes its fields in place
# instead of through an instance dict. `total` and `squares` are C doubles (the source's start at 0.0:
# a float either way); `add` takes its value as the object it is, so that `low` and `high` keep an int
# as the source's do (a report's min and max read -67, not -67.0, compiled or not).


cdef class Moments:
    cdef public Py_ssize_t n
    cdef public double total
    cdef public double squares
    cdef public object low
    cdef public object high
    cpdef add(self, x)
