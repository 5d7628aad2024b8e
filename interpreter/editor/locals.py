"""Local names: the names a rule makes for itself and reads only inside it, each with its scope.

- `let NAME = ...` in a block of effects: from the `let` to the end of the block;
- `ask P to choose NAME ...`: the choice, from the ask to the end of the block holding it (its own
  block of guards and effects, then the effects after it);
- `define NAME(P, Q) = ...`: the parameters, within that line.

A name written inside a scope stands for the nearest binding before it that holds it (an inner
`let` hides an outer one, a second `ask ... rival` starts a new `rival`). The server answers hover,
definition, references and rename of a local from here before it looks among the declarations:
within its scope, a local hides a declared name it shares.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from lark import Token as LarkToken
from lark import Tree

from ..errors import RulesetError
from .analysis import Analysis, Token, names_in, tree

Position = tuple[int, int]  # 0-based (line, column)

# the grammar's rules that bind a local: (what the local is, whether its scope is the rest of the
# block holding the rule (True) or the rule itself (False), which NAMEs of the rule it binds)
BINDERS: dict[str, tuple[str, bool, slice]] = {
    "let": ("local value", True, slice(0, 1)),
    "ask": ("choice", True, slice(0, 1)),
    "define_fn": ("parameter", False, slice(1, None)),
}


@dataclass(frozen=True)
class Local:
    """A local name, where it is bound, the scope it holds in, and the line that binds it."""

    name: str
    kind: str
    at: Token
    start: Position
    end: Position  # exclusive
    binding: str  # the line that binds it, stripped
    owner: str | None = None  # a parameter's definition

    def holds(self, where: Position) -> bool:
        return self.start <= where < self.end


@lru_cache(maxsize=16)
def locals_of(file: str, text: str) -> tuple[Local, ...]:
    """Every local bound in a text (raises the text's RulesSyntaxError when it does not parse)."""
    lines = text.splitlines()
    out: list[Local] = []

    def walk(node: Tree, parent: Tree | None) -> None:
        binder = BINDERS.get(str(node.data))
        if binder is not None:
            kind, rest_of_block, which = binder
            names = [c for c in node.children if isinstance(c, LarkToken) and c.type == "NAME"]
            # define f(c card, hue): each parameter is its fn_param's first name (the second is its type)
            names += [p.children[0] for p in node.children if isinstance(p, Tree) and p.data == "fn_param"]
            scope = parent if rest_of_block and parent is not None else node
            end = _end(scope)
            owner = str(names[0]) if str(node.data) == "define_fn" and names else None
            for name in names[which]:
                at = Token(file, name.line - 1, name.column - 1, str(name))
                start = (at.line, at.col) if rest_of_block else (node.meta.line - 1, node.meta.column - 1)
                binding = lines[at.line].strip() if at.line < len(lines) else ""
                out.append(Local(str(name), kind, at, start, end, binding, owner))
        for child in node.children:
            if isinstance(child, Tree):
                walk(child, node)

    walk(tree(file, text), None)
    return tuple(out)


def _end(node: Tree) -> Position:
    """Where a node's text ends (0-based, exclusive); an empty node ends nowhere."""
    meta = node.meta
    if getattr(meta, "empty", True):
        return (0, 0)
    return (meta.end_line - 1, meta.end_column - 1)


def local_at(analysis: Analysis, token: Token) -> Local | None:
    """The local a name written at ``token`` stands for (its binding, or a use in its scope)."""
    if token.file != analysis.path:
        return None
    try:
        found = locals_of(analysis.path, analysis.text)
    except RulesetError:  # a text that does not parse: no scopes to read
        return None
    return binding_of(found, token.text, (token.line, token.col))


def binding_of(found: tuple[Local, ...], name: str, where: Position) -> Local | None:
    """The nearest binding of ``name`` before ``where`` whose scope holds it."""
    best = None
    for local in found:
        if local.name == name and local.holds(where) and (best is None or local.start >= best.start):
            best = local
    return best


def uses(analysis: Analysis, local: Local) -> list[Token]:
    """Where a local is written: its binding, then every name in its scope that stands for it."""
    found = locals_of(analysis.path, analysis.text)
    return [
        t
        for t in names_in(analysis.path, analysis.text)
        if t.text == local.name and local.holds((t.line, t.col)) and binding_of(found, t.text, (t.line, t.col)) == local
    ]


def describe(local: Local) -> str:
    """Hover text of a local: what it is and the line that binds it."""
    what = {
        "local value": f"**Local value** `{local.name}`: set by `let`, read until the end of its block",
        "choice": f"**Choice** `{local.name}`: what the player chose in the ask, read in its block and after it",
        "parameter": f"**Parameter** `{local.name}` of the definition `{local.owner}`",
    }[local.kind]
    return f"{what}\n\n```rules\n{local.binding}\n```\nline {local.at.line + 1}"
