"""Load a ruleset: text -> AST -> Program (extends) -> IR -> schema check -> Game.

``load`` takes a path (``.rules``, or IR as ``.json``/``.yaml``), a bundled ruleset's name
(its file name without .rules), or rules text; each stage can also be called on its own.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ReadError, SchemaError, Span, source_text
from .language import ir_cache
from .language.files import bundled, read_text, shipped_dirs, shipped_name

if TYPE_CHECKING:
    from .engine.game import Game
    from .language.variants import BaseFinder

# The parser, the resolver and the engine are imported where they are used: a command whose IR is
# kept (language/ir_cache.py) never imports the parser, nor the resolver.


def shipped() -> list[Path]:
    """Every ruleset shipped with the package."""
    for base in shipped_dirs():
        if base.is_dir():
            return sorted(base.glob("*.rules"))
    return []


def locate(path: str | Path) -> Path:
    """The file a user means: the path itself, or a bundled ruleset by name (a name that is neither
    is an error that lists the games known by name, and the file a user may have meant)."""
    p = Path(path)
    if not p.exists() and not p.suffix:
        found = bundled(str(path))
        if found is None:
            raise ReadError(f"no such file, nor a game shipped by that name: {path}", None, _name_hint(p))
        return found
    return p


def _name_hint(p: Path) -> str:
    """What a name that is no file may mean: a shipped game spelt close to it, or an example of that
    name beside the shipped games (in a checkout: ``oh_hell`` is examples/classics/oh_hell.rules)."""
    import difflib

    names = sorted(f.stem for f in shipped())
    known = f"the games shipped by name: {', '.join(names)}; any other by its path"
    close = difflib.get_close_matches(p.name, names, n=1)
    examples = [base.parent / "examples" for base in shipped_dirs()]
    files = sorted(f for base in examples if base.is_dir() for f in base.rglob(f"{p.name}.rules"))
    if files:
        where = files[0].resolve()
        shown = where.relative_to(Path.cwd()) if where.is_relative_to(Path.cwd()) else where
        return f"did you mean the file {shown}? ({known})"
    return f"did you mean '{close[0]}'? ({known})" if close else known


def ir_from_text(text: str, file: str = "<rules>") -> dict[str, Any]:
    """The checked IR of rules text."""
    from .language.resolve import resolve
    from .language.schema import check_ir
    from .language.variants import load_program

    ir = resolve(load_program(text, file))
    check_ir(ir)
    return ir


def ir_from_path(path: str | Path, find: BaseFinder | None = None) -> dict[str, Any]:
    """The checked IR of a file: rules text, or IR written as JSON or YAML; with its `origin`.
    ``find`` finds the files `extends` names (see ``load_program``). The IR of a rules file whose
    bases are found as usual (no ``find``) is kept, and read back while nothing it was built from
    has changed (see language/ir_cache.py)."""
    p = locate(path)
    text = read_text(p)
    if p.suffix in (".json", ".yaml", ".yml"):
        ir, texts = ir_from_data(text, str(p)), [text]
    else:
        kept = ir_cache.lookup(p, text) if find is None else None
        if kept is not None:
            ir, texts = kept
        else:
            from .language.resolve import resolve
            from .language.schema import check_ir
            from .language.variants import load_program

            reads = ir_cache.Reads()
            program = load_program(text, str(p), find=find or reads.find, read=reads.read)
            ir = resolve(program)
            check_ir(ir)
            if find is None:
                ir_cache.store(p, text, ir, reads)
            texts = [source_text(f.file) or "" for f in reversed(program.files)]  # the file, then its bases
    ir["origin"] = origin(p, texts)
    return ir


def rules_hash(texts: list[str]) -> str:
    """The sha256 of the texts a ruleset was read from (a file alone: what `sha256sum` says of it)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
    return digest.hexdigest()


def origin(path: Path, texts: list[str]) -> dict[str, str]:
    """What finds a ruleset again from anywhere: its absolute path, its name if it is a shipped
    one, and the sha256 of the texts read (the file, then each base it extends), to tell a change."""
    out = {"path": str(path.resolve())}
    name = shipped_name(path)
    if name and name.endswith(".rules"):
        out["shipped"] = name.removesuffix(".rules")
    out["sha256"] = rules_hash(texts)
    return out


# IR read as data: deeper structures would exhaust the stack of the schema check, and more
# nodes than this can only come from YAML aliases expanding (a 1 MB file holds far fewer).
MAX_IR_DEPTH = 150
MAX_IR_NODES = 1_000_000


def check_ir_size(data: Any, file: str) -> None:
    """Refuse IR data nested deeper than MAX_IR_DEPTH or with more than MAX_IR_NODES nodes (no recursion)."""
    stack, nodes = [(data, 1)], 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if depth > MAX_IR_DEPTH:
            raise SchemaError(f"the IR is nested deeper than {MAX_IR_DEPTH} levels", Span(file, 1, 1))
        if nodes > MAX_IR_NODES:
            hint = "YAML aliases (*name) count once for each use"
            raise SchemaError(f"the IR has more than {MAX_IR_NODES:,} values", Span(file, 1, 1), hint)
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)


def ir_from_data(text: str, file: str) -> dict[str, Any]:
    """IR written directly as JSON or YAML (safe loading only)."""
    try:
        data = json.loads(text) if file.endswith(".json") else _yaml_data(text, file)
    except RecursionError:
        raise ReadError("the data is nested too deeply to read", Span(file, 1, 1)) from None
    except json.JSONDecodeError as err:
        raise ReadError(f"not valid JSON: {err.msg}", Span(file, err.lineno, err.colno)) from None
    if not isinstance(data, dict):
        raise SchemaError("the IR must be an object", Span(file, 1, 1))
    check_ir_size(data, file)
    from .language.schema import check_ir

    check_ir(data)
    return data


def _yaml_data(text: str, file: str) -> Any:
    """YAML text as data (yaml imported only here: a .rules file never needs it)."""
    import yaml

    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        span = Span(file, mark.line + 1, mark.column + 1) if mark else None
        raise ReadError(f"not valid YAML: {getattr(err, 'problem', err)}", span) from None


def load(source: str | Path, *, text: bool | None = None) -> Game:
    """A Game from a path, a bundled name, or rules text (text if it has a newline)."""
    from .engine.game import compile_ir

    if text or (text is None and isinstance(source, str) and "\n" in source):
        return compile_ir(ir_from_text(str(source)))
    return compile_ir(ir_from_path(source))


def loads(rules: str, file: str = "<rules>") -> Game:
    """A Game from rules text."""
    from .engine.game import compile_ir

    return compile_ir(ir_from_text(rules, file))
