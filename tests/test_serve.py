"""`ruleset serve` at the websocket: what each seat is sent, what it may do, and nothing lost.

A real server on loopback (uvicorn in a thread); clients speak the protocol a page speaks.
"""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_support import get_json, receive, recorded_games, running, token, ws_client

from conftest import HANG, ROOT, run_cli, wait_until

KEDRIC = "shipped/poison-kedric-winks"


def play_random(server, socks, table, rng, stop=lambda: False):
    """The human seats choose at random until the game is over (or ``stop``); yields each round of messages."""
    last = [receive(s) for s in socks]
    while not table.state.over and not stop():
        ready = [i for i, m in enumerate(last) if m["moves"] and m["version"] == table.version]
        assert ready, "some human seat must be able to move"
        i = rng.choice(ready)
        socks[i].send(
            json.dumps({"type": "move", "move": rng.randrange(len(last[i]["moves"])), "version": last[i]["version"]})
        )
        last = [receive(s) for s in socks]
        yield last


def cards_in(message):
    """Every card object anywhere in a message."""
    stack, out = [message], []
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "type" in node and "suit" in node:
                out.append((node["type"], node["suit"], node.get("rank")))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def test_no_message_to_a_seat_holds_another_seats_hidden_cards(tmp_path):
    """Kedric Winks' drinks cards are all different: none in seat 1's hand may appear in any message to seat 0."""
    with running(tmp_path) as server:
        links = server.create(KEDRIC, ["human", "human", "greedy", "random"], {"hands": "2"})
        table = server.tables.tables[links["table"]]
        with (
            ws_client.connect(server.ws + token(links["seats"][0]["link"])) as a,
            ws_client.connect(server.ws + token(links["seats"][1]["link"])) as b,
        ):
            messages = 0
            for last in play_random(server, [a, b], table, random.Random(3)):
                st_, game = table.state, table.game
                lay = st_.layout
                hand_b = {
                    (game.cards.json[c]["type"], game.cards.json[c]["suit"], game.cards.json[c]["rank"])
                    for c in st_.zone_cards(lay.instances[game.zone_index["hand"]][1])
                }
                leaked = hand_b & set(cards_in(last[0]))
                assert not leaked, f"seat 0 was sent seat 1's hidden cards {leaked}"
                hand_view = next(z for z in last[0]["view"]["zones"] if z["name"] == "hand")["instances"][1]
                assert "cards" not in hand_view and hand_view["count"] == len(hand_b)
                messages += 1
            assert table.state.over and messages > 10


def test_a_spectator_sees_public_zones_only_and_cannot_move(tmp_path):
    """The spectator's link shows the trick and the won piles, every hand as a count; a move is refused;
    the table's rulebook is rendered from its rules."""
    with running(tmp_path) as server:
        links = server.create(KEDRIC, ["human", "greedy"], {"hands": "1"})
        with ws_client.connect(server.ws + token(links["spectator"])) as watcher:
            msg = receive(watcher)
            zones = {z["name"]: z for z in msg["view"]["zones"]}
            assert all("cards" not in i for i in zones["hand"]["instances"])
            assert all("cards" in i for i in zones["trick"]["instances"])
            assert msg["moves"] == [] and msg["view"]["seat"] is None
            watcher.send(json.dumps({"type": "move", "move": 0, "version": msg["version"]}))
            assert "spectator" in receive(watcher, "error")["message"]
        with urllib.request.urlopen(server.http + "/rulebook/" + token(links["spectator"])) as reply:
            page = reply.read().decode()
        assert "<html" in page and "Poison (Kedric Winks)" in page, "the rulebook is one link away"


def test_simultaneous_choice_waits_for_everyone_and_stays_hidden(tmp_path):
    """Kedric's agenda choice: seat 1 may choose before seat 0; its choice is not shown until all have chosen."""
    with running(tmp_path) as server:
        links = server.create(KEDRIC, ["human", "human", "random"], {"hands": "1"}, seed=5)
        table = server.tables.tables[links["table"]]
        with (
            ws_client.connect(server.ws + token(links["seats"][0]["link"])) as a,
            ws_client.connect(server.ws + token(links["seats"][1]["link"])) as b,
        ):
            ma, mb = receive(a), receive(b)
            assert ma["view"]["phase"] == "choose" and ma["view"]["simultaneous"]
            assert ma["moves"] and mb["moves"], "both people may choose at once"
            assert table.state.current == 1, "(the seat left of the dealer is asked first)"
            a.send(json.dumps({"type": "move", "move": 1, "version": ma["version"]}))
            ma, mb = receive(a), receive(b)
            assert ma["chosen"] and ma["moves"] == [] and mb["view"]["phase"] == "choose"
            assert mb["view"]["waiting"] == [1, 2] and mb["moves"], "seat 0 has chosen: the table waits for 1 and 2"
            up = next(z for z in mb["view"]["zones"] if z["name"] == "agenda_up")["instances"][0]
            assert up["cards"] == [], "seat 0's choice stays hidden while seat 1 chooses"
            b.send(json.dumps({"type": "move", "move": 0, "version": mb["version"]}))
            mb = receive(b)
            assert mb["view"]["phase"] == "tricks"
            up = next(z for z in mb["view"]["zones"] if z["name"] == "agenda_up")["instances"][0]
            assert up["cards"] == [table.game.cards.json[c] for c in table.state.zone_cards(up_inst(table, 0))]
            assert len(up["cards"]) == 1, "once everyone has chosen, the agenda seat 0 put face up shows"


def up_inst(table, seat):
    return table.state.layout.instances[table.game.zone_index["agenda_up"]][seat]


BAD = [
    "",
    "not json",
    "[1, 2]",
    "null",
    "42",
    '"move"',
    "{}",
    '{"type": "fly"}',
    '{"type": "move"}',
    '{"type": "move", "move": "0", "version": -1}',
    '{"type": "move", "move": true, "version": -1}',
    '{"type": "move", "move": -1, "version": -1}',
    '{"type": "move", "move": 99999999999999999999, "version": -1}',
    '{"type": "move", "move": 0.5, "version": -1}',
    '{"type": "move", "move": 0, "version": -7}',
    '{"type": "move", "move": 0, "version": null}',
    '{"type": "move", "move": [0], "version": -1}',
    '{"type": "move", "move": {"a": 1}, "version": -1}',
    "{" * 5000,
    "x" * 5000,
    '{"type": "move", "move": 0, "version": -1, "extra": "' + "y" * 4000 + '"}',
]


def test_hundreds_of_malformed_messages_get_errors_and_the_server_keeps_serving(tmp_path):
    """Garbage, wrong types, stale versions, binary frames, another seat's turn: each gets an error message.
    (No keepalive pings, the server's nor the clients': a ping draws from the `random` module, which
    hypothesis takes for a strategy of its own using it.)"""
    with running(tmp_path, pings=False) as server:
        links = server.create("shipped/poison", ["human", "human", "random", "random"], {"rounds": "1"})
        table = server.tables.tables[links["table"]]
        t0, t1 = token(links["seats"][0]["link"]), token(links["seats"][1]["link"])
        with (
            ws_client.connect(server.ws + t0, ping_interval=None) as a,
            ws_client.connect(server.ws + t1, ping_interval=None) as b,
        ):
            ma, _ = receive(a), receive(b)
            mover, waiter = (a, b) if ma["moves"] else (b, a)
            for text in BAD:
                mover.send(text)
                assert receive(mover, "error")["message"]
            mover.send(b"\x00\x01binary")
            assert "binary" in receive(mover, "error")["message"]
            waiter.send(json.dumps({"type": "move", "move": 0, "version": table.version}))
            assert "not your turn" in receive(waiter, "error")["message"]
            mover.send(json.dumps({"type": "move", "move": 0, "version": table.version + 1}))
            assert "changed" in receive(mover, "error")["message"]
            sent = [0]

            @settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
            @given(
                st.one_of(
                    st.text(max_size=60),
                    st.recursive(
                        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                        lambda inner: (
                            st.lists(inner, max_size=4)
                            | st.dictionaries(st.sampled_from(["type", "move", "version", "x"]), inner, max_size=4)
                        ),
                        max_leaves=12,
                    ).map(json.dumps),
                )
            )
            def garbage(text):
                try:
                    msg = json.loads(text)
                except ValueError:
                    msg = None
                if isinstance(msg, dict) and (msg.get("type") == "refresh" or msg.get("version") == table.version):
                    return  # (a refresh is a good message, and so may be a move at the current version)
                mover.send(text)
                sent[0] += 1
                assert receive(mover, "error")["message"]

            garbage()
            assert sent[0] + len(BAD) > 200
            version = table.version
            mover.send(json.dumps({"type": "refresh"}))
            state = receive(mover)
            assert state["version"] == version and state["moves"], "the same socket still serves"
            mover.send(json.dumps({"type": "move", "move": 0, "version": version}))
            assert receive(mover)["version"] > version, "and a good move is still played"
        with ws_client.connect(server.ws + "no-such-token") as stranger:
            assert "no table" in receive(stranger, "error")["message"]


def test_a_restarted_server_resumes_its_tables_and_keeps_finished_records(tmp_path):
    """Stop the server mid-game: a new one on the same folder shows the same table at the same move."""
    rng = random.Random(7)
    with running(tmp_path) as server:
        links = server.create("shipped/poison", ["human", "human", "greedy", "random"], {"rounds": "1"})
        done = server.create("shipped/poison", ["random", "random", "random"], {"rounds": "1"})
        table = server.tables.tables[links["table"]]
        t0 = token(links["seats"][0]["link"])
        with (
            ws_client.connect(server.ws + t0) as a,
            ws_client.connect(server.ws + token(links["seats"][1]["link"])) as b,
        ):
            for _ in play_random(server, [a, b], table, rng, stop=lambda: table.version >= 20):
                pass
            before = receive_fresh(a)
    assert before["version"] >= 20 and not before["finished"]
    with running(tmp_path) as server:
        assert server.resumed == []
        with ws_client.connect(server.ws + t0) as a:
            after = receive(a)
        assert after["version"] == before["version"]
        assert after["view"] == before["view"] and after["moves"] == before["moves"]
        finished = server.tables.tables[done["table"]]
        assert finished.state.over
        with urllib.request.urlopen(server.http + "/record/" + token(done["spectator"])) as reply:
            record = reply.read().decode()
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(server.http + "/record/" + t0)
    path = tmp_path / "finished.jsonl"
    path.write_text(record)
    result = run_cli("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert "every move legal" in result.stdout


def receive_fresh(sock):
    sock.send(json.dumps({"type": "refresh"}))
    return receive(sock)


def test_a_bad_upload_gets_checks_findings_and_a_good_one_is_offered(tmp_path):
    """An uploaded ruleset is checked first: an error comes back at its line; a good one joins the list."""
    with running(tmp_path) as server:

        def post(path, body):
            data, kind = json.dumps(body).encode(), {"Content-Type": "application/json"}
            req = urllib.request.Request(server.http + path, data=data, method="POST", headers=kind)
            try:
                with urllib.request.urlopen(req) as reply:
                    return reply.status, json.loads(reply.read())
            except urllib.error.HTTPError as err:
                return err.code, json.loads(err.read())

        text = (ROOT / "rulesets" / "poison.rules").read_text()
        status, reply = post("/api/upload", {"name": "mine.rules", "text": text.replace("to cauldron", "to kettle", 1)})
        assert status == 400 and "mine.rules:" in reply["error"] and "kettle" in reply["error"]
        status, reply = post("/api/upload", {"name": "mine.rules", "text": text.replace("limit = 13", "limit = 17")})
        assert status == 200 and reply["key"].startswith("upload/")
        status, links = post(
            "/api/tables",
            {"rules": reply["key"], "players": 3, "seats": [{"kind": "agent", "agent": "random"}] * 3, "params": {}},
        )
        assert status == 200
        assert server.tables.tables[links["table"]].state.params["limit"] == 17
        status, reply = post("/api/tables", {"rules": "shipped/poison", "players": 9, "seats": []})
        assert status == 400 and "3 to 6 players" in reply["error"]
        status, reply = post(
            "/api/tables",
            {"rules": "shipped/poison", "players": 3, "seats": [{"kind": "agent", "agent": "genius"}] * 3},
        )
        assert status == 400 and "unknown agent" in reply["error"]


def test_the_replay_viewer_steps_forward_and_back_as_one_seat_or_all(tmp_path):
    """serve --replay: at a step, seat 0 sees its hand and counts of the others'; "all" sees every hand."""
    book = recorded_games()
    with running(tmp_path, book) as server:
        status, games = get_json(server.http + "/api/rulesets")
        assert status == 200 and games["replay"][0]["players"] == 3
        steps = games["replay"][0]["moves"]
        status, seat0 = get_json(server.http + "/api/replay/0/5?seat=0")
        hands = next(z for z in seat0["view"]["zones"] if z["name"] == "hand")["instances"]
        assert "cards" in hands[0] and all("cards" not in h for h in hands[1:])
        status, every = get_json(server.http + "/api/replay/0/5?seat=all")
        hands = next(z for z in every["view"]["zones"] if z["name"] == "hand")["instances"]
        assert all("cards" in h for h in hands) and every["steps"] == steps
        _, later = get_json(server.http + "/api/replay/0/6?seat=all")
        _, back = get_json(server.http + "/api/replay/0/5?seat=all")
        assert back == every != later
        _, last = get_json(server.http + f"/api/replay/0/{steps}?seat=table")
        assert last["view"]["over"] and last["view"]["totals"] == book.records[0][0]["totals"]
        status, bad = get_json(server.http + f"/api/replay/0/{steps + 1}?seat=0")
        assert status == 400 and f"steps 0 to {steps}" in bad["error"]
        status, bad = get_json(server.http + "/api/replay/0/1?seat=7")
        assert status == 400 and "seat is all, table or 0 to 2" in bad["error"]


def test_the_serve_command_prints_its_address_and_serves_the_lobby(tmp_path):
    """`ruleset serve --port P` says where the lobby is; a missing record file is an error, not a traceback."""
    import socket
    import subprocess
    import sys

    result = run_cli("serve", "--replay", str(tmp_path / "none.jsonl"))
    assert result.returncode == 2 and "no such record file" in result.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", "--port", str(port), "--data", str(tmp_path / "data")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line

        def lobby() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=HANG) as reply:
                    assert b"ruleset" in reply.read()
                return True
            except urllib.error.URLError:
                return False

        wait_until(lobby, "the lobby to answer")
    finally:
        proc.terminate()
        proc.wait(timeout=HANG)
        proc.stdout.close()  # (no ResourceWarning)


def test_serve_on_a_port_in_use_says_so_and_prints_no_address(tmp_path):
    """Another program holds the port: a clear error, exit code 2, and no lobby address printed as
    if the server were there (nor the web server's own error)."""
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = run_cli("serve", "--port", str(port), "--data", str(tmp_path / "data"))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "http://" not in result.stdout
    assert f"error: cannot listen on 127.0.0.1:{port}: the port is in use by another program" in result.stderr
    assert f"hint: choose another port, e.g. --port {port + 1}" in result.stderr
    assert "Traceback" not in result.stderr and "Errno" not in result.stderr


def test_a_choice_held_in_a_simultaneous_phase_survives_a_restart(tmp_path):
    """Kedric's agenda choice: seat 0 chooses before its turn (held); the server stops; after the
    restart the choice is still held and played when the engine asks seat 0."""
    with running(tmp_path) as server:
        links = server.create(KEDRIC, ["human", "human", "random"], {"hands": "1"}, seed=5)
        t0, t1 = (token(links["seats"][p]["link"]) for p in (0, 1))
        table = server.tables.tables[links["table"]]
        with ws_client.connect(server.ws + t0) as a:
            ma = receive(a)
            assert table.state.current == 1, "(seat 1 is asked first: seat 0's choice is held)"
            a.send(json.dumps({"type": "move", "move": 1, "version": ma["version"]}))
            assert receive(a)["chosen"]
            held = table.chosen[0]
    with running(tmp_path) as server:
        assert server.resumed == []
        table = server.tables.tables[links["table"]]
        cards = table.game.cards.json
        assert list(table.chosen) == [0] and cards[table.chosen[0].card] == cards[held.card], "held again"
        with ws_client.connect(server.ws + t0) as a, ws_client.connect(server.ws + t1) as b:
            assert receive(a)["chosen"]
            mb = receive(b)
            b.send(json.dumps({"type": "move", "move": 0, "version": mb["version"]}))
            assert receive(b)["view"]["phase"] == "tricks"
        assert table.game.cards.json[held.card] in [
            table.game.cards.json[c] for c in table.state.zone_cards(up_inst(table, 0))
        ], "seat 0's held agenda was played"
