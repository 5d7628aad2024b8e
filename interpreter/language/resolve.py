"""Program to IR: every name resolved, every expression typed, into plain JSON-able data.

The IR is the contract between the front end and everything else (`ruleset show` prints it).
Expressions become objects like ``{"op": "attr", "name": "color", "of": {...}, "at": "f:3:5"}``
whose operator says exactly what to compute; the compiler never looks a name up again.
"""

from __future__ import annotations

from difflib import get_close_matches
from typing import Any

from ..errors import DeclarationError, RulesetError, Span
from .resolve_blocks import BlocksResolver
from .resolve_cards import CardsResolver
from .resolve_checks import ChecksResolver
from .resolve_collections import CollectionsResolver
from .resolve_declarations import DeclarationsResolver
from .resolve_exprs import ExprResolver
from .resolve_flow import FlowResolver
from .resolve_knowledge import KnowledgeResolver
from .resolve_loops import LoopsResolver
from .resolve_names import NamesResolver
from .resolve_rules import RulesResolver
from .resolve_scoring import ScoringResolver
from .resolve_types import IR_FORMAT, MAX_DECK, MAX_DEPTH, T, _at
from .resolve_values import ValuesResolver
from .resolve_zones import ZonesResolver
from .variants import Program

__all__ = ["IR_FORMAT", "MAX_DECK", "MAX_DEPTH", "Resolver", "T", "resolve"]


class Resolver(
    CardsResolver,
    ZonesResolver,
    DeclarationsResolver,
    RulesResolver,
    LoopsResolver,
    BlocksResolver,
    ScoringResolver,
    ExprResolver,
    NamesResolver,
    CollectionsResolver,
    FlowResolver,
    ValuesResolver,
    ChecksResolver,
    KnowledgeResolver,
):
    """Resolves one Program into IR; holds the symbol tables. Each construct is resolved by a
    mixin of its own: cards (resolve_cards.py), zones and deals (resolve_zones.py), parameters,
    variables and definitions (resolve_declarations.py), phases, moves, triggers and effects
    (resolve_rules.py), scoring and the game section (resolve_scoring.py), expressions
    (resolve_exprs.py, resolve_names.py, resolve_collections.py), the flow of rounds and the game:
    set-up, effects at start and end, repeats, ends (resolve_flow.py); the designer's `checks`
    (resolve_checks.py)."""

    def __init__(self, program: Program, errors: list[RulesetError] | None = None):
        self.p = program
        self.errors = errors  # collecting mode: record an error and go on with the next rule
        self.attrs: dict[str, dict[str, Any]] = {}
        self.types: dict[str, str] = {}  # card type -> deck
        self.zones: dict[str, dict[str, Any]] = {}
        self.params: dict[str, T] = {}
        self.param_defaults: dict[str, dict[str, Any]] = {}  # a parameter -> its default's IR
        self.defines: dict[str, tuple[str | None, T]] = {}
        self.assigned: dict[str, set[str]] = {}  # an untyped variable that starts as none -> the kinds set to it
        self.depth = 0
        self.in_where = 0  # how many `where` conditions are being resolved around the current value
        self.option_words = option_words(program)
        self._doing: list[str] = []  # the named blocks being resolved, outermost first (resolve_blocks.py)
        self._block_ir: dict[str, list[dict[str, Any]]] = {}

    def resolve(self) -> dict[str, Any]:
        """The whole IR of the program."""
        p = self.p
        first = p.files[-1].file if p.files else "<rules>"
        if p.title is None:
            raise DeclarationError("the ruleset has no name", Span(first, 1, 1), 'start it with `game "Name"`')
        if p.players is None:
            raise DeclarationError(
                "the ruleset does not say how many can play", p.title.span, "add a line like `players 3..6`"
            )
        low, high = p.players.low, p.players.high
        if not 1 <= low <= high <= 64:
            raise DeclarationError(f"players {low}..{high} is not a range from 1 to 64, low first", p.players.span)
        if not p.decks:
            raise DeclarationError("the ruleset has no cards", p.title.span, "add a `cards` section")
        if not p.zones:
            raise DeclarationError("the ruleset has no zones", p.title.span, "add a `zones` section")
        if not p.phases:
            raise DeclarationError(
                "the round has no phase",
                p.round_span or p.title.span,
                "add a `round` section with a `phase NAME` and its moves",
            )
        ir: dict[str, Any] = {"format": IR_FORMAT, "name": p.title.name, "source": first}
        ir["players"] = {"min": low, "max": high}
        if p.teams is not None:
            ir["teams"] = next(iter(self._each([None], lambda _: self._teams())), None)
        ir["params"] = self._each(p.params.values(), self._param)
        ir["decks"] = self._each(p.decks.items(), lambda x: self._deck(*x))
        self._each([None], lambda _: self._derive_attributes())
        self._each([None], lambda _: self._check_orders())
        ir["attributes"] = {
            n: {
                "kind": a["kind"],
                **({"values": a["values"]} if a["kind"] == "text" else {}),
                **({"derived": True} if a.get("derived") else {}),
            }
            for n, a in self.attrs.items()
        }
        ir["card_order"] = self.card_order
        ir["zones"] = self._each(p.zones.values(), self._zone)
        ir["schedules"] = self._each(p.schedules.values(), self._schedule)
        ir["vars"] = self._each(p.vars.values(), self._var)
        self._declare_defines()
        ir["defines"] = self._each(p.defines.values(), self._define)
        for deck in ir["decks"]:  # card conditions may use defines and zones
            for line, src in zip(deck["cards"], self._card_lines(deck["name"]), strict=True):
                if src.achieved is not None:
                    self._each([src.achieved], lambda x, line=line: self._achieved(line, x))
        ir["round"] = {
            "deals": self._each(p.deals.values(), self._deal),
            "phases": self._each(p.phases.values(), self._phase),
            "score": self._each(p.score.values(), self._score),
        }
        for part in self._each([None], lambda _: self._round_flow(list(p.phases))):
            ir["round"].update(part)
        ir["game"] = next(iter(self._each([None], lambda _: self._game())), None)
        if p.checks:  # (only when there are: the IR of rules without checks stays as it was)
            ir["checks"] = self._each(p.checks, self._check)
        if p.blocks:  # named effect blocks (resolve_blocks.py)
            ir["blocks"] = self._blocks()
        self._type_by_sets(ir["vars"])
        return ir

    def _each(self, items: Any, fn: Any) -> list[Any]:
        """``fn`` over items; in collecting mode an item that fails is recorded and left out."""
        out = []
        for item in items:
            if self.errors is None:
                out.append(fn(item))
                continue
            try:
                out.append(fn(item))
            except RulesetError as err:
                self.depth = 0
                self.errors.append(err)
        return out

    def _noted(self, node: dict[str, Any], span: Span) -> dict[str, Any]:
        node["at"] = _at(span)
        note = self.p.note(span)
        if note:
            node["note"] = note
        return node

    def _suggest(self, name: str, known: list[str]) -> str | None:
        close = get_close_matches(name, known, n=1)
        return f"did you mean '{close[0]}'?" if close else None


def option_words(program: Program) -> frozenset[str]:
    """The options that the choices of moves and asks list: names that read as text values."""
    words: set[str] = set()

    def walk(effects: Any) -> None:
        for eff in effects:
            if eff.kind == "ask":
                if eff.args[2].kind == "option":
                    words.update(eff.args[2].options)
                walk(eff.args[4])
            elif eff.kind == "if":
                walk(eff.args[1])
                walk(eff.args[2])
            elif eff.kind == "each":  # for each ...: its effects
                walk(eff.args[2])
            elif eff.kind == "repeat":
                walk(eff.args[1])

    for block in program.blocks.values():  # named effect blocks
        walk(block.effects)

    for ph in program.phases.values():
        for m in ph.moves.values():
            if m.choice is not None and m.choice.kind == "option":
                words.update(m.choice.options)
        for t in ph.triggers:
            walk(t.effects)
        for timed in ph.at.values():
            walk(timed.effects)
    for timed in program.round_at.values():
        walk(timed.effects)
    return frozenset(words)


def resolve(program: Program, errors: list[RulesetError] | None = None) -> dict[str, Any]:
    """The IR of a program (see module docstring). Given a list ``errors``, resolution goes on
    past an error in one declaration or rule (recorded there, the rule left out of the IR)."""
    return Resolver(program, errors).resolve()
