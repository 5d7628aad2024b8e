"""An exploration's result in words and as JSON; each broken property with its counterexample:
the shortest game that breaks it, replayed from its deal, in the words every tool uses, and as
a game record (its deals written out, so `ruleset replay` lays them out as they were)."""

from __future__ import annotations

import contextlib
from collections import deque
from typing import Any

from ..engine.records import record
from ..engine.state import State
from ..errors import RulesetError, plural
from ..text.move_words import card_name, move_text, zone_label
from .chance import Scripted, outcomes
from .encode import Encoder
from .explore import Result, Step
from .properties import Failure


def rebuild(result: Result, steps: list[Step]) -> Any:
    """The state the steps reach from their deal (the first step's orders)."""
    game, classes = result.game, result.classes
    state = game.new_game(result.players, None, result.params, chance=Scripted(steps[0][1], classes))
    for move, script in steps[1:]:
        play(state, move, script, classes)
    return state


def play(state: Any, move: Any, script: tuple, classes: tuple[int, ...]) -> None:
    """Play ``move`` on ``state`` with its shuffles in the orders ``script`` gives."""
    state.rng = Scripted(script, classes, state)
    state.apply(move)


def counterexample(result: Result, failure: Failure) -> dict[str, Any] | None:
    """The game that breaks a property: its record, its moves in words and how many of them
    lead to the state (or the move) that breaks it; None when there is no game to show (a
    `sometimes` never met, a deal the rules cannot make)."""
    if failure.state < 0 and failure.step is None:
        return None
    graph = result.graph
    note = None
    if failure.state < 0:  # the deal itself breaks it (the rules stop before anyone moves)
        state, upto, failure = dealt(result, failure.step[1]), 0, Failure(failure.kind, "", None, -1)
        if state is None:
            return None
    else:
        steps = graph.path(failure.state)
        state = rebuild(result, steps)
        upto = len(steps) - 1
    if failure.loop:
        for v, w in zip(failure.loop, [*failure.loop[1:], failure.loop[0]], strict=True):
            move, script = edge(result, v, w)
            play(state, move, script, result.classes)
        note = f"moves {upto + 1} to {upto + len(failure.loop)} come back to the situation after move {upto}"
    if failure.step is not None:  # the move that breaks it: played, and its failure kept in the record
        move, script = failure.step
        with contextlib.suppress(Exception):  # (the failure itself: the record ends with the move that fails)
            play(state, move, script, result.classes)
        upto += 1
    elif not state.over and failure.state >= 0:
        with contextlib.suppress(RulesetError):
            finish(result, state)
    rec = record(state)
    players = result.players
    words = []
    played = 0  # the line of the state (or the move) that breaks the property is marked
    for r, rnd in enumerate(rec["rounds"], 1):
        words.append(f"r{r} deal: {deal_words(result.game, rnd['deal'], players)}" + (MARK if upto == 0 else ""))
        for m in rnd["moves"]:
            played += 1
            words.append(f"r{r} {move_text(result.game, m, -1, players)}" + (MARK if played == upto else ""))
    return {"record": rec, "moves": words, "after": upto, "note": note, "finished": state.over}


MARK = "   <- here"


def dealt(result: Result, script: tuple) -> Any:
    """The state a deal the rules stop at was left in (the game being set up when they stopped),
    or None. The state is made first and set up after, so that it is at hand when its set-up
    fails (the compiled engine's frames keep no locals to find it in)."""
    state = State.__new__(State)
    try:
        state.__init__(result.game, result.players, None, result.params, chance=Scripted(script, result.classes))
    except RulesetError:
        if getattr(state, "history", None):
            return state
    return None


def deal_words(game: Any, deal: dict[str, Any], players: int) -> str:
    """A recorded deal in words: ``hand of seat 0: card 7 hearts, card 2 clubs; ...``."""
    parts = []
    for name, value in deal.items():
        spec = game.zones[game.zone_index[name]]
        lists = value if (spec.per_player or spec.count > 1) else [value]
        for i, cards in enumerate(lists):
            if cards:
                where = zone_label(game, name, i, -1, players)
                parts.append(f"{where}: {', '.join(card_name(c) for c in cards)}")
    return "; ".join(parts) or "nothing"


def edge(result: Result, v: int, w: int) -> tuple[Any, tuple]:
    """A move (and its shuffles' orders) that leads from state ``v`` to state ``w``."""
    state = rebuild(result, result.graph.path(v))
    encoder = Encoder(result.game, result.classes, result.players)
    for move in state.legal_moves():
        for script, child in outcomes(_trying(state, move), result.classes, len(result.keys) + 1):
            if child is not None and result.keys.get(encoder.key(child)) == w:
                return move, script
    raise AssertionError(f"no move leads from state {v} to state {w}")  # (the graph says one does)


def finish(result: Result, state: Any) -> None:
    """Play ``state`` on to the end of the game by the fewest moves the explored graph knows."""
    graph = result.graph
    back: list[list[int]] = [[] for _ in graph.succ]
    for v, kids in enumerate(graph.succ):
        for w in kids:
            back[w].append(v)
    dist = {v: 0 for v in range(len(graph.over)) if graph.over[v]}
    queue = deque(dist)
    while queue:
        w = queue.popleft()
        for v in back[w]:
            if v not in dist:
                dist[v] = dist[w] + 1
                queue.append(v)
    encoder = Encoder(result.game, result.classes, result.players)
    for _ in range(len(graph.over)):
        if state.over:
            return
        best = None
        for move in state.legal_moves():
            for script, child in outcomes(_trying(state, move), result.classes, len(result.keys) + 1):
                d = dist.get(result.keys.get(encoder.key(child), -1)) if child is not None else None
                if d is not None and (best is None or d < best[0]):
                    best = (d, move, script)
        if best is None:
            return
        play(state, best[1], best[2], result.classes)


def _trying(state: Any, move: Any) -> Any:
    def run(rng: Scripted) -> Any:
        child = state.copy(chance=rng, log=False)
        rng.state = child
        try:
            child.apply(move)
        except RulesetError:
            return None
        return child

    return run


# ---- words ---------------------------------------------------------------------------------------
def summary_lines(result: Result) -> list[str]:
    """The figures of an exploration: deals, states, depth, time, and what was cut off."""
    rate = result.states / result.seconds if result.seconds else 0.0
    params = " ".join(f"{k}={v}" for k, v in result.params.items())
    out = [
        f"{result.game.name}, {result.players} players" + (f" ({params})" if params else ""),
        f"  {plural(result.deals, 'distinct deal')} (of {result.orders:,} orders of the decks, alike cards alike); "
        f"{result.states:,} states reached, {result.distinct:,} distinct; depth {result.depth}",
        f"  {result.seconds:.1f} s, {rate:,.0f} states/s",
    ]
    out.append("  cut off: " + result.cut if result.cut else "  every reachable state explored")
    return out


def format_text(result: Result, examples: dict[int, dict[str, Any]], written: str | None) -> str:
    """The report: the figures, each property (ok, FAIL, or not broken in the part explored), each
    counterexample, the rules never reached."""
    lines = summary_lines(result)
    broken = {f.kind for f in result.failures if f.kind in {k for k, _, at in result.properties if at is None}}
    broken_at = {f.at for f in result.failures if f.at}
    lines.append("properties:")
    for name, words, at in result.properties:
        bad = (at is None and name in broken) or (at is not None and at in broken_at)
        mark = "FAIL" if bad else "ok  " if result.complete else "ok? "
        lines.append(f"  {mark} {words}" + (f"  ({at})" if at else ""))
    if not result.complete and not result.failures:
        lines.append("  (ok?: not broken in the part explored, which is not the whole space)")
    for i, f in enumerate(result.failures):
        lines.append("")
        lines.append(f"{f.at + ': ' if f.at else ''}error: {f.kind}: {f.message}")
        ex = examples.get(i)
        if ex is None:
            continue
        ending = "; the game then played to its end" if ex["finished"] and f.step is None and not f.loop else ""
        if ex["after"] == 0 and f.step is None:
            lines.append("  the deal that breaks it, before anyone moves:")
        else:
            lines.append(f"  the shortest game that breaks it: {plural(ex['after'], 'move')}{ending}")
        if ex["note"]:
            lines.append(f"  ({ex['note']})")
        lines += [f"    {w}" for w in ex["moves"]]
        if not ex["finished"] and f.step is None:
            lines.append("  (the game cannot be played to its end from there: its record stops where it does)")
        if written:
            lines.append(f"  its record: {written}, line {ex['line']} (ruleset replay {written} --seat 0)")
    if result.unreached:
        exact = "exact for this instance" if result.complete else "in the part explored only"
        lines.append("")
        lines.append(f"rules no state reached ({exact}):")
        lines += [f"  {at}: {kind}" + (f"  ({note})" if note else "") for at, kind, note in result.unreached]
    return "\n".join(lines)


def to_json(result: Result, examples: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The report as JSON."""
    failures = []
    for i, f in enumerate(result.failures):
        item: dict[str, Any] = {"property": f.kind, "message": f.message, "at": f.at}
        if i in examples:
            ex = examples[i]
            item.update({"after": ex["after"], "moves": ex["moves"], "record": ex["record"]})
        failures.append(item)
    return {
        "ruleset": result.game.name,
        "players": result.players,
        "params": result.params,
        "deals": result.deals,
        "orders": result.orders,
        "states": result.states,
        "distinct": result.distinct,
        "depth": result.depth,
        "seconds": round(result.seconds, 3),
        "complete": result.complete,
        "cut": result.cut,
        "properties": [{"property": n, "words": w, "at": at} for n, w, at in result.properties],
        "failures": failures,
        "unreached": [{"at": at, "kind": kind} for at, kind, _ in result.unreached],
        "exit_code": result.exit_code,
    }
