"""What an upload may read and what a request may carry, against a real server on loopback: an
upload reads no file the server does not offer, a table is checked in full before anything of it is
written, and bad or foreign requests get a clear refusal (never a 500 or a dropped socket)."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from serve_support import receive, recorded_games, running, token, ws_client

from conftest import HANG, ROOT, wait_until
from interpreter.play.web.limits import Limits

POISON = (ROOT / "rulesets" / "poison.rules").read_text()
AGENTS3 = [{"kind": "agent", "agent": "random"}] * 3


def send(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """POST ``body`` (JSON unless bytes) as the lobby does, with ``headers`` added; status and reply."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **(headers or {})}
    req = urllib.request.Request(url, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=HANG) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        text = err.read().decode("utf-8", "replace")
        try:
            return err.code, json.loads(text)
        except ValueError:
            return err.code, text


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=HANG) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode("utf-8", "replace")


def variant(base: str) -> str:
    return f'extends "{base}"\ngame "Mine"\nparam limit = 17\n'


def table_folders(server) -> list[str]:
    return sorted(p.name for p in (server.store.root / "tables").iterdir())


# ---- what an upload may read ---------------------------------------------------------------------


SECRET_PATHS = ["/etc/passwd", "/proc/self/environ", "../../../../etc/passwd", "../tables", "./x.rules"]


@pytest.mark.parametrize("path", SECRET_PATHS)
def test_an_upload_that_extends_a_path_is_refused_without_reading_it(tmp_path, path):
    """`extends "/etc/passwd"` answered 400 quoting the file's first line: now it is refused as a
    path, the reply quotes nothing but the upload, and says the same whether the path exists or not."""
    with running(tmp_path) as server:
        status, reply = send(server.http + "/api/upload", {"name": "mine.rules", "text": variant(path)})
        assert status == 400 and "not a path" in reply["error"]
        assert "root:" not in reply["error"] and os.environ.get("PATH", "/bin") not in reply["error"]
        _, missing = send(server.http + "/api/upload", {"name": "mine.rules", "text": variant(path + "-none")})
        untimed = [re.sub(r"\(\d+\.\d s\)", "", r["error"]) for r in (missing, reply)]  # (the check's time)
        assert untimed[0].replace(path + "-none", path) == untimed[1], "existing or not: one answer"
        assert not list(server.store.uploads.iterdir()), "a refused upload is not kept"


def test_an_upload_with_an_extends_path_longer_than_any_file_gets_a_400(tmp_path):
    with running(tmp_path) as server:
        status, reply = send(server.http + "/api/upload", {"name": "m.rules", "text": variant("a" * 5000)})
        assert status == 400 and "mine.rules" not in reply["error"] and "m.rules:1:" in reply["error"]


def test_an_upload_extends_a_shipped_ruleset_or_another_upload_by_name(tmp_path):
    """The two things an upload may extend: a shipped ruleset by its name, another upload by its file name."""
    with running(tmp_path) as server:
        status, first = send(server.http + "/api/upload", {"name": "a.rules", "text": variant("poison")})
        assert status == 200, first
        text = f'extends "{first["file"]}"\ngame "Mine again"\nparam limit = 19\n'
        status, second = send(server.http + "/api/upload", {"name": "b.rules", "text": text})
        assert status == 200, second
        status, links = send(
            server.http + "/api/tables", {"rules": second["key"], "players": 3, "seats": AGENTS3, "seed": 2}
        )
        assert status == 200 and server.tables.tables[links["table"]].state.params["limit"] == 19
        status, nope = send(server.http + "/api/upload", {"name": "c.rules", "text": variant("nonesuch")})
        assert status == 400 and "no ruleset named nonesuch" in nope["error"]
        status, deeper = send(
            server.http + "/api/upload", {"name": "d.rules", "text": variant("poison-five-card.rules")}
        )
        assert status == 200, deeper
    with running(tmp_path) as server:
        assert second["key"] in server.tables.catalogue.entries, "both uploads are offered again after a restart"


def test_an_upload_kept_from_before_that_extends_a_path_is_not_offered_at_start(tmp_path):
    """Uploads reloaded when the server starts follow the same rule: one that names a path (saved by
    an older server) is left out, though the file it names is a ruleset."""
    outside = tmp_path / "outside.rules"
    outside.write_text(POISON)
    (tmp_path / "uploads").mkdir()
    (tmp_path / "uploads" / "0123456789abcdef.rules").write_text(f'extends "{outside}"\ngame "Old"\n')
    (tmp_path / "uploads" / "fedcba9876543210.rules").write_text(variant("poison"))
    with running(tmp_path) as server:
        assert "upload/0123456789abcdef" not in server.tables.catalogue.entries
        assert "upload/fedcba9876543210" in server.tables.catalogue.entries


def test_an_upload_error_names_a_shipped_base_by_its_name_not_where_it_is_installed(tmp_path):
    with running(tmp_path) as server:
        text = 'extends "poison"\ngame "M"\nparam nope = 3\n'
        status, reply = send(server.http + "/api/upload", {"name": "m.rules", "text": text})
        assert status == 400 and "poison.rules has no parameter 'nope'" in reply["error"]
        assert str(ROOT) not in reply["error"] and str(tmp_path) not in reply["error"]


@pytest.mark.parametrize(
    "key", ["..%2F..%2F..%2Fetc%2Fpasswd", "file/../../../etc/passwd", "%2Fetc%2Fpasswd", "upload/"]
)
def test_the_rulebook_route_reads_only_what_the_catalogue_lists(tmp_path, key):
    with running(tmp_path) as server:
        status, text = get(server.http + "/rulebook/" + key)
        assert status == 404 and "root:" not in text


# ---- a table is checked in full before anything is written ---------------------------------------


@pytest.mark.parametrize(
    ("params", "seats", "said"),
    [
        (["rounds", "1"], AGENTS3, "params is an object"),
        ("rounds=1", AGENTS3, "params is an object"),
        ({"rounds": "1000000000"}, AGENTS3, "at most 100"),
        ({"rounds": "0"}, AGENTS3, "at least one round"),
        ({"limit": "1" + "0" * 30}, AGENTS3, "limited to 1,000,000,000"),
        ({"limit": {"a": 1}}, AGENTS3, "a number, a text or true/false"),
        ({}, [{"kind": "agent", "agent": "mcts(c=nan)"}] * 3, "finite number"),
        ({}, [{"kind": "agent", "agent": "mcts(time=100000)"}] * 3, "more than this server allows"),
        ({}, [{"kind": "agent", "agent": "mcts:99999999"}] * 3, "more than this server allows"),
        ({}, [{"kind": "agent", "agent": "random" + " " * 300}] * 3, "at most 200 characters"),
    ],
    ids=[
        "params-list",
        "params-text",
        "rounds-huge",
        "rounds-0",
        "huge-number",
        "nested",
        "nan",
        "time",
        "its",
        "long",
    ],
)
def test_a_refused_table_answers_400_and_writes_nothing(tmp_path, params, seats, said):
    """Each of these answered 500, froze the server or left a table folder (after which, for
    mcts(c=nan), the server refused to start): now a 400 that says why, and nothing on disk."""
    with running(tmp_path) as server:
        body = {"rules": "shipped/poison", "players": 3, "params": params, "seats": seats}
        status, reply = send(server.http + "/api/tables", body)
        assert status == 400 and said in reply["error"], reply
        assert table_folders(server) == [] and server.tables.tables == {}
    with running(tmp_path) as server:
        assert server.resumed == []


def test_the_server_caps_are_its_options(tmp_path):
    """Lower caps (as `serve --max-rounds 2 --max-players 3` gives them) refuse what the defaults allow."""
    with running(tmp_path, limits=Limits(max_rounds=2, max_players=3)) as server:
        body = {"rules": "shipped/poison", "players": 3, "params": {"rounds": "3"}, "seats": AGENTS3}
        status, reply = send(server.http + "/api/tables", body)
        assert status == 400 and "at most 2" in reply["error"] and "--max-rounds" in reply["error"]
        body = {"rules": "shipped/poison", "players": 4, "seats": AGENTS3 + AGENTS3[:1]}
        status, reply = send(server.http + "/api/tables", body)
        assert status == 400 and "3 to 3 players" in reply["error"]
        status, _ = send(
            server.http + "/api/tables", {**body, "players": 3, "seats": AGENTS3, "params": {"rounds": "2"}}
        )
        assert status == 200


def test_tables_are_capped_in_number_and_a_refused_one_writes_nothing(tmp_path):
    """Anyone may set up a table, each a folder and a game in memory: past --max-tables (here 2,
    finished tables included) one more is refused with the reason, and nothing of it is written."""
    body = {"rules": "shipped/poison", "players": 3, "params": {"rounds": "1"}, "seats": AGENTS3}
    with running(tmp_path, limits=Limits(max_tables=2)) as server:
        assert [send(server.http + "/api/tables", body)[0] for _ in range(2)] == [200, 200]
        wait_until(lambda: all(t.state.over for t in server.tables.tables.values()), "the two games to end")
        status, reply = send(server.http + "/api/tables", body)
        assert status == 400 and "already holds 2 tables" in reply["error"] and len(table_folders(server)) == 2


def test_uploads_are_capped_in_size_and_count(tmp_path):
    with running(tmp_path, limits=Limits(upload_bytes=4000, uploads=1)) as server:
        status, reply = send(server.http + "/api/upload", {"name": "big.rules", "text": POISON + "#" * 4000})
        assert status == 400 and "larger than 4,000 bytes" in reply["error"]
        assert send(server.http + "/api/upload", {"name": "a.rules", "text": variant("poison")})[0] == 200
        status, reply = send(server.http + "/api/upload", {"name": "b.rules", "text": variant("poison") + "\n"})
        assert status == 400 and "already holds 1" in reply["error"]


def test_a_refused_upload_leaves_nothing_behind_on_disk_or_in_memory(tmp_path):
    """Refused uploads are never capped in number: each must leave nothing, neither its file nor its
    text kept for error messages (kept, a client sending different refused files of 60 KB each
    grew the server by a gigabyte in a quarter of an hour)."""
    import hashlib

    from interpreter.errors import source_text

    with running(tmp_path) as server:
        for n in range(3):
            text = f"# {n}\n" + "# padding\n" * 2000 + 'game "x"\nthis is not a rule\n'
            status, reply = send(server.http + "/api/upload", {"name": "bad.rules", "text": text})
            assert status == 400 and "bad.rules:" in reply["error"]
            path = server.store.uploads / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.rules"
            assert not path.exists() and source_text(str(path)) is None
        assert send(server.http + "/api/upload", {"name": "good.rules", "text": variant("poison")})[0] == 200


def test_a_copy_count_of_thousands_of_digits_is_an_error_at_its_place(tmp_path):
    with running(tmp_path) as server:
        text = POISON.replace("x3", "x" + "9" * 5000, 1)
        status, reply = send(server.http + "/api/upload", {"name": "m.rules", "text": text})
        line = next(n for n, t in enumerate(text.splitlines(), 1) if "9999" in t)
        assert status == 400 and f"m.rules:{line}:" in reply["error"] and "1,000,000,000" in reply["error"]


# ---- web hygiene ---------------------------------------------------------------------------------


def test_a_post_that_is_not_json_by_its_type_is_refused(tmp_path):
    """A page of another site created a table with a `text/plain` fetch (no preflight): refused, nothing made."""
    with running(tmp_path) as server:
        body = {"rules": "shipped/poison", "players": 3, "seats": AGENTS3}
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
            status, reply = send(server.http + "/api/tables", body, {"Content-Type": kind})
            assert status == 415 and "application/json" in reply["error"]
        assert server.tables.tables == {} and table_folders(server) == []


def test_a_page_of_another_origin_may_not_post_or_open_a_socket(tmp_path):
    with running(tmp_path) as server:
        body = {"rules": "shipped/poison", "players": 3, "seats": AGENTS3}
        status, reply = send(server.http + "/api/tables", body, {"Origin": "http://evil.example"})
        assert status == 403 and "another site" in reply["error"]
        status, reply = send(server.http + "/api/tables", body, {"Origin": "null"})
        assert status == 403
        assert server.tables.tables == {}
        status, links = send(
            server.http + "/api/tables", {**body, "seats": [{"kind": "human"}, *AGENTS3[:2]]}, {"Origin": server.http}
        )
        assert status == 200, "the lobby's own page may"
        link = server.ws + token(links["seats"][0]["link"])
        with pytest.raises(Exception, match="403"):
            ws_client.connect(link, origin="http://evil.example", open_timeout=HANG)
        with ws_client.connect(link, origin=server.http, open_timeout=HANG) as sock:
            assert receive(sock)["table"] == links["table"]


def test_the_server_answers_only_to_its_addresses_and_the_names_it_is_given(tmp_path):
    """DNS rebinding: a request naming another host is refused; localhost, addresses and --allow-host names are not."""
    with running(tmp_path, hosts=("127.0.0.1", "table.lan")) as server:
        port = server.http.rsplit(":", 1)[1]
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"table.lan:{port}", f"[::1]:{port}", "10.0.0.7"):
            assert get(server.http + "/api/rulesets", {"Host": host})[0] == 200, host
        status, text = get(server.http + "/api/rulesets", {"Host": f"evil.example:{port}"})
        assert status == 403 and "--allow-host" in text


def test_private_links_are_long_random_tokens(tmp_path):
    with running(tmp_path) as server:
        links = [server.create("shipped/poison", ["human", "human", "random"]) for _ in range(2)]
        tokens = [token(t["spectator"]) for t in links] + [token(s["link"]) for t in links for s in t["seats"][:2]]
        assert len(set(tokens)) == len(tokens) and all(len(t) >= 22 for t in tokens), "128 bits each"


def test_a_seed_left_empty_is_drawn_from_more_seeds_than_a_search_can_try(tmp_path):
    """The seed gives every deal: a player who could try every seed the server draws would find the
    one whose deal gives their own hand, then know every other. Drawn below 2**31 it could be found
    by a search of minutes; a seed left empty is drawn from all 2**63 a table takes."""
    body = {"rules": "shipped/poison", "players": 3, "seats": AGENTS3}
    with running(tmp_path) as server:
        for _ in range(8):
            assert send(server.http + "/api/tables", body)[0] == 200
        seeds = [t.setup["seed"] for t in server.tables.tables.values()]
    assert all(0 <= s < 2**63 for s in seeds) and max(seeds) >= 2**40, seeds


@pytest.mark.parametrize(
    ("path", "body", "said"),
    [
        ("/api/tables", b"[" * 100_000, "not JSON"),
        ("/api/tables", b'{"a":' * 40 + b"1" + b"}" * 40, "nested deeper"),
        (
            "/api/tables",
            {"rules": "shipped/poison", "players": 3, "seats": AGENTS3, "params": {"limit": "\ud800"}},
            "surrogate",
        ),
        ("/api/upload", ["name", "text"], "an upload is"),
        ("/api/upload", {"name": "m.rules", "text": 'game "\ud800"\n'}, "surrogate"),
        ("/api/upload", {"name": ["m"], "text": "x"}, "an upload is"),
        ("/api/tables", b"1" * 5000, "not JSON"),
    ],
    ids=["brackets", "nested-object", "surrogate-param", "upload-list", "surrogate-upload", "name-list", "digits"],
)
def test_a_malformed_body_is_a_400_that_says_why(tmp_path, path, body, said):
    with running(tmp_path) as server:
        if isinstance(body, bytes):
            status, reply = send(server.http + path, body)
        else:
            data = json.dumps(body).encode()  # (json.dumps escapes a lone surrogate as \\ud800)
            status, reply = send(server.http + path, data)
        assert status == 400 and said in reply["error"], reply
        assert server.tables.tables == {} and table_folders(server) == []


def test_a_body_larger_than_the_limit_is_refused_by_its_length(tmp_path):
    with running(tmp_path, limits=Limits(body_bytes=10_000)) as server:
        status, reply = send(server.http + "/api/upload", {"name": "m.rules", "text": "#" * 20_000})
        assert status == 413 and "10,000 bytes" in reply["error"]


def test_a_websocket_message_of_thousands_of_nested_brackets_gets_an_error_and_the_socket_stays(tmp_path):
    with running(tmp_path) as server:
        links = server.create("shipped/poison", ["human", "random", "random"])
        with ws_client.connect(server.ws + token(links["seats"][0]["link"])) as sock:
            receive(sock)
            sock.send("[" * 3000)
            assert "JSON object" in receive(sock, "error")["message"]
            sock.send(json.dumps({"type": "refresh"}))
            assert receive(sock)["table"] == links["table"], "the page goes on"


@pytest.mark.parametrize("seat", ["²", "١", "99999999999999999999"])
def test_a_replay_seat_that_is_not_a_plain_number_is_a_400(tmp_path, seat):
    with running(tmp_path, recorded_games()) as server:
        status, text = get(server.http + "/api/replay/0/1?seat=" + urllib.request.quote(seat))
        assert status == 400 and "seat is all, table or 0 to 2" in json.loads(text)["error"]


def test_a_replay_viewers_game_that_is_not_a_plain_number_is_refused_never_a_500(tmp_path):
    """The replay viewer's rulebook and steps by a game's number: digits of another script (which
    str.isdigit takes and int refuses) and thousands of digits (int's limit) are a 404 or a 400."""
    with running(tmp_path, recorded_games()) as server:
        for game in ["²", "١", "9" * 5000, "-1", "1"]:
            quoted = urllib.request.quote(game)
            assert get(f"{server.http}/rulebook/{quoted}")[0] == 404, game
            assert get(f"{server.http}/api/replay/{quoted}/0")[0] == 400, game
        assert get(f"{server.http}/rulebook/0")[0] == 200


def test_the_serve_command_takes_the_caps_and_the_names_as_options(tmp_path):
    """`ruleset serve --max-rounds 2 --allow-host table.lan --max-client-sockets 1 --trust-proxy
    127.0.0.1`: the running server holds to each (a connection held open by the proxy leaves its
    other clients served)."""
    import socket
    import subprocess
    import sys

    from conftest import run_cli

    assert run_cli("serve", "--max-rounds", "0").returncode == 2, "a cap is a number above 0"
    assert run_cli("serve", "--trust-proxy", "proxy.lan").returncode == 2, "a proxy is named by its address"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ["serve", "--port", str(port), "--data", str(tmp_path), "--max-rounds", "2", "--allow-host", "table.lan"]
    args += ["--max-client-sockets", "1", "--trust-proxy", "127.0.0.1"]
    proc = subprocess.Popen([sys.executable, "-m", "interpreter", *args], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert f":{port}/" in proc.stdout.readline()
        http = f"http://127.0.0.1:{port}"

        def rulesets() -> int | None:
            try:
                return get(http + "/api/rulesets", {"Host": f"table.lan:{port}"})[0]
            except urllib.error.URLError:
                return None

        wait_until(lambda: rulesets() is not None, "the server to answer")
        held = socket.create_connection(("127.0.0.1", port))  # (the proxy's idle connection: not counted)
        assert rulesets() == 200
        assert get(http + "/api/rulesets", {"Host": f"other.lan:{port}"})[0] == 403
        body = {"rules": "shipped/poison", "players": 3, "params": {"rounds": "3"}, "seats": AGENTS3}
        status, reply = send(http + "/api/tables", body)
        assert status == 400 and "at most 2" in reply["error"]
        held.close()
    finally:
        proc.terminate()
        proc.wait(timeout=HANG)
        proc.stdout.close()  # (no ResourceWarning)


@settings(max_examples=300, deadline=None)
@given(host=st.text(max_size=60), origin=st.none() | st.text(max_size=60), kind=st.text(max_size=40))
def test_the_guard_answers_any_headers_with_a_verdict_never_an_exception(host, origin, kind):
    """Whatever a client puts in Host, Origin and Content-Type: served or refused with a status and a reason;
    a foreign name is never served."""
    from interpreter.play.web.guard import Guard, _hostname

    guard = Guard(None, hosts=("0.0.0.0", "table.lan"))
    headers = {"host": host, "content-type": kind, **({"origin": origin} if origin is not None else {})}
    verdict = guard.refusal({"type": "http", "method": "POST"}, headers)
    assert verdict is None or (verdict[0] in (403, 413, 415) and verdict[1])
    if verdict is None:
        assert guard.known(_hostname(host)) and kind.split(";")[0].strip().lower() == "application/json"
