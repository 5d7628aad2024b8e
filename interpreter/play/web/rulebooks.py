"""The rulebooks a server shows (``/rulebook/KEY``), rendered once each and never on the event loop.

A rulebook takes 20 to 60 ms to render in pure Python. Rendered on the event loop at every
request, 64 connections asking for one again and again held every table's moves for seconds. Here
each (rules file, parameters) is rendered once, in a thread, and requests that come meanwhile wait
for that same rendering; the last ``KEEP`` are kept (a table's rulebook differs by its parameters,
and anyone may set up tables: the number kept is bounded, not the number asked for).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ...language.variants import read_text
from ...text.render import render

KEEP = 128  # rulebooks kept rendered (a few hundred KB at most)


class Rulebooks:
    """Rendered rulebooks by rules file and parameters, the most recently asked for kept."""

    def __init__(self) -> None:
        self.kept: OrderedDict[tuple[str, tuple[tuple[str, str], ...]], asyncio.Task[str]] = OrderedDict()

    async def html(self, path: str, params: dict[str, str], ir_of: Callable[[str], dict[str, Any]]) -> str:
        """The rulebook of ``path`` with ``params`` as HTML (``ir_of`` reads its rules); RulesetError
        as rendering raises it (not kept: asked again, it is tried again)."""
        key = (path, tuple(sorted(params.items())))
        task = self.kept.get(key)
        if task is None or (task.done() and task.exception() is not None):
            task = self.kept[key] = asyncio.ensure_future(asyncio.to_thread(_render, path, params, ir_of))
        self.kept.move_to_end(key)
        while len(self.kept) > KEEP:
            self.kept.popitem(last=False)
        return await asyncio.shield(task)  # (a request that gives up leaves the rendering to the others)


def _render(path: str, params: dict[str, str], ir_of: Callable[[str], dict[str, Any]]) -> str:
    return render(ir_of(path), "html", params, read_text(path))
