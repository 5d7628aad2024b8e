"""How fast the language server answers an editor, through the real server over stdio, on the
largest classic (examples/classics/blackjack.rules): its start (initialize answered; the first
diagnostics of the opened file; the first completion), then completion, hover and the diagnostics
after an edit, each as a median and a 95th percentile. Completion and hover are asked right after
an edit, as while typing (the text has changed since the last check). Beside each time, the CPU the server
spent on it, which a machine busy with other work does not inflate.
Prints figures; no asserts. Usage: python benchmarks/lsp_speed.py [REQUESTS]"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the small LSP client of the tests
sys.path.insert(0, str(ROOT))

from lsp_client import Client

LARGEST = ROOT / "examples" / "classics" / "blackjack.rules"


def places(text: str, count: int) -> list[tuple[int, int]]:
    """Where a designer asks for completion: after a word and a space on lines of rules (not comments)."""
    out = []
    for number, line in enumerate(text.splitlines()):
        if line.strip() and not line.strip().startswith("#"):
            out += [(number, m.end()) for m in re.finditer(r"[a-z_]+ ", line.split("#")[0])]
    step = max(len(out) // count, 1)
    return out[::step][:count]


def cpu(pid: int) -> float:
    """Seconds of CPU the server's main thread has had (Linux's schedstat, in nanoseconds): what an
    answer cost, apart from the waits of a machine busy with other work."""
    try:
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e9
    except (OSError, ValueError, IndexError):
        return float("nan")


def figures(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{statistics.median(ms):.0f} ms median, {p95:.0f} ms 95th percentile"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    text = LARGEST.read_text()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / LARGEST.name
        path.write_text(text)
        start = time.perf_counter()
        client = Client("--playouts", "0")
        initialized = time.perf_counter() - start, cpu(client.proc.pid)
        try:
            uri = client.open(path, text)
            client.wait_diagnostics(uri)
            diagnosed = time.perf_counter() - start, cpu(client.proc.pid)
            line, col = places(text, 1)[0]
            client.at("textDocument/completion", uri, line, col)
            completed = time.perf_counter() - start, cpu(client.proc.pid)
            version, times = 1, {"completion": [], "hover": [], "diagnostics": []}
            spent: dict[str, list[float]] = {what: [] for what in times}
            for line, col in places(text, count):
                for what in ("completion", "hover", "diagnostics"):
                    version += 1
                    client.forget_diagnostics(uri)
                    client.change(uri, text + f"# edit {version}\n", version)  # as a keystroke does
                    began, used = time.perf_counter(), cpu(client.proc.pid)
                    if what == "diagnostics":
                        client.wait_diagnostics(uri)
                    else:
                        client.at(f"textDocument/{what}", uri, line, col - 2)
                    times[what].append(time.perf_counter() - began)
                    spent[what].append(cpu(client.proc.pid) - used)
                    if what != "diagnostics":  # the edit's check, so that none is in flight at the next edit
                        client.wait_diagnostics(uri)
        finally:
            client.close()
    print(f"{LARGEST.name}, {len(text.splitlines())} lines, {count} places:")
    moments = [("initialize answered", initialized), ("first diagnostics", diagnosed), ("first completion", completed)]
    said = ", ".join(f"{what} {wall * 1000:.0f} ms ({used * 1000:.0f} ms)" for what, (wall, used) in moments)
    print(f"  start (from the process's start; the server's CPU by then): {said}")
    for what, seconds in times.items():
        print(f"  {what} after an edit: {figures(seconds)}; the server's CPU {figures(spent[what])}")


if __name__ == "__main__":
    main()
