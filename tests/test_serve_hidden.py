"""No hidden card sent to a seat (docs/serve.md, "What a seat is never sent").

One property over every shipped ruleset, classic and example: at random points of random games,
nothing a seat (or the spectator) receives names a card outside that seat's observation. What a
seat receives: the table's state message (Table.message: the view of views.seat_view, the moves
and their labels), the replay viewer's step for that seat, and the record download of the
unfinished game. "Names a card" means concretely:

- a card object (``{"type": ..., ATTR: ...}``) anywhere in what is sent, of a kind that is nowhere
  in ``state.observe(seat)``;
- a zone instance sent with its cards that the observation shows only as a count, or a card
  "shown to you" that the observation does not show;
- a move offered with a card (or a card of a set, or a card's place) that the observation does not
  show where it lies now, checked card by card (``Move.card``), copies alike or not;
- text (a move's label, a last move's words) that names a card (``card_name``) other than those
  of the move it words.

The games are played through the table itself (Table.choose, people at every seat choosing at
random among what they are offered), with the engine of the source tree and no server; the
download goes through the app's route in process. A real server on loopback is asked for the
record of an unfinished game, and a hidden stock's rule is refused at upload.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serve_support import running, token

import interpreter
from conftest import HANG, ROOT
from interpreter.engine.cards import signature
from interpreter.engine.records import record
from interpreter.play.web.app import build_app
from interpreter.play.web.catalogue import Catalogue
from interpreter.play.web.replays import ReplayBook
from interpreter.play.web.store import TableStore
from interpreter.play.web.tables import Tables
from interpreter.play.web.views import SPECTATOR
from interpreter.text.move_words import card_name

SHIPPED = sorted((ROOT / "rulesets").glob("*.rules"))
OTHERS = sorted((ROOT / "examples" / "classics").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))
SHORT = {"rounds": "1", "hands": "1", "largest": "2", "max_battles": "30", "target": "2", "goal": "5", "deals": "2"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """Every ruleset on offer at one in-process table server (its app, not started on a socket)."""
    store = TableStore(tmp_path_factory.mktemp("tables"))
    tables = Tables(Catalogue([str(p) for p in OTHERS], store.uploads), store)
    keys = {str(p): f"shipped/{p.stem}" for p in SHIPPED} | {str(p): f"file/{i}" for i, p in enumerate(OTHERS)}
    yield tables, build_app(tables), keys
    store.close_all()


def get(app, path: str) -> tuple[int, bytes]:
    """GET ``path`` from the ASGI app in process: the status and the body."""
    sent: list[dict] = []
    asked: list[int] = []

    async def receive():
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # (the client stays connected until the answer is whole)

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


class Seen:
    """What ``seat``'s observation shows now: the card kinds it names anywhere (zones, shown cards,
    moves seen, the deal, the last scoring), the cards (by id) it shows where they lie, and those of
    them in zones it sees (whose places it knows)."""

    def __init__(self, state, seat: int):
        game, lay = state.game, state.layout
        self.game, self.obs = game, state.observe(seat)
        self.kinds = {signature(c) for c in card_objects(game, self.obs)}
        self.ids: set[int] = set()
        for z, spec in enumerate(game.zones):
            for inst, view in zip(lay.instances[z], self.obs["zones"][spec.name], strict=True):
                if isinstance(view, list):
                    self.ids.update(state.zone_cards(inst))
        self.placed = set(self.ids)  # (where they lie is the seat's to know; a card shown to it, not)
        for x in self.obs["shown"]:
            inst = lay.instances[game.zone_index[x["zone"]]][x["index"]]
            self.ids.update(c for c in state.zone_cards(inst) if game.cards.json[c] == x["card"])


def card_objects(game, node) -> list[dict]:
    """Every card object in a message: a dict of a card type and some of the game's attributes."""
    types = {c["type"] for c in game.cards.json}
    keys = {"type", *game.ir["attributes"]}
    out, stack = [], [node]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if x.get("type") in types and set(x) <= keys:
                out.append(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return out


_NAMES: dict[int, tuple[object, re.Pattern]] = {}


def names_in(game, text: str) -> set[str]:
    """The card names (as people read them: ``potion red 4``) that a text holds, as whole words."""
    got = _NAMES.get(id(game))
    if got is None or got[0] is not game:
        names = sorted({card_name(c) for c in game.cards.json}, key=len, reverse=True)
        got = _NAMES[id(game)] = (game, re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, names)) + r")(?![\w-])"))
    return set(got[1].findall(text))


def worded(game, m: dict, text: str) -> None:
    """A move's words name no card but the move's own (a hidden one is no name)."""
    own = [c for c in [m.get("card"), m.get("pick"), *(m.get("cards") or [])] if c]  # (a pick: a set's next card)
    extra = names_in(game, text) - {card_name(c) for c in own}
    assert not extra, f"{text!r} names {extra}, which its move does not"


def check_view(view: dict, seen: Seen) -> None:
    """A seat's view (views.seat_view) names no card outside its observation."""
    game, obs = seen.game, seen.obs
    for c in card_objects(game, view):
        assert signature(c) in seen.kinds, f"a view names {c}, which the seat's observation does not"
    shown = {(x["zone"], x["index"]): [] for x in obs["shown"]}
    for x in obs["shown"]:
        shown[x["zone"], x["index"]].append(x["card"])
    for zone in view["zones"]:
        for item in zone["instances"]:
            if "cards" in item or "piles" in item:
                assert isinstance(obs["zones"][zone["name"]][item["index"]], list), f"{zone['name']}'s cards"
            assert item.get("shown", []) == shown.get((zone["name"], item["index"]), [])
    for m in view["last_moves"]:
        worded(game, m, m["text"])


def check_message(message: dict, moves: list, state, seen: Seen) -> None:
    """A table's state message: its view, and each move offered, card by card."""
    game = seen.game
    check_view(message["view"], seen)
    for c in card_objects(game, message["moves"]):
        assert signature(c) in seen.kinds, f"a move names {c}, which the seat's observation does not"
    assert len(message["moves"]) == len(moves)
    for m, mv in zip(message["moves"], moves, strict=True):
        worded(game, m, m["label"])
        if mv.card >= 0 and m.get("card") is not None:
            assert mv.card in seen.ids, f"{m['label']!r} names a card the seat does not see"
        if mv.card >= 0 and m.get("from") is not None:
            assert mv.card in seen.placed, f"{m['label']!r} places a card where the seat does not see"
        for c, x in zip(m.get("cards") or [], getattr(mv.target, "cards", ()), strict=True):
            assert c is None or x in seen.ids, f"{m['label']!r} names a card the seat does not see"


def look(table, app, seats: list[int]) -> None:
    """Everything each seat (and the spectator) would be sent now, checked; the record refused."""
    st = table.state
    links = [s["token"] for s in table.seats] + [table.setup["spectator"]]
    for seat in [*seats, SPECTATOR]:
        message = table.message(seat)
        moves = table.offered.get(seat, (None, []))[1] if seat >= 0 else []
        check_message(message, moves, st, Seen(st, seat))
        assert '"seed"' not in json.dumps(message), "the seed, with the rules, tells every deal"
    if not st.over:
        for link in links:
            status, body = get(app, f"/record/{link}")
            assert status == 409 and not card_objects(table.game, _json_or_none(body)), "an unfinished game's record"


def _json_or_none(body: bytes):
    try:
        return json.loads(body)
    except ValueError:
        return None


@pytest.mark.parametrize("path", [str(p) for p in SHIPPED + OTHERS], ids=lambda p: Path(p).stem)
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_nothing_a_seat_receives_names_a_card_outside_its_observation(served, path, data):
    tables, app, keys = served
    game = tables.catalogue.get(keys[path]).game
    players = data.draw(st.integers(game.min_players, min(game.max_players, 5)), label="players")
    seed = data.draw(st.integers(0, 2**20), label="seed")
    every = data.draw(st.integers(2, 12), label="look every")
    params = {k: v for k, v in SHORT.items() if k in {p["name"] for p in game.ir["params"]}}
    request = {"rules": keys[path], "players": players, "seed": seed, "params": params}
    table = tables.create({**request, "seats": [{"kind": "human"}] * players})
    rng = random.Random(seed)
    steps = 0
    while not table.state.over:
        assert table.failure is None, table.failure
        movers = [p for p in range(players) if p not in table.chosen and table.state.legal_moves_of(p)]
        assert movers, "someone is offered a move"
        if steps % every == rng.randrange(every):
            look(table, app, list(range(players)))
        seat = rng.choice(movers)
        offered = table.message(seat)["moves"]
        table.choose(seat, rng.randrange(len(offered)), table.version)
        table.pump()
        steps += 1
        if steps >= 600:  # (a long hand, as Switch's of hundreds of draws: 600 steps looked at are enough;
            break  # every classic's games are played to their end in test_classics and test_serve_views)
    look(table, app, list(range(players)))
    if not table.state.over:  # (cut short: no record to look at yet; look() saw it refused)
        return
    status, body = get(app, f"/record/{table.seats[0]['token']}")
    assert status == 200, "a finished game's record is everyone's"
    book = ReplayBook([(json.loads(body), game)])
    states = book.steps(0)
    for _ in range(4):
        step, seat = rng.randrange(len(states)), rng.choice([*range(players), "table"])
        view = book.view(0, step, seat)["view"]
        check_view(view, Seen(states[step], SPECTATOR if seat == "table" else seat))


HIDDEN_STOCK = """game "Take two"
players 2..2

cards
  card  rank 1..6   suit red | blue

zones
  hand   per player, owner sees
  stock  shared, hidden
  pile   shared, public

round
  deal 2 to hand, rest to stock
  phase play
    move take 2 cards from stock to hand
      require count hand of player < 4
    move drop card from hand to pile
      require count hand of player >= 4
    ends when stock is empty
  score
    sum of rank in hand of player

game
  rounds 1
  winner highest total
"""


def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=HANG) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=HANG) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_a_real_server_refuses_a_hidden_stocks_choice_and_an_unfinished_games_record(tmp_path):
    """On loopback: the upload of a rule that chooses cards from a hidden stock is refused at its line
    with the hint of a draw; the record of a game still going is refused to every link (409, no card
    in the answer), then, once the game is over, downloads and replays."""
    from interpreter.engine.records import replay

    with running(tmp_path) as server:
        status, reply = post(f"{server.http}/api/upload", {"name": "take.rules", "text": HIDDEN_STOCK})
        assert status == 400
        assert "take.rules:15:" in reply["error"] and "which its player does not see" in reply["error"]
        assert "move take top 2 from stock to hand" in reply["error"]

        links = server.create("shipped/poison", ["human", "random", "human"], {"rounds": "1"}, seed=5)
        table = server.tables.tables[links["table"]]
        game = table.game
        every = [token(s["link"]) for s in links["seats"] if s["link"]] + [token(links["spectator"])]
        rng = random.Random(5)
        while not table.state.over:
            for link in every:
                status, body = fetch(f"{server.http}/record/{link}")
                assert status == 409 and b"not over" in body
                assert not names_in(game, body.decode()), "the refusal names no card"
            seat = table.state.current_player
            offered = table.message(seat)["moves"]  # (the table's own thread: the server is idle meanwhile)
            table.choose(seat, rng.randrange(len(offered)), table.version)
            table.pump()
        status, body = fetch(f"{server.http}/record/{every[0]}")
        assert status == 200
        assert replay(game, json.loads(body)).totals == table.state.totals


def test_a_blind_moves_card_is_not_shown_to_its_mover_nor_worded_at_the_terminal():
    """War: a card laid face down from a face-down stock (the rules name it) is seen by nobody, its
    mover neither, and the terminal offers it as `lay a card from your stock to pot`."""
    import io

    from interpreter.play.terminal import ask

    game = interpreter.load(str(ROOT / "examples" / "classics" / "war.rules"))
    state = game.new_game(2, 1)
    for _ in range(200):  # until a war: cards laid face down in the pot
        if game.moves[state.legal_moves()[0].rule].name == "lay":
            break
        state.apply(state.legal_moves()[0])
    else:
        pytest.skip("no war in this game")
    seat = state.current_player
    lines: list[str] = []
    move = ask(state, seat, io.StringIO("\n"), lines.append)
    assert any("1) lay a card from your stock to pot" in line for line in lines)
    card = game.cards.json[move.card]
    state.apply(move)
    assert state.observe(seat)["last_moves"][-1] == {"player": seat, "move": "lay", "card": None, "to": POT}
    assert record(state)["rounds"][0]["moves"][-1]["card"] == card, "the record, for replay, names it"


POT = {"zone": "pot", "index": 0}
