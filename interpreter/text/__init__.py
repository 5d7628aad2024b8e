"""The rules as text for people: ``render`` (a rulebook), ``phrases`` and ``rule_phrases`` (one
IR node in words), ``diff`` (two rulesets' differences in words), ``fmt`` (the canonical layout of
a ``.rules`` file), ``lexer`` (a Pygments lexer for highlighting) and ``move_words`` (a move, as
records write it, in words for a seat: the terminal's and the browser's tables word moves alike).

Takes the syntax tree, the IR or records' moves; gives text (Markdown, HTML, plain).
May import: ``interpreter.language``, ``interpreter.engine`` (card tables), ``interpreter.errors``.
"""
