"""The command line: ``cli`` builds the ``ruleset`` parser; every other module here is one command,
with ``register(subparsers)`` and an ``ORDER`` for --help.

Takes the user's arguments; gives output, files and an exit code.
May import: every other part of ``interpreter``; nothing imports it but ``__main__``.
"""
