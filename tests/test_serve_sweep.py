"""What a seat's page is sent over a whole game, through a real server: every classic (each has
cards some seat does not see) played from deal to end by people at every seat choosing at random,
every message every seat's page and the spectator's receive checked against the seat's observation
at that moment (test_serve_hidden's checks: no card object, zone, move or word the seat does not
see). The property test there looks at random points of short games in process; this one reads
what goes over the sockets, all of it.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import pytest
from serve_support import running, token, ws_client
from test_serve_hidden import Seen, check_message

from conftest import HANG, ROOT, wait_until
from interpreter.play.web.views import SPECTATOR

CLASSICS = sorted((ROOT / "examples" / "classics").glob("*.rules"))
MAX_STEPS = 300  # (a long game, Switch's or War's, is looked at for its first 300 moves)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with running(tmp_path_factory.mktemp("sweep"), files=tuple(str(p) for p in CLASSICS)) as running_server:
        yield running_server


def state_now(sock, version: int) -> dict:
    """The page's state at ``version`` (a state sent twice, or at an earlier version, is skipped:
    each is built once per state of the table, and was checked when it was new)."""
    while True:
        msg = json.loads(sock.recv(timeout=HANG))
        assert msg["type"] == "state", msg
        if msg["version"] == version:
            return msg


def at_rest(server, table) -> bool:
    """No move of the table is being played: none written in a thread under its lock (a move is
    chosen there before its driver starts), no driver playing or sending."""
    return table.id not in server.hub.drivers and not server.hub.lock(table).locked()


@pytest.mark.parametrize("number", range(len(CLASSICS)), ids=[p.stem for p in CLASSICS])
def test_every_message_of_a_whole_game_shows_each_seat_only_what_it_sees(server, number):
    entry = server.tables.catalogue.get(f"file/{number}")
    game = entry.game
    players = max(game.min_players, min(3, game.max_players))
    rng = random.Random(number)
    links = server.create(f"file/{number}", ["human"] * players, seed=number)
    table = server.tables.tables[links["table"]]
    urls = [server.ws + token(s["link"]) for s in links["seats"]] + [server.ws + token(links["spectator"])]
    seats = [*range(players), SPECTATOR]
    checked = 0
    with contextlib.ExitStack() as held:
        pages = [held.enter_context(ws_client.connect(u)) for u in urls]
        for step in range(MAX_STEPS + 1):
            wait_until(lambda: at_rest(server, table), "the table at rest", every=0.002)
            last = [state_now(page, table.version) for page in pages]
            for seat, msg in zip(seats, last, strict=True):
                moves = table.offered.get(seat, (None, []))[1] if seat >= 0 and msg["moves"] else []
                assert seat < 0 or msg["chosen"] == (seat in table.chosen)
                check_message(msg, moves, table.state, Seen(table.state, seat))
                checked += 1
            assert table.failure is None, table.failure
            offered = {p: table.offered.get(p, (None, []))[1] for p in range(players) if p not in table.chosen}
            ready = [p for p, moves in offered.items() if moves]
            if table.state.over or not ready or step == MAX_STEPS:
                break
            mover = rng.choice(ready)
            move = {"type": "move", "move": rng.randrange(len(offered[mover])), "version": table.version}
            before = (table.version, len(table.chosen))
            pages[mover].send(json.dumps(move))
            wait_until(lambda was=before: (table.version, len(table.chosen)) != was, "the move played", every=0.002)
    assert table.state.over or step == MAX_STEPS, "played to the end (or the step cap)"
    assert checked >= 2 * len(seats)
    print(f"{Path(entry.path).stem}: {checked} messages checked, over: {table.state.over}")
