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
from ..engine.events import round_events
from ..engine.expr_analysis import zone_pure
from ..engine.observe import offered_move, seen_move, sees
from ..engine.unseen import card_seen
from ..errors import Span, plural, source_line
from ..text.move_words import card_name, event_text, move_text, move_words, seat_name, zone_label

HELP = "type a move's number or a card's name; ? shows the rules of this phase; q quits"


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
    for attr, zones in summed_attributes(game).items():
        if zones is not None and name not in zones:
            continue
        values = [game.cards.attrs[attr][c] for c in cards]
        if any(v is not None for v in values):
            out.append(f"sum of {attr} {sum(v for v in values if v is not None)}")
    return out


def round_text(number: int, rounds: int | None, ends_on_condition: bool) -> str:
    """ "round 2 of 5"; a game that ends on a condition does not know its number of rounds:
    "round 2" (or "round 2, at most 5" when it also has a cap)."""
    if rounds is None:
        return f"round {number}"
    return f"round {number}, at most {rounds}" if ends_on_condition else f"round {number} of {rounds}"


@cache
def summed_attributes(game: Any) -> dict[str, frozenset[str] | None]:
    """The number attributes some rule sums (`sum of value in target`), each with the zones it is
    summed over (None: it cannot be told): the sums worth showing, and where."""
    found: dict[str, set[str] | None] = {}
    stack: list[Any] = [game.ir]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("op") == "sum" and isinstance(node.get("attr"), str):
                zones = _zones_read(game, node.get("of"))
                if node["attr"] not in found or found[node["attr"]] is not None:
                    found[node["attr"]] = None if zones is None else (found.get(node["attr"]) or set()) | zones
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return {a: None if found[a] is None else frozenset(found[a]) for a in game.ir["attributes"] if a in found}


def _zones_read(game: Any, cards: Any) -> set[str] | None:
    """The zones a collection of cards is taken from: named ones, or a move's target zones for
    `target`; None when that cannot be told from the expression."""
    source = cards.get("from") if isinstance(cards, dict) else None
    if isinstance(source, dict) and source.get("op") == "bound" and source.get("name") == "target":
        targets = {m["to"] for phase in game.ir["round"]["phases"] for m in phase["moves"]}
        return {t for t in targets if isinstance(t, str)} or None
    names: set[str] = set()
    stack = [source]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("name") in game.zone_index and node.get("op") != "bound":
                names.add(node["name"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return names or None


def screen(state: Any, seat: int) -> str:
    """What ``seat`` sees now, as text."""
    game, lay = state.game, state.layout
    obs = state.observe(seat)
    lines = [
        f"=== {game.name}: {round_text(obs['round'], obs['rounds'], game.flow.game_ends is not None)}, "
        f"dealer {seat_name(obs['dealer'], seat)}, "
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
                lines.append(f"{label}: {plural(view['count'], 'card')}, hidden")
                continue
            if game.zones[z].piles:
                text = " | ".join(", ".join(card_name(c) for c in pile) for pile in view) or "empty"
                lines.append(f"{label}: {plural(len(view), 'pile')}: {text}")
            else:
                if game.zones[z].per_player and lay.owner[inst] == seat:  # a hand: sorted, as a person holds it
                    view = [game.cards.json[c] for c in sorted(state.zone_cards(inst))]
                text = ", ".join(card_name(c) for c in view) or "empty"
                extra = derived(state, seat, inst) if view else []
                lines.append(f"{label}: {text}" + (f"   [{'; '.join(extra)}]" if extra else ""))
    if obs["vars"]:
        shown = []
        seats = {v["name"] for v in game.ir["vars"] if v.get("holds") == "player"}  # var maker player = none
        for name, value in obs["vars"].items():  # another seat's private counter shows as ?
            if name in seats:
                value = [x if x is None else seat_name(x, seat) for x in value] if isinstance(value, list) else value
                value = seat_name(value, seat) if isinstance(value, int) else value
            text = (
                "[" + ", ".join("?" if v is None else str(v) for v in value) + "]" if isinstance(value, list) else value
            )
            shown.append(f"{name} {text}")
        lines.append("variables: " + ", ".join(shown))
    if obs["shown"]:  # hidden cards shown or revealed to this seat
        lines.append(
            "shown to you: "
            + "; ".join(
                f"{card_name(x['card'])} in {zone_label(game, x['zone'], x['index'], seat, state.n)}"
                for x in obs["shown"]
            )
        )
    if obs["eliminated"]:
        lines.append("eliminated this round: " + ", ".join(seat_name(p, seat) for p in obs["eliminated"]))
    if obs["last_moves"]:
        lines.append("last moves: " + "; ".join(move_text(game, m, seat, state.n) for m in obs["last_moves"]))
    return "\n".join(lines)


def moves_seen(state: Any, seat: int, round_index: int) -> list[dict[str, Any]]:
    """The moves of a round as ``seat`` saw them (a round still going: see observe.py), each
    followed by the reveals and shuffles the rules made after it (``{"event": ...}``)."""
    if round_index == state.round and not state.over:
        obs = state.observe(seat)
        moves, events = obs["moves"], obs["events"]
    else:
        moves = [seen_move(state, seat, p, m) for p, m in state.history[round_index]["moves"]]
        events = round_events(state, round_index, seat)
    if not events:
        return moves
    out = [{"event": e} for e in events if e["after"] == 0]
    for k, m in enumerate(moves, 1):
        out.append(m)
        out += [{"event": e} for e in events if e["after"] == k]
    return out


def score_table(state: Any, seat: int, round_index: int) -> str:
    """The scoring of a finished round: what was hidden and is now shown, then each score rule's
    points for each seat, the round's points and the totals."""
    game, log = state.game, state.history[round_index]
    lines = [f"--- round {round_index + 1} scored ---"]
    for name, instances in (log.get("revealed") or {}).items():
        for index, cards in enumerate(instances):
            label = zone_label(game, name, index, seat, state.n)
            lines.append(f"revealed: {label}: " + (", ".join(card_name(c) for c in cards) or "empty"))
    totals = [0] * state.n
    for r in state.history[: round_index + 1]:
        totals = [t + s for t, s in zip(totals, r.get("scores", [0] * state.n), strict=True)]
    heads = [seat_name(p, seat) for p in range(state.n)]
    rows = [(rule_text(rule, i), [log["by_rule"][p][i] for p in range(state.n)]) for i, rule in enumerate(game.score)]
    rows = [r for r in rows if any(r[1])] if "by_rule" in log else []
    rows += [("this round", log["scores"]), ("total", totals)]
    cell = max(6, *(len(h) for h in heads))  # the seats' points first, each rule's words after them
    lines.append("".join(f"{h:>{cell + 2}}" for h in heads))
    lines += ["".join(f"{v:>{cell + 2}}" for v in values) + f"   {text}" for text, values in rows]
    return "\n".join(lines)


def rule_text(rule: Any, index: int) -> str:
    """A score rule as its .rules line says it (or its number, for rules written as IR)."""
    try:
        span = Span.parse(rule.at)
    except (TypeError, ValueError):
        return f"score rule {index + 1}"
    line = source_line(span.file, span.line)
    return line.strip() if line else f"score rule {index + 1}"


def round_header(state: Any, round_index: int, seat: int) -> str:
    """The line that opens a round: its number and its dealer."""
    dealer = state.history[round_index]["dealer"] if round_index < len(state.history) else state.dealer
    number = round_text(round_index + 1, state.rounds, state.game.flow.game_ends is not None)
    return f"=== {number}, dealer {seat_name(dealer, seat)} ==="


def final_table(state: Any, seat: int) -> str:
    """The end of the game: totals and winners (a cooperative game's: whether all won or all lost)."""
    if state.game.cooperative:
        return (
            f"=== game over: totals {state.totals}; {'everyone wins' if state.won_together else 'everyone loses'} ==="
        )
    win = state.winners()
    names = ", ".join(seat_name(p, seat) for p in win)
    return f"=== game over: totals {state.totals}; {'winner' if len(win) == 1 else 'winners'}: {names} ==="


def zone_counts(state: Any) -> list[int]:
    """How many cards each zone instance holds (what every seat may know)."""
    return [len(state.zone_cards(i)) for i in range(state.layout.size)]


def takes(state: Any, before: list[int], seat: int) -> list[str]:
    """What the rules did after a move, in words: cards that left shared zones for a player's zone
    (a trick won, a shared pile collected), from the counts before the move and now."""
    game, lay = state.game, state.layout
    after = zone_counts(state)
    lost = [i for i in range(lay.size) if after[i] < before[i] and not game.zones[lay.zone_of[i]].per_player]
    gained = [i for i in range(lay.size) if after[i] > before[i] and game.zones[lay.zone_of[i]].per_player]
    if not lost or not gained:
        return []
    sources = ", ".join(zone_label(game, game.zones[lay.zone_of[i]].name, lay.number[i], seat, state.n) for i in lost)
    out = []
    for i in gained:
        who, zone = lay.owner[i], game.zones[lay.zone_of[i]].name
        n = after[i] - before[i]
        verb = "take" if who == seat else "takes"
        out.append(f"{seat_name(who, seat)} {verb} {plural(n, 'card')} from {sources} into {zone}")
    return out


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
    # copies of a card make the same move: listed once; in the order of the cards (a sorted hand)
    # a card the seat does not see is never worded (observe.offered_move), nor placed by its number
    listed = state.legal_moves()
    choices = [mv for mv in listed if mv.card < 0]  # (in the order the rules list them)

    def order(mv: Any) -> tuple[int, int, int]:
        return (0, mv.card, mv.target) if card_seen(state, seat, mv.card) else (1, mv.rule, mv.target)

    for mv in choices + sorted((mv for mv in listed if mv.card >= 0), key=order):
        text = move_words(game, offered_move(state, seat, mv), seat, state.n, game.moves[mv.rule].choice)
        if text not in texts:
            moves.append(mv)
            texts.append(text)
    say("your moves:")
    for i, t in enumerate(texts, 1):
        say(f"  {i:>2}) {t}")
    while True:
        if len(moves) == 1:
            say(f"your only move, seat {seat}: press Enter to play it (or ? or q)> ")
        else:
            say(f"your move, seat {seat} (1-{len(moves)}, a card's name, ? or q)> ")
        line = inp.readline()
        if not line:
            raise Quit("end of input")
        text = line.strip().lower()
        if not text and len(moves) == 1:
            return moves[0]
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
    say(round_header(state, 0, seat))
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
            before, round_before = zone_counts(state), state.round
            state.apply(move)
            shown, rnd = report(state, seat, shown, rnd, say, [b.name for b in bots])
            if state.round == round_before and not state.over:
                for line in takes(state, before, seat):
                    say("  " + line)
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
            if "event" in m:  # a reveal or a shuffle, the rules' own
                say("  " + event_text(state.game, m["event"], seat, state.n))
                continue
            by = "" if m["player"] == seat else f"  ({names[m['player']]})"
            say("  " + move_text(state.game, m, seat, state.n) + by)
        shown = len(seen)
        if rnd == state.round and not state.over:
            return shown, rnd
        say(score_table(state, seat, rnd))
        rnd, shown = rnd + 1, 0
        if rnd >= len(state.history):
            return shown, rnd
        say(round_header(state, rnd, seat))  # before the new round's first moves


def replay_as(game: Any, rec: dict[str, Any], seat: int, out: TextIO) -> Any:
    """Step through a record as ``seat`` saw it: its screen before each of its moves, the moves it
    saw (played back by ``records.replay``, so a record it refuses is refused here too)."""
    from ..engine.records import replay
    from ..errors import RecordError

    def say(text: str) -> None:
        out.write(text + "\n")

    if not 0 <= seat < rec["players"]:
        raise RecordError(f"--seat must be from 0 to {rec['players'] - 1}, not {seat}")
    names = list(rec.get("agents") or [f"seat {p}" for p in range(rec["players"])])
    at: dict[str, Any] = {"shown": 0, "rnd": 0, "before": None}  # where the report stands

    def reported(state: Any) -> None:
        """What the last move did, as the seat saw it."""
        if at["before"] is None:
            return
        before, round_before = at["before"]
        at["shown"], at["rnd"] = report(state, seat, at["shown"], at["rnd"], say, names)
        if state.round == round_before and not state.over:
            for line in takes(state, before, seat):
                say("  " + line)

    def watch(state: Any, m: dict[str, Any]) -> None:
        if at["before"] is None:
            say(f"{game.name}: {state.n} players, seen from seat {seat}")
            say(round_header(state, 0, seat))
        reported(state)
        if m["player"] == seat:
            say("")
            say(screen(state, seat))
        at["before"] = (zone_counts(state), state.round)

    state = replay(game, rec, watch=watch)
    reported(state)
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
