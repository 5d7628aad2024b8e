"""A JSON Schema compiled once into closures that only say whether a document is valid.

jsonschema walks the schema for every node of a document and builds an error object for every
failed branch it tries (each `if` of an expression's kind): checking the IR of a shipped ruleset
took longer than parsing it, and importing jsonschema a tenth of a second more. The closures here
answer valid or not, with jsonschema's meaning of each keyword (Draft 2020-12), in a few
milliseconds and without importing it; jsonschema stays the one that says *what* is wrong
(schema.py asks it only when a document is found invalid here). A schema with a keyword this
module does not know is not compiled (``compile_schema`` returns None) and jsonschema checks
everything, as before.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that say nothing about validity (annotations, and the places other keywords point into).
ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default", "deprecated"}
)


class Unsupported(Exception):
    """A keyword (or a $ref) this compiler does not know: the schema is left to jsonschema."""


def _is_integer(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or (isinstance(x, float) and x.is_integer())


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool)


TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "integer": _is_integer,
    "number": _is_number,
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
}


def _equal(one: Any, two: Any) -> bool:
    """jsonschema's equality (`const`, `enum`): True is not 1, lists and objects compared inside."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, list) and isinstance(two, list):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, dict) and isinstance(two, dict):
        return one.keys() == two.keys() and all(_equal(one[k], two[k]) for k in one)
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return one == two


def _one_of_values(values: list[Any]) -> Check:
    """`enum` (and `const`, a list of one): a set lookup when every value is text."""
    if all(isinstance(v, str) for v in values):
        texts = frozenset(values)
        return lambda x: isinstance(x, str) and x in texts
    return lambda x: any(_equal(x, v) for v in values)


def compile_schema(schema: dict[str, Any]) -> Check | None:
    """The check of a whole schema document (its local ``#/$defs/...`` refs included), or None
    when it uses a keyword this module does not compile."""
    try:
        return _Compiler(schema).check(schema)
    except Unsupported:
        return None


class _Compiler:
    """Compiles the subschemas of one document; each `$ref` target once, so recursion is a loop."""

    def __init__(self, root: dict[str, Any]):
        self.root = root
        self.refs: dict[str, list[Check]] = {}

    def ref(self, ref: str) -> Check:
        """A `$ref` into this document (``#/$defs/NAME`` or any ``#/...`` pointer), compiled once."""
        if ref not in self.refs:
            if not ref.startswith("#"):
                raise Unsupported(ref)
            target: Any = self.root
            for part in filter(None, ref[1:].split("/")):
                part = part.replace("~1", "/").replace("~0", "~")
                try:
                    target = target[int(part)] if isinstance(target, list) else target[part]
                except (KeyError, IndexError, ValueError):
                    raise Unsupported(ref) from None
            cell: list[Check] = []
            self.refs[ref] = cell  # (a recursive ref reads the cell when called, once it is filled)
            cell.append(self.check(target))
        cell = self.refs[ref]
        return lambda x: cell[0](x)

    def check(self, schema: Any) -> Check:
        """One (sub)schema: every keyword's check, all of which must hold."""
        if schema is True or schema == {}:
            return lambda x: True
        if schema is False:
            return lambda x: False
        if not isinstance(schema, dict):
            raise Unsupported(repr(schema))
        checks: list[Check] = []
        for key, value in schema.items():
            if key in ANNOTATIONS or key in ("then", "else"):  # (then and else belong to `if`)
                continue
            keyword = getattr(self, "k_" + key.lstrip("$"), None)
            if keyword is None:
                raise Unsupported(key)
            checks.append(keyword(value, schema))
        object_keys = [c for c in checks if getattr(c, "object_only", False)]
        checks = [c for c in checks if not getattr(c, "object_only", False)]
        if object_keys:  # (the object keywords share one isinstance test)
            checks.append(_on_objects(object_keys))
        if not checks:
            return lambda x: True
        if len(checks) == 1:
            return checks[0]
        if len(checks) == 2:
            a, b = checks
            return lambda x: a(x) and b(x)
        return lambda x: all(c(x) for c in checks)

    # ---- one method per keyword: k_NAME(value, the schema it sits in) -> check ----

    def k_ref(self, ref: str, schema: dict) -> Check:  # {"$ref": "#/$defs/expr"}
        return self.ref(ref)

    def k_type(self, types: str | list[str], schema: dict) -> Check:  # {"type": ["string", "null"]}
        names = [types] if isinstance(types, str) else types
        if not set(names) <= TYPES.keys():
            raise Unsupported(f"type {types}")
        tests = [TYPES[t] for t in names]
        if len(tests) == 1:
            return tests[0]
        return lambda x: any(t(x) for t in tests)

    def k_enum(self, values: list[Any], schema: dict) -> Check:  # {"enum": ["a", "b"]}
        return _one_of_values(values)

    def k_const(self, value: Any, schema: dict) -> Check:  # {"const": "a"}
        return _one_of_values([value])

    def k_pattern(self, pattern: str, schema: dict) -> Check:  # {"pattern": "^.+:[0-9]+$"} (re.search)
        search = re.compile(pattern).search
        return lambda x: not isinstance(x, str) or search(x) is not None

    def k_minLength(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, str) or len(x) >= n

    def k_maxLength(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, str) or len(x) <= n

    def k_minimum(self, n: float, schema: dict) -> Check:
        return lambda x: not _is_number(x) or x >= n

    def k_maximum(self, n: float, schema: dict) -> Check:
        return lambda x: not _is_number(x) or x <= n

    def k_minItems(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, list) or len(x) >= n

    def k_maxItems(self, n: int, schema: dict) -> Check:
        return lambda x: not isinstance(x, list) or len(x) <= n

    def k_items(self, items: Any, schema: dict) -> Check:  # every item (no prefixItems here)
        if "prefixItems" in schema:
            raise Unsupported("prefixItems")
        each = self.check(items)
        return lambda x: not isinstance(x, list) or all(each(v) for v in x)

    def k_required(self, names: list[str], schema: dict) -> Check:
        return _object_only(lambda x: all(n in x for n in names))

    def k_properties(self, properties: dict[str, Any], schema: dict) -> Check:
        checks = [(name, self.check(sub)) for name, sub in properties.items()]

        return _object_only(lambda x: all(check(x[name]) for name, check in checks if name in x))

    def k_additionalProperties(self, extra: Any, schema: dict) -> Check:
        if "patternProperties" in schema:
            raise Unsupported("patternProperties")
        known = frozenset(schema.get("properties", ()))
        if extra is False:
            return _object_only(lambda x: known.issuperset(x))
        each = self.check(extra)
        return _object_only(lambda x: all(each(v) for k, v in x.items() if k not in known))

    def k_dependentRequired(self, needs: dict[str, list[str]], schema: dict) -> Check:
        return _object_only(lambda x: all(n in x for k, ns in needs.items() if k in x for n in ns))

    def k_not(self, sub: Any, schema: dict) -> Check:
        check = self.check(sub)
        return lambda x: not check(x)

    def k_allOf(self, subs: list[Any], schema: dict) -> Check:
        checks = [self.check(s) for s in subs]
        return lambda x: all(c(x) for c in checks)

    def k_anyOf(self, subs: list[Any], schema: dict) -> Check:
        checks = [self.check(s) for s in subs]
        return lambda x: any(c(x) for c in checks)

    def k_oneOf(self, subs: list[Any], schema: dict) -> Check:
        checks = [self.check(s) for s in subs]
        return lambda x: sum(1 for c in checks if c(x)) == 1

    def k_if(self, sub: Any, schema: dict) -> Check:  # {"if": A, "then": B, "else": C}
        test = self.check(sub)
        then = self.check(schema.get("then", True))
        otherwise = self.check(schema.get("else", True))
        return lambda x: then(x) if test(x) else otherwise(x)


def _object_only(check: Check) -> Check:
    """A keyword that holds of anything but an object, and is tested on objects only."""
    check.object_only = True  # type: ignore[attr-defined]
    return check


def _on_objects(checks: list[Check]) -> Check:
    """The object keywords of one schema, after one isinstance test."""
    if len(checks) == 1:
        (only,) = checks
        return lambda x: not isinstance(x, dict) or only(x)
    return lambda x: not isinstance(x, dict) or all(c(x) for c in checks)
