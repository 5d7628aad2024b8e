"""The language: rules text -> IR.

Takes a ``.rules`` file (or IR written as JSON or YAML) and gives the IR, plain JSON-able data
checked against ``schemas/ir.schema.json``: the parser (lark, ``grammar/rules.lark``), the syntax
tree, variants (``extends``), name resolution, the schema check and the size limits.
May import: ``interpreter.errors`` only. Knows nothing of play.
"""
