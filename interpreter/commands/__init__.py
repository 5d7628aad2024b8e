"""One module per `ruleset` command; each has `register(subparsers)` and an `ORDER` for --help."""
