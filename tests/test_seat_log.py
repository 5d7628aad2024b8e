"""One seat's log (engine/seat_log.py), worded once (text/event_words.py): what the rules did, told
to the seats that may know it and, of a card, never to a seat its observation did not show it."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
from conftest import EXAMPLES, run_cli
from interpreter.agents import SeatView, make_agents
from interpreter.engine.cards import signature
from interpreter.engine.events import SEEN
from interpreter.engine.records import record
from interpreter.engine.seat_log import round_log
from interpreter.text.event_words import EVENT_WORDS, entry_text

CLASSICS = {name: interpreter.load(EXAMPLES / "classics" / f"{name}.rules") for name in ("love_letter", "go_fish")}


def _cards(node, out):
    """Every card object (a dict with a type) in an observation or a log entry."""
    if isinstance(node, dict):
        if isinstance(node.get("type"), str):  # a card
            out.add(signature(node))
        for v in node.values():
            _cards(v, out)
    elif isinstance(node, list | tuple):
        for v in node:
            _cards(v, out)
    return out


@settings(max_examples=6)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(sorted(CLASSICS)))
def test_no_seat_is_told_of_a_card_its_observation_never_showed_it(seed, name):
    """A seeded classic played out at random, narrated: after every move, each card the seat's log
    of the round names is one its observations have shown it (its zones, the cards shown to it,
    the moves and reveals as it saw them, the deal)."""
    game = CLASSICS[name]
    n = 3
    state = game.new_game(n, seed, narrate=True)
    bots = make_agents(["random"] * n, n, seed)
    seen: list[set] = [set() for _ in range(n)]
    while not state.is_over:
        for p in range(n):
            _cards(state.observe(p), seen[p])
            for entry in round_log(state, p, len(state.history) - 1):
                named = _cards(entry, set())
                assert named <= seen[p], (p, entry)
                assert entry_text(game, entry, p, n) != ""
        p = state.current_player
        state.apply(bots[p].choose(SeatView(state, p)))


LOVE = "tests/pinned/love_letter-4p-random_greedy_random_random.jsonl"


def _replay_as(seat: int) -> list[str]:
    r = run_cli("replay", LOVE, "--rules", "examples/classics/love_letter.rules", "--seat", str(seat))
    assert r.returncode == 0, r.stderr
    return [line.strip() for line in r.stdout.splitlines() if line.startswith("  ")]


def test_replay_as_a_seat_tells_a_look_to_the_seat_that_looked_only_and_an_elimination_to_all():
    """Love Letter's priest and baron: `you saw: CARD in hand of seat K` for the seat shown the
    card, `seat J saw: a hidden card in hand of seat K` for the others (unless it is their hand);
    an elimination and the deal are in every seat's log; the cards the rules move say where from."""
    logs = {p: _replay_as(p) for p in range(4)}
    for lines in logs.values():
        assert lines[0].startswith("dealt: ") and "your hand " in lines[0]
        assert any(line.endswith("is out of the round") or line == "you are out of the round" for line in lines)
        for line in lines:
            looked = re.fullmatch(r"(you|seat \d) saw: (.+) in (your hand|hand of seat \d)", line)
            if looked:
                hidden = looked.group(2) == "a hidden card"
                assert hidden == (looked.group(1) != "you" and looked.group(3) != "your hand"), line
    saw = [sum(line.startswith("you saw: ") for line in lines) for lines in logs.values()]
    told = [sum(bool(re.match(r"seat \d saw: ", line)) for line in lines) for lines in logs.values()]
    assert sum(saw) > 0 and all(s + t == saw[0] + told[0] for s, t in zip(saw, told, strict=True))


def test_every_kind_of_event_has_its_words_and_a_narrated_game_records_as_any_other():
    """A new kind of event is one entry in events.SEEN and one in event_words.EVENT_WORDS; the
    narration is for people: a narrated game plays, and records, byte for byte as one that is not
    (a greedy seat, which reads its observation and samples, included)."""
    assert set(SEEN) == set(EVENT_WORDS)
    for game, players in ((CLASSICS["love_letter"], 4), (interpreter.load(EXAMPLES / "low-hand.rules"), 4)):
        recs = []
        for narrate in (False, True):
            state = game.new_game(players, 7, narrate=narrate)
            bots = make_agents(["greedy"] + ["random"] * (players - 1), players, 7)
            while not state.is_over:
                p = state.current_player
                state.apply(bots[p].choose(SeatView(state, p)))
            recs.append(record(state))
        assert recs[0] == recs[1]


def test_the_screen_words_variables_and_hides_the_rules_own():
    """`cards_out` is `cards out`, a none is `none` (not `?`, which says hidden), a status names the
    seats it holds for; a `hidden` variable (Love Letter's `deck_out` and `starter`, the rules'
    bookkeeping) is never on the screen, another seat's private one is `?`."""
    from interpreter.play.terminal import screen

    text = (EXAMPLES / "classics" / "love_letter.rules").read_text()
    assert "var deck_out per round, hidden = 0" in text and "var starter player, hidden = none" in text
    text += "\nvar cards_out per round = 2\nvar first = none\nvar secret_bid per player, owner sees = 3\n"
    game = interpreter.loads(text, "love_letter.rules")
    state = game.new_game(2, 1)
    lines = screen(state, 0).splitlines()
    (line,) = [x for x in lines if x.startswith("variables: ")]
    assert line == "variables: cards out 2; first none; secret bid: you 3, seat 1 ?"
    assert "deck out" not in screen(state, 0) and "starter" not in screen(state, 0)


def test_a_variable_that_starts_as_none_is_named_by_what_the_rules_set_it_to():
    """`var mover = none` set to a player reads as a seat, one set to a zone (Lost Cities' pile just
    discarded on, made public here) as the zone, one set to a card as the card: at the terminal and
    the table, never the number the state keeps. The game is the same: values, not words, change."""
    import random

    from interpreter.play.terminal import screen
    from interpreter.play.web.views import seat_view

    text = (EXAMPLES / "classics" / "lost_cities.rules").read_text()
    for old, new in [
        ("var just_discarded per round, hidden = none", "var just_discarded per round = none\nvar mover = none"),
        ("    after draw\n      set step to 0\n", "    after draw\n      set step to 0\n      set mover to player\n"),
        ("      set just_discarded to none\n", "      set just_discarded to none\n      set last_played to card\n"),
    ]:
        assert old in text
        text = text.replace(old, new)
    game = interpreter.loads(text + "var last_played = none\n", "lost_cities.rules")
    assert {v["name"]: v["type"] for v in game.ir["vars"]} == {
        "step": "number",
        "just_discarded": "zone",
        "mover": "player",
        "last_played": "card",
    }
    state, rng, lines = game.new_game(2, 1), random.Random(1), set()
    while len(state.history[0]["moves"]) < 24:
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        lines |= {x for x in screen(state, 0).splitlines() if x.startswith("variables: ")}
        view = seat_view(state, 0)
        assert view["player_vars"] == ["mover"]
        assert all(not isinstance(view["vars"][n], int) for n in ("just_discarded", "last_played"))
    parts = {part for line in lines for part in line[len("variables: ") :].split("; ")}
    assert {p for p in parts if p.startswith("just discarded ")} >= {"just discarded none", "just discarded discard 1"}
    assert all(re.fullmatch(r"just discarded (none|discard [1-5])", p) for p in parts if p.startswith("just"))
    assert {p for p in parts if p.startswith("mover ")} == {"mover none", "mover you", "mover seat 1"}
    assert any(re.fullmatch(r"last played (number|wager) [a-z]+( \d+)?", p) for p in parts), parts


def test_president_shows_the_table_its_titles_by_seat_and_none_of_the_rules_bookkeeping():
    """After the first hand, President's screen names who holds each title and who led the last set
    (seats, not numbers); the pile's count and rank, the passes and the places kept by the rules are
    never shown (the table shows the pile; the rules count the rest)."""
    import random

    from interpreter.play.terminal import screen

    game = interpreter.load(EXAMPLES / "classics" / "president.rules")
    state, rng, lines = game.new_game(4, 1), random.Random(1), set()
    while not state.is_over and state.round < 1:  # (rounds count from 0: until the second hand)
        lines |= {x for x in screen(state, 0).splitlines() if x.startswith("variables: ")}
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
    (line,) = [x for x in screen(state, 0).splitlines() if x.startswith("variables: ")]
    assert re.fullmatch(
        r"variables: leader (none|you|seat \d); president (you|seat \d); vice president (you|seat \d); .*", line
    )
    parts = {part for x in lines for part in x[len("variables: ") :].split("; ")}
    names = {re.sub(r" (none|you|seat \d|-?\d+)$", "", part.split(":")[0]) for part in parts}
    assert names <= {"leader", "president", "vice president", "vice scum", "scum"}, names


GIVING = """game "Giving"
players 3..3

cards
  card  suit red | blue   rank 1..3 x2

zones
  hand       per player, owner sees
  stock      shared, hidden
  by_choice  shared, hidden
  by_secret  shared, hidden
  by_var     shared, hidden

var gifts per round, hidden = 0
var named = 0

round
  deal 3 to hand
  deal all to stock
  phase give
    move give value of rank
      require some hand of player where rank of it = give
    after give
      # The rank chosen is public; the suit of the pond's top card and a hidden count are not.
      move hand of player where rank of it = give and suit of it = suit of first card in stock to by_choice
      move hand of player where rank of it = gifts + 1 to by_secret
      set named to 3
      move hand of player where rank of it = named to by_var
      add 1 to gifts
    ends when gifts = 3
  score
    count hand of player

game
  rounds 1
  winner highest total
"""


def test_cards_the_rules_move_are_told_by_what_every_seat_knows_of_them_and_nothing_else():
    """Cards the rules pick by an attribute (`where rank of it = V`) are told to every seat with
    that attribute when every seat knows V (a choice, a public variable), never by a value only the
    rules see (the suit of a hidden card, a hidden count): those stay counted cards, no more."""
    game = interpreter.loads(GIVING, "giving.rules")
    told: dict[str, list] = {"by_choice": [], "by_secret": [], "by_var": []}
    for seed in range(8):
        state, rng = game.new_game(3, seed, narrate=True), random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        moves = state.history[0]["moves"]
        for seat in range(3):
            for entry in round_log(state, seat, 0):
                ev = entry.get("event", {})
                if "moved" in ev and ev["moved"][0]["index"] != seat:  # another seat's cards
                    line = entry_text(game, entry, seat, 3)
                    assert all(x["card"] is None for x in ev["moved"]) and " red" not in line and " blue" not in line
                    given = state.describe(moves[ev["after"] - 1][1])["value"]
                    told[ev["to"]["zone"]].append((ev.get("shared"), given, line))
    assert all(told.values())
    assert all(
        shared == {"rank": given} and f"of rank {given} from" in line for shared, given, line in told["by_choice"]
    )
    assert all(shared is None and "of rank" not in line for shared, _, line in told["by_secret"])
    assert all(shared == {"rank": 3} and "of rank 3 from" in line for shared, _, line in told["by_var"])


FACE_DOWN = """game "Face down"
players 3..3

cards
  card  suit red | blue   rank 1..4 x2

zones
  hand   per player, owner sees
  table  shared, public
  pile   shared, hidden

var asked = none

round
  deal 4 to hand
  phase lead
    move lead card from hand to table
    after lead
      set asked to suit of card
    ends when count table = 1
  phase follow
    # Followed face down: every seat knows the suit all the same (the asked suit, which then turns).
    move follow card from hand to pile
      require suit of card = asked
    after follow
      set asked to if asked = red then blue else red
    ends when nobody can move
  score
    count pile

game
  rounds 1
  winner highest total
"""


def test_what_a_guard_makes_known_of_a_card_played_face_down_is_told_to_the_others():
    """`require suit of card = asked` on a card played face down: every seat knows its suit, the
    value `asked` had when the card was played (it turns right after); the others' log says so,
    the mover (who sees the card) is told nothing more, and no seat is told the card itself."""
    game = interpreter.loads(FACE_DOWN, "face_down.rules")
    followed = 0
    for seed in range(6):
        state, rng = game.new_game(3, seed, narrate=True), random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        played = [(p, m) for p, m in state.history[0]["moves"] if game.moves[m.rule].name == "follow"]
        followed += len(played)
        for seat in range(3):
            told = [entry for entry in round_log(state, seat, 0) if "known" in entry.get("event", {})]
            assert len(told) == len(played)
            for entry, (p, m) in zip(told, played, strict=True):
                suit = game.cards.json[m.card]["suit"]
                line = entry_text(game, entry, seat, 3)
                assert entry["event"]["shared"] == {"suit": suit}
                if seat == p:
                    assert line is None and entry["event"]["known"]["card"] == game.cards.json[m.card]
                else:
                    assert line == f"seat {p}'s card in pile has suit {suit}"
                    assert entry["event"]["known"]["card"] is None
    assert followed > 6
    plain = game.new_game(3, 0)  # a state that does not narrate logs no such event (records unchanged)
    while not plain.is_over:
        plain.apply(plain.legal_moves()[0])
    assert "events" not in plain.history[0]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(["cheat", "go_fish", "love_letter"]), kept=st.integers(1, 60))
def test_a_page_gets_the_latest_entries_of_the_whole_log_worded_only_for_them(seed, name, kept):
    """The browser table sends a seat the latest entries of its log: in a long round (Cheat's one
    round of thousands of moves) only those are worded, yet they are the last entries of the whole
    log, across rounds, for every seat, a spectator and all seats at once."""
    from unittest import mock

    from interpreter.play.web import views

    game = interpreter.load(EXAMPLES / "classics" / f"{name}.rules")
    state = game.new_game(3, seed, narrate=True)
    rng = random.Random(seed)
    for step in range(400):
        if state.over:
            break
        state.apply(rng.choice(state.legal_moves()))
        if step % 37 == 0 or state.over:
            for seat in (*range(3), views.SPECTATOR, views.ALL):
                who = None if seat == views.ALL else seat
                whole = [
                    {"round": r + 1, "text": t}
                    for r in range(len(state.history))
                    for t in (entry_text(game, e, -1 if who is None else who, 3) for e in round_log(state, who, r))
                    if t is not None
                ]
                with mock.patch.object(views, "LOG_KEPT", kept):
                    assert views.log_view(state, seat) == whole[-kept:]
