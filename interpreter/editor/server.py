"""The language server (pygls over stdio): each feature of the protocol answered by its module.

Diagnostics: the static part of `check` a moment after the typing stops (a new edit cancels the
pending one), then after a save the findings of seeded random playouts, in another process that
the next edit stops. Every other answer is computed from the document's latest analysis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

from lsprotocol import types as T
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from ..checker import Finding, Report
from ..errors import RulesetError
from ..language.variants import BaseReader
from ..text.fmt import format_text
from . import actions, completion, diagnostics, hover, inlay, navigation, outline, semantic
from .analysis import Analysis, analyse, buffer_reader

# Seconds without an edit before a document is checked again. Short: the edits that arrive while an
# analysis runs wait in the input, and each cancels the check the one before it scheduled, so a
# burst of typing is analysed once, at its end.
DEBOUNCE = 0.02
PLAYOUTS = 100  # random playouts a player count after a save (`ruleset lsp --playouts N`)

log = logging.getLogger(__name__)


class RulesServer(LanguageServer):
    """The server and what it holds for each open document."""

    def __init__(self) -> None:
        super().__init__("ruleset", "0.1.0")
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task] = {}  # uri -> the debounced static check
        self.playing: dict[str, asyncio.Task] = {}  # uri -> the playouts after a save
        self.published: dict[str, set[str]] = {}  # uri -> the files its diagnostics went to
        self.stale: set[str] = set()  # documents whose base changed since their analysis
        self.playouts = PLAYOUTS
        self.debounce = DEBOUNCE

    # ---- documents -------------------------------------------------------------------------------------
    def path(self, uri: str) -> str:
        doc = self.workspace.get_text_document(uri)
        return str(Path(doc.path).resolve()) if doc.path else uri

    def open_texts(self) -> dict[str, str]:
        """The text of every open document, by path (what the editor shows, saved or not)."""
        docs = self.workspace.text_documents.values()
        return {str(Path(d.path).resolve()): d.source for d in docs if d.path}

    def roots(self) -> list[str]:
        """The workspace folders, as paths."""
        folders = self.workspace.folders.values()
        out = [p for p in (to_fs_path(f.uri) for f in folders) if p]
        root = self.workspace.root_path
        return out or ([root] if root else [])

    def analysis(self, uri: str) -> Analysis:
        """The analysis of the document's current text (made now if an edit is still pending)."""
        text = self.workspace.get_text_document(uri).source
        current = self.analyses.get(uri)
        if current is None or current.text != text or uri in self.stale:
            self.stale.discard(uri)
            read = buffer_reader(self.open_texts())
            current = self.analyses[uri] = _safe_analyse(self.path(uri), text, current, read)
        return current

    def recheck_variants(self, uri: str) -> None:
        """A base changed: the open documents built on it are analysed again and their problems sent."""
        here = self.path(uri)
        for other, a in list(self.analyses.items()):
            if other != uri and here in a.files[1:]:
                self.stale.add(other)
                self.cancel(other)
                self.pending[other] = asyncio.ensure_future(self.check_later(other))

    def publish(self, uri: str, findings: list[Finding]) -> None:
        """Send the findings to the editor, each file's to it; clear the files that have none now."""
        a = self.analyses[uri]
        groups = diagnostics.by_file(findings, a.path, a.text)
        for file in self.published.get(uri, set()) - set(groups):
            groups[file] = []
        for file, diags in groups.items():
            target = uri if file == a.path else navigation.uri(file)
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=target, diagnostics=diags))
        self.published[uri] = {f for f, d in groups.items() if d}

    def cancel(self, uri: str) -> None:
        """Stop the pending check and the playouts of a document."""
        for tasks in (self.pending, self.playing):
            task = tasks.pop(uri, None)
            if task:
                task.cancel()

    async def check_later(self, uri: str) -> None:
        """The static check, once the typing has paused."""
        await asyncio.sleep(self.debounce)
        self.publish(uri, self.analysis(uri).report.findings)

    async def play(self, uri: str) -> None:
        """The playout findings of the saved file, added to the static ones."""
        a = self.analysis(uri)
        if any(f.severity == "error" for f in a.report.findings):
            return
        found = await diagnostics.playout_findings(a.path, self.playouts)
        seen = {(f.at, f.message) for f in a.report.findings}
        self.publish(uri, a.report.findings + [f for f in found if (f.at, f.message) not in seen])


def _safe_analyse(path: str, text: str, previous: Analysis | None, read: BaseReader | None = None) -> Analysis:
    """The analysis; an internal failure is logged and leaves the previous answers (never a crash)."""
    try:
        return analyse(path, text, previous, read)
    except RecursionError:
        log.warning("%s: nested too deeply to analyse", path)
    except Exception:  # the server must keep answering whatever the text
        log.exception("analysis of %s failed", path)
    if previous is not None:
        return Analysis(path, text, Report(path), previous.ir, previous.ir_text, previous.files, previous._declarations)
    return Analysis(path, text, Report(path), files=[path])


def make_server() -> RulesServer:
    """The server with every feature registered."""
    server = RulesServer()

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: T.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.publish(uri, ls.analysis(uri).report.findings)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: T.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.cancel(uri)
        ls.pending[uri] = asyncio.ensure_future(ls.check_later(uri))
        ls.recheck_variants(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: T.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.playing.pop(uri, None)
        if task:
            task.cancel()
        if ls.playouts > 0:
            ls.playing[uri] = asyncio.ensure_future(ls.play(uri))
        ls.recheck_variants(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: T.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.cancel(uri)
        ls.analyses.pop(uri, None)
        for file in ls.published.pop(uri, set()):
            target = navigation.uri(file)
            ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=target, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: RulesServer, params: T.HoverParams) -> T.Hover | None:
        pos = params.position
        return hover.hover(ls.analysis(params.text_document.uri), pos.line, pos.character)

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: RulesServer, params: T.DefinitionParams) -> list[T.Location]:
        pos = params.position
        return navigation.definition(ls.analysis(params.text_document.uri), pos.line, pos.character)

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: RulesServer, params: T.ReferenceParams) -> list[T.Location]:
        pos, a = params.position, ls.analysis(params.text_document.uri)
        with_decl = params.context.include_declaration
        return navigation.references(a, pos.line, pos.character, ls.open_texts(), with_decl, ls.roots())

    @server.feature(T.TEXT_DOCUMENT_RENAME)
    def on_rename(ls: RulesServer, params: T.RenameParams) -> T.WorkspaceEdit | None:
        pos, a = params.position, ls.analysis(params.text_document.uri)
        try:
            return navigation.rename(a, pos.line, pos.character, params.new_name, ls.open_texts(), ls.roots())
        except navigation.Refused as err:  # the editor shows the message
            raise JsonRpcException(message=str(err), code=T.LSPErrorCodes.RequestFailed) from None

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[" "]))
    def on_completion(ls: RulesServer, params: T.CompletionParams) -> T.CompletionList:
        pos = params.position
        found = completion.completions(ls.analysis(params.text_document.uri), pos.line, pos.character)
        return T.CompletionList(is_incomplete=False, items=found)

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    def on_formatting(ls: RulesServer, params: T.DocumentFormattingParams) -> list[T.TextEdit]:
        a = ls.analysis(params.text_document.uri)
        try:
            formatted = format_text(a.text, a.path)
        except RulesetError:  # text that does not parse is left as it is
            return []
        if formatted == a.text:
            return []
        lines = a.text.splitlines()
        end = T.Position(len(lines), 0)
        return [T.TextEdit(T.Range(T.Position(0, 0), end), formatted)]

    @server.feature(T.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, semantic.LEGEND)
    def on_semantic_tokens(ls: RulesServer, params: T.SemanticTokensParams) -> T.SemanticTokens:
        return semantic.semantic_tokens(ls.analysis(params.text_document.uri))

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    def on_highlight(ls: RulesServer, params: T.DocumentHighlightParams) -> list[T.DocumentHighlight]:
        pos = params.position
        return semantic.highlights(ls.analysis(params.text_document.uri), pos.line, pos.character)

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION, T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    def on_code_action(ls: RulesServer, params: T.CodeActionParams) -> list[T.CodeAction]:
        return actions.quick_fixes(params.text_document.uri, list(params.context.diagnostics))

    @server.feature(T.WORKSPACE_SYMBOL)
    def on_workspace_symbol(ls: RulesServer, params: T.WorkspaceSymbolParams) -> list[T.SymbolInformation]:
        return outline.workspace_symbols([ls.analysis(u) for u in list(ls.workspace.text_documents)], params.query)

    @server.feature(T.TEXT_DOCUMENT_INLAY_HINT)
    def on_inlay_hint(ls: RulesServer, params: T.InlayHintParams) -> list[T.InlayHint]:
        r = params.range
        return inlay.inlay_hints(ls.analysis(params.text_document.uri), r.start.line, r.end.line)

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: RulesServer, params: T.DocumentSymbolParams) -> list[T.DocumentSymbol]:
        return outline.outline(ls.analysis(params.text_document.uri))

    return server


def serve(playouts: int = PLAYOUTS, debounce: float = DEBOUNCE) -> None:
    """Answer an editor on stdin and stdout until it says exit."""
    server = make_server()
    server.playouts, server.debounce = playouts, debounce
    with contextlib.suppress(KeyboardInterrupt):
        server.start_io()
