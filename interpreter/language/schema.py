"""JSON Schemas shipped with the package (IR and game records) and validation against them."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from ..errors import RecordError, SchemaError
from .compiled_schema import Check, compile_schema

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


@cache
def schema(name: str) -> dict[str, Any]:
    """``schemas/NAME.schema.json``, read once."""
    return json.loads((resources.files("interpreter") / "schemas" / f"{name}.schema.json").read_text("utf-8"))


@cache
def validator(name: str) -> Draft202012Validator:
    """The validator of ``schemas/NAME.schema.json`` (jsonschema imported only when one is wanted:
    the language server's checks skip the schema, and start a tenth of a second sooner)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema(name))


@cache
def _compiled(name: str) -> Check:
    """``schemas/NAME.schema.json`` compiled to closures, or jsonschema's verdict for a schema not compiled."""
    return compile_schema(schema(name)) or (lambda document: validator(name).is_valid(document))


def valid(name: str, document: Any) -> bool:
    """Whether a document fits ``schemas/NAME.schema.json``: compiled_schema's closures (a few
    milliseconds for a ruleset's IR, jsonschema not imported); jsonschema's verdict for a document
    nested deeper than the closures' recursion reaches (they take more frames a level than it does)."""
    try:
        return _compiled(name)(document)
    except RecursionError:
        return validator(name).is_valid(document)


def _nearest_at(document: Any, path: list[Any]) -> str | None:
    """The source position (`at`) of the deepest node on ``path`` that has one."""
    found, node = None, document
    if isinstance(node, dict) and isinstance(node.get("at"), str):
        found = node["at"]
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and isinstance(node.get("at"), str):
            found = node["at"]
    return found


def _where(path: list[Any]) -> str:
    return "/".join(str(p) for p in path) or "(top)"


def check_ir(ir: Any) -> None:
    """Validate IR; the first failure becomes a SchemaError at the nearest source position (found
    by jsonschema, asked only when the compiled check finds the IR invalid)."""
    if valid("ir", ir):
        return
    errors = sorted(validator("ir").iter_errors(ir), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        err = errors[0]
        path = list(err.absolute_path)
        at = _nearest_at(ir, path)
        raise SchemaError(
            f"the rules do not fit the IR schema at {_where(path)}: {err.message}",
            at,
            "see docs/language.md and interpreter/schemas/ir.schema.json",
        )


def check_record(record: Any, line: int | None = None) -> None:
    """Validate one game record (a line of a .jsonl file)."""
    if valid("record", record):
        return
    errors = list(validator("record").iter_errors(record))
    if errors:
        err = min(errors, key=lambda e: len(e.absolute_path))
        where = f"line {line}: " if line else ""
        raise RecordError(f"{where}not a game record at {_where(list(err.absolute_path))}: {err.message}")
