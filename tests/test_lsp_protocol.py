"""The server's own JSON-RPC over stdio (interpreter/editor/rpc.py): it answers initialize before it
loads the language, says what it cannot do as the protocol's errors, survives a broken message, and
exits when the editor says so or goes away."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from test_startup import HEAVY

from conftest import HANG, ROOT, RULESETS
from lsp_client import Client

METHOD_NOT_FOUND, PARSE_ERROR = -32601, -32700


def frame(message: dict) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def server(*args: str, **options) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, *args, "-m", "interpreter", "lsp", "--playouts", "0"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env=env,
        **options,
    )


INITIALIZE = {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}}


def test_initialize_is_answered_before_the_language_is_imported():
    """The editor knows what the server can do before the parser, the checker and the engine load
    (they take most of the start); stderr and stdout share one pipe, so the import lines before the
    answer are those made before it was sent."""
    proc = server("-X", "importtime", stderr=subprocess.STDOUT)
    out, _ = proc.communicate(frame(INITIALIZE), timeout=HANG)
    before, answer, after = out.partition(b"Content-Length:")
    assert answer, out[-2000:]
    imported = [line.split(b"|")[-1].strip().decode() for line in before.splitlines() if b"import time:" in line]
    assert "interpreter.editor.rpc" in imported
    assert not [m for m in imported if m.startswith(HEAVY)]
    capabilities = json.loads(after.split(b"\r\n\r\n", 1)[1].split(b"import time:")[0])["result"]["capabilities"]
    assert capabilities["completionProvider"] and capabilities["renameProvider"]
    # and after the answer the features were loaded (the end of input then stopped the server)
    assert b"interpreter.editor.server" in after
    assert proc.returncode == 0


def test_a_broken_message_and_an_unknown_request_are_answered_with_errors_and_the_server_goes_on():
    proc = server(stderr=subprocess.DEVNULL)
    broken = b"Content-Length: 9\r\n\r\n{not json"
    unknown = frame({"id": 2, "method": "textDocument/prepareTypeHierarchy", "params": {}})
    shutdown = frame({"id": 3, "method": "shutdown", "params": None})
    out, _ = proc.communicate(frame(INITIALIZE) + broken + unknown + shutdown + frame({"method": "exit"}), timeout=HANG)
    answers = [json.loads(part.split(b"\r\n\r\n", 1)[1]) for part in out.split(b"Content-Length:")[1:]]
    by_id = {a.get("id"): a for a in answers}
    assert by_id[None]["error"]["code"] == PARSE_ERROR
    assert by_id[2]["error"]["code"] == METHOD_NOT_FOUND
    assert by_id[3] == {"jsonrpc": "2.0", "id": 3, "result": None}
    assert proc.returncode == 0


def test_exit_stops_the_server_and_so_does_the_editor_going_away():
    client = Client("--playouts", "0")
    client.close()  # shutdown, exit: waited for (killed only after a hang)
    assert client.proc.returncode == 0
    proc = server(stderr=subprocess.DEVNULL)
    proc.communicate(frame(INITIALIZE), timeout=HANG)  # then the end of its input, as when an editor dies
    assert proc.returncode == 0


def test_a_document_without_a_file_is_checked_and_answered(tmp_path):
    """An unsaved buffer (an `untitled:` URI) gets its problems and hover, as a file does."""
    client = Client("--playouts", "0")
    try:
        uri = "untitled:Untitled-1"
        text = (RULESETS / "poison.rules").read_text().replace("from hand to", "from hnad to", 1)
        client.notify(
            "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "rules", "version": 1, "text": text}}
        )
        problems = client.wait_diagnostics(uri)
        assert any("hnad" in p["message"] for p in problems)
        line = text.splitlines().index("  hand       per player, owner sees")
        col = 2
        assert "hand" in client.at("textDocument/hover", uri, line, col)["contents"]["value"]
    finally:
        client.close()


def test_a_workspace_folder_added_later_is_searched_for_variants(tmp_path):
    """References from a base list the uses in its variants found in the workspace's folders, as
    the editor adds them (workspace/didChangeWorkspaceFolders), and no longer once removed."""
    base = tmp_path / "base" / "harvest.rules"
    base.parent.mkdir()
    base.write_text((RULESETS / "poison.rules").read_text())
    elsewhere = tmp_path / "mine"
    elsewhere.mkdir()
    variant = elsewhere / "sour.rules"
    variant.write_text(f'extends "{base}"\nround\n  phase play\n    move play card from hand to cauldron\n')
    client = Client("--playouts", "0", root=base.parent)
    try:
        uri = client.open(base)
        client.wait_diagnostics(uri)
        line = base.read_text().splitlines().index("  hand       per player, owner sees")

        def files() -> set[str]:
            found = client.at("textDocument/references", uri, line, 3, context={"includeDeclaration": True})
            return {loc["uri"] for loc in found}

        assert variant.as_uri() not in files()
        folder = {"uri": elsewhere.as_uri(), "name": "mine"}
        change = {"event": {"added": [folder], "removed": []}}
        client.notify("workspace/didChangeWorkspaceFolders", change)
        assert variant.as_uri() in files()
        client.notify("workspace/didChangeWorkspaceFolders", {"event": {"added": [], "removed": [folder]}})
        assert variant.as_uri() not in files()
    finally:
        client.close()
