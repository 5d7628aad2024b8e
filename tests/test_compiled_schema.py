"""The schemas compiled to closures (interpreter/language/compiled_schema.py) say valid exactly where
jsonschema does: keyword by keyword on small schemas, and on a shipped ruleset's IR with a value
changed; an invalid IR is still reported by jsonschema, with its message and position."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from conftest import RULESETS
from interpreter.errors import SchemaError
from interpreter.language.compiled_schema import compile_schema
from interpreter.language.schema import check_ir, schema, valid
from interpreter.loader import ir_from_path

# One schema for each keyword the compiler knows, and a few of them together.
SCHEMAS = [
    {"type": "integer"},
    {"type": "number"},
    {"type": ["string", "null"]},
    {"type": "boolean"},
    {"enum": ["a", "b", 1, True, None, [1], {"k": 0}]},
    {"enum": ["a", "b"]},
    {"const": 1},
    {"const": False},
    {"const": {"k": [1, True]}},
    {"pattern": "^.+:[0-9]+$"},
    {"minLength": 1, "maxLength": 2},
    {"minimum": 0, "maximum": 3},
    {"minItems": 1, "maxItems": 2, "items": {"type": "integer"}},
    {"items": False},
    {"type": "object", "required": ["op"], "properties": {"op": {"enum": ["num", "text"]}, "value": {}}},
    {"properties": {"a": {"type": "integer"}}, "additionalProperties": False},
    {"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string"}},
    {"dependentRequired": {"a": ["b"]}},
    {"not": {"type": "string"}},
    {"allOf": [{"minimum": 1}, {"maximum": 2}]},
    {"anyOf": [{"type": "string"}, {"minimum": 2}]},
    {"oneOf": [{"type": "integer"}, {"minimum": 2}]},
    {"if": {"properties": {"op": {"const": "num"}}}, "then": {"required": ["value"]}, "else": {"required": ["of"]}},
    {"if": {"type": "string"}, "then": {"minLength": 2}},
    {"$defs": {"tree": {"type": "array", "items": {"$ref": "#/$defs/tree"}}}, "$ref": "#/$defs/tree"},
    {"description": "annotations only", "title": "t"},
]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 5)
    | st.sampled_from([0.0, 1.0, 2.5, -1.5])
    | st.sampled_from(["", "a", "b", "ab", "abc", "num", "text", "x:1", "f.rules:3:4"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "b", "k", "op", "of", "value"]), inner, max_size=3)
    ),
    max_leaves=8,
)


COMPILED = [(one, compile_schema(one), Draft202012Validator(one)) for one in SCHEMAS]


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_each_keyword_says_what_jsonschema_says(value) -> None:
    """True is not 1, 3.0 is an integer, a keyword of objects holds of a number, `if` picks `then` or
    `else`, a `$ref` recurses: for every value, the compiled check and jsonschema agree."""
    for one, compiled, validator in COMPILED:
        assert compiled(value) == validator.is_valid(value), one


def _paths(node, path=()):
    """Every path to a value inside a document."""
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield from _paths(value, (*path, key))


POISON_IR = ir_from_path(RULESETS / "poison.rules")
POISON_PATHS = list(_paths(POISON_IR))[1:]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_ir_schema_compiled_agrees_with_jsonschema_on_changed_ir(data) -> None:
    """A shipped ruleset's IR with one value replaced, removed or one key added: the compiled IR
    schema and jsonschema give the same verdict."""
    ir = copy.deepcopy(POISON_IR)
    path = data.draw(st.sampled_from(POISON_PATHS))
    parent = ir
    for key in path[:-1]:
        parent = parent[key]
    how = data.draw(st.sampled_from(["replace", "remove", "add"]))
    if how == "replace":
        parent[path[-1]] = data.draw(json_values)
    elif how == "remove":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["extra", "op", "at", "value"]))] = data.draw(json_values)
    else:
        parent.append(data.draw(json_values))
    assert valid("ir", ir) == Draft202012Validator(schema("ir")).is_valid(ir)


def test_every_shipped_schema_is_compiled() -> None:
    """The IR, record, check and experiment schemas use only keywords the compiler knows (a schema
    that grows another keyword would quietly fall back to jsonschema's speed)."""
    for name in ("ir", "record", "check", "experiment"):
        assert compile_schema(schema(name)) is not None, name
    assert compile_schema({"type": "object", "uniqueItems": True}) is None  # (unknown: left to jsonschema)


def test_invalid_ir_is_still_reported_by_jsonschema_at_its_position() -> None:
    """An IR the compiled check refuses gets jsonschema's message, at the nearest `at` of the rules."""
    ir = json.loads(json.dumps(POISON_IR))
    ir["round"]["phases"][0]["moves"] = "not a list"
    with pytest.raises(SchemaError) as info:
        check_ir(ir)
    first = min(Draft202012Validator(schema("ir")).iter_errors(ir), key=lambda e: list(map(str, e.absolute_path)))
    assert info.value.message == f"the rules do not fit the IR schema at round/phases/0: {first.message}"
    assert (Path(info.value.span.file).name, info.value.span.line) == ("poison.rules", 31)  # `phase play`


def test_ir_nested_as_deep_as_the_loader_allows_is_judged_as_jsonschema_judges_it() -> None:
    """The closures take more frames a level than jsonschema: IR nested near MAX_IR_DEPTH (an
    expression 140 `not`s deep) overflows them, and jsonschema's verdict is taken, valid or not."""
    from interpreter.loader import check_ir_size

    for leaf in ({"op": "num", "value": 1}, {"op": "num", "value": "one"}):
        expr = dict(leaf, at="deep.rules:1:1")
        for _ in range(140):
            expr = {"op": "not", "of": expr, "at": "deep.rules:1:1"}
        ir = copy.deepcopy(POISON_IR)
        ir["round"]["phases"][0]["ends"]["when"] = expr
        check_ir_size(ir, "deep.rules")  # (within the loader's bound)
        with pytest.raises(RecursionError):
            compile_schema(schema("ir"))(ir)
        assert valid("ir", ir) == Draft202012Validator(schema("ir")).is_valid(ir) == (leaf["value"] == 1)
