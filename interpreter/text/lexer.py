"""A Pygments lexer for the rules language (`pygmentize -l rules FILE`, and the HTML rulebook).

Registered as the entry point ``rules`` in the ``pygments.lexers`` group; Pygments is an
optional extra (``pip install "ruleset-cards[highlight]"``).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

# The words of grammar/rules.lark, by role.
SECTIONS = ("extends", "game", "players", "teams", "param", "cards", "zones", "define", "var", "schedule", "round")
RULES = (
    "deal",
    "phase",
    "move",
    "after",
    "ends",
    "first",
    "score",
    "each",
    "rounds",
    "dealer",
    "winner",
    "everyone wins",
    "order",
    "allow",
    "require",
    "draw",
    "let",
    "set",
    "add",
    "next",
    "pay",
    "show",
    "reveal",
    "shuffle",
    "swap",
    "eliminate",
    "make",
    "new",
    "repeat",
    "until",
    "resolve",
    "at",
    "ask",
    # issue 30 (knowledge about cards)
    "tell",
    # the turn order (docs/language.md, "The turn order: reversing, skipping")
    "turn order reverses",
    "skip",
    # named effect blocks (issue 24): `do NAME`
    "do",
)
WORDS = (
    "if",
    "then",
    "else",
    "unless",
    "when",
    "where",
    "except",
    "from",
    "to",
    "in",
    "of",
    "as",
    "is",
    "with",
    "not",
    "and",
    "or",
    "some",
    "no",
    "every",
    "strictly",
    "most",
    "count",
    "sum",
    "max",
    "min",
    "distinct",
    "last",
    "best",
    "worst",
    "achieved",
    "card",
    "by",
    "rest",
    "aside",
    "all",
    "repeated",
    "rotates",
    "stays",
    "moves",
    "player",
    "total",
    "lowest",
    "highest",
    "start",
    "end",
    "for",
    "team",
    "partner",
    "seat",
    "seats",
    # issue 30 (knowledge about cards)
    "known",
    "left",
    "right",
    "across",
    "choose",
    "number",
    "value",
    "one",
    "cards",
    # loops in effects and draws (issue 24: for each ... in/from/by/until, repeat until, draw top)
    "top",
)
OPTIONS = (
    "turn up",
    "nobody can move",
    "per player",
    "per round",
    "owner sees",
    "one at a time",
    "as one pile",
    "shared",
    "public",
    "hidden",
    "piles",
    "simultaneous",
    "clockwise",
    "counterclockwise",
    "partners across",
    "partners adjacent",
    # sets and zone choices (issue 24 items 7-8)
    "revealed together",
    # issue 30 (who sees what)
    "others see",
    "at place",
    # typed and team variables, unique extremes
    "per team",
    "unique highest",
    "unique lowest",
)
CONSTANTS = ("none", "empty")
# The `checks` section (docs/verify.md): its header, and the three kinds of line it holds.
CHECKS_SECTION = ("checks",)
CHECK_KINDS = ("always", "never", "sometimes")
SECTIONS += ("effect",)  # named effect blocks (issue 24): `effect NAME` at the top level


class RulesLexer(RegexLexer):
    """Highlights `.rules` files: sections, rule words, options, names, numbers, texts, comments."""

    name = "Rules"
    aliases = ["rules", "ruleset"]  # noqa: RUF012 (Pygments reads these as class attributes)
    filenames = ["*.rules"]  # noqa: RUF012
    mimetypes = ["text/x-rules"]  # noqa: RUF012
    url = "https://example.org/ruleset"

    tokens = {  # noqa: RUF012
        "root": [
            (r"#[^\n]*", Comment.Single),
            (r'"[^"\n]*"', String.Double),
            (r"\n", Whitespace),
            (r"[ \t]+", Whitespace),
            (r"\b(x)([0-9]+)\b", bygroups(Operator.Word, Number.Integer)),
            (r"\bx(?=[ \t]*\()", Operator.Word),  # x (2 * players): copies by a formula
            (r"[0-9]+\.\.[0-9]+", Number.Integer),
            (r"[0-9]+", Number.Integer),
            (r"\b(" + "|".join(o.replace(" ", r"[ \t]+") for o in OPTIONS) + r")\b", Keyword.Pseudo),
            (words(SECTIONS, prefix=r"^", suffix=r"\b"), Keyword.Declaration),
            (words(CHECKS_SECTION, prefix=r"^", suffix=r"\b"), Keyword.Declaration),
            (words(CHECK_KINDS, suffix=r"\b"), Keyword.Reserved),
            (words(RULES, suffix=r"\b"), Keyword.Reserved),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(WORDS, suffix=r"\b"), Keyword),
            (r"(?<=phase )[a-z_][a-z0-9_]*", Name.Function),
            (r"[a-z_][a-z0-9_]*", Name),
            (r"!=|<=|>=|[=<>+\-*/%|]", Operator),
            (r"[,:()]|\.\.", Punctuation),
            (r".", Text),
        ]
    }
