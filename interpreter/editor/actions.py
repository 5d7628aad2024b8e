"""Code actions: each "did you mean" of a problem as a one-click fix that writes the name meant
in place of the word the problem is about."""

from __future__ import annotations

import re

from lsprotocol import types as T

MEANT = re.compile(r"did you mean ((?:'[^']+'(?:,? or |, )?)+)\?")


def quick_fixes(uri: str, diagnostics: list[T.Diagnostic]) -> list[T.CodeAction]:
    """A fix per name a diagnostic suggests (the first preferred), replacing the diagnostic's word."""
    out = []
    for diag in diagnostics:
        m = MEANT.search(diag.message)
        if not m:
            continue
        for i, name in enumerate(re.findall(r"'([^']+)'", m.group(1))):
            edit = T.WorkspaceEdit(changes={uri: [T.TextEdit(diag.range, name)]})
            out.append(
                T.CodeAction(
                    title=f"Change to '{name}'",
                    kind=T.CodeActionKind.QuickFix,
                    diagnostics=[diag],
                    edit=edit,
                    is_preferred=i == 0,
                )
            )
    return out
