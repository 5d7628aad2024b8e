"""Code actions: each "did you mean" of a problem as a one-click fix that writes the name meant
in place of the word the problem is about."""

from __future__ import annotations

import re

from . import protocol as P

MEANT = re.compile(r"did you mean ((?:'[^']+'(?:,? or |, )?)+)\?")


def quick_fixes(uri: str, diagnostics: list[P.Json]) -> list[P.Json]:
    """A fix per name a diagnostic suggests (the first preferred), replacing the diagnostic's word."""
    out = []
    for diag in diagnostics:
        m = MEANT.search(diag.get("message", ""))
        if not m:
            continue
        for i, name in enumerate(re.findall(r"'([^']+)'", m.group(1))):
            out.append(
                {
                    "title": f"Change to '{name}'",
                    "kind": P.QUICK_FIX,
                    "diagnostics": [diag],
                    "edit": {"changes": {uri: [P.text_edit(diag["range"], name)]}},
                    "isPreferred": i == 0,
                }
            )
    return out
