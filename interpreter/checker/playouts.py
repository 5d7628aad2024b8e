"""Dynamic checks: seeded random playouts for each player count (how many, and over which
processes: budget.py), and what their chunks found, as findings.

Every game is ``one_game.play_game(game, players, seed)`` with random agents, watched move by
move: a deadlock, an endless round, a card lost or doubled, a score that is not a number, an
engine error, or a seed that does not replay identically is reported with the seed and the
moves that reach it (a game record that `ruleset replay` plays back to the failure).
"""

from __future__ import annotations

import contextlib
import gc
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ..agents import make_agents
from ..engine.accounting import cards_accounted
from ..engine.expressions import consult_key
from ..engine.game import STUCK_END, WIN_TOGETHER, Game, compile_ir, flow_rules
from ..engine.records import dumps, record, replay
from ..errors import PlayError, RulesetError, plural
from ..language.deck_params import with_params
from ..language.limits import MAX_ROUNDS
from ..loader import ir_from_path
from ..text.move_words import move_text
from ..text.phrases import say
from .findings import Finding, Report, at

YOUNG_OBJECTS = 20_000  # objects made between two young collections of the cycle collector, while playing
REPLAY_EVERY = 50  # every 50th game is played once more and replayed from its record
MAX_EXAMPLES = 1  # failing games kept per kind of failure (per chunk)


def playout_seed(run_seed: int | None, players: int, index: int) -> int:
    """The seed of game ``index`` with ``players`` players: the same in any process, whatever --jobs."""
    return random.Random(f"check/{run_seed}/{players}/{index}").randrange(2**31)


Sets = tuple[tuple[str, Any], ...]  # the parameters given (--set), sorted: a deck may read them
_GAMES: dict[tuple[str, int | None, Sets], Game] = {}  # (path, bound on a round's moves, sets) -> the Game


def _game(path: str, max_moves: int | None, sets: Sets = ()) -> Game:
    """A worker's own Game, compiled with rule coverage, loaded once per process (its deck laid
    out with the parameters ``sets``, when it reads them)."""
    key = (path, max_moves, sets)
    if key not in _GAMES:
        _GAMES[key] = compile_ir(
            with_params(ir_from_path(path), dict(sets)), coverage=True, max_moves=max_moves, consults=True
        )
    return _GAMES[key]


def prepare(path: str, max_moves: int | None, ir: dict[str, Any] | None = None, sets: Sets = ()) -> None:
    """Compile the playouts' Game now, from ``ir`` (the IR the static checks read: the file is not
    read again) or else the file, in the process that starts the workers: a forked worker starts
    with it (under spawn a worker reads the file itself)."""
    if ir is None:
        _game(path, max_moves, sets)
    else:
        laid = with_params(ir, dict(sets))
        _GAMES[(path, max_moves, sets)] = compile_ir(laid, coverage=True, max_moves=max_moves, consults=True)


def run_chunk(task: tuple[str, dict[str, Any], int, int, int, int | None, int | None, int | None]) -> dict[str, Any]:
    """Play games ``start..stop`` with ``players`` players, or fewer: once they have played ``share``
    moves (a count's share of a budget, when not None), the chunk ends; what they found, and rule
    coverage."""
    path, sets, players, start, stop, run_seed, max_moves, share = task
    game = _game(path, max_moves, tuple(sorted(sets.items())))
    assert game.coverage is not None
    game.coverage.clear()
    failures: dict[tuple[str, str], dict[str, Any]] = {}
    counts: Counter = Counter()
    moves_total = max_moves = 0
    played = start
    with _fewer_collections():
        for index in range(start, stop):
            if share is not None and moves_total >= share:  # (games so long that the share is spent)
                break
            played = index + 1
            seed = playout_seed(run_seed, players, index)
            moves, failure, state = play_checked(game, players, seed, sets)
            moves_total += moves
            max_moves = max(max_moves, moves)
            if failure is None and index % REPLAY_EVERY == 0:
                counted = game.coverage.snapshot()  # (the second play and the replay are no playouts: not counted)
                failure = replays_identically(game, players, seed, sets, state)
                game.coverage.restore(counted)
            if failure is not None:
                key = (failure["code"], failure.get("at") or "")
                counts[key] += 1
                if key not in failures:
                    failures[key] = _shown(failure)
    return {
        "players": players,
        "start": start,
        "games": played - start,
        "moves": moves_total,
        "max_moves": max_moves,
        "coverage": dict(game.coverage),
        "failures": [dict(f, count=counts[k]) for k, f in failures.items()],
    }


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cycle collector's young generation collected after YOUNG_OBJECTS objects made, not 700:
    a game that lists hundreds of sets a turn (Cheat) makes that many moves a turn, alive until the
    next, and walking them again and again was a fifth of its time. Restored after."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], YOUNG_OBJECTS), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


FULL_CHECK_EVERY = 8  # moves between full card checks (a count is checked after every move)


def _card_count(state: Any) -> int:
    """How many cards the zones hold (piles counted card by card)."""
    n = 0
    for content in state.zones:
        if content and isinstance(content[0], list):
            n += sum(map(len, content))
        else:
            n += len(content)
    return n


def play_checked(game: Game, players: int, seed: int, sets: dict[str, Any]) -> tuple[int, dict[str, Any] | None, Any]:
    """Play one game as ``play_game`` does, checking every state; (moves played, failure or None,
    the last state: None when the deal failed)."""
    try:
        state = game.new_game(players, seed, sets)
    except PlayError as err:
        return 0, _failure(_kind(err), err.message, err.span, players, seed, None), None
    except Exception as err:  # a rule that breaks the engine is a finding, not a crash of `check`
        return 0, _failure("engine", f"{type(err).__name__}: {err}", None, players, seed, None), None
    picks = [agent.pick for agent in make_agents("random", players, seed)]  # (a random agent: the moves alone)
    total = len(game.cards) - len(game.cards.absent(players))  # the cards in play at this count
    bound = (state.rounds or MAX_ROUNDS) * game.max_moves_per_round  # (no cap: the engine's own bound)
    moves = 0
    checks = [c for c in game.checks if c.kind != "sometimes"]  # the rules' own: asserted in every state
    while not state.is_over:
        broken = _broken(checks, state, moves, players, seed) if checks else None
        if broken:
            return moves, broken, state
        legal = state.legal_moves()
        if not legal:
            return (
                moves,
                _failure("deadlock", "a player is to move but has no legal move", None, players, seed, state),
                state,
            )
        try:
            state.apply(picks[state.current_player](legal))
        except PlayError as err:
            return moves + 1, _failure(_kind(err), err.message, err.span, players, seed, state), state
        except Exception as err:
            return moves + 1, _failure("engine", f"{type(err).__name__}: {err}", None, players, seed, state), state
        moves += 1
        why = None
        if moves % FULL_CHECK_EVERY == 0 or state.is_over or _card_count(state) != total:
            why = cards_accounted(state)
        if why:
            return moves, _failure("cards", f"after move {moves}: {why}", None, players, seed, state), state
        if moves > bound:
            why = f"the game has not ended after {moves} moves ({state.round + 1} rounds)"
            return moves, _failure("endless", why, None, players, seed, state), state
    broken = _broken(checks, state, moves, players, seed) if checks else None
    if broken:
        return moves, broken, state
    bad = [t for t in state.totals if not isinstance(t, int) or isinstance(t, bool)]
    if bad:
        return moves, _failure("score", f"a total is not a number: {bad[0]!r}", None, players, seed, state), state
    return moves, None, state


def _broken(checks: list, state: Any, moves: int, players: int, seed: int) -> dict[str, Any] | None:
    """The failure of the first `always` or `never` check this state breaks, or None."""
    for c in checks:
        try:
            if not c.broken(state):
                continue
        except PlayError as err:
            return _failure("check", err.message, err.span, players, seed, state)
        words = f"`{c.kind} {say(c.node)}`"
        return _failure("check", f"{words} is broken after move {moves}", c.at, players, seed, state)
    return None


def replays_identically(game: Game, players: int, seed: int, sets: dict[str, Any], first: Any) -> dict[str, Any] | None:
    """None when the same seed plays the same game again (``first`` is the game it played, the
    checked playout) and its record replays; else the failure."""
    from ..simulation.one_game import play_game

    second = play_game(game, players, seed, "random", sets)
    a, b = dumps(record(first)), dumps(record(second))
    if a != b:
        return _failure("nondeterministic", "the same seed played a different game", None, players, seed, first)
    try:
        replay(game, record(first))
    except RulesetError as err:
        return _failure("replay", f"the game's record does not replay: {err.message}", None, players, seed, first)
    return None


def _kind(err: PlayError) -> str:
    """The kind of an engine stop, from its message."""
    if "nobody can move" in err.message:
        return "deadlock"
    if "has not ended after" in err.message:
        return "endless"
    if "score rule gave" in err.message:
        return "score"
    return "play"


def _failure(code: str, message: str, span: Any, players: int, seed: int, state: Any) -> dict[str, Any]:
    """A failing game: what went wrong, where in the rules, and its final state (see ``_shown``)."""
    out: dict[str, Any] = {"code": code, "message": message, "players": players, "seed": seed, "state": state}
    if span is not None:
        out["at"] = str(span)
    return out


def _shown(failure: dict[str, Any]) -> dict[str, Any]:
    """A failure kept for the report: how to get there again, its moves and record in place of its
    state (made only for the first game of each kind: a rule that fails every game costs no more)."""
    out = dict(failure)
    state = out.pop("state")
    if state is not None:
        players = out["players"]
        rec = record(state, ["random"] * players)
        rounds = enumerate(rec["rounds"], 1)  # in the words of `play`, read by no seat: `r2 seat 1: bid 3`
        out["moves"] = [f"r{r} {move_text(state.game, m, -1, players)}" for r, rnd in rounds for m in rnd["moves"]]
        out["record"] = rec
    return out


# ---- the findings of the playouts ---------------------------------------------------------------
def report_playouts(game: Game, results: list[dict[str, Any]], stops: dict[int, str | None], report: Report) -> None:
    """Report what the playouts' chunks found: failures (with seed and moves), the figures of each
    player count (``stops``: count -> why its playouts stopped) and rule coverage."""
    coverage: Counter = Counter()
    failures: dict[tuple[str, str], dict[str, Any]] = {}
    for r in results:
        coverage.update(r["coverage"])
        for f in r["failures"]:
            key = (f["code"], f.get("at", ""))
            if key in failures:
                failures[key]["count"] += f["count"]
            else:
                failures[key] = dict(f)
    counts = list(stops)
    for p, stop in stops.items():
        mine = [r for r in results if r["players"] == p]
        n = sum(r["games"] for r in mine)
        report.playouts.append(
            {
                "players": p,
                "games": n,
                "moves_per_game": sum(r["moves"] for r in mine) / n if n else 0.0,
                "max_moves": max((r["max_moves"] for r in mine), default=0),
                "failed": sum(f["count"] for r in mine for f in r["failures"]),
                **({"stopped": stop} if stop else {}),
            }
        )
    total = sum(r["games"] for r in results)
    failed = sum(f["count"] for f in failures.values())
    _report_failures(failures, total, report)
    _report_coverage(game, coverage, total, counts, report, dead_rules=failed * 10 <= total)
    _report_never_lost(
        game, coverage.get((game.ir["game"].get("all_win") or {}).get("at", ""), 0), total - failed, report
    )


HINTS = {
    "deadlock": "a phase whose `ends when` does not hold while nobody can move: loosen a guard, or end the phase",
    "endless": "a phase that never ends: check its `ends when` and that its moves use cards up; if the game's "
    "rounds are only long, say so: `max moves per round N` in the game section (or try --max-moves N)",
    "cards": "an effect that moves a card it should not: see the moves listed",
    "score": "every scoring rule must give a whole number",
    "engine": "a rule computes something impossible (for example arithmetic on none): see the moves listed",
    "nondeterministic": "all chance must come from the game's seed",
    "replay": "the record of a game must replay through the same rules",
    "play": "see the moves listed",
    "check": "one of the rules' own checks: see the moves listed; `ruleset verify` finds the shortest such game",
}


def _report_failures(failures: dict[tuple[str, str], dict[str, Any]], total: int, report: Report) -> None:
    """One error per kind of failure and rule position, with the first failing game."""
    for f in failures.values():
        replay_info = {k: f[k] for k in ("players", "seed", "moves", "record") if k in f}
        report.add(
            Finding(
                "error",
                f["code"],
                f"{f['message']} (in {f['count']} of {total} playouts; "
                f"first: {f['players']} players, seed {f['seed']})",
                at({"at": f.get("at")}),
                HINTS.get(f["code"]),
                replay=replay_info,
            )
        )


def rule_positions(ir: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    """Every rule that coverage counts: (position key, kind, the node's note)."""
    out = []
    for deck in ir["decks"]:
        for line in deck["cards"]:
            if line.get("achieved"):
                out.append((line["achieved"]["at"], "objective", line.get("note")))
    for ph in ir["round"]["phases"]:
        for m in ph["moves"]:
            for g in m["guards"]:
                out.append((g["at"], f"{g['kind']} guard", g.get("note")))
        for t in ph["triggers"]:
            out.append((t["at"], "trigger", t.get("note")))
        if ph.get("ends"):
            out.append((ph["ends"]["at"], "phase end", ph["ends"].get("note")))
    for r in ir["round"]["score"]:
        out.append((r["at"], "scoring rule", r.get("note")))
    out += [(node["at"], kind, node.get("note")) for node, kind in flow_rules(ir) if node.get("at")]
    out += [(c["at"], SOMETIMES, c.get("note")) for c in ir.get("checks", ()) if c["kind"] == "sometimes"]
    return out


SOMETIMES = "sometimes check"  # a `sometimes C` of the checks section: counted each time it holds


def _report_coverage(
    game: Game, coverage: Counter, total: int, counts: list[int], report: Report, dead_rules: bool
) -> None:
    """Coverage by rule; a rule that never fired is a warning ("dead rule?"), unless a static finding
    on its line already says why, or so many playouts failed that coverage says little."""
    players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    explained = {(f.at.file, f.at.line) for f in report.findings if f.at and f.severity != "info"}
    unasked = _unconsulted(game.ir, coverage)
    for key, kind, note in rule_positions(game.ir):
        n = coverage.get(key, 0)
        report.coverage.append({"at": key, "kind": kind, "count": n})
        where = at({"at": key})
        consulted = kind != STUCK_END  # (that end is read only when nobody can move: rare is its purpose)
        silent = n == 0 and consulted and total and dead_rules and where and (where.file, where.line) not in explained
        if silent and key in unasked:
            report.add(
                Finding(
                    "warning",
                    "never-consulted",
                    f"this {kind} was never consulted in {total} random playouts ({players} players): " + unasked[key],
                    where,
                    "a move is legal when any allow holds and every require does: this guard only counts when the "
                    "others leave the move undecided; remove it or narrow the others, or if that is only rare, "
                    "play more games (--games)",
                    note,
                )
            )
        elif silent:
            report.add(
                Finding(
                    "warning",
                    "dead-rule",
                    f"dead rule? this {kind} never {_fired(kind)} in {plural(total, 'random playout')} "
                    f"({players} players)",
                    where,
                    "a rule that never applies is often a mistake in its condition; if it is only rare, "
                    "play more games (--games)",
                    note,
                )
            )


def _report_never_lost(game: Game, won: int, finished: int, report: Report) -> None:
    """A cooperative game the players won in every finished playout: its condition always held (one
    it never held in is a dead rule, reported with the others)."""
    node = game.ir["game"].get("all_win")
    if node is None or not finished or won < finished:
        return
    report.add(
        Finding(
            "warning",
            "never-lost",
            f"the players won together in all {plural(finished, 'finished random playout')}: "
            "this condition always held, so the game cannot be lost",
            at(node),
            "a cooperative game needs a way to lose: make the condition harder to meet; if losing is only "
            "rare, play more games (--games)",
            node.get("note"),
        )
    )


def _unconsulted(ir: dict[str, Any], coverage: Counter) -> dict[str, str]:
    """The guards that never held because they were never consulted (`check` counts consultations),
    while another guard of the same move held: position -> why (not dead rules: never asked)."""
    out = {}
    for ph in ir["round"]["phases"]:
        for m in ph["moves"]:
            held = [g for g in m["guards"] if coverage.get(g["at"], 0)]
            for g in m["guards"]:
                if held and not coverage.get(g["at"], 0) and not coverage.get(consult_key(g["at"]), 0):
                    out[g["at"]] = (
                        "another `allow` of this move always held first, so it never had to"
                        if g["kind"] == "allow"
                        else "the move was always decided by its other guards first"
                    )
    return out


def _fired(kind: str) -> str:
    held = {
        "phase end": "held",
        "round end": "held",
        "game end": "held",
        WIN_TOGETHER: "held",
        "repeat's until": "held",
        STUCK_END: "held",
        SOMETIMES: "held",
    }
    return {"objective": "was achieved", "scoring rule": "scored", **held}.get(
        kind, "held" if "guard" in kind else "fired"
    )
