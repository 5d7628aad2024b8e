"""How long after an edit the language server's diagnostics arrive, for a ruleset of about 200
lines (Kedric Winks' Poison, 120 lines, with parameters and definitions added): the time from
sending `didChange` to receiving `publishDiagnostics`, the server's pause for typing included.
Prints figures; no asserts. Usage: python benchmarks/lsp_speed.py [EDITS]"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the small LSP client of the tests
sys.path.insert(0, str(ROOT))

from interpreter.editor.analysis import analyse
from interpreter.editor.server import DEBOUNCE
from lsp_client import Client


def ruleset(lines: int = 200) -> str:
    """Kedric Winks' Poison grown to ``lines`` lines with parameters and definitions that use them."""
    text = (ROOT / "rulesets" / "poison-kedric-winks.rules").read_text()
    extra, i = [], 0
    while len(text.splitlines()) + len(extra) < lines:
        extra += [f"param bonus_{i} = {i}", f"define twice_{i} = 2 * bonus_{i}"]
        i += 1
    return text + "\n".join(extra) + "\n"


def main() -> None:
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    text = ruleset()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.rules"
        path.write_text(text)
        client = Client("--playouts", "0")
        try:
            uri = client.open(path, text)
            client.wait_diagnostics(uri)
            times = []
            for n in range(edits):
                edited = text.replace("param bonus_0 = 0", f"param bonus_0 = {n + 1}")
                client.forget_diagnostics(uri)
                start = time.perf_counter()
                client.change(uri, edited, n + 2)
                client.wait_diagnostics(uri)
                times.append(time.perf_counter() - start)
        finally:
            client.close()
        alone = []
        for n in range(edits):  # the analysis alone, in this process, without the pause
            start = time.perf_counter()
            analyse(str(path), text.replace("param bonus_0 = 0", f"param bonus_0 = {n + 1}"))
            alone.append(time.perf_counter() - start)
    ms = sorted(t * 1000 for t in times)
    print(
        f"{len(text.splitlines())} lines, {edits} edits: diagnostics {statistics.median(ms):.0f} ms after an edit "
        f"(median; 90th percentile {ms[int(len(ms) * 0.9) - 1]:.0f} ms), of which {DEBOUNCE * 1000:.0f} ms the "
        f"pause for typing; the analysis alone {statistics.median(alone) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
