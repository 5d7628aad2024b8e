"""The fields of the rules that State reads on every move, as base classes of the rules' records
(game.py's Game, PhaseRule, MoveRule, TriggerRule and Flow, which stay dataclasses).

In the pure-Python engine these bases are empty and change nothing. The compiled engine declares
them as extension types with those fields (rule_fields.pxd), so State's methods (state.pxd) read
them in place instead of looking each name up in the record's dict; every other reader sees them
as before. ``fields_first(Base)`` puts the base first among a dataclass's bases once the dataclass
is made: made on the base itself, the dataclass would take the base's field descriptors for the
fields' defaults.
"""

from __future__ import annotations

from collections.abc import Callable


class GameFields:
    __slots__ = ()


class PhaseFields:
    __slots__ = ()


class MoveFields:
    __slots__ = ()


class TriggerFields:
    __slots__ = ()


class FlowFields:
    __slots__ = ()


def fields_first(base: type) -> Callable[[type], type]:
    """Decorator (over ``@dataclass``): the class, made again with ``base`` before its own bases, so
    the base's fields hold the record's values (its generated methods set and read them by name)."""

    def make(cls: type) -> type:
        names = {"__slots__": (), "__module__": cls.__module__, "__qualname__": cls.__qualname__}
        return type(cls.__name__, (base, cls), {**names, "__doc__": cls.__doc__})

    return make
