"""`ruleset serve` attacked a second time (docs/serve.md): what a stopped table tells its seats, how
long a request's body and a websocket message may take, who counts as one address behind a proxy,
and websocket floods. Real servers on loopback (serve_support), each finding a test that failed first.
"""

from __future__ import annotations

import re

from serve_support import get_json, post, receive, running, token, ws_client

from conftest import ROOT

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
