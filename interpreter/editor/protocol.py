"""The Language Server Protocol's shapes that the server sends, as JSON-ready dicts and numbers:
positions, ranges, edits, the numbered kinds, and what the server says it can do.

The server speaks the protocol itself (``rpc.py``) rather than through pygls and lsprotocol: their
import alone took longer than the half second an editor should wait for the server to start
(docs/editor.md, "Speed"), and the server needs only this handful of shapes. Positions are the
editor's 0-based lines and columns.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

Json = dict[str, Any]


class CompletionItemKind(IntEnum):
    """The icon of a completion item (the numbers are the protocol's)."""

    Method = 2
    Function = 3
    Field = 5
    Variable = 6
    Class = 7
    Module = 9
    Property = 10
    Enum = 13
    Keyword = 14
    Snippet = 15
    Constant = 21
    Event = 23


class SymbolKind(IntEnum):
    """The icon of a symbol in the outline and the workspace's symbols."""

    Namespace = 3
    Class = 5
    Method = 6
    Property = 7
    Field = 8
    Enum = 10
    Function = 12
    Variable = 13
    Constant = 14
    Event = 24


class Severity(IntEnum):
    """A diagnostic's severity."""

    Error = 1
    Warning = 2
    Information = 3


SNIPPET = 2  # InsertTextFormat: the insert text is a snippet with ${1:placeholders}
INLAY_TYPE = 1  # InlayHintKind.Type
HIGHLIGHT_TEXT = 1  # DocumentHighlightKind.Text
QUICK_FIX = "quickfix"  # CodeActionKind

# JSON-RPC's and the protocol's error codes
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INTERNAL_ERROR = -32603
NOT_INITIALIZED = -32002
REQUEST_FAILED = -32803  # understood and cannot be done (a refused rename): the editor shows the message

# The semantic token types the server sends (the protocol's standard names, which editor themes
# colour) and their modifiers; semantic.py gives each kind of name its type.
TOKEN_TYPES = ["namespace", "property", "class", "variable", "function", "enum", "method", "event", "parameter"]
TOKEN_MODIFIERS = ["readonly", "declaration"]

CAPABILITIES: Json = {
    # the whole text on each change: a rules file is small, and a full text cannot drift
    "textDocumentSync": {"openClose": True, "change": 1, "save": True},
    "completionProvider": {"triggerCharacters": [" "]},
    "hoverProvider": True,
    "definitionProvider": True,
    "referencesProvider": True,
    "documentHighlightProvider": True,
    "documentSymbolProvider": True,
    "codeActionProvider": {"codeActionKinds": [QUICK_FIX]},
    "workspaceSymbolProvider": True,
    "documentFormattingProvider": True,
    "renameProvider": True,
    "semanticTokensProvider": {"legend": {"tokenTypes": TOKEN_TYPES, "tokenModifiers": TOKEN_MODIFIERS}, "full": True},
    "inlayHintProvider": True,
    "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}},
}


def position(line: int, col: int) -> Json:
    """A place in a document."""
    return {"line": line, "character": col}


def span(line: int, col: int, end_line: int, end_col: int) -> Json:
    """A range of a document, from (line, col) to (end_line, end_col)."""
    return {"start": position(line, col), "end": position(end_line, end_col)}


def location(uri: str, where: Json) -> Json:
    """A range of a file."""
    return {"uri": uri, "range": where}


def text_edit(where: Json, new_text: str) -> Json:
    """Write ``new_text`` in place of a range."""
    return {"range": where, "newText": new_text}


def markdown(text: str) -> Json:
    """Text the editor shows as Markdown (a hover's contents)."""
    return {"kind": "markdown", "value": text}
