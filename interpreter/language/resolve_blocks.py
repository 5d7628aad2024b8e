"""Resolving named effect blocks: `effect NAME` declared once at the top level, done by name
(`do NAME`) wherever effects run. A mixin of Resolver (resolve.py).

A block reads the names of the place it is done from (`player`, `card`, a `let` before it), so
it is resolved there, at each `do`: its IR is in the `do` node (``effects``), as the engine and
the checker read it, and once more in the IR's ``blocks`` (as resolved at its first `do`, or with
nobody's names when no rule does it), as the rulebook says it. A block that does itself, however
deep, would never end: an error at the `do`.
"""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesetError, UnknownNameError
from .resolve_types import T


class BlocksResolver:
    """`do NAME` effects and the IR's table of named blocks."""

    def _do_block(self, eff: Any, scope: dict[str, T]) -> dict[str, Any]:
        """do settle: the block's effects, resolved with the names known here."""
        name = eff.args[0]
        block = self.p.blocks.get(name)
        if block is None:
            raise UnknownNameError(
                f"no effect '{name}'",
                eff.span,
                self._suggest(name, list(self.p.blocks))
                or "declare it at the top level: `effect NAME` and its effects",
            )
        doing = self._doing
        if name in doing:
            chain = " -> ".join([*doing[doing.index(name) :], name])
            raise DeclarationError(
                f"effect '{name}' does itself ({chain}): it would never end",
                eff.span,
                "repeat effects with `repeat until C` or `for each`, which are bounded",
            )
        doing.append(name)
        try:
            effects = self.effects(block.effects, dict(scope))
        except RulesetError as err:
            if err.span is not None and err.span.line != eff.span.line:
                err.hint = (err.hint + "; " if err.hint else "") + f"in effect '{name}', done at {eff.span}"
            raise
        finally:
            doing.pop()
        self._block_ir.setdefault(name, effects)
        return {"do": "do", "name": name, "effects": effects}

    def _blocks(self) -> list[dict[str, Any]]:
        """The IR's named blocks, in the order declared (after the rules that do them)."""
        done = self._block_ir

        def one(block: Any) -> dict[str, Any]:
            effects = done.get(block.name)
            if effects is None:  # done by no rule: resolved as nobody's effects, so that its errors show
                effects = self.effects(block.effects, {})
            return self._noted({"name": block.name, "effects": effects}, block.span)

        return self._each(self.p.blocks.values(), one)
