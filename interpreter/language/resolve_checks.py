"""Resolving the `checks` section: `always C`, `never C`, `sometimes C`, each a condition typed as
any other (read with no player, card or target bound, as a round's `ends when`). A mixin of
Resolver (resolve.py); what the checks mean: docs/verify.md."""

from __future__ import annotations

from typing import Any

from .ast_nodes import CheckLine
from .resolve_types import BOOL


class ChecksResolver:
    """The designer's own properties of every state."""

    def _check(self, line: CheckLine) -> dict[str, Any]:
        return self._noted({"kind": line.kind, "if": self.expr(line.condition, {}, BOOL)}, line.span)
