"""Semantic tokens and document highlights: every name the rules declare or bind, coloured by its
kind (a zone apart from an attribute, a move from a phase, a local from a declared variable), which
the TextMate grammar cannot tell (it sees words, not declarations); and the places of the name
under the cursor in this file."""

from __future__ import annotations

from . import protocol as P
from .analysis import Analysis, keywords, names_in, token_at
from .locals import local_at
from .navigation import references, uri
from .slots import meant

# The token type of each kind of declaration (the kinds of text.diff's items) and of a local, among
# the types the server sends (protocol.TOKEN_TYPES, LSP's standard names, which editor themes colour).
TYPES = P.TOKEN_TYPES
OF_KIND = {
    "zone": "namespace",
    "attribute": "property",
    "cards": "class",
    "parameter": "variable",  # with readonly: a game's parameter is fixed for a game
    "variable": "variable",
    "definition": "function",
    "schedule": "enum",
    "move": "method",
    "phase": "event",
    "effect": "function",  # a named effect (`effect NAME`, `do NAME`)
}
OF_LOCAL = {"local value": "variable", "choice": "variable", "parameter": "parameter"}


def semantic_tokens(analysis: Analysis) -> P.Json:
    """Each declared or bound name written in the document, as LSP's relative five-number tuples."""
    data: list[int] = []
    last_line = last_col = 0
    words = {w for k in keywords() for w in k.split()}
    for token in names_in(analysis.path, analysis.text):
        local = local_at(analysis, token)
        modifiers = 0
        if local is not None:
            kind = OF_LOCAL[local.kind]
            modifiers |= 2 if local.at == token else 0
        else:
            if token.text in words and not analysis.declared(token.text):
                continue
            _, decls = meant(analysis, token)
            if not decls or decls[0].kind not in OF_KIND:
                continue
            kind = OF_KIND[decls[0].kind]
            modifiers |= 1 if decls[0].kind == "parameter" else 0
            modifiers |= 2 if any(d.at.line == token.line and d.at.col == token.col for d in decls) else 0
        delta_line = token.line - last_line
        delta_col = token.col - last_col if delta_line == 0 else token.col
        data += [delta_line, delta_col, len(token.text), TYPES.index(kind), modifiers]
        last_line, last_col = token.line, token.col
    return {"data": data}


def highlights(analysis: Analysis, line: int, col: int) -> list[P.Json]:
    """The places of the name under the cursor in this document (its declaration or binding too)."""
    if token_at(analysis, line, col) is None:
        return []
    here = analysis.path
    found = references(analysis, line, col, {here: analysis.text}, include_declaration=True)
    mine = [loc for loc in found if loc["uri"] == uri(here)]
    return [{"range": loc["range"], "kind": P.HIGHLIGHT_TEXT} for loc in mine]
