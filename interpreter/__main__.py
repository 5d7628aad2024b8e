"""`python -m interpreter` runs the `ruleset` command."""

import sys

from .cli import main

sys.exit(main())
