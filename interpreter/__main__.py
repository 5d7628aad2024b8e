"""`python -m interpreter` runs the `ruleset` command."""

import sys

from .commands.cli import main

sys.exit(main())
