"""Tables: a game held by the server, its seats (people by private token, or agents), its moves.

The server is the authority: a seat's browser is sent only what ``views`` derives from that
seat's observation, and may only choose among the moves it was offered. Agents choose through a
``SeatView`` as in simulation. In a simultaneous phase every seat still to choose may choose at
once: a person's choice is held until the engine asks that seat, so the game (and its record) is
the same as if the seats had chosen in turn; the others' choices stay hidden until all have chosen.
"""

from __future__ import annotations

import contextlib
import json
import math
import secrets
import threading
import time
from pathlib import Path
from typing import Any

from ...agents import SeatView, make_agent
from ...engine.records import find_move, move_record, place_now, record
from ...errors import IllegalMoveError, PlayError, RulesetError, SaveError
from .catalogue import Catalogue
from .failures import stopped, unloaded
from .limits import MAX_SEED, Limits, check_agent, check_params, check_rounds, check_seed, check_values, searches
from .store import TableStore
from .views import SPECTATOR, moves_view, seat_view

KINDS = ("human", "agent")


def dumps(message: dict[str, Any]) -> str:
    """A message as the text a page is sent."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Refused(Exception):
    """A message from a browser that the table does not act on; its text says why."""


class Table:
    """One game at one table."""

    def __init__(self, table_id: str, setup: dict[str, Any], game: Any, store: TableStore | None):
        self.id = table_id
        self.setup = setup
        self.game = game
        self.store = store
        self.seats: list[dict[str, Any]] = setup["seats"]
        self.state = game.new_game(setup["players"], setup["seed"], setup["params"] or None, narrate=True)
        self.bots = {
            p: make_agent(s["agent"], p, setup["seed"]) for p, s in enumerate(self.seats) if s["kind"] == "agent"
        }
        self.quick = not any(searches(bot) for bot in self.bots.values())  # (its moves take no thinking)
        self.chosen: dict[int, Any] = {}  # a person's choice in a simultaneous phase, held until its turn
        self.offered: dict[int, tuple[int, list[Any]]] = {}  # seat -> (version, the moves it was shown)
        self.version = 0  # one more at every move
        self.failure: str | None = None  # the rules could not go on (a PlayError): the table stops
        self.written: Any = None  # a person's move already in the journal, about to be played
        self.sent: dict[int, tuple[Any, str]] = {}  # seat -> (the table's state, its message's text)

    # ---- what a seat is sent --------------------------------------------------------------------
    def names(self) -> list[str]:
        """Each seat as the record names it: ``human`` or the agent's spec."""
        return ["human" if s["kind"] == "human" else s["agent"] for s in self.seats]

    def text(self, seat: int) -> str:
        """The state message for one seat as sent, built once per state of the table: any number of
        pages and refreshes of one seat at one state cost one build (a build takes milliseconds).
        A view the rules cannot build (an error of the engine in the seat's observation or moves)
        stops the table, and the seat is sent the failure as an error (failures.py)."""
        kept = self.cached(seat)
        if kept is None:
            try:
                kept = dumps(self.message(seat))  # (message() also keeps what it offers)
            except Exception as err:  # (the rules, or a bug: this table stops, the server goes on)
                if self.failure is None:
                    self.failure = stopped(self.id, err)
                kept = dumps({"type": "error", "message": f"the game stopped: {self.failure}"})
            self.sent[seat] = (self._now(), kept)
        return kept

    def cached(self, seat: int) -> str | None:
        """The seat's message at this state if it was built already (``text``): None if not."""
        kept = self.sent.get(seat)
        return kept[1] if kept is not None and kept[0] == self._now() else None

    def _now(self) -> tuple[Any, ...]:
        return (self.version, self.failure, tuple(sorted(self.chosen)))  # (all a message depends on)

    def message(self, seat: int) -> dict[str, Any]:
        """The state message for one seat (or SPECTATOR): its view and the moves it may choose."""
        st = self.state
        can_choose = seat >= 0 and seat not in self.chosen and self.failure is None and seat not in self.bots
        shown, moves = moves_view(st, seat, st.legal_moves_of(seat)) if can_choose else ([], [])
        if seat >= 0:
            self.offered[seat] = (self.version, moves)
        view = seat_view(st, seat)
        view["waiting"] = [p for p in view["waiting"] if p not in self.chosen]  # (a held choice is made)
        return {
            "type": "state",
            "table": self.id,
            "version": self.version,
            "view": view,
            "moves": shown,
            "chosen": seat in self.chosen,
            "seats": [{"kind": s["kind"], "agent": s.get("agent")} for s in self.seats],
            "failure": self.failure,
            "finished": st.over,
        }

    # ---- moves ------------------------------------------------------------------------------------
    def choose(self, seat: int, index: Any, version: Any) -> None:
        """A person's choice: move ``index`` of those offered at ``version``; Refused when stale or not theirs."""
        if seat == SPECTATOR:
            raise Refused("a spectator cannot move")
        if seat in self.bots:
            raise Refused(f"seat {seat} is played by an agent")
        if self.failure is not None:
            raise Refused(f"the game has stopped: {self.failure}")
        if self.state.over:
            raise Refused("the game is over")
        if seat in self.chosen:
            raise Refused("you have already chosen: the others are still choosing")
        if not isinstance(index, int) or isinstance(index, bool) or not isinstance(version, int):
            raise Refused("a move is {'type': 'move', 'move': N, 'version': V} with whole numbers N and V")
        offered_at, moves = self.offered.get(seat, (-1, []))
        if version != offered_at or offered_at != self.version:
            raise Refused("the table changed before your move arrived: look again and choose")
        if not moves:
            raise Refused("it is not your turn" if self.state.current_player != seat else "you have no move now")
        if not 0 <= index < len(moves):
            raise Refused(f"there is no move {index}: choose from 0 to {len(moves) - 1}")
        move = moves[index]
        if move not in self.state.legal_moves_of(seat):  # (cannot happen at the same version: a guard)
            raise Refused("that move is not legal now")
        if self.store is not None:  # on disk before it counts (held: written too, so a restart holds it)
            line, now = move_record(self.state, seat, move, place_now(self.state, move)), seat == self.state.current
            try:
                self.store.append_move(self.id, line if now else {"hold": line})
            except SaveError as err:
                raise Refused(f"your move is not played: {err.message}; choose again later") from None
            if now:
                self.written = move  # (pump plays it next, without writing it again)
        self.chosen[seat] = move  # played by the next pump(), now or when the engine asks this seat

    def pump(self, seconds: float = math.inf, max_moves: int | None = None, move_time: float | None = None) -> bool:
        """Play every move that is ready (agents, held choices) until a person must choose, the game
        ends or stops, or ``seconds`` have passed: True when more moves are ready (call again).

        An agent is given ``move_time`` seconds a move (its search stops then). A game that goes past
        ``max_moves`` moves stops: its rules may never end. Any error of the engine or an agent stops
        this table with a failure its seats are shown, never the server."""
        st = self.state
        end = time.perf_counter() + seconds
        try:
            while not st.over and self.failure is None:
                if max_moves is not None and self.version >= max_moves:
                    self.failure = (
                        f"the game went past {max_moves:,} moves, this server's cap (serve --max-moves): "
                        "its rules may never end"
                    )
                    break
                p = st.current
                if p in self.bots:
                    deadline = time.perf_counter() + move_time if move_time else None
                    move = self.bots[p].choose(SeatView(st, p, deadline))
                elif p in self.chosen:
                    move = self.chosen.pop(p)
                else:
                    return False
                self._apply(p, move)
                if time.perf_counter() >= end:
                    return not st.over and self.failure is None
        except Exception as err:  # the rules, the disk or a bug: the table stops and says so, the server goes on
            self.failure = stopped(self.id, err)
        return False

    def _apply(self, seat: int, move: Any) -> None:
        """Play a move once it is in the journal; SaveError (nothing played) when the disk refuses it."""
        if self.store is not None and move is not self.written:
            try:
                self.store.append_move(self.id, move_record(self.state, seat, move, place_now(self.state, move)))
            except SaveError as err:
                raise SaveError(
                    f"seat {seat}'s move is not played: {err.message}. "
                    "Restart the server once its disk can be written to: the table goes on from here"
                ) from None
        self.written = None
        self.state.apply(move)
        self.version += 1
        if self.state.over and self.store is not None:
            with contextlib.suppress(SaveError):  # (written when it is downloaded, or at the next start)
                self.store.finish(self.id, record(self.state, self.names()))

    def record_file(self) -> Path | None:
        """The finished game's record file (written now if the disk refused it when the game ended;
        SaveError if it still does); None while the game goes on."""
        if self.store is None or not self.state.over:
            return None
        path = self.store.record_path(self.id)
        if path is None:
            self.store.finish(self.id, record(self.state, self.names()))
            path = self.store.record_path(self.id)
        return path

    def resume(self, moves: list[dict[str, Any]]) -> None:
        """Play again the moves written before a restart (through the rules, as a replay does), and
        hold again the simultaneous choices that were held and not yet played."""
        st = self.state
        for number, m in enumerate(moves, 1):
            if "unreadable" in m:
                self.failure = (
                    f"line {m['unreadable']} of moves.jsonl is not a move (the lines after it are kept): "
                    "mend or remove it, then restart the server"
                )
                return
            if "hold" in m:
                held = m["hold"]
                p = held.get("player") if isinstance(held, dict) else None
                legal = st.legal_moves_of(p) if isinstance(p, int) else []
                found = [mv for mv in legal if move_record(st, p, mv, place_now(st, mv)) == held]
                if not found:  # (every seat is shown the failure: it names a line, not the move and its card)
                    self.failure = f"the choice held before the restart (line {number} of moves.jsonl) is not legal now"
                    return
                self.chosen[p] = found[0]
                continue
            move = find_move(st, m) if m.get("player") == st.current_player else None
            if move is None:
                self.failure = f"line {number} of moves.jsonl, written before the restart, does not replay"
                return
            try:
                st.apply(move)
            except (PlayError, IllegalMoveError) as err:
                self.failure = stopped(self.id, err)
                return
            self.chosen.pop(m["player"], None)  # (a held choice, played)
            self.version += 1


class Tables:
    """Every table of a server, and the private tokens that lead to their seats."""

    def __init__(self, catalogue: Catalogue, store: TableStore | None, limits: Limits | None = None):
        self.catalogue = catalogue
        self.store = store
        self.limits = limits or Limits()
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple[Table, int]] = {}
        self.broken: dict[str, tuple[dict[str, Any], str]] = {}  # saved tables that could not be opened: why
        self.refused: dict[str, str] = {}  # their links: why
        self.keeping = threading.Lock()
        self.kept = 0  # tables being prepared (in threads): counted against the cap

    def create(self, request: dict[str, Any]) -> Table:
        """A new table from the lobby's form: ``rules`` (a key), ``players``, ``params``, ``seats``, ``seed``.
        Everything is checked (against the rules and the server's limits) before anything is written."""
        return self.open_new(self.prepare(request))

    def prepare(self, request: dict[str, Any]) -> Table:
        """(Thread-safe: the server calls it in a thread, its set-up synced to the disk, its deal
        dealt.) A new table checked, written and made, not yet open (``open_new``); its place among
        the server's tables is kept for it."""
        with self.keeping:
            if len(self.tables) + len(self.broken) + self.kept >= self.limits.max_tables:  # (each a folder)
                raise RulesetError(
                    f"this server already holds {self.limits.max_tables:,} tables, the most it keeps",
                    hint="its operator may move finished tables out of its --data folder and restart it",
                )
            self.kept += 1
        try:
            return self._prepare(request)
        except BaseException:
            with self.keeping:
                self.kept -= 1
            raise

    def open_new(self, table: Table) -> Table:
        """(On the event loop.) A table ``prepare`` made, open (the caller pumps: agents may move first)."""
        with self.keeping:
            self.kept -= 1
            return self._open(table)

    def _prepare(self, request: dict[str, Any]) -> Table:
        if not isinstance(request, dict):
            raise RulesetError("a table is set up with an object: rules, players, params, seats, seed")
        entry = self.catalogue.get(str(request.get("rules"))[:200])
        game = entry.game
        players = request.get("players")
        top = min(game.max_players, self.limits.max_players)
        if not isinstance(players, int) or not game.min_players <= players <= top:
            raise RulesetError(f"{game.name} is for {game.min_players} to {top} players here, not {players!r:.40}")
        params = check_params(request.get("params"))
        check_values(game.param_values(players, params))  # unknown names, wrong types, huge numbers
        seed = request.get("seed")
        seed = check_seed(secrets.randbelow(MAX_SEED) if seed in (None, "") else seed)  # (no search finds it)
        seats = self._seats(request.get("seats"), players, seed)
        check_rounds(game.new_game(players, seed, params or None).rounds, self.limits)  # (and `rounds` 0)
        setup = {
            "rules": entry.path,
            "ruleset": game.name,
            "players": players,
            "seed": seed,
            "params": params,
            "seats": seats,
            "spectator": secrets.token_urlsafe(16),
        }
        table_id = secrets.token_hex(6)
        if self.store is not None:
            self.store.create(table_id, setup)
        return Table(table_id, setup, game, self.store)

    def _seats(self, seats: Any, players: int, seed: int) -> list[dict[str, Any]]:
        """Each seat's kind (human or agent), its agent, and a private token for a human seat."""
        if not isinstance(seats, list) or len(seats) != players:
            raise RulesetError(f"name {players} seats, one for each player")
        out = []
        for p, seat in enumerate(seats):
            kind = seat.get("kind") if isinstance(seat, dict) else None
            if kind not in KINDS:
                raise RulesetError(f"seat {p}: a seat is 'human' or 'agent', not {kind!r}")
            if kind == "agent":
                out.append({"kind": "agent", "agent": check_agent(seat.get("agent"), p, seed, self.limits)})
            else:
                out.append({"kind": "human", "token": secrets.token_urlsafe(16)})
        return out

    def _open(self, table: Table) -> Table:
        """A table made, among the server's, its links leading to it."""
        setup = table.setup
        self.tables[table.id] = table
        for p, seat in enumerate(setup["seats"]):
            if seat.get("token"):
                self.tokens[seat["token"]] = (table, p)
        self.tokens[setup["spectator"]] = (table, SPECTATOR)
        return table

    def open_saved(self) -> list[tuple[Table, list[dict[str, Any]]]]:
        """Open every table saved on disk, each with the moves to replay (``replay``, in a worker: the
        server answers meanwhile). A table that cannot even be opened is listed in ``broken`` with
        why, and its links say so: the server starts anyway."""
        out = []
        for table_id, setup, moves in self.store.saved() if self.store else []:
            rules = setup.get("rules") if isinstance(setup, dict) else None
            try:
                game = self.catalogue.by_path(rules)
            except Exception as err:  # (a table saved by any earlier server, whatever it holds: never fatal)
                self._broken(table_id, setup, f"not resumed: {unloaded(table_id, rules, err)}")
                continue
            try:
                out.append((self._open(Table(table_id, setup, game, self.store)), moves))
            except Exception as err:  # its agents, its deal...: said as a stopped table says it
                self._broken(table_id, setup, f"not resumed: {stopped(table_id, err, 'not resumed')}")
        return out

    def _broken(self, table_id: str, setup: Any, why: str) -> None:
        setup = setup if isinstance(setup, dict) else {}
        self.broken[table_id] = (setup, why)
        seats = setup.get("seats") if isinstance(setup.get("seats"), list) else []
        for token in [s.get("token") for s in seats if isinstance(s, dict)] + [setup.get("spectator")]:
            if isinstance(token, str) and token:
                self.refused[token] = why

    def replay(self, table: Table, moves: list[dict[str, Any]]) -> str | None:
        """Play a saved table's moves again (``Table.resume``): the problem, if it could not be."""
        try:
            table.resume(moves)
        except Exception as err:  # as in open_saved: one table's failure, not the server's
            table.failure = f"not resumed: {stopped(table.id, err)}"
        if table.failure:
            return f"table {table.id}: {table.failure}"
        try:
            table.record_file()  # (a game over whose record the disk refused before the restart)
        except SaveError as err:
            return f"table {table.id}: {err.message}"
        return None

    def find(self, token: str) -> tuple[Table, int] | None:
        return self.tokens.get(token)

    def links(self, table: Table) -> dict[str, Any]:
        """The private links of a table: one per human seat, and the spectator's."""
        return {
            "table": table.id,
            "seats": [
                {
                    "seat": p,
                    "kind": s["kind"],
                    "agent": s.get("agent"),
                    "link": f"/play/{s['token']}" if s.get("token") else None,
                }
                for p, s in enumerate(table.seats)
            ],
            "spectator": f"/play/{table.setup['spectator']}",
        }
