"""JSON-RPC 2.0 over stdin and stdout, as the Language Server Protocol carries it (each message a
``Content-Length`` header, a blank line, then that many bytes of JSON), and what every server
holds: the open documents' texts, the workspace folders, initialize, shutdown and exit.

A thread reads the input and hands each message to one asyncio loop, which answers them in the
order they came; while a handler runs, the next messages wait in the loop's queue (so a burst of
edits is seen together, and each cancels the check the one before it scheduled). ``initialize`` is
answered before the features are loaded: the analysis and the parser take most of the start, and
the editor need not wait for them to know what the server can do.

Imports nothing of the language (it must start at once); ``load`` brings the features.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from . import protocol as P

Handler = Callable[[Any], Any]

log = logging.getLogger(__name__)


class RequestFailed(Exception):
    """A request understood and refused: the editor shows the message (a rename that cannot be made)."""

    code = P.REQUEST_FAILED


class Endpoint:
    """One editor's connection: the documents it has open, and the features that answer it."""

    def __init__(self, load: Callable[[Endpoint], dict[str, Handler]], out: BinaryIO, version: str = "0.1.0") -> None:
        self.texts: dict[str, str] = {}  # uri -> the text of each open document, as the editor has it
        self.folders: list[str] = []  # the workspace folders, as paths
        self.features: dict[str, Handler] = {}  # method -> handler (after initialize)
        self.load = load
        self.out = out
        self.version = version
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()

    # ---- the wire ------------------------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        """Write one message."""
        body = json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")).encode()
        with self.lock:
            self.out.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            self.out.flush()

    def notify(self, method: str, params: Any) -> None:
        """Send a notification to the editor."""
        self.send({"method": method, "params": params})

    def run(self, inp: Input | BinaryIO) -> None:
        """Answer the messages of ``inp`` until the editor says exit or closes it."""
        asyncio.set_event_loop(self.loop)
        threading.Thread(target=self._read, args=(inp,), daemon=True).start()
        try:
            self.loop.run_forever()
        finally:
            tasks = asyncio.all_tasks(self.loop)
            for task in tasks:  # the checks pending and the playouts (their processes are stopped)
                task.cancel()
            self.loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
            self.loop.close()

    def _read(self, inp: Input | BinaryIO) -> None:
        """Read messages (in a thread of their own) and queue each for the loop; stop at the end."""
        while True:
            try:
                message = read_message(inp)
            except (ValueError, OSError) as err:  # a broken frame or JSON: said, and the next one read
                message = {"error": str(err)}
            if message is None:
                break
            self.loop.call_soon_threadsafe(self.dispatch, message)
        with contextlib.suppress(RuntimeError):  # (the loop closed already)
            self.loop.call_soon_threadsafe(self.loop.stop)

    # ---- messages ------------------------------------------------------------------------------------
    def dispatch(self, message: dict[str, Any]) -> None:
        """Answer a request, act on a notification (answers from the editor are not awaited)."""
        if "error" in message and "method" not in message and "id" not in message:
            self.send({"id": None, "error": {"code": P.PARSE_ERROR, "message": message["error"]}})
            return
        method, params, number = message.get("method"), message.get("params"), message.get("id")
        if not isinstance(method, str):
            return  # an answer to a request of ours, or nothing
        try:
            result = self.handle(method, params, request=number is not None)
        except RequestFailed as err:
            self._fail(number, err.code, str(err))
        except Exception as err:  # the server must keep answering whatever it is sent
            log.exception("%s failed", method)
            self._fail(number, P.INTERNAL_ERROR, f"{method} failed: {err}")
        else:
            if number is not None:
                self.send({"id": number, "result": result})
            if method == "initialize":  # once the editor has its answer
                try:
                    self.features = self.load(self)
                except Exception:
                    log.exception("the features failed to load")

    def _fail(self, number: Any, code: int, text: str) -> None:
        if number is not None:
            self.send({"id": number, "error": {"code": code, "message": text}})

    def handle(self, method: str, params: Any, request: bool = True) -> Any:
        """The result of one message (None for a notification)."""
        if method == "initialize":
            return self.initialize(params or {})
        if method == "exit":
            self.loop.stop()
            return None
        if method == "shutdown":
            return None
        self.keep(method, params or {})
        handler = self.features.get(method)
        if handler is not None:
            return handler(params)
        if request:
            raise _NotFound(method)
        return None  # a notification no feature needs (initialized, $/setTrace ...)

    def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        """What the server can do; the workspace's folders noted."""
        folders = [path_of(f["uri"]) for f in params.get("workspaceFolders") or []]
        root = path_of(params["rootUri"]) if params.get("rootUri") else params.get("rootPath")
        self.folders = [f for f in folders if f] or ([root] if root else [])
        return {"capabilities": P.CAPABILITIES, "serverInfo": {"name": "ruleset", "version": self.version}}

    def keep(self, method: str, params: dict[str, Any]) -> None:
        """Keep the open documents' texts and the workspace's folders as the editor changes them."""
        doc = params.get("textDocument") or {}
        if method == "textDocument/didOpen":
            self.texts[doc["uri"]] = doc["text"]
        elif method == "textDocument/didChange":
            for change in params.get("contentChanges", []):  # whole texts (CAPABILITIES' sync)
                self.texts[doc["uri"]] = change["text"]
        elif method == "textDocument/didClose":
            self.texts.pop(doc["uri"], None)
        elif method == "workspace/didChangeWorkspaceFolders":
            event = params.get("event", {})
            gone = {path_of(f["uri"]) for f in event.get("removed", [])}
            added = [path_of(f["uri"]) for f in event.get("added", [])]
            self.folders = [f for f in [*self.folders, *added] if f and f not in gone]

    def text(self, uri: str) -> str:
        """An open document's text (a file not open: what is saved, or nothing)."""
        if uri in self.texts:
            return self.texts[uri]
        path = path_of(uri)
        try:
            return Path(path).read_text(encoding="utf-8") if path else ""
        except (OSError, UnicodeDecodeError):
            return ""


class _NotFound(RequestFailed):
    code = P.METHOD_NOT_FOUND

    def __init__(self, method: str) -> None:
        super().__init__(f"the server does not answer {method}")


def path_of(uri: str) -> str | None:
    """The file path of a file URI (None for another scheme, such as an unsaved `untitled:`).

    Read here, not with urllib, which the package keeps out with the other network modules
    (tests/test_safety.py): `file://HOST/PATH`, its query and fragment cut, `%XX` decoded as UTF-8."""
    scheme, colon, rest = uri.partition(":")
    if not colon or scheme.lower() != "file":
        return None
    if rest.startswith("//"):
        rest = "/" + rest[2:].partition("/")[2]  # the host (empty or localhost) is not part of the path
    rest = re.split(r"[?#]", rest, maxsplit=1)[0]
    path = re.sub(rb"%([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), rest.encode()).decode(
        "utf-8", "replace"
    )
    if os.name == "nt" and re.match(r"/[A-Za-z]:", path):
        path = path[1:].replace("/", "\\")
    return path


class Input:
    """A file descriptor read with os.read into a buffer of its own. The reading thread waits in
    os.read, which holds no lock of Python's buffered files: a buffered stdin's lock, held by a
    thread still waiting when the editor says exit, aborts the interpreter as it shuts down."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()

    def _fill(self) -> bool:
        chunk = os.read(self.fd, 65536)
        self.buffer += chunk
        return bool(chunk)

    def readline(self) -> bytes:
        """Up to and including the next line end (what is left at the end of the input)."""
        while (end := self.buffer.find(b"\n")) < 0:
            if not self._fill():
                end = len(self.buffer) - 1
                break
        line = bytes(self.buffer[: end + 1])
        del self.buffer[: end + 1]
        return line

    def read(self, size: int) -> bytes:
        """``size`` bytes (fewer at the end of the input)."""
        while len(self.buffer) < size and self._fill():
            pass
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data


def read_message(inp: Input | BinaryIO) -> dict[str, Any] | None:
    """One message of the input (None at its end)."""
    length = None
    while True:
        line = inp.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if length is None:
                continue  # (no header yet: a stray line end)
            break
        name, _, value = line.decode("ascii", "replace").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    body = inp.read(length)
    if len(body) < length:
        return None
    message = json.loads(body)
    if not isinstance(message, dict):
        raise ValueError("a message must be a JSON object")
    return message


def serve(load: Callable[[Endpoint], dict[str, Handler]]) -> None:
    """Answer an editor on stdin and stdout until it says exit; ``load`` gives the features."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not break the protocol
    endpoint = Endpoint(load, out)
    with contextlib.suppress(KeyboardInterrupt):
        endpoint.run(Input(sys.stdin.fileno()))
