"""A small Language Server Protocol client: starts `python -m interpreter lsp` and talks JSON-RPC
to it over its stdin and stdout, as an editor does (used by the tests and benchmarks/lsp_speed.py)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from conftest import HANG

ROOT = Path(__file__).resolve().parent.parent
WAIT = HANG  # seconds an answer may take before the server is declared stuck (a hang guard, not a speed test)


class ServerStuck(AssertionError):
    """The server did not answer in time, or exited."""


class Client:
    """One server process; ``request`` waits for the answer, notifications queue up."""

    def __init__(self, *args: str, root: Path = ROOT) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "interpreter", "lsp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
        self.next_id = 0
        self.answers: dict[int, dict[str, Any]] = {}
        self.notes: queue.Queue[dict[str, Any]] = queue.Queue()
        self.arrived = threading.Condition()
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        threading.Thread(target=self._read, daemon=True).start()
        self.capabilities = self.request(
            "initialize", {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
        )["capabilities"]
        self.notify("initialized", {})

    # ---- the wire ------------------------------------------------------------------------------
    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while (line := out.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                with self.arrived:
                    self.arrived.notify_all()
                return
            message = json.loads(out.read(length))
            with self.arrived:
                if "id" in message and "method" not in message:
                    self.answers[message["id"]] = message
                elif message.get("method") == "textDocument/publishDiagnostics":
                    self.diagnostics[message["params"]["uri"]] = message["params"]["diagnostics"]
                    self.notes.put(message)
                elif "id" in message:  # a request from the server (configuration, progress): say nothing
                    self._send({"id": message["id"], "result": None})
                else:
                    self.notes.put(message)
                self.arrived.notify_all()

    def request(self, method: str, params: Any) -> Any:
        """Send a request and wait for its answer (the result; an error is raised)."""
        self.next_id += 1
        number = self.next_id
        self._send({"id": number, "method": method, "params": params})
        with self.arrived:
            if not self.arrived.wait_for(lambda: number in self.answers or self.proc.poll() is not None, WAIT):
                raise ServerStuck(f"no answer to {method} in {WAIT} s")
            if number not in self.answers:
                raise ServerStuck(f"the server exited: {self.stderr()}")
            answer = self.answers.pop(number)
        if "error" in answer:
            raise LspError(answer["error"]["message"], answer["error"].get("code"))
        return answer.get("result")

    def notify(self, method: str, params: Any) -> None:
        """Send a notification."""
        self._send({"method": method, "params": params})

    def stderr(self) -> str:
        """What the server wrote to stderr (after it exited)."""
        return self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""

    def close(self) -> None:
        """Shut the server down as an editor does; kill it if it does not go."""
        try:
            if self.proc.poll() is None:
                self.request("shutdown", None)
                self.notify("exit", None)
                self.proc.wait(10)
        except (ServerStuck, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()

    # ---- documents ----------------------------------------------------------------------------------
    def open(self, path: Path, text: str | None = None) -> str:
        """Open a file (with the given text, or as it is saved); gives its URI."""
        uri = path.resolve().as_uri()
        text = path.read_text() if text is None else text
        item = {"uri": uri, "languageId": "rules", "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})
        return uri

    def change(self, uri: str, text: str, version: int = 2) -> None:
        """Replace the whole text of an open document."""
        doc = {"uri": uri, "version": version}
        self.notify("textDocument/didChange", {"textDocument": doc, "contentChanges": [{"text": text}]})

    def wait_diagnostics(self, uri: str, until: Any = lambda d: True) -> list[dict[str, Any]]:
        """The next diagnostics of a document for which ``until`` holds."""
        with self.arrived:
            ok = self.arrived.wait_for(lambda: uri in self.diagnostics and until(self.diagnostics[uri]), WAIT)
            if not ok:
                raise ServerStuck(f"no diagnostics as expected for {uri}: {self.diagnostics.get(uri)}")
            return self.diagnostics[uri]

    def forget_diagnostics(self, uri: str) -> None:
        """Drop what was received for a document, to wait for the next."""
        with self.arrived:
            self.diagnostics.pop(uri, None)

    def at(self, method: str, uri: str, line: int, character: int, **more: Any) -> Any:
        """A request about a position in a document."""
        params = {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}, **more}
        return self.request(method, params)


class LspError(Exception):
    """The server answered a request with an error (its message; ``code``, the JSON-RPC code)."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code
