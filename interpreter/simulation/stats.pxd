# Cython's declarations for stats.py in the compiled engine (an augmenting .pxd; stats.py stays plain
# Python): Moments is an extension type, so that Tally.add's fold of a game (a Moments.add for each
# seat, each agent, each round's seats and the game's length) reads and writes its fields in place
# instead of through an instance dict. `total` and `squares` are C doubles, as the compiled `add`
# (x: float) always made them; `low` and `high` stay objects, for a caller that sets them to an int
# (simulation/measures.py) keeps its int.


cdef class Moments:
    cdef public Py_ssize_t n
    cdef public double total
    cdef public double squares
    cdef public object low
    cdef public object high
    cpdef add(self, double x)
