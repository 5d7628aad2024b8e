"""A human seat at the terminal: plain text on stdout, moves typed on stdin.

The screen shows only what the seat may see (its observation): its own zones, public zones with
their derived values, counts of hidden zones, scores, whose turn it is and the moves as they
happen. Also the viewer of `ruleset replay --seat K`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TextIO

from ..agents import SeatView, make_agents
from ..engine.expr_analysis import zone_pure
from ..engine.observe import sees

HELP = "type a move's number or a card's name; ? shows the rules of this phase; q quits"


def card_name(card: dict[str, Any] | None) -> str:
    """A card as a person reads it: its type, then its attribute values."""
    if card is None:
        return "a hidden card"
    return " ".join([card["type"], *(str(v) for k, v in card.items() if k != "type")])


def zone_label(game: Any, name: str, index: int, seat: int, players: int) -> str:
    """``pot 2``, ``hand of seat 1``, ``your hand``, ``trick``."""
    spec = game.zones[game.zone_index[name]]
    if spec.per_player:
        return f"your {name}" if index == seat else f"{name} of seat {index}"
    return f"{name} {index + 1}" if spec.count > 1 else name


def move_text(game: Any, m: dict[str, Any], seat: int, players: int) -> str:
    """A move as seen by ``seat``: who, which move, which card, where to."""
    who = "you" if m["player"] == seat else f"seat {m['player']}"
    where = zone_label(game, m["to"]["zone"], m["to"]["index"], seat, players)
    return f"{who}: {m['move']} {card_name(m['card'])} to {where}"


def masked(state: Any, seat: int | None) -> Any:
    """A copy of the state where every zone the seat cannot see is empty (seat None: every
    seat's view at once, only the zones nobody sees are emptied)."""
    game, lay = state.game, state.layout
    copy = state.copy()
    for i in range(lay.size):
        if (game.zones[lay.zone_of[i]].visibility == "hidden") if seat is None else not sees(game, lay, i, seat):
            copy.zones[i] = []
    copy.cache.clear()
    return copy


@cache
def own_zone_defines(game: Any) -> frozenset[str]:
    """The `define ... of ZONE` that read nothing but that zone's cards: shown for a zone the seat
    sees, they tell nothing hidden, so they need no masked state."""
    return frozenset(d["name"] for d in game.ir["defines"] if d.get("of") and zone_pure(d["body"]))


def derived(state: Any, seat: int | None, inst: int, view: Any = None) -> list[str]:
    """The derived values of a zone instance the seat sees (its `define ... of` values, sums of
    number attributes). A definition that reads more than its zone is evaluated on ``view``, the
    state masked for the seat (made here when not given), so nothing hidden shows.
    """
    game, lay = state.game, state.layout
    name = game.zones[lay.zone_of[inst]].name
    out = []
    own = own_zone_defines(game)
    for dname, (of, fn) in game.extra.get("defines", {}).items():
        if of == name:
            if dname not in own and view is None:
                view = masked(state, seat)
            value = fn(state if dname in own else view, inst)
            out.append(f"{dname} {'none' if value is None else value}")
    cards = state.zone_cards(inst)
    for attr, info in game.ir["attributes"].items():
        values = [game.cards.attrs[attr][c] for c in cards]
        if info.get("kind") == "number" and any(v is not None for v in values):
            out.append(f"sum of {attr} {sum(v for v in values if v is not None)}")
    return out


def screen(state: Any, seat: int) -> str:
    """What ``seat`` sees now, as text."""
    game, lay = state.game, state.layout
    obs = state.observe(seat)
    lines = [
        f"=== {game.name}: round {obs['round']} of {obs['rounds']}, dealer seat {obs['dealer']}, "
        f"phase {obs['phase']} ===",
        "scores: " + "   ".join(f"{'you' if p == seat else f'seat {p}'} {t}" for p, t in enumerate(obs["totals"])),
    ]
    for name, views in obs["zones"].items():
        z = game.zone_index[name]
        if z >= len(game.ir["zones"]):  # a deck's own zone: cards not in play
            continue
        for inst, view in zip(lay.instances[z], views, strict=True):
            label = zone_label(game, name, lay.number[inst], seat, state.n)
            if isinstance(view, dict):
                lines.append(f"{label}: {view['count']} card(s), hidden")
                continue
            if game.zones[z].piles:
                text = " | ".join(", ".join(card_name(c) for c in pile) for pile in view) or "empty"
                lines.append(f"{label}: {len(view)} pile(s): {text}")
            else:
                text = ", ".join(card_name(c) for c in view) or "empty"
                extra = derived(state, seat, inst) if view else []
                lines.append(f"{label}: {text}" + (f"   [{'; '.join(extra)}]" if extra else ""))
    if obs["vars"]:
        shown = []
        for name, value in obs["vars"].items():
            shown.append(f"{name} {value}")
        lines.append("variables: " + ", ".join(shown))
    if obs["last_moves"]:
        lines.append("last moves: " + "; ".join(move_text(game, m, seat, state.n) for m in obs["last_moves"]))
    return "\n".join(lines)


def moves_seen(state: Any, seat: int, round_index: int) -> list[dict[str, Any]]:
    """The moves of a round as ``seat`` saw them (a round still going: see observe.py)."""
    if round_index == state.round and not state.over:
        return state.observe(seat)["moves"]
    game, lay, cards = state.game, state.layout, state.game.cards.json
    return [
        {
            "player": p,
            "move": game.moves[m.rule].name,
            "card": cards[m.card] if p == seat or sees(game, lay, m.target, seat) else None,
            "to": {"zone": game.zones[lay.zone_of[m.target]].name, "index": lay.number[m.target]},
        }
        for p, m in state.history[round_index]["moves"]
    ]


def score_table(state: Any, seat: int, round_index: int) -> str:
    """The scoring of a finished round: each seat's points and total."""
    scores = state.history[round_index]["scores"]
    lines = [f"--- round {round_index + 1} scored ---", f"{'seat':<10}{'round':>8}{'total':>8}"]
    totals = [0] * state.n
    for r in state.history[: round_index + 1]:
        totals = [t + s for t, s in zip(totals, r.get("scores", [0] * state.n), strict=True)]
    for p in range(state.n):
        who = f"{p} (you)" if p == seat else str(p)
        lines.append(f"{who:<10}{scores[p]:>8}{totals[p]:>8}")
    return "\n".join(lines)


def final_table(state: Any, seat: int) -> str:
    """The end of the game: totals and winners."""
    win = state.winners()
    names = ", ".join("you" if p == seat else f"seat {p}" for p in win)
    return f"=== game over: totals {state.totals}; winner(s): {names} ==="


def phase_rules(game: Any, phase_index: int) -> str:
    """The rules text of a phase, from its .rules file (or its moves, when the file is not at hand)."""
    ph = game.phases[phase_index]
    try:
        file, line = ph.at.rsplit(":", 2)[0], int(ph.at.rsplit(":", 2)[1])
        lines = Path(file).read_text("utf-8").splitlines()
    except (OSError, ValueError, IndexError):
        return f"phase {ph.name}: moves " + ", ".join(m.name for m in ph.moves)
    start = line - 1
    indent = len(lines[start]) - len(lines[start].lstrip())
    out = [lines[start]]
    for text in lines[start + 1 :]:
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        out.append(text)
    return "\n".join(out).rstrip()


class Quit(Exception):
    """The player asked to stop (q, end of input)."""


def ask(state: Any, seat: int, inp: TextIO, say: Callable[[str], None]) -> Any:
    """Show the seat's legal moves, numbered, and read a choice until it is a legal move."""
    game = state.game
    moves, texts = [], []
    for mv in state.legal_moves():  # copies of a card make the same move: list it once
        d = state.describe(mv)
        where = zone_label(game, d["to"]["zone"], d["to"]["index"], seat, state.n)
        text = f"{d['move']} {card_name(d['card'])} to {where}"
        if text not in texts:
            moves.append(mv)
            texts.append(text)
    say("your moves:")
    for i, t in enumerate(texts, 1):
        say(f"  {i:>2}) {t}")
    while True:
        say(f"your move, seat {seat} (1-{len(moves)}, a card's name, ? or q)> ")
        line = inp.readline()
        if not line:
            raise Quit("end of input")
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit("you quit")
        if text in ("?", "help"):
            say(phase_rules(game, state.phase))
            say(HELP)
            continue
        if text.isdigit():
            k = int(text)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            say(f"there is no move {k}: type a number from 1 to {len(moves)}")
            continue
        words = text.split()
        hits = sorted({i for i, t in enumerate(texts) if words and all(w in t.lower().split() for w in words)})
        if len(hits) == 1:
            return moves[hits[0]]
        if hits:
            say("which one? " + ", ".join(str(i + 1) for i in hits))
        else:
            say(f"not a move: {line.strip()!r}; {HELP}")


def play(
    game: Any,
    players: int,
    seat: int,
    agents: str | None,
    seed: int | None,
    params: dict[str, Any] | None,
    inp: TextIO,
    out: TextIO,
) -> tuple[Any, bool]:
    """Play one game with a person at ``seat``; returns the State and whether it finished."""

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    state = game.new_game(players, seed, params)
    bots = make_agents(_bot_spec(agents, players, seat), players, seed)
    say(f"{game.name}: {players} players; you are seat {seat}. " + HELP)
    shown, rnd = 0, 0
    try:
        while not state.is_over:
            p = state.current_player
            if p == seat:
                say("")
                say(screen(state, seat))
                move = ask(state, seat, inp, say)
            else:
                move = bots[p].choose(SeatView(state, p))
            state.apply(move)
            shown, rnd = report(state, seat, shown, rnd, say, [b.name for b in bots])
    except Quit as why:
        say(f"{why}: the game is left unfinished")
        return state, False
    say(final_table(state, seat))
    return state, True


def report(
    state: Any, seat: int, shown: int, rnd: int, say: Callable[[str], None], names: list[str]
) -> tuple[int, int]:
    """Print the moves ``seat`` saw since the last report, and each round's scoring; the new position."""
    while True:
        seen = moves_seen(state, seat, rnd)
        for m in seen[shown:]:
            by = "" if m["player"] == seat else f"  ({names[m['player']]})"
            say("  " + move_text(state.game, m, seat, state.n) + by)
        shown = len(seen)
        if rnd == state.round and not state.over:
            return shown, rnd
        say(score_table(state, seat, rnd))
        rnd, shown = rnd + 1, 0
        if rnd >= len(state.history):
            return shown, rnd


def replay_as(game: Any, rec: dict[str, Any], seat: int, out: TextIO) -> Any:
    """Step through a record as ``seat`` saw it: its screen before each of its moves, the moves it saw."""
    from ..engine.records import find_move
    from ..errors import RecordError

    def say(text: str) -> None:
        out.write(text + "\n")

    if not 0 <= seat < rec["players"]:
        raise RecordError(f"--seat must be from 0 to {rec['players'] - 1}, not {seat}")
    state = game.new_game(
        rec["players"], rec.get("seed"), rec.get("params") or None, deals=[r["deal"] for r in rec["rounds"]]
    )
    names = list(rec.get("agents") or [f"seat {p}" for p in range(state.n)])
    say(f"{game.name}: {state.n} players, seen from seat {seat}")
    shown = rnd = 0
    for r_index, r in enumerate(rec["rounds"]):
        for m_index, m in enumerate(r["moves"], 1):
            move = find_move(state, m) if state.current_player == m["player"] else None
            if move is None:
                raise RecordError(f"round {r_index + 1}, move {m_index}: the rules do not allow this move")
            if m["player"] == seat:
                say("")
                say(screen(state, seat))
            state.apply(move)
            shown, rnd = report(state, seat, shown, rnd, say, names)
    if state.over:
        say(final_table(state, seat))
    return state


def _bot_spec(agents: str | None, players: int, seat: int) -> list[str]:
    """The bots by seat: --agents names every seat (the person's entry is ignored) or only the
    other seats in order; the last name repeats."""
    from ..agents import split_agents

    names = split_agents(agents or "greedy") or ["greedy"]
    if len(names) == players:
        names = names[:seat] + names[seat + 1 :]
    names += [names[-1]] * max(0, players - 1 - len(names))
    names = names[: players - 1]
    return [*names[:seat], "random", *names[seat:]]
