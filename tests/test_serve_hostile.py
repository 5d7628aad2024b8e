"""`ruleset serve` attacked a second time (docs/serve.md): what a stopped table tells its seats, how
long a request's body and a websocket message may take, who counts as one address behind a proxy,
and websocket floods. Real servers on loopback (serve_support), each finding a test that failed first.
"""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest
from serve_support import get_json, post, receive, recorded_games, running, token, ws_client
from test_serve_live import frame, play_moves, raw_websocket, until

from conftest import HANG, ROOT
from interpreter.play.web.limits import Limits

# Poison, with a rule that fails once a card is played: it draws "the value of the first card in
# the player's hand, less 100" cards, a negative count that the engine's error prints (a private
# value: the hand is the player's alone).
FAILING = (
    "    after play\n"
    "      draw value of first card in hand of player - 100 from hand of player to collected of player\n"
)


def failing_rules() -> str:
    text = (ROOT / "rulesets" / "poison.rules").read_text()
    out = text.replace("    ends when every hand is empty\n", FAILING + "    ends when every hand is empty\n")
    assert out != text
    return out


def upload(server, name: str, text: str) -> dict:
    """An uploaded ruleset, as the lobby lists it (key, file...)."""
    return post(server.http + "/api/upload", {"name": name, "text": text})


def test_a_table_stopped_by_its_rules_shows_the_rules_place_never_a_computed_value(tmp_path, capfd):
    """A ruleset built to fail with a private value in its error: the seats, the spectator and the
    lobby are told the error's kind and the rule's place; only the server's log has the message."""
    with running(tmp_path) as server:
        entry = upload(server, "leak.rules", failing_rules())
        links = server.create(entry["key"], ["random", "random", "random"], seed=5)
        with ws_client.connect(server.ws + token(links["spectator"])) as watcher:
            msg = receive(watcher)
            while not msg["failure"]:
                msg = receive(watcher)
        shown = msg["failure"]
        _, listed = get_json(server.http + "/api/tables")
        assert [t["failure"] for t in listed["tables"]] == [shown]
    assert f"{entry['file']}:46:7" in shown and "the rules could not go on" in shown, shown
    assert "draw" not in shown and not re.search(r"-\d", shown), "no computed value is shown"
    log = capfd.readouterr().err
    assert re.search(r"cannot draw -\d+ cards", log) and links["table"] in log, "the server's log has the whole"


def dribble(port: int, head: bytes, body: bytes, gap: float) -> tuple[float, bytes]:
    """Send a request's head at once and its body a byte every ``gap`` seconds, until the server
    answers or closes; how long that took, and what it said (b"" if it closed or never answered)."""
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(head)
        sock.settimeout(gap)
        for byte in body:
            try:
                sock.sendall(bytes([byte]))
                return time.monotonic() - start, sock.recv(4096)
            except TimeoutError:
                continue  # (nothing yet: the next byte)
            except OSError:
                break
    return time.monotonic() - start, b""


def test_a_request_body_sent_a_byte_at_a_time_is_cut_off_at_its_deadline(tmp_path):
    """A POST whose body comes a byte every 0.1 s (here 100 bytes, 10 s) is answered 408 with the
    reason and closed once ``body_time`` (here 0.5 s) has passed since its head; the lobby answers."""
    with running(tmp_path, limits=Limits(body_time=0.5)) as server:
        port = int(server.http.rsplit(":", 1)[1])
        body = json.dumps({"rules": "shipped/poison", "players": 3, "pad": "x" * 40}).encode()
        head = (
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)
        )
        took, said = dribble(port, head, body, 0.1)
        assert b" 408 " in said and b"0.5 seconds" in said and b"connection: close" in said.lower(), said
        assert took < 3, f"cut off after {took:.1f} s, not at its deadline"
        assert get_json(server.http + "/api/tables")[0] == 200


def ask(http: str, path: str, headers: dict[str, str]) -> int:
    """The status of a GET with these headers."""
    try:
        with urllib.request.urlopen(urllib.request.Request(http + path, headers=headers), timeout=HANG) as reply:
            return reply.status
    except urllib.error.HTTPError as err:
        return err.code


def pages(url: str, count: int, forwarded: str | None, held: contextlib.ExitStack) -> list:
    """``count`` open pages at ``url``, each sent as a proxy sends it (X-Forwarded-For) if given."""
    headers = {"X-Forwarded-For": forwarded} if forwarded else None
    return [held.enter_context(ws_client.connect(url, additional_headers=headers)) for _ in range(count)]


def test_behind_a_trusted_proxy_each_client_has_its_own_cap(tmp_path):
    """A server told its proxy's address (--trust-proxy 127.0.0.1) counts the connections that come
    through it by the client address the proxy adds (the last of X-Forwarded-For): with a cap of 3,
    a client holding 3 pages is refused a fourth request (429) while another client is served."""
    with running(tmp_path, limits=Limits(max_client_sockets=3), proxies=("127.0.0.1",)) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], seed=1)
        url = server.ws + token(links["spectator"])
        with contextlib.ExitStack() as held:
            alice = pages(url, 3, "10.0.0.9, 192.168.1.7", held)  # (the first, the client's own word: not read)
            assert all(receive(p)["type"] == "state" for p in alice)
            assert ask(server.http, "/api/tables", {"X-Forwarded-For": "192.168.1.7"}) == 429
            assert ask(server.http, "/api/tables", {"X-Forwarded-For": "10.0.0.9, 192.168.1.8"}) == 200
            bob = pages(url, 2, "192.168.1.8", held)
            assert all(receive(p)["type"] == "state" for p in bob)
            alice[0].close()
            until(lambda: ask(server.http, "/api/tables", {"X-Forwarded-For": "192.168.1.7"}) == 200, "alice's turn")


def test_x_forwarded_for_is_not_read_unless_its_proxy_is_named(tmp_path):
    """Without --trust-proxy the header is a client's word: three pages claiming three addresses are
    three connections of one address, and its cap of 3 refuses a fourth."""
    with running(tmp_path, limits=Limits(max_client_sockets=3)) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], seed=1)
        url = server.ws + token(links["spectator"])
        with contextlib.ExitStack() as held:
            claimed = [pages(url, 1, f"10.0.0.{n}", held)[0] for n in range(3)]
            assert all(receive(p)["type"] == "state" for p in claimed)
            assert ask(server.http, "/api/tables", {"X-Forwarded-For": "10.0.0.7"}) == 429


def test_a_rulebook_is_rendered_once_and_never_on_the_event_loop(tmp_path, monkeypatch):
    """Thirty requests for one ruleset's rulebook, ten of them at once, and ten for a table's: two
    renderings (the ruleset's, the table's with its parameters), each in a thread, not the event
    loop's. (A rulebook takes 20 to 60 ms to render in pure Python, on the event loop at every
    request: 64 connections asking for it again and again held every table's moves for seconds.)"""
    from interpreter.play.web import rulebooks

    rendered = []

    def render(ir, form, params, text):
        rendered.append((ir["name"], dict(params), threading.current_thread().name))
        return real(ir, form, params, text)

    real = rulebooks.render
    monkeypatch.setattr(rulebooks, "render", render)
    with running(tmp_path) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], params={"rounds": "2"})
        loop_thread = server.thread.name

        def fetch(path: str) -> int:
            with urllib.request.urlopen(server.http + path, timeout=HANG) as reply:
                return reply.status if b"Poison" in reply.read() else 0

        at_once = [threading.Thread(target=fetch, args=("/rulebook/shipped/poison",)) for _ in range(10)]
        for thread in at_once:
            thread.start()
        for thread in at_once:
            thread.join()
        assert all(fetch("/rulebook/shipped/poison") == 200 for _ in range(20))
        assert all(fetch("/rulebook/" + token(links["spectator"])) == 200 for _ in range(10))
    assert sorted((name, sorted(params.items())) for name, params, _ in rendered) == [
        ("Poison", []),
        ("Poison", [("rounds", "2")]),
    ]
    assert all(thread != loop_thread for _, _, thread in rendered)


def test_the_replay_viewer_replays_off_the_event_loop_and_keeps_a_few_games(tmp_path, monkeypatch):
    """A record file of 20 games, each game's steps asked for: each game is replayed once while it
    is kept, in a thread, and at most KEEP games' steps are kept (each step is a copy of the game's
    state: kept for every game of a file of thousands, a visitor asking for each grew the server
    without bound)."""
    from interpreter.play.web import replays

    played = []

    def replay(*args, **kwargs):
        played.append(threading.current_thread().name)
        return real(*args, **kwargs)

    real = replays.replay
    monkeypatch.setattr(replays, "replay", replay)
    book = recorded_games()
    book = replays.ReplayBook(book.records * 20)
    with running(tmp_path, replays=book) as server:
        for game in range(20):
            for step in (0, 3, 1):
                status, reply = get_json(f"{server.http}/api/replay/{game}/{step}?seat=0")
                assert status == 200 and reply["step"] == step, reply
        loop_thread = server.thread.name
    assert len(played) == 20 and loop_thread not in played
    assert len(book.kept) <= replays.KEEP < 20


def test_websocket_messages_too_big_not_json_or_not_a_move_get_an_error_or_a_close_never_a_stall(tmp_path):
    """On a seat's socket: a message that is not JSON, one of 10,000 characters, one not an object
    and one with a seat's number (not the link's seat) each get an error and the socket stays; a
    message over 64 KiB, sent plain or compressed (10 MB of one letter, a few KB on the wire), closes
    the socket (1009) without the server reading it whole; thousands of junk messages on the
    spectator's link, never read back, close that page, and the seat plays on."""
    from websockets.exceptions import ConnectionClosed

    with running(tmp_path, limits=Limits(send_timeout=2)) as server:
        links = server.create("shipped/poison", ["human", "random", "random"], seed=4)
        mine = server.ws + token(links["seats"][0]["link"])
        with ws_client.connect(mine) as page:
            state = receive(page)
            for junk, said in (
                ("{not json", "a message is a JSON object"),
                ("x" * 10_000, "at most 4096 characters"),
                ("[1, 2]", "type is 'move' or 'refresh'"),
            ):
                page.send(junk)
                assert said in receive(page, "error")["message"]
            if state["moves"]:  # (seat 0 to move: a move claimed for seat 1 is seat 0's move, or refused)
                page.send(json.dumps({"type": "move", "move": 0, "version": state["version"], "seat": 1}))
                assert receive(page)["view"]["seat"] == 0
            page.send(json.dumps({"type": "refresh"}))
            assert receive(page)["type"] == "state", "the socket stays open"
        for huge in ("y" * 70_000, "z" * 10_000_000):
            with ws_client.connect(mine, max_size=None) as page:
                receive(page)
                page.send(huge)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        page.recv(timeout=HANG)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        port = int(server.http.rsplit(":", 1)[1])
        flood = raw_websocket(port, "/ws/" + token(links["spectator"]))
        with contextlib.suppress(OSError):
            for _ in range(200):
                flood.sendall(frame("junk") * 50)
        with ws_client.connect(mine) as person:
            assert play_moves(person, 3) == 3
        until(lambda: len(server.hub.pages.get(links["table"], ())) == 0, "the page that does not read is closed")
        flood.close()


def quiet(sock, wait: float = 1.0) -> list[dict]:
    """Every message a socket is sent until it has been quiet for ``wait`` seconds."""
    out = []
    with contextlib.suppress(TimeoutError):
        while True:
            out.append(json.loads(sock.recv(timeout=wait)))
    return out


def ends_the_game(table) -> bool:
    """Whether the first move offered to the table's current seat ends the game."""
    state = table.state.copy()
    state.apply(table.offered[state.current][1][0])
    return state.over


def test_moves_racing_the_games_last_move_play_once_and_the_record_is_the_journal(tmp_path):
    """Three people play a game to its last move; then the mover's two tabs and the other seats all
    send a move at once: one is played, every other is refused, the game is over, and the record
    served is the journal's moves, each once."""
    with running(tmp_path) as server:
        links = server.create("shipped/poison", ["human"] * 3, params={"rounds": "1"}, seed=8)
        table = server.tables.tables[links["table"]]
        urls = [server.ws + token(s["link"]) for s in links["seats"]]
        with contextlib.ExitStack() as held:
            socks = [held.enter_context(ws_client.connect(u)) for u in urls]
            last = [receive(s) for s in socks]
            while not ends_the_game(table):
                mover = table.state.current
                socks[mover].send(json.dumps({"type": "move", "move": 0, "version": last[mover]["version"]}))
                last = [receive(s) for s in socks]
            mover, version = table.state.current, last[0]["version"]
            tab = held.enter_context(ws_client.connect(urls[mover]))
            receive(tab)
            racing = [*socks, tab]
            for sock in racing:
                sock.send(json.dumps({"type": "move", "move": 0, "version": version}))
            until(lambda: table.state.over, "the game to end")
            refused = [m for sock in racing for m in quiet(sock) if m["type"] == "error"]
        assert table.state.over and table.version == version + 1
        assert len(refused) == 3, refused
        moves = (tmp_path / "tables" / links["table"] / "moves.jsonl").read_text().splitlines()
        with urllib.request.urlopen(server.http + "/record/" + token(links["spectator"]), timeout=HANG) as reply:
            rec = json.loads(reply.read())
    assert len(moves) == table.version == sum(len(r["moves"]) for r in rec["rounds"])


def test_a_saved_table_that_does_not_reopen_shows_no_path_no_computed_value_and_no_python_text(tmp_path, capfd):
    """Three saved tables that cannot be opened again: one whose rules file is gone (the error names
    its folder), one whose rules file now fails at the deal with a value computed from the shuffled
    deck, one whose set-up was garbled (Python's own error text). The lobby and every link say only
    what failures.py lets a seat see; the server's log has the whole of each, with its table."""
    secret = tmp_path / "operators-private-folder"
    secret.mkdir()
    gone, dealt = secret / "gone.rules", secret / "dealt.rules"
    poison = (ROOT / "rulesets" / "poison.rules").read_text()
    gone.write_text(poison)
    dealt.write_text(poison)
    data = tmp_path / "data"
    with running(data, files=(str(gone), str(dealt))) as server:
        seats = ["human", "random", "random"]
        tables = [server.create(rules, seats, seed=4) for rules in ("file/0", "file/1", "shipped/poison")]
    gone.unlink()
    deal = "  deal all to hand, one at a time, as 4 players when players = 3\n"
    dealt.write_text(poison.replace(deal, "  deal value of first card in deck - 100 to hand\n"))
    garbled = data / "tables" / tables[2]["table"] / "table.json"
    garbled.write_text(json.dumps({**json.loads(garbled.read_text()), "seats": "not a list of seats"}))
    capfd.readouterr()
    with running(data, files=(str(dealt),)) as server:
        _, listed = get_json(server.http + "/api/tables")
        shown = {t["table"]: t["failure"] for t in listed["tables"]}
        links = [t["seats"][0]["link"] for t in tables[:2]] + [t["spectator"] for t in tables]  # (seats garbled)
        for link in links:
            with ws_client.connect(server.ws + token(link)) as page:
                said = receive(page, "error")["message"]
                assert said == shown[link_table(tables, link)], "a link says what the lobby says"
    log = capfd.readouterr().err
    for table, leak in zip(tables, ("operators-private-folder", "cannot deal -", "string indices"), strict=True):
        why = shown[table["table"]]
        assert why and "not resumed" in why and "the server's log says why" in why, why
        assert leak not in why and not re.search(r"-\d", why) and str(tmp_path) not in why, why
        assert table["table"] in log and leak in log, f"the log has the whole: {leak}"
    assert "gone.rules" in shown[tables[0]["table"]], "the lobby names the rules file, not its folder"
    assert "dealt.rules:30:3" in shown[tables[1]["table"]], "the rule's place, as a stopped table says"
    assert "TypeError" in shown[tables[2]["table"]], "the error's kind"


def link_table(tables: list[dict], link: str) -> str:
    """The table a seat's or spectator's link leads to."""
    return next(t["table"] for t in tables if link in (t["spectator"], *(s["link"] for s in t["seats"])))


def test_an_engine_error_while_a_page_is_refreshed_is_answered_and_the_other_tables_play(tmp_path, capfd):
    """A ruleset whose view fails (a cauldron's definition divides by zero once it holds cards:
    only a page's view reads it, never a move): every page that opens or refreshes is answered
    with the failure's kind and place, never the error's text; the lobby says the same; the
    server's log has the whole; a person at another table plays on."""
    text = (ROOT / "rulesets" / "poison.rules").read_text()
    shown_at = "define color of cauldron = color of first potion in it else none\n"
    rules = text.replace(shown_at, shown_at + "define odds of cauldron = 7 / (count it - count it)\n")
    assert rules != text
    with running(tmp_path) as server:
        entry = upload(server, "view.rules", rules)
        bad = server.create(entry["key"], ["human", "random", "random"], seed=3)
        good = server.create("shipped/poison", ["human", "random", "random"], seed=2)
        for link in (bad["seats"][0]["link"], bad["spectator"], bad["seats"][0]["link"]):
            with ws_client.connect(server.ws + token(link)) as page:
                said = receive(page, "error")["message"]
                assert f"{entry['file']}:26:" in said and "the rules could not go on" in said, said
                assert "division" not in said and "zero" not in said, said
                page.send(json.dumps({"type": "refresh"}))
                assert receive(page, "error")["message"] == said, "a refresh is answered the same"
        _, listed = get_json(server.http + "/api/tables")
        stopped = {t["table"]: t["failure"] for t in listed["tables"]}[bad["table"]]
        assert said == f"the game stopped: {stopped}", "the lobby says what the pages say"
        with ws_client.connect(server.ws + token(good["seats"][0]["link"])) as person:
            assert play_moves(person, 5) == 5
    log = capfd.readouterr().err
    assert "division by zero" in log and bad["table"] in log, "the server's log has the whole"


def test_a_move_or_a_table_whose_write_is_slow_holds_up_no_other_table(tmp_path, monkeypatch):
    """A person's move, and a new table's set-up, are written (and synced) to the disk before they
    count: a disk that takes its time (a busy SD card, a network share) must hold up that move or
    that table only. While they are still being written, a person at another table plays moves."""
    from interpreter.play.web.store import TableStore

    slow, held, stuck = threading.Event(), threading.Semaphore(0), []
    append, create = TableStore.append_move, TableStore.create

    def slow_move(self, table_id, move):
        if table_id in stuck:
            held.release()
            slow.wait(HANG)
        return append(self, table_id, move)

    def slow_table(self, table_id, setup):
        if stuck:
            held.release()
            slow.wait(HANG)
        return create(self, table_id, setup)

    monkeypatch.setattr(TableStore, "append_move", slow_move)
    monkeypatch.setattr(TableStore, "create", slow_table)
    with running(tmp_path) as server:
        blocked = server.create("shipped/poison", ["human", "random", "random"], seed=2)
        good = server.create("shipped/poison", ["human", "random", "random"], seed=3)
        stuck.append(blocked["table"])
        made = []
        later = threading.Thread(target=lambda: made.append(server.create("shipped/poison", ["human"] * 3)))
        try:
            with ws_client.connect(server.ws + token(blocked["seats"][0]["link"])) as waiting:
                msg = receive(waiting)
                waiting.send(json.dumps({"type": "move", "move": 0, "version": msg["version"]}))
                later.start()
                assert held.acquire(timeout=HANG) and held.acquire(timeout=HANG), "both are being written"
                with ws_client.connect(server.ws + token(good["seats"][0]["link"])) as person:
                    assert play_moves(person, 3) == 3, "another table plays meanwhile"
                slow.set()
                assert receive(waiting)["version"] > msg["version"], "the slow move counts once written"
                later.join(HANG)
                assert made and made[0]["table"] in server.tables.tables, "the slow table is set up once written"
        finally:
            slow.set()
