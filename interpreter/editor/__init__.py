"""The editor's side of the language: what `ruleset lsp` (a language server) answers about a rules file.

``analysis`` checks a buffer (the static part of `check`) and finds its declarations and names;
``diagnostics`` turns findings into positioned problems (and runs the playouts after a save);
``slots`` tells which kind a written name stands for (names are per kind); ``hover``,
``navigation`` (definition, references, rename), ``completion`` and ``outline`` answer the
editor's questions from the analysis; ``server`` wires them to the protocol, which ``rpc``
speaks over stdin and stdout (JSON-RPC) in the shapes of ``protocol``.

Nothing here lists the constructs of the language: keywords come from the grammar (the parser's
expected tokens, its terminals), declarations and their words from the IR (``text.diff.items``
and ``text.phrases``), so the server follows the language as it grows.

Takes a document's text and a position; gives Language Server Protocol answers (JSON-ready dicts).
May import: ``interpreter.checker``, ``interpreter.text``, ``interpreter.language``,
``interpreter.engine``, ``interpreter.loader``, ``interpreter.errors``; nothing outside the
standard library and the core dependencies (lark): `ruleset lsp` needs no extra.
"""
