# Cython's declarations for tally.py in the compiled engine (an augmenting .pxd; tally.py stays plain
# Python): Moments is stats.pxd's extension type, so that Tally.add's `m.add(x)` on a local typed
# `Moments` is a C call of its cpdef method, not a method looked up by name for each seat and round.
from .stats cimport Moments
