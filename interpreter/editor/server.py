"""The language server: each feature of the protocol answered by its module, over ``rpc.py``.

Diagnostics: the static part of `check` a moment after the typing stops (a new edit cancels the
pending one), then after a save the findings of seeded random playouts, in another process that
the next edit stops. Every other answer is computed from the document's latest analysis, made
again only when its text (or a base it reads) changed.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from ..checker import Finding, Report
from ..errors import RulesetError
from ..language.variants import BaseReader
from ..text.fmt import format_text
from . import actions, completion, diagnostics, hover, inlay, navigation, outline, semantic
from . import protocol as P
from .analysis import Analysis, analyse, buffer_reader
from .rpc import Endpoint, Handler, path_of

# Seconds without an edit before a document is checked again. Short: the edits that arrive while an
# analysis runs wait in the input, and each cancels the check the one before it scheduled, so a
# burst of typing is analysed once, at its end.
DEBOUNCE = 0.02
PLAYOUTS = 100  # random playouts a player count after a save (`ruleset lsp --playouts N`)

log = logging.getLogger(__name__)


class RulesServer:
    """What the server holds for each open document, over one editor's connection."""

    def __init__(self, endpoint: Endpoint, playouts: int = PLAYOUTS, debounce: float = DEBOUNCE) -> None:
        self.endpoint = endpoint
        self.analyses: dict[str, Analysis] = {}
        self.pending: dict[str, asyncio.Task] = {}  # uri -> the debounced static check
        self.playing: dict[str, asyncio.Task] = {}  # uri -> the playouts after a save
        self.published: dict[str, set[str]] = {}  # uri -> the files its diagnostics went to
        self.stale: set[str] = set()  # documents whose base changed since their analysis
        self.playouts = playouts
        self.debounce = debounce

    # ---- documents -------------------------------------------------------------------------------------
    def path(self, uri: str) -> str:
        path = path_of(uri)
        return str(Path(path).resolve()) if path else uri

    def open_texts(self) -> dict[str, str]:
        """The text of every open document, by path (what the editor shows, saved or not)."""
        out = {}
        for uri, text in self.endpoint.texts.items():
            path = path_of(uri)
            if path:
                out[str(Path(path).resolve())] = text
        return out

    def roots(self) -> list[str]:
        """The workspace folders, as paths."""
        return self.endpoint.folders

    def analysis(self, uri: str) -> Analysis:
        """The analysis of the document's current text (made now if an edit is still pending)."""
        text = self.endpoint.text(uri)
        current = self.analyses.get(uri)
        if current is None or current.text != text or uri in self.stale:
            self.stale.discard(uri)
            read = buffer_reader(self.open_texts())
            current = self.analyses[uri] = _safe_analyse(self.path(uri), text, current, read)
        return current

    def latest(self, uri: str) -> Analysis:
        """The last analysis, carried over to the document's current text without a new check (for
        completion, which must not wait for one: the debounced check follows the typing anyway)."""
        current = self.analyses.get(uri)
        if current is None or uri in self.stale:
            return self.analysis(uri)
        text = self.endpoint.text(uri)
        return current if current.text == text else current.carried(text)

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
            self.endpoint.notify("textDocument/publishDiagnostics", {"uri": target, "diagnostics": diags})
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
        return previous.carried(text, Report(path))
    return Analysis(path, text, Report(path), files=[path])


def features(endpoint: Endpoint, playouts: int = PLAYOUTS, debounce: float = DEBOUNCE) -> dict[str, Handler]:
    """The handler of each method the server answers (``rpc.Endpoint`` keeps the documents' texts)."""
    ls = RulesServer(endpoint, playouts, debounce)

    def where(params: dict[str, Any]) -> tuple[Analysis, int, int]:
        pos = params["position"]
        return ls.analysis(params["textDocument"]["uri"]), pos["line"], pos["character"]

    def did_open(params: dict[str, Any]) -> None:
        uri = params["textDocument"]["uri"]
        ls.publish(uri, ls.analysis(uri).report.findings)
        endpoint.loop.call_soon(completion.warm)  # the first completion's parser, once the problems are sent

    def did_change(params: dict[str, Any]) -> None:
        uri = params["textDocument"]["uri"]
        ls.cancel(uri)
        ls.pending[uri] = asyncio.ensure_future(ls.check_later(uri))
        ls.recheck_variants(uri)

    def did_save(params: dict[str, Any]) -> None:
        uri = params["textDocument"]["uri"]
        task = ls.playing.pop(uri, None)
        if task:
            task.cancel()
        if ls.playouts > 0:
            ls.playing[uri] = asyncio.ensure_future(ls.play(uri))
        ls.recheck_variants(uri)

    def did_close(params: dict[str, Any]) -> None:
        uri = params["textDocument"]["uri"]
        ls.cancel(uri)
        ls.analyses.pop(uri, None)
        for file in ls.published.pop(uri, set()):
            endpoint.notify("textDocument/publishDiagnostics", {"uri": navigation.uri(file), "diagnostics": []})

    def on_references(params: dict[str, Any]) -> list[P.Json]:
        a, line, col = where(params)
        with_decl = params.get("context", {}).get("includeDeclaration", True)
        return navigation.references(a, line, col, ls.open_texts(), with_decl, ls.roots())

    def on_rename(params: dict[str, Any]) -> P.Json | None:
        a, line, col = where(params)
        return navigation.rename(a, line, col, params["newName"], ls.open_texts(), ls.roots())

    def on_completion(params: dict[str, Any]) -> P.Json:
        pos = params["position"]
        latest = ls.latest(params["textDocument"]["uri"])
        return {"isIncomplete": False, "items": completion.completions(latest, pos["line"], pos["character"])}

    def on_formatting(params: dict[str, Any]) -> list[P.Json]:
        a = ls.analysis(params["textDocument"]["uri"])
        try:
            formatted = format_text(a.text, a.path)
        except RulesetError:  # text that does not parse is left as it is
            return []
        if formatted == a.text:
            return []
        return [P.text_edit(P.span(0, 0, len(a.text.splitlines()), 0), formatted)]

    def on_inlay_hint(params: dict[str, Any]) -> list[P.Json]:
        r = params["range"]
        return inlay.inlay_hints(ls.analysis(params["textDocument"]["uri"]), r["start"]["line"], r["end"]["line"])

    def of_document(answer: Any) -> Handler:
        return lambda params: answer(ls.analysis(params["textDocument"]["uri"]))

    return {
        "textDocument/didOpen": did_open,
        "textDocument/didChange": did_change,
        "textDocument/didSave": did_save,
        "textDocument/didClose": did_close,
        "textDocument/hover": lambda params: hover.hover(*where(params)),
        "textDocument/definition": lambda params: navigation.definition(*where(params)),
        "textDocument/references": on_references,
        "textDocument/rename": on_rename,
        "textDocument/completion": on_completion,
        "textDocument/formatting": on_formatting,
        "textDocument/semanticTokens/full": of_document(semantic.semantic_tokens),
        "textDocument/documentHighlight": lambda params: semantic.highlights(*where(params)),
        "textDocument/codeAction": lambda params: actions.quick_fixes(
            params["textDocument"]["uri"], params.get("context", {}).get("diagnostics", [])
        ),
        "workspace/symbol": lambda params: outline.workspace_symbols(
            [ls.analysis(u) for u in list(endpoint.texts)], params.get("query", "")
        ),
        "textDocument/inlayHint": on_inlay_hint,
        "textDocument/documentSymbol": of_document(outline.outline),
    }
