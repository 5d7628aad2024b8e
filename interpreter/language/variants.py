"""Reading rules files and folding `extends` chains into one Program (declarations by key).

A variant names its base file and overrides or adds only what changes: a parameter default,
a card line, a zone, a deal, a phase's move, trigger or end, a scoring rule, a game line.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from ..errors import DeclarationError, ExtendsError, ReadError, Span, shown
from .ast_nodes import (
    AtTime,
    CardOrder,
    Cards,
    CardType,
    Checks,
    Deal,
    Define,
    EffectBlock,
    Ends,
    EnumOrder,
    Extends,
    FirstPlayer,
    GameSection,
    Move,
    Param,
    Phase,
    Players,
    Repeat,
    ResolveOrder,
    Round,
    Ruleset,
    Schedule,
    Score,
    Teams,
    Title,
    Trigger,
    Var,
    Zones,
    unparse,
)
from .files import MAX_FILE_BYTES, find_base, read_text
from .files import bundled as bundled  # (read from here by other modules)
from .files import shipped_dirs as shipped_dirs
from .files import shipped_name as shipped_name
from .files import shipped_names as shipped_names
from .syntax import to_ast

MAX_EXTENDS_DEPTH = 16
URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+://")  # `extends` is never followed to the network
DEFAULT_DECK = "deck"
BaseFinder = Callable[[Extends, str], Path]  # a variant's `extends` and file -> its base's file
BaseReader = Callable[[Path], str]  # a base's file -> its text (an editor's unsaved buffer, say)


@dataclass
class PhaseParts:
    """A phase, with its parts by key so that a variant can override one of them."""

    name: str
    simultaneous: bool
    span: Span
    revealed: bool = False  # `revealed together`
    moves: dict[str, Move] = field(default_factory=dict)
    triggers: list[Trigger] = field(default_factory=list)
    ends: Ends | None = None
    first_player: FirstPlayer | None = None
    stuck_ends: Ends | None = None  # `ends when nobody can move`
    at: dict[str, AtTime] = field(default_factory=dict)  # start | end -> its effects
    resolve: ResolveOrder | None = None


@dataclass
class Program:
    """Every declaration of a ruleset and its bases, after overriding, by kind and key."""

    files: list[Ruleset] = field(default_factory=list)
    title: Title | None = None
    players: Players | None = None
    teams: Teams | None = None
    params: dict[str, Param] = field(default_factory=dict)
    decks: dict[str, dict[str, Any]] = field(default_factory=dict)
    zones: dict[str, Any] = field(default_factory=dict)
    defines: dict[str, Define] = field(default_factory=dict)
    vars: dict[str, Var] = field(default_factory=dict)
    schedules: dict[str, Schedule] = field(default_factory=dict)
    deals: dict[str, Deal] = field(default_factory=dict)
    phases: dict[str, PhaseParts] = field(default_factory=dict)
    score: dict[str, Any] = field(default_factory=dict)
    game: dict[str, Any] = field(default_factory=dict)
    round_span: Span | None = None
    round_at: dict[str, AtTime] = field(default_factory=dict)  # start | end -> the round's effects
    round_ends: Ends | None = None
    repeats: dict[str, Repeat] = field(default_factory=dict)  # by the name of its first phase
    checks: list[Any] = field(default_factory=list)  # `checks` lines: a variant's add to its base's
    blocks: dict[str, EffectBlock] = field(default_factory=dict)  # `effect NAME`: by its name

    def note(self, span: Span | None) -> str | None:
        """The comments written beside the rule at ``span``, in whichever file it is."""
        if span is None:
            return None
        for ruleset in self.files:
            if ruleset.file == span.file:
                return ruleset.note(span)
        return None


def load_program(
    text: str,
    file: str,
    chain: tuple[str, ...] = (),
    find: BaseFinder | None = None,
    read: BaseReader | None = None,
) -> Program:
    """Parse a ruleset and, through `extends`, its bases, into one overridden Program. ``find``
    gives the file a variant's `extends` names (``find_base`` unless a caller, such as a server
    reading uploads, allows less); it is asked for every base of the chain. ``read`` gives a base
    file's text (``read_text`` unless a caller, such as the language server, has it unsaved)."""
    if len(text) > MAX_FILE_BYTES:
        raise ReadError(f"the rules text is longer than {MAX_FILE_BYTES:,} characters", Span(file, 1, 1))
    ruleset = to_ast(text, file)
    extends = [item for item in ruleset.items if isinstance(item, Extends)]
    if len(extends) > 1:
        raise DeclarationError("a ruleset extends at most one base", extends[1].span)
    if not extends:
        program = Program()
        overlay(program, ruleset, base=None)
        return program
    ext = extends[0]
    if URL.match(ext.path):
        raise ExtendsError(
            f"extends takes the path of a file, not a URL: {ext.path}",
            ext.span,
            "download the base yourself and name the file, relative to this one",
        )
    base_path = (find or find_base)(ext, file)
    key = str(base_path.resolve())
    here = str(Path(file).resolve()) if not file.startswith("<") else file
    if key in chain or key == here:
        cycle = " -> ".join([*(Path(c).name for c in chain), Path(here).name, base_path.name])
        raise ExtendsError(f"extends cycle: {cycle}", ext.span, "a base file must not extend its variant")
    if len(chain) >= MAX_EXTENDS_DEPTH:
        raise ExtendsError(f"extends chain deeper than {MAX_EXTENDS_DEPTH} files", ext.span)
    try:
        base_text = (read or read_text)(base_path)
    except ReadError as err:
        raise ExtendsError(f"cannot use base {ext.path}: {err.message}", ext.span) from None
    program = load_program(base_text, str(base_path), (*chain, here), find, read)
    overlay(program, ruleset, base=str(base_path))
    return program


def _missing(kind: str, name: str, known: list[str], base: str, span: Span, how: str) -> ExtendsError:
    """The error for an override of something the base does not have (a shipped base by its name,
    not where the package is installed)."""
    close = get_close_matches(name, known, n=1)
    hint = f"did you mean '{close[0]}'? " if close else ""
    return ExtendsError(
        f"{shown(base)} has no {kind} '{name}' to override (it has: {', '.join(known) or 'none'})",
        span,
        hint + how,
    )


def _once_ends(part: Ends, seen: set, where: str) -> None:
    """A phase, the round or the game ends on one condition per file: two `ends when` lines would
    leave a reader guessing whether both must hold or either, so they are an error, not a silent
    replacement (a variant's line still replaces its base's)."""
    if (where, "ends when") in seen:
        raise DeclarationError(
            f"{where} has two `ends when` lines in this file",
            part.span,
            "write one line that joins the conditions: `ends when A or B` ends as soon as either holds",
        )
    seen.add((where, "ends when"))


def _put(table: dict, key: str, item: Any, seen: set, what: str, hint: str | None = None) -> None:
    """Add or replace one declaration; the same key twice in one file is an error (with ``hint``)."""
    if (what, key) in seen:
        raise DeclarationError(f"{what} '{key}' is declared twice in this file", item.span, hint)
    seen.add((what, key))
    table[key] = item


def overlay(program: Program, ruleset: Ruleset, base: str | None) -> None:
    """Lay a ruleset's declarations over a program: replace by key, add what is new."""
    program.files.append(ruleset)
    seen: set = set()
    for item in ruleset.items:
        match item:
            case Extends():
                pass
            case Title():
                program.title = item
            case Players():
                program.players = item
            case Teams():
                program.teams = item
            case Param():
                if base and not item.new and item.name not in program.params:
                    raise _missing(
                        "parameter",
                        item.name,
                        list(program.params),
                        base,
                        item.span,
                        "to add a parameter in a variant, write `new param NAME = VALUE`",
                    )
                _put(program.params, item.name, item, seen, "parameter")
            case Cards():
                deck = program.decks.setdefault(item.deck or DEFAULT_DECK, {"span": item.span, "lines": {}})
                for line in item.lines:
                    _put(deck["lines"], _card_key(line), line, seen, "card line")
            case Zones():
                for line in item.lines:
                    _put(program.zones, line.name, line, seen, "zone")
            case Define():
                _put(program.defines, item.name, item, seen, "definition")
            case Var():
                _put(program.vars, item.name, item, seen, "variable")
            case Schedule():
                _put(program.schedules, item.name, item, seen, "schedule")
            case EffectBlock():  # a variant's `effect NAME` replaces its base's
                _put(program.blocks, item.name, item, seen, "effect")
            case Round():
                program.round_span = program.round_span or item.span
                _overlay_round(program, item, base, seen)
            case Checks():
                program.checks.extend(item.lines)
            case GameSection():
                for game_item in item.items:
                    if isinstance(game_item, Ends):
                        _once_ends(game_item, seen, "the game")
                        program.game["ends"] = game_item
                    else:
                        _put(program.game, game_item.kind, game_item, seen, "game line")


def _card_key(line: Any) -> str:
    match line:
        case CardType():  # a type's line, or one line per named card ("goal \"Hero\"")
            names = [v.value for a in line.attrs for v in a.values if v.quoted]
            return " ".join([line.name, *(f'"{n}"' for n in names)])
        case EnumOrder():
            return f"order {line.attr}"
        case CardOrder():
            return "order cards"
    raise AssertionError(line)


def _overlay_round(program: Program, item: Round, base: str | None, seen: set) -> None:
    for part in item.items:
        match part:
            case Deal():
                _put(program.deals, part.zone, part, seen, "deal to")
            case Phase():
                _overlay_phase(program, part, base, seen)
            case Repeat():
                for phase in part.phases:
                    _overlay_phase(program, phase, base, seen)
                _put(program.repeats, part.phases[0].name, part, seen, "repeat from phase")
            case AtTime():
                _put(program.round_at, part.when, part, seen, "round's effects at")
            case Ends():
                _once_ends(part, seen, "the round")
                program.round_ends = part
            case Score():
                for rule in part.rules:
                    key = unparse(rule.each) if rule.each else unparse(rule.points)
                    if key == "team":  # `each team: POINTS`: a game may score teams several ways
                        key = f"each team: {unparse(rule.points)}"
                    _put(program.score, key, rule, seen, "scoring rule", _twice_scored(rule))


def _twice_scored(rule: Any) -> str:
    """The hint for two scoring rules known by the same words (a variant replaces a rule by them)."""
    if rule.each:
        over = unparse(rule.each)
        return (
            f"a scoring rule is known by what it scores (`each {over}`), so that a variant can replace it:"
            f" to score these cards two ways, tell the rules apart with `where`,"
            f" e.g. `each {over} where ATTRIBUTE of it = VALUE: POINTS`"
        )
    points = unparse(rule.points)
    return (
        f"a scoring rule without `each` is known by its points (`{points}`): join the conditions"
        f" (`{points} if A or B`), or add both in one rule: `(if A then {points} else 0) + (if B then {points} else 0)`"
    )


def _overlay_phase(program: Program, phase: Phase, base: str | None, seen: set) -> None:
    parts = program.phases.get(phase.name)
    if parts is None:
        if base and not phase.new:
            raise _missing(
                "phase",
                phase.name,
                list(program.phases),
                base,
                phase.span,
                "to add a phase in a variant, write `new phase NAME`",
            )
        parts = program.phases[phase.name] = PhaseParts(phase.name, phase.simultaneous, phase.span)
    elif ("phase", phase.name) in seen:
        raise DeclarationError(f"phase '{phase.name}' is declared twice in this file", phase.span)
    seen.add(("phase", phase.name))
    if phase.simultaneous:
        parts.simultaneous = True
    if phase.revealed:
        parts.revealed = True
    for part in phase.items:
        match part:
            case Move():
                _put(parts.moves, part.name, part, seen, f"move of phase {phase.name}")
            case Trigger():
                parts.triggers.append(part)
            case Ends() if part.condition is None:
                parts.stuck_ends = part
            case Ends():
                _once_ends(part, seen, f"phase {phase.name}")
                parts.ends = part
            case FirstPlayer():
                parts.first_player = part
            case AtTime():
                _put(parts.at, part.when, part, seen, f"effects of phase {phase.name} at")
            case ResolveOrder():
                parts.resolve = part
