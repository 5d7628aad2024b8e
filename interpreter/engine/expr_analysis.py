"""What an IR expression reads and binds, and the scopes that give its names env slots: the
analyses the expression and move compilers share (expressions.py, moves.py, game.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Fn = Callable[[Any, list], Any]
MISSING = object()
UNSET = object()  # a lazy slot not computed yet


BINDS = {"filter": ("where", "it"), "most": ("of", "player"), "every": ("where", "it")}  # op -> (operand, name)


def bound_in(node: dict[str, Any], key: str) -> str | None:
    """The name operand ``key`` of ``node`` binds for itself, if any (`where`: it; `for each`: player)."""
    op = node.get("op")
    if op == "for_each":
        return node["over"] if key in ("value_expr", "where") else None
    if op in BINDS and key == BINDS[op][0]:
        return BINDS[op][1]
    return None


def free_names(node: Any) -> frozenset[str]:
    """The bound names (player, card, target, ...) an IR expression reads from outside itself."""
    if isinstance(node, list):
        return frozenset().union(*(free_names(x) for x in node)) if node else frozenset()
    if not isinstance(node, dict):
        return frozenset()
    op = node.get("op")
    if op == "bound":
        return frozenset({node["name"]})
    names: set[str] = set()
    for key, child in node.items():
        if key == "at":
            continue
        inner = free_names(child)
        name = bound_in(node, key)
        if name is not None:
            inner = inner - {name}
        names |= inner
    if op in ("achieved", "most"):
        names.add("player")  # read from the enclosing scope
    return frozenset(names)


def reads(node: Any, bound: frozenset[str] = frozenset()) -> dict[str, set[str] | None]:
    """For each name an expression reads from outside, the card attributes it reads it through
    (``{"card": {"color"}}``), or None when it uses the value itself. A memo keyed by those
    attribute values is shared by every card that has them."""
    out: dict[str, set[str] | None] = {}

    def note(name: str, attr: str | None) -> None:
        if name in bound:
            return
        if attr is None or out.get(name, set()) is None:
            out[name] = None
        else:
            out.setdefault(name, set()).add(attr)  # type: ignore[union-attr]

    def walk(x: Any, inner: frozenset[str]) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y, inner)
            return
        if not isinstance(x, dict):
            return
        op = x.get("op")
        of = x.get("of")
        if op in ("attr", "is_type") and isinstance(of, dict) and of.get("op") == "bound":
            if of["name"] not in inner:
                note(of["name"], x["name"] if op == "attr" else "$type")
            return
        if op == "bound":
            if x["name"] not in inner:
                note(x["name"], None)
            return
        if op in ("achieved", "most"):
            note("player", None)
        for key, child in x.items():
            if key == "at":
                continue
            name = bound_in(x, key)
            walk(child, inner | {name} if name is not None else inner)

    walk(node, bound)
    return out


_RANKS: dict[int, tuple[tuple, tuple[int, ...]]] = {}  # id of a card-key table -> (the table, ranks)


def card_ranks(keys: tuple) -> tuple[int, ...]:
    """Each card's place in the declared card order (equal keys, equal places): comparing two
    places is comparing the keys, faster."""
    got = _RANKS.get(id(keys))
    if got is None or got[0] is not keys:
        place = {k: i for i, k in enumerate(sorted(set(keys)))}
        got = _RANKS[id(keys)] = (keys, tuple(place[k] for k in keys))
    return got[1]


CONSTANT_TIME = {
    "num", "text", "none", "builtin", "param", "schedule", "var", "total", "zone", "attr", "else", "is_none",
}  # fmt: skip


def constant_time(node: Any) -> bool:
    """Whether an expression reads no more than a fixed number of cards (no loop over a collection):
    ``suit of first card in trick else none``."""
    if isinstance(node, list):
        return all(constant_time(x) for x in node)
    if not isinstance(node, dict):
        return True
    op = node.get("op")
    if op in ("first", "last"):
        of = node["of"]
        if not (of.get("op") == "cards" and of.get("source", "zone") == "zone" and of.get("type") is None):
            return False
        return not of.get("piles") and constant_time(of["from"])
    if op is not None and op not in CONSTANT_TIME:
        return False
    return all(constant_time(v) for k, v in node.items() if k not in ("at", "op"))


def binds_names(node: Any) -> bool:
    """Whether an expression binds a name of its own (and so writes its env): `where`, `most`."""
    if isinstance(node, list):
        return any(binds_names(x) for x in node)
    if not isinstance(node, dict):
        return False
    if node.get("op") in BINDS or node.get("op") == "for_each":
        return True
    return any(binds_names(v) for k, v in node.items() if k != "at")


def uses_env(node: Any) -> bool:
    """Whether an expression reads a bound name or binds one (and so needs an env of its own)."""
    if isinstance(node, list):
        return any(uses_env(x) for x in node)
    if not isinstance(node, dict):
        return False
    if node.get("op") in ("bound", "filter", "most", "achieved"):
        return True
    return any(uses_env(v) for k, v in node.items() if k != "at")


# Operators whose value depends only on their operands (no zone, variable, round or seat of its own).
PURE_OPS = {
    "num", "text", "none", "bound", "param", "attr", "cards", "of_type", "filter", "except", "count",
    "sum", "max", "min", "distinct", "first", "last", "best", "worst", "some", "no", "is_empty",
    "is_none", "is_type", "cmp", "not", "and", "or", "else", "if", "neg", "arith", "union", "unique",
}  # fmt: skip


def zone_pure(body: Any, name: str = "it", pure_calls: frozenset[str] = frozenset()) -> bool:
    """Whether an expression reads nothing but the cards of one zone (bound to ``name``), so that
    its value may be kept until that zone changes. ``pure_calls``: definitions known to be so."""
    if isinstance(body, list):
        return all(zone_pure(x, name, pure_calls) for x in body)
    if not isinstance(body, dict):
        return True
    op = body.get("op")
    if op == "call":
        return body.get("name") in pure_calls and zone_pure(body.get("arg"), name, pure_calls)
    if op is not None:
        if op not in PURE_OPS:
            return False
        if op == "bound":
            return body["name"] == name
    return all(zone_pure(v, name, pure_calls) for k, v in body.items() if k != "at")


class Scope:
    """Names bound at a point of a rule, each to an env slot; shared counter for the env size."""

    def __init__(self, slots: dict[str, int] | None = None, counter: list[int] | None = None):
        self.slots = dict(slots or {})
        self.counter = counter if counter is not None else [0]

    def bind(self, name: str) -> tuple[Scope, int]:
        """A new scope where ``name`` has a fresh slot."""
        slot = self.counter[0]
        self.counter[0] += 1
        inner = Scope(self.slots, self.counter)
        inner.slots[name] = slot
        return inner, slot

    def set(self, name: str) -> int:
        """Give ``name`` a fresh slot in this scope (for `let`)."""
        slot = self.counter[0]
        self.counter[0] += 1
        self.slots[name] = slot
        return slot


def at_entry(node: dict[str, Any]) -> dict[str, Any]:
    """The node's source position entry, if it has one (to compare nodes regardless of it)."""
    return {"at": node["at"]} if "at" in node else {}


CONSTANT = ("num", "text", "none")  # literal operators: their value is the node's "value"


def card_valued(node: dict[str, Any], is_card: Callable[[str], bool]) -> bool:
    """Whether an IR expression's value is a card (or cards) of the rules: a card taken out of a
    collection of cards (`first`, `last`, `best`, `worst`), such a collection, a name bound to a
    card (``is_card``), or a choice between those (`else`, `if`). Read where a `let` binds its
    name, so that a state renames the card it holds when two cards trade places."""
    op = node.get("op")
    if op == "bound":
        return is_card(node["name"])
    if op in ("first", "last", "best", "worst"):
        return _card_collection(node["of"])
    if op == "else":
        return any(card_valued(a, is_card) for a in node["args"])
    if op == "if":
        return card_valued(node["then"], is_card) or card_valued(node["else"], is_card)
    return _card_collection(node)


def _card_collection(node: dict[str, Any]) -> bool:
    """Whether an IR expression is a collection of cards (not of piles, zones or players)."""
    op = node.get("op")
    if op == "cards":
        return not node.get("piles")
    if op in ("filter", "except"):
        return _card_collection(node["of"])
    if op == "union":  # (issue 30) A + B
        return all(_card_collection(x) for x in node["args"])
    return False


# Operators whose value every seat knows when their operands' are known: literals, the table's
# own numbers (players, round, dealer, parameters, totals), seats, arithmetic, comparisons, logic.
_PUBLIC_OPS = frozenset(
    (*CONSTANT, "builtin", "param", "schedule", "total", "team_total", "seat", "seat_offset", "next_of", "across")
) | frozenset(("partner_of", "team_of", "cmp", "not", "and", "or", "neg", "arith", "if", "else", "is_none"))


# Operators whose value every seat knows when their operands' are known and the cards they read
# lie in public zones (`zone` itself is known only of a public zone): a card's attribute, the first
# or last card, counts, sums, extremes and tests over such cards.
_TABLE_OPS = frozenset(
    ("cards", "first", "last", "attr", "count", "sum", "max", "min", "distinct", "some", "is_empty")
) | frozenset(("best", "worst", "except", "union", "unique"))


def public_valued(
    node: Any,
    is_public: Callable[[str], bool],
    public_var: Callable[[str], bool],
    public_zone: Callable[[str], bool] | None = None,
    public_define: Callable[[str], bool] | None = None,
) -> bool:
    """Whether every seat knows an IR expression's value when the rules read it: built of the
    operators above, names bound to what every seat saw (``is_public``: the mover, a choice that
    is not a card) and variables every seat sees (``public_var``); with ``public_zone``, also of
    the cards of zones every seat sees (`suit of first card in trick`, a trick on the table) and
    of definitions (``public_define``: whose body is such a value, their parameters taken as
    known: the call's arguments are checked here). Anything else (a card in hand, what a hidden
    zone holds) is not known, though it may happen to be: this errs towards telling less."""
    if not isinstance(node, dict):
        return False
    op = node.get("op")
    if op == "bound":
        return is_public(node["name"])
    if op in ("var", "team_var"):
        if not public_var(node["name"]):
            return False
    elif op == "zone":
        if public_zone is None or not public_zone(node["name"]):
            return False
    elif op == "call":
        if public_define is None or not public_define(node["name"]):
            return False
    elif op == "filter" and public_zone is not None:  # `it`, each card of a known collection, is known
        return public_valued(node["of"], is_public, public_var, public_zone, public_define) and public_valued(
            node["where"], lambda name: name == "it" or is_public(name), public_var, public_zone, public_define
        )
    elif op not in _PUBLIC_OPS and not (op in _TABLE_OPS and public_zone is not None):
        return False
    for key, child in node.items():
        if key == "at" or not isinstance(child, dict | list):
            continue
        for x in child if isinstance(child, list) else [child]:
            if not public_valued(x, is_public, public_var, public_zone, public_define):
                return False
    return True


def shared_attributes(node: dict[str, Any], known: Callable[[dict[str, Any]], bool]) -> list[tuple[str, Any]]:
    """What every card of ``CARDS where ATTR of it = V [and ...]`` has in common, as far as ``known``
    tells the value V: ``(ATTR, V's node)`` for each such test (`hand of asked where rank of it =
    fish_for`: the rank asked). Every card the expression gives passes each test."""
    out: list[tuple[str, Any]] = []
    while node.get("op") == "filter":
        out += attribute_tests(node["where"], "it", known)
        node = node["of"]
    return out


def attribute_tests(
    cond: dict[str, Any], subject: str, known: Callable[[dict[str, Any]], bool]
) -> list[tuple[str, Any]]:
    """The tests ``ATTR of SUBJECT = V`` a condition (`A and B and ...`) makes of the card bound as
    ``subject``, where V does not read that card and ``known`` tells V: ``(ATTR, V's node)`` each.
    When the condition holds, the card's ATTR is V."""
    out: list[tuple[str, Any]] = []
    tests, where = [], [cond]
    while where:
        x = where.pop()
        if x.get("op") == "and":
            where += x["args"]
        else:
            tests.append(x)
    for t in tests:
        if t.get("op") != "cmp" or t.get("cmp") != "=":
            continue
        for mine, other in ((t["left"], t["right"]), (t["right"], t["left"])):
            of = mine.get("of") or {}
            of_subject = mine.get("op") == "attr" and of.get("op") == "bound" and of.get("name") == subject
            if of_subject and subject not in free_names(other) and known(other):
                out.append((mine["name"], other))
    return out
