"""Text to parse tree: the lark parser (built once per process) and its syntax errors."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import cache
from typing import Any, ClassVar

from lark import Lark, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.exceptions import LarkError
from lark.indenter import Indenter

from ..errors import RulesSyntaxError, Span, remember_source
from .files import cache_dir, grammar_path, write_whole


class RulesIndenter(Indenter):
    """Turns indentation into _INDENT/_DEDENT tokens, as Python does."""

    NL_type = "_NL"
    OPEN_PAREN_types: ClassVar[list[str]] = ["LPAR", "COPIES_OPEN"]
    CLOSE_PAREN_types: ClassVar[list[str]] = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@cache
def parser() -> Lark:
    """The one LALR parser of the rules language."""
    return open_grammar("rules", RulesIndenter(), propagate_positions=True, maybe_placeholders=True)


def open_grammar(name: str, postlex: Indenter, **options: Any) -> Lark:
    """The grammar's LALR parser with these options (``name`` tells their sets apart). Building its
    tables takes a quarter of a second, more than a command's other start-up: the first process
    keeps them as data (JSON, never code) in the user's cache folder (``files.cache_dir``), under a
    digest of the grammar, the options and the versions of lark and Python, and later ones read them
    back (a tenth of the time; the same parser). A cache that cannot be read or written is built and
    parsed as before."""
    import hashlib
    import json
    import sys

    import lark

    text = grammar_path().read_text("utf-8")
    key = json.dumps([text, name, sorted(options.items()), lark.__version__, sys.version_info[:2]])
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    folder = cache_dir()
    if folder is None:  # (RULESET_NO_CACHE)
        return Lark(text, parser="lalr", postlex=postlex, **options)
    path = folder / f"grammar-{name}-{digest}.json"
    loading = {k: v for k, v in options.items() if k in _LOAD_OPTIONS}
    try:
        kept = json.loads(path.read_text("utf-8"), object_hook=_int_keys)
        return Lark._load_from_dict(kept["data"], kept["memo"], postlex=postlex, **loading)
    except Exception:  # (none yet, or unreadable: lark's own cache does the same)
        pass
    built = Lark(text, parser="lalr", postlex=postlex, **options)
    try:
        from lark.grammar import Rule
        from lark.lexer import TerminalDef

        data, memo = built.memo_serialize([TerminalDef, Rule])
        data["options"] = {k: v for k, v in data["options"].items() if k not in _LOAD_OPTIONS}
        write_whole(path, json.dumps({"data": data, "memo": memo}, separators=(",", ":")))
    except Exception:  # a folder not writable, a lark that serialises otherwise: no cache
        pass
    return built


# The options a parser read back takes from its caller (lark's _LOAD_ALLOWED_OPTIONS), not from the data.
_LOAD_OPTIONS = frozenset(
    {
        *("postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags", "regex"),
        *("propagate_positions", "tree_class", "_plugins"),
    }
)


def _int_keys(d: dict) -> dict:
    """JSON's object keys back as the numbers lark's parse tables use (its names are never digits)."""
    return {int(k) if k.isdigit() else k: v for k, v in d.items()}


# Common mistakes, each with examples that fail at the same parser state (lark's match_examples).
MISTAKES: dict[str, list[str]] = {
    "a move names its card: `move NAME card from ZONE to ZONE`": [
        "round\n  phase p\n    move play from hand to pile\n",
    ],
    "a deal gives a number of cards to a zone, without the word `cards`: `deal 4 to hand` (every "
    "player's hand, when the zone is per player)": [
        "round\n  deal 4 cards to hand\n",
        "round\n  deal 4 cards to each hand\n",
    ],
    "a range of players is written with two dots: `players 3..6` (`players 4..4`: exactly four)": [
        "players 3-6\n",
        "players 3 6\n",
        "players 4\n",
    ],
    "a parameter needs `=` and a default: `param limit = 20`": [
        "param limit 20\n",
    ],
    "a scoring rule over each card needs a colon before its points: `each card in won of player: -1`": [
        "round\n  score\n    each card in won of player -1\n",
    ],
    "a section name (cards, zones, round, game) must be followed by its indented lines": [
        "zones hand per player\n",
        "cards gem color red\n",
    ],
    "names are lower case letters, digits and underscores, starting with a letter": [
        "zones\n  Hand per player\n",
        "cards\n  Gem color red\n",
    ],
}


def _state_key(err: UnexpectedInput) -> tuple:
    """Where the parser stood when it failed: its state number and what it met.

    lark's own match_examples compares stack depths too, which differ with the number of
    declarations before the mistake; the state number alone is what identifies a mistake here.
    """
    state = getattr(err, "state", None)
    position = getattr(state, "position", state)
    met = err.token.type if isinstance(err, UnexpectedToken) else type(err).__name__
    return position, met


@cache
def _mistake_keys() -> dict[tuple, str]:
    """The parser state of each known mistake's examples, mapped to its hint."""
    keys: dict[tuple, str] = {}
    for hint, examples in MISTAKES.items():
        for example in examples:
            try:
                parser().parse(example)
            except UnexpectedInput as err:
                keys.setdefault(_state_key(err), hint)
    return keys


def _mistake_hint(err: UnexpectedInput) -> str | None:
    """The hint of the known mistake that fails in the same parser state, if any."""
    return _mistake_keys().get(_state_key(err))


def _spelling_hint(err: UnexpectedInput, text: str) -> str | None:
    """A hint for a mistake of spelling seen in the text itself, whatever the parser's state:
    a capitalised name (`Red`), or `==` for the comparison `=`."""
    if isinstance(err, UnexpectedToken):
        pos = getattr(err.token, "start_pos", None)
    else:
        pos = getattr(err, "pos_in_stream", None)
    if pos is None or not 0 <= pos < len(text):
        return None
    word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[pos:])
    if word and text[pos].isupper():
        return f"names are lower case: write `{word.group().lower()}`, not `{word.group()}`"
    if text[pos] == "=" and "==" in text[max(0, pos - 1) : pos + 2]:
        return "a comparison is a single `=`: write `a = b`, not `a == b`"
    return None


FRIENDLY = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted text",
    "COUNT": "a number of copies like x3",
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
    "COMPARE": "a comparison",
    "ADD_OP": "+ or -",
    "MUL_OP": "* or /",
}


def terminal_words(terminal: str) -> list[str]:
    """What a terminal is written as: `of` for OF, `allow` and `require` for GUARD_KIND, `per player`
    for PER_PLAYER, `partners across` and `partners adjacent` for PARTNERS (a pattern's text for
    terminals that are not words, like NAME); [] if unknown."""
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return []
    if pattern.type == "str":
        return [pattern.value]
    text = re.sub(r"\[ \\t\]\+|\[ \t\]\+", " ", pattern.value).replace("\\b", "")
    words = re.fullmatch(r"([a-z ]*)\(([a-z |]+)\)([a-z ]*)", text)  # `partners[ \t]+(across|adjacent)\b`
    if words:
        head, alternatives, tail = words.groups()
        return [f"{head}{word}{tail}" for word in alternatives.split("|")]
    return [text] if re.fullmatch(r"[a-z ]+", text) else text.strip("()").split("|")


def _keyword_hint(err: UnexpectedInput, text: str, expected: set[str]) -> str | None:
    """`did you mean 'phase'?` when the word met is a misspelling of a keyword the parser expected
    there (`phaze`, `alow`, `wen`, `higest`; `partners acros` for `partners across`)."""
    pos = err.token.start_pos if isinstance(err, UnexpectedToken) else getattr(err, "pos_in_stream", None)
    if pos is None or not 0 <= pos < len(text) or not re.match(r"[a-z]", text[pos]):
        return None
    best, best_ratio = None, 0.0
    for terminal in expected:
        for keyword in terminal_words(terminal):
            if not re.fullmatch(r"[a-z]+( [a-z]+)*", keyword):
                continue
            words = re.match(r"[a-z_0-9]+" + r"[ \t]+[a-z_0-9]+" * keyword.count(" "), text[pos:])
            if words is None:
                continue
            written = " ".join(words.group().split())
            ratio = SequenceMatcher(None, written, keyword).ratio()
            if written != keyword and ratio > best_ratio:
                best, best_ratio = keyword, ratio
    return f"did you mean '{best}'?" if best is not None and best_ratio >= 0.75 else None


@cache
def reserved_words() -> frozenset[str]:
    """The words that begin an expression (`best`, `count`, `some`, `none`...): where a value may be
    written, each is read as the language's word, never as a name, so nothing can be named so. Read
    from the grammar: the words its parser takes where a value starts (`var z = ...`)."""
    state = parser().parse_interactive("var z = 1\n")
    for token in state.iter_parse():
        if token.type == "EQUAL":
            state.feed_token(token)
            break
    words = {word for terminal in state.accepts() for word in terminal_words(terminal)}
    return frozenset(w for w in words if re.fullmatch(r"[a-z_][a-z0-9_]*", w))


# Where a file declares a name: `var best`, `param`, `let`, `define`, `schedule`, `for each best`,
# `to choose best`, a move named so (`move best`, `move best card from`, `move best number ...`).
_W = r"([a-z_][a-z0-9_]*)"
_DECLARED = re.compile(
    rf"^[ \t]*(?:new[ \t]+)?(?:var|param|let|define|schedule)[ \t]+{_W}"
    rf"|^[ \t]*move[ \t]+{_W}"
    r"(?=[ \t]*(?:#.*)?$|[ \t]+card[ \t]+(?:at[ \t]+place[ \t]+)?from\b|[ \t]+(?:number|value|player|one)\b)"
    rf"|for[ \t]+each[ \t]+{_W}|to[ \t]+choose[ \t]+{_W}",
    re.MULTILINE,
)


def reserved_name_error(text: str, line: int, col: int) -> tuple[int, str, str] | None:
    """When the line of a syntax error reads, before the error, a reserved word the file declares as a
    name (`var best = none` ... `require best is none`): the word is the language's there, not the
    name. Its column, the message and a hint that says how to rename it; None otherwise."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return None
    declared: dict[str, int] = {}
    for m in _DECLARED.finditer(text):
        word = next(g for g in m.groups() if g)
        if word in reserved_words():
            declared.setdefault(word, text.count("\n", 0, m.start()) + 1)
    before = lines[line - 1][: col - 1].split("#")[0]
    used = [m for m in re.finditer(r"[a-z_][a-z0-9_]*", before) if m.group() in declared]
    if not used:
        return None
    word, at = used[-1].group(), used[-1].start() + 1
    example = reserved_example(word)
    message = (
        f"`{word}` is a word of the language (`{example}`), reserved: it cannot be the name "
        f"declared on line {declared[word]}"
    )
    return at, message, f"rename that name (e.g. `{word}_so_far`) where it is declared and where it is used"


_RESERVED_EXAMPLES = {
    **{w: f"{w} card in trick" for w in ("first", "last", "best", "worst")},
    **{w: f"{w} of rank in trick" for w in ("sum", "max", "min", "distinct")},
    **{w: f"{w} card in trick where rank of it > 5" for w in ("some", "no", "every")},
    "count": "count card in trick",
    "most": "most count hand of player",
    "strictly": "strictly most count hand of player",
    "across": "across player",
    "known": "known rank of card to player",
    "not": "not card is none",
    "if": "if C then A else B",
    "none": "card is none",
}


def reserved_example(word: str) -> str:
    """A value that begins with the reserved ``word``, as an example of what the word means."""
    return _RESERVED_EXAMPLES.get(word, word + " ...")


def _friendly(terminal: str) -> str:
    """A terminal's name as a person reads it: `of`, a name, the end of the line."""
    if terminal in FRIENDLY:
        return FRIENDLY[terminal]
    words = terminal_words(terminal)
    return " or ".join(f"`{w}`" for w in words) if words else terminal.lower()


def _describe_expected(expected: set[str]) -> str:
    """A short, readable list of what the parser would have accepted."""
    names = sorted({_friendly(t) for t in expected})
    more = "" if len(names) <= 8 else f" (or {len(names) - 8} more)"
    return ", ".join(names[:8]) + more


def _clip(text: str, width: int = 40) -> str:
    """A token as an error message quotes it: at most ``width`` characters (the excerpt shows the rest)."""
    return text if len(text) <= width else text[:width] + "..."


def _found(err: UnexpectedInput, text: str) -> str:
    """What the parser found at the error position, in words."""
    if isinstance(err, UnexpectedToken):
        tok = err.token
        if tok.type == "_NL":
            return "the end of the line"
        if tok.type == "$END":
            return "the end of the file"
        if tok.type in ("_INDENT", "_DEDENT"):
            return "a change of indentation"
        return repr(_clip(str(tok)))
    if isinstance(err, UnexpectedCharacters):
        return repr(text[err.pos_in_stream]) if err.pos_in_stream < len(text) else "the end of the file"
    return "the end of the file"


def parse(text: str, file: str = "<rules>") -> Tree:
    """Parse rules text into a lark tree; syntax errors become RulesSyntaxError with a position."""
    remember_source(file, text)
    source = text if text.endswith("\n") else text + "\n"
    try:
        return parser().parse(source)
    except UnexpectedInput as err:
        line, col = max(err.line, 1), max(err.column, 1)
        if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        expected = getattr(err, "expected", None) or getattr(err, "allowed", None) or set()
        found = _found(err, source)  # ("unexpected end of the line", not "unexpected the end of the line")
        message = f"unexpected {found.removeprefix('the ').removeprefix('a ')}"
        if expected:
            message += f"; expected {_describe_expected(set(expected))}"
        reserved = reserved_name_error(source, line, col)
        if reserved is not None:
            raise RulesSyntaxError(reserved[1], Span(file, line, reserved[0]), reserved[2]) from None
        hint = _mistake_hint(err) or _spelling_hint(err, source) or _keyword_hint(err, source, set(expected))
        raise RulesSyntaxError(message, Span(file, line, col), hint) from None
    except LarkError:  # an inconsistent dedent, from the indenter
        line = _dedent_line(source)
        raise RulesSyntaxError(
            "indentation does not match any enclosing block",
            Span(file, line, 1),
            "indent the lines of a block by the same amount",
        ) from None


def _dedent_line(text: str) -> int:
    """The first line whose indentation matches no open block (for the indenter's error)."""
    stack = [0]
    for number, raw in enumerate(text.splitlines(), 1):
        stripped = raw.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        width = len(raw.expandtabs(8)) - len(stripped.expandtabs(8))
        if width > stack[-1]:
            stack.append(width)
        else:
            while width < stack[-1]:
                stack.pop()
            if width != stack[-1]:
                return number
    return 1
