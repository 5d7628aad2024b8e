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
from ..engine.observe import offered_move, sees
from ..engine.seat_log import round_log
from ..engine.unseen import card_seen
from ..errors import Span, plural, source_line
from ..text.event_words import entry_text
from ..text.move_words import card_name, held_order, move_text, move_words, seat_name, told_words, zone_label
from ..text.var_words import vars_words
from .typed import Offer, read

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


def deck_in_play(state: Any, z: int) -> bool:
    """Whether a deck's own zone (the cards of a deck not dealt) is worth a line: it holds cards
    now or held some after the deal (a pile to draw from: its count is shown)."""
    if any(state.zone_cards(i) for i in state.layout.instances[z]):
        return True
    return bool(state.history) and state.game.zones[z].name in state.history[-1]["deal"]


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
        if z >= len(game.ir["zones"]) and not deck_in_play(state, z):  # a deck's own zone, never dealt from
            continue
        for inst, view in zip(lay.instances[z], views, strict=True):
            label = zone_label(game, name, lay.number[inst], seat, state.n)
            if isinstance(view, dict):
                facing_out = game.zones[z].visibility == "others" and lay.owner[inst] == seat  # (`others see`)
                how = "facing out: the others see them, you do not" if facing_out else "hidden"
                lines.append(f"{label}: {plural(view['count'], 'card')}, {how}")
                continue
            if game.zones[z].piles:
                text = " | ".join(", ".join(card_name(c) for c in pile) for pile in view) or "empty"
                lines.append(f"{label}: {plural(len(view), 'pile')}: {text}")
            else:
                if game.zones[z].visibility == "owner" and lay.owner[inst] == seat:  # a hand: as a person holds it
                    view = [view[i] for i in held_order(game, view)]
                text = ", ".join(card_name(c) for c in view) or "empty"
                extra = derived(state, seat, inst) if view else []
                lines.append(f"{label}: {text}" + (f"   [{'; '.join(extra)}]" if extra else ""))
    words = vars_words(game, obs["vars"], seat, lay, obs.get("unseen_vars", []))
    if words:
        lines.append("variables: " + "; ".join(words))
    if obs["shown"]:  # hidden cards shown or revealed to this seat
        lines.append(
            "shown to you: "
            + "; ".join(
                f"{card_name(x['card'])} in {zone_label(game, x['zone'], x['index'], seat, state.n)}"
                for x in obs["shown"]
            )
        )
    if obs.get("told"):  # what this seat was told of cards it does not see (`tell`), by place
        lines.append("told you: " + "; ".join(told_words(game, x, seat, state.n) for x in obs["told"]))
    if obs["eliminated"]:
        lines.append("eliminated this round: " + ", ".join(seat_name(p, seat) for p in obs["eliminated"]))
    if obs["turn_order"] != "clockwise":
        lines.append("turn order: reversed (the turn passes to the right)")
    if obs["skipped"]:
        lines.append("loses their next turn: " + ", ".join(seat_name(p, seat) for p in obs["skipped"]))
    if obs["last_moves"]:
        lines.append("last moves: " + "; ".join(move_text(game, m, seat, state.n) for m in obs["last_moves"]))
    if "picking" in obs:  # a set this seat chooses card by card
        picked = ", ".join(card_name(c) for c in obs["picking"]["cards"])
        lines.append(f"picked for {obs['picking']['move']}: {picked}")
    return "\n".join(lines)


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
    totals = ", ".join(f"{seat_name(p, seat)} {t}" for p, t in enumerate(state.totals))
    if state.game.cooperative:
        return f"=== game over: totals {totals}; {'everyone wins' if state.won_together else 'everyone loses'} ==="
    win = state.winners()
    names = ", ".join(seat_name(p, seat) for p in win)
    return f"=== game over: totals {totals}; {'winner' if len(win) == 1 else 'winners'}: {names} ==="


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


SHOWN_SETS = 30  # more sets of several cards than this: not listed, typed by their cards' names


def offers(state: Any, seat: int) -> tuple[list[Any], list[Offer]]:
    """The seat's legal moves as the terminal offers them, each once (copies of a card make the
    same move): choices first (in the rules' order), then single cards and sets of cards in the
    order a person holds them (`order cards by`). A card the seat does not see is never worded
    (observe.offered_move), nor placed by its number."""
    game = state.game
    key = game.cards.key
    listed = state.legal_moves()

    def order(mv: Any) -> tuple:
        if mv.card >= 0:
            return (
                (1, (key[mv.card], mv.card), mv.target) if card_seen(state, seat, mv.card) else (2, mv.rule, mv.target)
            )
        cards = getattr(mv.target, "cards", None)
        if cards is None:
            return (0,)
        return (3, len(cards), sorted((key[c], c) for c in cards), mv.target.to)

    moves, out, texts = [], [], set()
    for mv in sorted(listed, key=order):  # (a stable sort: choices stay in the rules' order)
        seen = offered_move(state, seat, mv)
        text = move_words(game, seen, seat, state.n, game.moves[mv.rule].choice)
        if text in texts:
            continue
        texts.add(text)
        cards = seen.get("cards") or ([seen["card"]] if seen.get("card") else [])
        moves.append(mv)
        out.append(Offer(text, tuple(card_name(c).lower() for c in cards if c is not None)))
    return moves, out


def ask(state: Any, seat: int, inp: TextIO, say: Callable[[str], None]) -> Any:
    """Show the seat's legal moves, numbered, and read a choice until it is a legal move: a
    number, words of a move, or its cards' names (play/typed.py), a set's one at a time too."""
    game = state.game
    moves, offered = offers(state, seat)
    sets = sum(len(o.cards) > 1 for o in offered)
    numbered = len(moves) if sets <= SHOWN_SETS else len(moves) - sets  # (the sets come last)
    say("your moves:")
    for i, o in enumerate(offered[:numbered], 1):
        say(f"  {i:>2}) {o.text}")
    if numbered < len(moves):
        say(f"  and {sets} sets of several cards: type their cards' names, all at once or one at a time")
    so_far = ""  # the cards of a set named so far
    while True:
        if len(moves) == 1:
            say(f"your only move, seat {seat}: press Enter to play it (or ? or q)> ")
        elif so_far:
            say(f"cards so far: {so_far}; type another card's name (- to start again)> ")
        else:
            say(f"your move, seat {seat} (1-{numbered}, a card's name, ? or q)> ")
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
        if text == "-":
            so_far = ""
            continue
        if text.isdigit() and not so_far:
            k = int(text)
            if 1 <= k <= numbered:
                return moves[k - 1]
            say(f"there is no move {k}: type a number from 1 to {numbered}")
            continue
        reading = read(f"{so_far} {text}", offered)
        if len(reading.hits) == 1 and not reading.partial:
            return moves[reading.hits[0]]
        if reading.partial:
            so_far = f"{so_far}, {text}" if so_far else text
        elif reading.hits:
            say("which one? " + "; ".join(f"{i + 1}) {offered[i].text}" for i in reading.hits[:SHOWN_SETS]))
            if any(i >= numbered for i in reading.hits):
                say("(name more of it: its cards, where it goes)")
        else:
            say(f"not a move: {(so_far + ', ' if so_far else '') + line.strip()!r}; {HELP}")


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

    state = game.new_game(players, seed, params, narrate=True)
    bots = make_agents(_bot_spec(agents, players, seat), players, seed)
    say(f"{game.name}: {players} players; you are seat {seat}. " + HELP)
    say(round_header(state, 0, seat))
    shown, rnd = report(state, seat, 0, 0, say, [b.name for b in bots])  # the deal
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
    """Print the seat's log (engine/seat_log.py) since the last report, each round's scoring as a
    table; the new position in the log."""
    while True:
        entries = round_log(state, seat, rnd)
        for entry in entries[shown:]:
            if "scored" in entry:  # (the score table below says it, rule by rule)
                continue
            text = entry_text(state.game, entry, seat, state.n)
            if text is not None:
                by = f"  ({names[entry['player']]})" if "move" in entry and entry["player"] != seat else ""
                say("  " + text + by)
        shown = len(entries)
        if rnd == state.round and not state.over:
            return shown, rnd
        say(score_table(state, seat, rnd))
        rnd, shown = rnd + 1, 0
        if rnd >= len(state.history):
            return shown, rnd
        say(round_header(state, rnd, seat))  # before the new round's deal


def replay_as(game: Any, rec: dict[str, Any], seat: int, out: TextIO) -> Any:
    """Step through a record as ``seat`` saw it: its screen before each of its moves, the moves it
    saw (played back by ``records.replay``, so a record it refuses is refused here too)."""
    from ..engine.records import replay
    from ..errors import RecordError

    def say(text: str) -> None:
        out.write(text + "\n")

    if not 0 <= seat < rec["players"]:
        raise RecordError(f"--seat must be from 0 to {rec['players'] - 1}, not {seat}")
    agents = list(rec.get("agents") or [])  # the last repeats, as for simulate's --agents
    names = [agents[min(p, len(agents) - 1)] if agents else f"seat {p}" for p in range(rec["players"])]
    at: dict[str, Any] = {"shown": 0, "rnd": 0, "started": False}  # where the report stands

    def watch(state: Any, m: dict[str, Any]) -> None:
        if not at["started"]:
            at["started"] = True
            say(f"{game.name}: {state.n} players, seen from seat {seat}")
            say(round_header(state, 0, seat))
        at["shown"], at["rnd"] = report(state, seat, at["shown"], at["rnd"], say, names)
        if m["player"] == seat:
            say("")
            say(screen(state, seat))

    state = replay(game, rec, watch=watch)
    report(state, seat, at["shown"], at["rnd"], say, names)
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
