"""`ruleset lsp`: the language server for editors, over stdin and stdout."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import RulesetError

ORDER = 95


def register(sub: Any) -> None:
    """Add the `lsp` command."""
    p = sub.add_parser(
        "lsp",
        help="run the language server for editors (diagnostics, hover, definitions, completion, rename)",
        description="Run the language server of the rules language over stdin and stdout, for an editor "
        "(editors/vscode/ is the VS Code extension that starts it). It checks a file as it is typed "
        "(the static part of `check`), and after a save plays seeded random playouts in the background. "
        'It comes with the package and needs nothing more: pip install "ruleset-cards" (or pip install . '
        "in a checkout).",
    )
    p.add_argument(
        "--playouts", type=int, default=100, help="random playouts a player count after a save (default 100; 0: none)"
    )
    p.add_argument("--stdio", action="store_true", help="talk over stdin and stdout (the default, for editors)")
    p.set_defaults(run=cmd_lsp)


def cmd_lsp(args: argparse.Namespace) -> int:
    """Serve until the editor closes the connection. The protocol is answered at once; the analysis
    (the language, the checker) is imported once the editor has the server's capabilities."""
    if args.playouts < 0:
        raise RulesetError(f"--playouts must be 0 or more, not {args.playouts}")
    from ..editor.rpc import Endpoint, serve

    def load(endpoint: Endpoint) -> dict[str, Any]:
        from ..editor.server import features

        return features(endpoint, playouts=args.playouts)

    serve(load)
    return 0
