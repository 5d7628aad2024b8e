"""Load a ruleset for checking: every loader problem (syntax, names, types, schema) as findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.game import Game, compile_ir
from ..errors import ExtendsError, ReadError, RulesetError, RulesSyntaxError, source_text
from ..language.deck_params import with_params
from ..language.resolve import resolve
from ..language.schema import _nearest_at, valid, validator
from ..language.variants import BaseFinder, BaseReader, load_program, read_text
from ..loader import ir_from_data, locate, origin
from .findings import Finding, Report, at, from_error

UNREADABLE = (ReadError, RulesSyntaxError, ExtendsError)  # exit code 2: nothing further can be checked


def gather(
    path: str,
    report: Report,
    text: str | None = None,
    schema: bool = True,
    find: BaseFinder | None = None,
    read: BaseReader | None = None,
    sets: dict[str, Any] | None = None,
) -> tuple[dict[str, Any] | None, Game | None]:
    """The IR (with its `origin` when the file is read here) and the compiled Game (with rule
    coverage) of a file, or None where problems stop it.
    ``text``, when given, is the file's content (unsaved); otherwise the file is read. ``schema``
    False skips the schema check of IR resolved from rules text (IR read as data is always checked);
    ``find`` finds the files `extends` names and ``read`` reads them (see ``load_program``); ``sets``
    the parameters a deck that reads them is laid out with (language/deck_params.py)."""
    p = locate(path) if text is None else Path(path)  # an unsaved buffer's name may be no file (untitled:)
    saved = text is None  # (the file as saved: its IR says where it came from, as ir_from_path's does)
    try:
        if text is None:
            text = read_text(p)
        if p.suffix in (".json", ".yaml", ".yml"):
            ir = ir_from_data(text, str(p))
            texts = [text]
        else:
            program = load_program(text, str(p), find=find, read=read)
            texts = [source_text(f.file) or "" for f in reversed(program.files)]  # the file, then its bases
            errors: list[RulesetError] = []
            try:
                ir = resolve(program, errors)
            except RulesetError as err:  # a missing section stops resolution
                errors.append(err)
                ir = None
            for err in errors:
                report.add(from_error(err, _code(err)))
            if errors or ir is None:
                return None, None
            if schema and not _schema_ok(ir, report):
                return ir, None
    except UNREADABLE as err:
        report.unreadable = True
        report.add(from_error(err, _code(err)))
        return None, None
    except RulesetError as err:
        report.add(from_error(err, _code(err)))
        return None, None
    report.ruleset = ir.get("name")
    if saved:
        ir["origin"] = origin(p, texts)
    try:
        return ir, compile_ir(with_params(ir, sets), coverage=True, consults=True)
    except RulesetError as err:
        report.add(from_error(err, _code(err)))
        return ir, None


def _schema_ok(ir: dict[str, Any], report: Report) -> bool:
    """Every schema violation of the IR, each at the nearest source position (the compiled schema
    says whether there is any; jsonschema, imported only then, words each)."""
    if valid("ir", ir):
        return True
    errors = list(validator("ir").iter_errors(ir))
    for err in errors:
        path = list(err.absolute_path)
        where = "/".join(map(str, path)) or "(top)"
        report.add(
            Finding(
                "error",
                "schema",
                f"the rules do not fit the IR schema at {where}: {err.message}",
                at({"at": _nearest_at(ir, path)}),
                "see docs/language.md and interpreter/schemas/ir.schema.json",
            )
        )
    return not errors


def _code(err: RulesetError) -> str:
    """A finding code from the error class: RulesSyntaxError -> syntax, UnknownNameError -> unknown-name."""
    names = {
        "RulesSyntaxError": "syntax",
        "UnknownNameError": "unknown-name",
        "RulesTypeError": "type",
        "DeclarationError": "declaration",
        "ExtendsError": "extends",
        "SchemaError": "schema",
        "ReadError": "read",
        "ParameterError": "parameter",
        "PlayError": "play",
    }
    return names.get(type(err).__name__, "load")
