"""What the JSON Schema cannot check in IR written by hand (JSON or YAML): that every name an
expression uses is declared, and, failing that, where the compiler tripped over the IR.

IR from rules text is consistent by construction; these checks guard IR given as data.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

from ..errors import SchemaError

# expression op -> the declarations its "name" must be among
DECLARED = {
    "param": "params",
    "schedule": "schedules",
    "var": "vars",
    "call": "defines",
    "zone": "zones",
    "zones": "zones",
}


def check_references(ir: dict[str, Any]) -> None:
    """Every param, schedule, variable, definition and zone an expression names is declared."""
    names = {key: {d.get("name") for d in ir.get(key) or [] if isinstance(d, dict)} for key in set(DECLARED.values())}
    names["zones"] |= {d.get("name") for d in ir.get("decks") or [] if isinstance(d, dict)}
    stack: list[Any] = [ir]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            op = node.get("op")
            kind = DECLARED.get(op) if isinstance(op, str) else None
            if kind and node.get("name") not in names[kind]:
                raise SchemaError(
                    f"the IR uses {node.get('op')} '{node.get('name')}', which it does not declare",
                    node.get("at") if isinstance(node.get("at"), str) else None,
                    f"declare it in the IR's `{kind}`",
                )
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def position_in(tb: TracebackType | None) -> str | None:
    """The `at` of the innermost IR node the compiler was working on when it failed, if any."""
    found = None
    while tb is not None:
        for value in tb.tb_frame.f_locals.values():
            if isinstance(value, dict) and isinstance(value.get("at"), str):
                found = value["at"]
        tb = tb.tb_next
    return found


def compile_error(err: Exception) -> SchemaError:
    """A compiler failure on inconsistent IR, as a SchemaError at the node it failed on."""
    return SchemaError(
        f"the IR does not hold together: {type(err).__name__} {err}",
        position_in(err.__traceback__),
        "names used in expressions, deals and moves must be declared in the IR",
    )
