"""Tables where people play: the terminal table (``terminal``) today.

Takes a ``Game``, the seats' agents and a human's seat; shows each human only their seat's
observation and asks for their moves.
May import: ``interpreter.engine``, ``interpreter.agents``, ``interpreter.simulation``,
``interpreter.text``, ``interpreter.language``, ``interpreter.errors``.
"""
