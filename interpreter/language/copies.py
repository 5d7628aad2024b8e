"""Copy counts by expression (`x (2 * players)`): what the resolver checks and the engine lays out a
deck with. A module of its own, without the AST, so that the engine imports it and not the parser."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError

_ARITH = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__}
_CMP = {"=": int.__eq__, "!=": int.__ne__, "<": int.__lt__, ">": int.__gt__, "<=": int.__le__, ">=": int.__ge__}


def copies_for(node: Any, players: int) -> int:
    """How many copies a count gives with this many players: an int, or a copy-count expression
    (numbers, `players`, arithmetic, comparisons and `if`, as `_copies` allows)."""
    if isinstance(node, int):
        return node
    op = node["op"]
    if op == "num":
        return node["value"]
    if op == "builtin":
        return players
    if op == "neg":
        return -copies_for(node["of"], players)
    if op == "if":
        return copies_for(node["then" if copies_for(node["cond"], players) else "else"], players)
    if op == "and":
        return int(all(copies_for(x, players) for x in node["args"]))
    if op == "or":
        return int(any(copies_for(x, players) for x in node["args"]))
    if op == "not":
        return int(not copies_for(node["of"], players))
    left, right = copies_for(node["left"], players), copies_for(node["right"], players)
    if op == "cmp":
        return int(_CMP[node["cmp"]](left, right))
    if node["sym"] in _ARITH:
        return _ARITH[node["sym"]](left, right)
    if right == 0:
        raise DeclarationError("a copy count divides by zero", node.get("at"))
    return left // right if node["sym"] == "/" else left % right
