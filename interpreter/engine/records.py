"""Game records (one JSON object per game, a line of a .jsonl file) and replaying them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..errors import IllegalMoveError, PlayError, RecordError
from .card_sets import Pick
from .cards import signature
from .choices import describe_move
from .events import recorded_shuffles, round_events
from .game import Game
from .scoring import team_results


def record(state: Any, agents: list[str] | None = None) -> dict[str, Any]:
    """The record of a finished (or interrupted) game, as schemas/record.schema.json describes it."""
    rounds = []
    for i, r in enumerate(state.history):
        rnd = {
            "dealer": r["dealer"],
            "deal": r["deal"],
            "moves": [move_record(state, p, m, r.get("places", {}).get(j)) for j, (p, m) in enumerate(r["moves"])],
            "scores": r.get("scores", []),
        }
        events = round_events(state, i)
        if events:  # (only a round whose rules revealed or shuffled: older records stay as they were)
            rnd["events"] = events
        rounds.append(rnd)
    game = state.game
    out: dict[str, Any] = {
        "ruleset": game.name,
        "source": game.ir.get("source", ""),
        **({"origin": game.ir["origin"]} if "origin" in game.ir else {}),
        "players": state.n,
        "seed": state.seed,
        "params": dict(state.params),
    }
    if agents:
        out["agents"] = list(agents)
    out["rounds"] = rounds
    out["totals"] = list(state.totals)
    out["winners"] = state.winners() if state.over else []
    if game.cooperative and state.over:  # all seats won together, or all lost
        out["cooperative"] = "won" if state.won_together else "lost"
    teams = team_results(state.totals, game.winner_highest, game.ir.get("teams"))
    if teams is not None:
        out["teams"] = [{**t, "won": t["won"] and state.over} for t in teams]
    return out


def place_now(state: Any, move: Any) -> int | None:
    """Where a move `card at place` takes its card from now (its place, from 0); None for another move."""
    if move.card < 0 or not state.game.moves[move.rule].at_place:
        return None
    return state.zone_cards(state.loc[move.card]).index(move.card)


def move_record(state: Any, player: int, move: Any, place: int | None = None) -> dict[str, Any]:
    """One move as a record writes it: player, move, card, target zone and index (a choice: see
    choices.describe_choice); a move `card at place` also its ``place`` in its zone (from 0), so
    that replay takes that very card among copies alike (what a seat was told stays with it)."""
    out = describe_move(state.game, state.layout, player, move)
    if place is not None:
        out["place"] = place
    return out


def dumps(rec: dict[str, Any]) -> str:
    """One record as one line of JSON (stable key order, no spaces: byte-for-byte reproducible)."""
    return json.dumps(rec, separators=(",", ":"), ensure_ascii=False)


def parse_line(line: str, number: int) -> dict[str, Any]:
    """A record from one line of a .jsonl file, schema-checked."""
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as err:
        raise RecordError(f"line {number}: not valid JSON ({err.msg} at column {err.colno})") from None
    from ..language.schema import check_record  # (the schema's checks are built when a record is first read)

    check_record(rec, number)
    return rec


def replay(
    game: Game, rec: dict[str, Any], line: int | None = None, watch: Callable[[Any, dict[str, Any]], None] | None = None
) -> Any:
    """Play a record back through the rules; any illegal move or differing score is a RecordError.
    ``watch(state, m)``, when given, is called before each recorded move ``m`` is played (a viewer
    that steps through the game keeps what it needs of the state: a watched game narrates, its
    log tells what the rules did, engine/seat_log.py)."""
    where = f"line {line}: " if line else ""
    if rec.get("ruleset") != game.name:
        raise RecordError(f"{where}the record is of '{rec.get('ruleset')}', these rules are '{game.name}'")
    try:
        state = game.new_game(
            rec["players"],
            rec.get("seed"),
            rec.get("params") or None,
            deals=[r["deal"] for r in rec["rounds"]],
            shuffles=recorded_shuffles(rec["rounds"]),
            narrate=watch is not None,
        )
    except PlayError as err:
        raise RecordError(f"{where}cannot set up the recorded game: {err.message}") from None
    for r_index, r in enumerate(rec["rounds"]):
        if state.over and r_index >= len(state.history):  # (a round without moves may end at once)
            raise RecordError(f"{where}the game was over before recorded round {r_index + 1}")
        dealer = state.history[r_index]["dealer"] if r_index < len(state.history) else state.dealer
        if dealer != r["dealer"]:
            raise RecordError(f"{where}round {r_index + 1}: the dealer is seat {dealer}, the record says {r['dealer']}")
        for m_index, m in enumerate(r["moves"], 1):
            at = f"{where}round {r_index + 1}, move {m_index}"
            if state.round != r_index:
                raise RecordError(f"{at}: round {r_index + 1} was already over")
            if m["player"] != state.current_player:
                raise RecordError(
                    f"{at}: it is seat {state.current_player}'s turn, the record has seat {m['player']} moving"
                )
            move = pick_through(state, find_move(state, m), lambda m=m: find_move(state, m))
            if move is None:
                raise RecordError(f"{at}: the rules do not allow this move: {json.dumps(m)}")
            if watch is not None:
                watch(state, m)
            try:
                state.apply(move)
            except (PlayError, IllegalMoveError) as err:
                raise RecordError(f"{at}: {err.message}") from None
        if state.round == r_index and not state.over:
            raise RecordError(f"{where}round {r_index + 1}: the recorded moves end before the round does")
        events = round_events(state, r_index)
        if events != r.get("events", []):
            raise RecordError(
                f"{where}round {r_index + 1}: the rules reveal and shuffle {json.dumps(events)}, "
                f"the record says {json.dumps(r.get('events', []))}"
            )
        got = state.history[r_index].get("scores")
        if got != r["scores"]:
            raise RecordError(f"{where}round {r_index + 1}: the rules score {got}, the record says {r['scores']}")
    if not state.over:
        raise RecordError(f"{where}the record ends before the game does")
    if state.totals != rec["totals"] or state.winners() != rec["winners"]:
        raise RecordError(
            f"{where}totals {state.totals} and winners {state.winners()} differ from the "
            f"record's {rec['totals']} and {rec['winners']}"
        )
    together = ("won" if state.won_together else "lost") if game.cooperative else None
    if rec.get("cooperative") != together:
        said = "give no cooperative outcome" if together is None else f"say the players {together} together"
        raise RecordError(f"{where}the rules {said}, the record says {rec.get('cooperative')!r}")
    teams = team_results(state.totals, game.winner_highest, game.ir.get("teams"))
    if "teams" in rec and rec["teams"] != teams:
        said = "has no teams" if teams is None else f"give the teams {teams}"
        raise RecordError(f"{where}the rules {said}, the record says {rec['teams']}")
    return state


def find_move(state: Any, m: dict[str, Any]) -> Any:
    """The legal move that a recorded move describes, or None."""
    game, lay = state.game, state.layout
    if "cards" in m:  # a set of cards: the same rule's set of alike cards, to (an ask's: from) the same zone instance
        return find_set(state, m)
    if "pick" in m:  # a card picked towards a set (a server's journal: records hold the set alone)
        want = signature(m["pick"]) if isinstance(m["pick"], dict) else None
        for move in state.legal_moves():
            picked = move.card < 0 and type(move.target) is Pick and game.moves[move.rule].name == m["move"]
            if picked and signature(game.cards.json[move.target.card]) == want:
                return move
        return None
    if "from" in m:  # a draw (or an ask's card): the same rule's move from the same pile
        want = signature(m["card"]) if isinstance(m.get("card"), dict) else None
        for move in state.legal_moves():
            rule = game.moves[move.rule]
            if (rule.choice == "card") != (want is not None):  # a card answer names its card, a draw never
                continue
            if want is not None and signature(game.cards.json[move.card]) != want:
                continue
            if rule.choice in ("draw", "card") and rule.name == m["move"] and move.target < lay.size:
                pile = m["from"]
                if (
                    game.zones[lay.zone_of[move.target]].name == pile["zone"]
                    and lay.number[move.target] == pile["index"]
                ):
                    return move
        return None
    if "card" not in m:  # a choice: the same rule's move with the same value
        for move in state.legal_moves():
            value = m.get("value")
            if isinstance(value, dict):  # a zone instance (its zone and index)
                same = move.card < 0 and describe_move(game, lay, m["player"], move).get("value") == value
            else:
                same = move.target == value and type(move.target) is type(value)  # (never True for 1)
            if move.card < 0 and same and game.moves[move.rule].name == m["move"]:
                return move
        return None
    want = signature(m["card"]) if isinstance(m.get("card"), dict) else None
    place = m.get("place")
    for move in state.legal_moves():
        rule = game.moves[move.rule]
        if (
            rule.name == m["move"]
            and signature(game.cards.json[move.card]) == want
            and game.zones[lay.zone_of[move.target]].name == m["to"]["zone"]
            and lay.number[move.target] == m["to"]["index"]
            and (place is None or state.zone_cards(state.loc[move.card]).index(move.card) == place)
        ):
            return move
    return None


def _may_pick(json: Any, card: int, picked: tuple, want: list, size: int, seen: Any) -> bool:
    """Whether ``card`` may be picked next towards the recorded set (``want``: the signatures of
    the cards seen in it, of ``size`` cards): alike to one of them not picked yet, or, where the
    set holds cards the seat did not see (``seen``: a search agent's), a card it did not see."""
    left = list(want)
    unseen = size - len(want)
    for c in (*picked, card):
        sig = signature(json[c])
        if sig in left:
            left.remove(sig)
        elif unseen > 0 and seen is not None and c not in seen:
            unseen -= 1
        else:
            return False
    return True


def pick_through(state: Any, move: Any, find: Callable[[], Any]) -> Any:
    """The recorded move to play: ``move``, or when it is a pick towards a set chosen card by
    card (card_sets.Listing), each pick played in turn (``find()`` finds the next) until the set."""
    while move is not None and move.card < 0 and type(move.target) is Pick:
        state.apply(move)
        move = find()
    return move


def find_set(state: Any, m: dict[str, Any], seen: Any = None) -> Any:
    """The legal set move that a recorded one describes (its cards alike, in any order), or None.
    With ``seen`` (a search agent's sample: the cards its seat saw), a card written as None stands
    for any card the seat did not see."""
    game, lay = state.game, state.layout
    cards, to = m["cards"], m.get("to") or m.get("from")
    if not all(isinstance(c, dict) or (c is None and seen is not None) for c in cards):
        return None
    want = sorted(signature(c) for c in cards if c is not None)
    json = game.cards.json
    picked = () if state.picking is None else state.picking[2]
    for move in state.legal_moves():
        rule = game.moves[move.rule]
        if move.card >= 0 or rule.choice not in ("cards", "set") or rule.name != m["move"]:
            continue
        if type(move.target) is Pick:  # a set chosen card by card: the next card of it (see pick_through)
            if _may_pick(json, move.target.card, picked, want, len(cards), seen):
                return move
            continue
        if len(move.target.cards) != len(cards) or (rule.choice == "set") != ("from" in m):
            continue
        t = move.target.to
        if game.zones[lay.zone_of[t]].name != to["zone"] or lay.number[t] != to["index"]:
            continue
        mine = sorted(signature(json[c]) for c in move.target.cards)
        if len(want) == len(cards):
            if mine == want:
                return move
            continue
        rest = list(move.target.cards)  # the cards left once each one seen is matched
        for w in want:
            hit = next((c for c in rest if signature(json[c]) == w), None)
            if hit is None:
                break
            rest.remove(hit)
        else:
            if not any(c in seen for c in rest):
                return move
    return None
