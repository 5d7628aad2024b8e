"""The rules as text for people: ``render`` (a rulebook), ``phrases`` and ``rule_phrases`` (one
IR node in words), ``diff`` (two rulesets' differences in words), ``fmt`` (the canonical layout of
a ``.rules`` file) and ``lexer`` (a Pygments lexer for highlighting).

Takes the syntax tree or the IR; gives text (Markdown, HTML, plain).
May import: ``interpreter.language``, ``interpreter.engine`` (card tables), ``interpreter.errors``.
"""
