"""Deck arithmetic for every player count: cards dealt, set aside and left over per deal line,
hand-size schedules against the number of rounds, and the player range against the deck; a card
line that lists one attribute value twice (a bigger deck than meant)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from ..engine.game import Game
from ..errors import RulesetError, Span, source_line
from .findings import Finding, Report, at

MAX_ROUNDS_CHECKED = 200  # schedules repeat; rounds beyond this add nothing new


class Probe:
    """The little of a State that parameters, rounds, schedules and deal amounts read."""

    def __init__(self, players: int, params: dict[str, Any]):
        self.n = players
        self.params = params
        self.round = 0
        self.dealer = 0
        self.schedule: dict[str, Any] = {}
        self.cache: dict[Any, Any] = {}
        self.totals = [0] * players


def evaluate(fn: Any, probe: Probe, env_size: int) -> Any:
    """A compiled expression's value on a probe, or raise LookupError when it reads play state."""
    try:
        return fn(probe, [None] * env_size)
    except (AttributeError, TypeError, IndexError, KeyError) as err:
        raise LookupError(str(err)) from None


def player_counts(game: Game, only: int | None) -> list[int]:
    """The player counts to check: the one asked for, or the whole declared range."""
    if only is not None:
        return [only]
    return list(range(game.min_players, game.max_players + 1))


def check_decks(game: Game, counts: list[int], sets: dict[str, Any], report: Report) -> set[int]:
    """Deck arithmetic findings; returns the player counts that cannot even be dealt."""
    ir = game.ir
    _repeated_values(ir, report)
    bad: set[int] = set()
    shapes: dict[int, dict[int, list[str]]] = {}  # deal index -> players -> descriptions by round
    short: dict[int, list[tuple[int, str]]] = {}  # deal index -> (players, why)
    sched_rounds: dict[str, dict[int, int]] = {}  # schedule -> players -> rounds
    for p in counts:
        try:
            params = game.param_values(p, sets)
        except RulesetError as err:
            report.add(Finding("error", "parameter", err.message, err.span, err.hint))
            bad.add(p)
            continue
        probe = Probe(p, params)
        decks = deck_sizes(game, p)
        try:  # no cap: the game ends on a condition; the first rounds tell what the deals do
            rounds = evaluate(game.rounds, probe, game.env_size) if game.rounds is not None else MAX_ROUNDS_CHECKED
        except LookupError:
            continue
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
            report.add(
                Finding(
                    "error",
                    "rounds",
                    f"with {p} players the game has {rounds!r} rounds; it needs at least one",
                    at(ir["game"]),
                )
            )
            bad.add(p)
            continue
        for name, values, repeated in game.schedules:
            if game.rounds is not None:  # (a game without a cap: see _report_uncapped_schedules)
                sched_rounds.setdefault(name, {})[p] = rounds
            if not repeated and len(values) < rounds and game.rounds is not None:
                bad.add(p)
        for r in range(min(rounds, MAX_ROUNDS_CHECKED)):
            probe.round = r
            probe.cache = {}
            if not _schedule(game, probe, r):
                break
            _deal_round(game, probe, decks, p, r, shapes, short, bad)
    _report_schedules(game, sched_rounds, report)
    _report_uncapped_schedules(game, report)
    _report_deals(game, counts, shapes, short, report)
    return bad


def deck_sizes(game: Game, players: int) -> dict[int, int]:
    """Each deck's zone -> its number of cards with this many players (copy counts such as
    `x (2 * players)` leave out the copies a player count does not use)."""
    absent = game.cards.absent(players)
    size = Counter(d for cid, d in enumerate(game.cards.deck_of) if cid not in absent)
    return {game.zone_index[name]: size[i] for i, name in enumerate(game.cards.deck_names)}


def _schedule(game: Game, probe: Probe, r: int) -> bool:
    """This round's schedule entries on the probe; False when one cannot be told (or has none)."""
    probe.schedule = {}
    for name, values, repeated in game.schedules:
        if r >= len(values) and not repeated:
            return False  # reported by _report_schedules
        try:
            probe.schedule[name] = evaluate(values[r % len(values)], probe, game.env_size)
        except LookupError:
            return False
    return True


def _deal_round(game, probe, decks, p, r, shapes, short, bad) -> None:
    """Run the deal lines of round ``r`` as arithmetic, as deal.py deals them."""
    left = dict(decks)
    for i, rule in enumerate(game.deals):
        try:
            seats = p
            if rule.as_players is not None and (
                rule.as_players_when is None or evaluate(rule.as_players_when, probe, game.env_size)
            ):
                seats = evaluate(rule.as_players, probe, game.env_size)
            each = None if rule.amount is None else evaluate(rule.amount, probe, game.env_size)
        except LookupError:
            continue
        have = left[rule.deck]
        spec = game.zones[rule.zone]
        if not spec.per_player:  # a set-up deal to a shared zone (to each of its instances)
            need = have if each is None else each * spec.count if isinstance(each, int) and each >= 0 else None
            if need is None or need > have:
                why = f"it deals {each!r} cards to each of {spec.count} {spec.name}" if need is None else ""
                cards = "card" if need == 1 else "cards"
                why = why or f"round {r + 1}{_entry_text(game, r)} deals {need} {cards}; the deck has {have} left"
                short.setdefault(i, []).append((p, why))
                bad.add(p)
                continue
            left[rule.deck] = have - need
            # (to one shared zone, no "each": the cards lie on it; to several, so many on each)
            shape = ("" if each is None or spec.count == 1 else str(each), need, 0, "", "")
            per_round = shapes.setdefault(i, {}).setdefault(p, [])
            if shape not in per_round:
                per_round.append(shape)
            continue
        if not isinstance(seats, int) or seats < p:
            short.setdefault(i, []).append((p, f"it deals as if for {seats} players to {p} players"))
            bad.add(p)
            continue
        if each is None:
            low, high = have // seats, -(-have // seats)
            dealt_seats = [have // seats + (1 if k < have % seats else 0) for k in range(seats)]
            aside = sum(dealt_seats[p:])
            dealt, rest = have - aside, 0
            each_text = f"{low}" if low == high else f"{low}-{high}"
            if low == 0:
                short.setdefault(i, []).append((p, f"{have} cards for {seats} hands leave a hand empty"))
        else:
            if not isinstance(each, int) or each < 0:
                short.setdefault(i, []).append((p, f"it deals {each!r} cards to each player"))
                bad.add(p)
                continue
            need = each * seats
            if need > have:
                entry = _entry_text(game, r)
                short.setdefault(i, []).append(
                    (
                        p,
                        f"round {r + 1}{entry} deals {each} to each of {seats} hands: {need} cards; "
                        f"the deck has {have}",
                    )
                )
                bad.add(p)
                continue
            aside, dealt, rest = each * (seats - p), each * p, have - need
            each_text = str(each)
        if rule.rest is not None:
            fate = f"{rest} to {game.zones[rule.rest].name}" if rest else ""
            left[rule.deck] = aside
        else:
            aside += rest
            fate = ""
            left[rule.deck] = aside
        shape = (each_text, dealt, aside, f" (as {seats} players)" if seats > p else "", fate)
        per_round = shapes.setdefault(i, {}).setdefault(p, [])
        if shape not in per_round:
            per_round.append(shape)


def _shape_text(shapes: list[tuple]) -> str:
    """Round shapes of one deal as text; values that vary by round joined with "/": 9/6/3 each."""
    fields = list(zip(*shapes, strict=True))

    def joined(k: int) -> str:
        values = list(dict.fromkeys(str(v) for v in fields[k]))
        return "/".join(values)

    text = f"{joined(0)} each, {joined(1)} dealt" if any(fields[0]) else f"{joined(1)} dealt"
    if any(fields[2]):
        text += f", {joined(2)} aside{joined(3)}"
    if any(fields[4]):
        text += f", {joined(4)}"
    return text


def _entry_text(game: Game, r: int) -> str:
    """`` (schedule size, entry 1)`` when a schedule is in force."""
    if not game.schedules:
        return ""
    name, values, _ = game.schedules[0]
    return f" (schedule {name}, entry {r % len(values) + 1})"


def _report_deals(game, counts, shapes, short, report: Report) -> None:
    """One finding per deal line: an error where the deck runs short, else what it deals (info)."""
    ir_deals = game.ir["round"]["deals"]
    for i, rule in enumerate(game.deals):
        where = at(ir_deals[i])
        if i in short:
            failing = sorted({p for p, _ in short[i]})
            why = short[i][0][1]
            fine = [c for c in counts if c not in failing]
            hint = "deal fewer cards, add cards, or narrow the player range"
            if fine and max(fine) < min(failing):
                hint = (
                    f"the deck is enough for at most {max(fine)} players: write "
                    f"`players {game.min_players}..{max(fine)}`, or deal fewer cards"
                )
            severity = "warning" if "leave a hand empty" in why else "error"
            report.add(
                Finding(
                    severity,
                    "deck-too-small" if severity == "error" else "empty-hand",
                    f"with {_counts(failing)} players the deal cannot be made: {why}",
                    where,
                    hint,
                )
            )
            continue
        parts = [f"{p}: " + _shape_text(shapes[i][p]) for p in counts if p in shapes.get(i, {})]
        if parts:
            deck = game.zones[rule.deck].name
            sizes = {p: deck_sizes(game, p)[rule.deck] for p in counts}
            size = _sizes_text(sizes)
            report.add(
                Finding(
                    "info",
                    "deal",
                    f"deals from '{deck}' ({size}) to {game.zones[rule.zone].name}, by players: " + " | ".join(parts),
                    where,
                )
            )


def _report_uncapped_schedules(game: Game, report: Report) -> None:
    """A game that ends on a condition, with no cap of rounds, may outlast a schedule not repeated."""
    if game.rounds is not None:
        return
    for s, (name, values, repeated) in zip(game.ir["schedules"], game.schedules, strict=True):
        if not repeated:
            report.add(
                Finding(
                    "warning",
                    "schedule-length",
                    f"schedule '{name}' lists {len(values)} entries, but the game ends on a condition, with no "
                    f"cap of rounds: a game that reaches round {len(values) + 1} stops with an error",
                    at(s),
                    f"end the line with `repeated`, or cap the game: `rounds {len(values)}`",
                )
            )


def _sizes_text(sizes: dict[int, int]) -> str:
    """`52 cards`, or when copy counts depend on the players `9/11 cards for 3/4 players`."""
    values = list(dict.fromkeys(sizes.values()))
    if len(values) == 1:
        return f"{values[0]} cards"
    return f"{'/'.join(map(str, sizes.values()))} cards for {'/'.join(map(str, sizes))} players"


def _report_schedules(game: Game, sched_rounds: dict[str, dict[int, int]], report: Report) -> None:
    """A schedule longer than the game (entries never used) or, not repeated, shorter than it."""
    for s, (name, values, repeated) in zip(game.ir["schedules"], game.schedules, strict=True):
        length = len(values)
        by_rounds: dict[int, list[int]] = {}
        for p, rounds in sched_rounds.get(name, {}).items():
            by_rounds.setdefault(rounds, []).append(p)
        for rounds, ps in sorted(by_rounds.items()):
            who = f"with {_counts(ps)} players " if len(by_rounds) > 1 else ""
            if length > rounds:
                report.add(
                    Finding(
                        "warning",
                        "schedule-length",
                        f"schedule '{name}' lists {length} entries, but the game {who}has {rounds} rounds: "
                        f"the last {length - rounds} are never used",
                        at(s),
                        f"make the schedule and the rounds agree: drop entries, or `rounds {length}`"
                        + (", or write the repeating part once and add `repeated`" if not repeated else ""),
                    )
                )
            elif not repeated and length < rounds:
                report.add(
                    Finding(
                        "error",
                        "schedule-length",
                        f"schedule '{name}' lists {length} entries, but the game {who}has {rounds} rounds: "
                        f"round {length + 1} has none",
                        at(s),
                        "add entries, end the line with `repeated`, or make the rounds agree",
                    )
                )


def _repeated_values(ir: dict[str, Any], report: Report) -> None:
    """`color red | blue | violet | red`: a value listed twice in one attribute of a card line makes
    every card with it twice (the copies multiply), silently; `red x2` says so when it is meant."""
    for deck in ir["decks"]:
        for line in deck["cards"]:
            for attribute in line.get("attributes", []):
                listed = Counter(v["value"] for v in attribute["values"])
                for value, times in listed.items():
                    if times < 2:
                        continue
                    shown = "twice" if times == 2 else f"{times} times"
                    report.add(
                        Finding(
                            "warning",
                            "repeated-value",
                            f"attribute {attribute['name']} lists {value!r} {shown}: every card with it "
                            f"comes {shown} as often",
                            _value_place(at(line), attribute["name"], value),
                            f"list each value once; write `{value} x{times}` if {times} copies are meant",
                        )
                    )


def _value_place(line: Span | None, name: str, value: Any) -> Span | None:
    """Where a repeated value is written again on its card line (its last mention after the
    attribute's name); the line's start when the text is not at hand."""
    text = source_line(line.file, line.line) if line else None
    if line is None or text is None:
        return line
    start = re.search(rf"\b{re.escape(name)}\b", text[line.col - 1 :])
    if start is None:
        return line
    after = line.col - 1 + start.end()
    token = re.escape(str(value))
    mentions = list(re.finditer(rf'(?<![\w."]){token}(?![\w."])|"{token}"', text[after:]))
    return Span(line.file, line.line, after + mentions[-1].start() + 1) if mentions else line


def _counts(ps: list[int]) -> str:
    """3, 4 and 6 -> "3, 4 and 6"; 3..6 in a row -> "3 to 6"."""
    ps = sorted(ps)
    if len(ps) > 2 and ps == list(range(ps[0], ps[-1] + 1)):
        return f"{ps[0]} to {ps[-1]}"
    if len(ps) == 1:
        return str(ps[0])
    return ", ".join(map(str, ps[:-1])) + f" and {ps[-1]}"
