"""`ruleset serve` in a real browser: two people in two headless Chromium pages, two agents.

Debian's Chromium (/usr/bin/chromium) driven by Playwright; no browser is downloaded. The pages
are played by clicking cards (then their target when there is a choice), as a person would.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from serve_support import recorded_games, running

from conftest import HANG, wait_until

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "the browser tests need Chromium at /usr/bin/chromium: apt-get install chromium (as .ci/run does)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install '.[test]' (playwright)")

# This machine's closed network refuses Chromium's background connections: turn them off.
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium (Playwright gives each launch a fresh, empty profile directory)."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield b
        b.close()


def open_seat(browser, server, link, width=1000):
    """A page at a seat, in its own browser context (its own cookies and storage: another person)."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.http + link)
    page.errors = errors
    return page


def caught_up(page, table):
    """Wait until the page shows the table as it stands (a page gets the state once the agents have moved)."""
    shown = "document.querySelector('.table')?.dataset.version"
    wait(lambda: page.evaluate(shown) == str(table.version), "the page to show the table's state")


def wait(condition, what):
    wait_until(condition, what, every=0.01)


def click_a_move(page, table, seat, rng):
    """Click one of the seat's playable cards (and its target if asked); False when it has none."""
    for attempt in range(4):
        caught_up(page, table)
        cards = page.locator(".card[data-playable]")
        n = cards.count()
        if n == 0:
            return False
        version = table.version
        try:  # the agents may move meanwhile and the page redraw with other playable cards: count again
            cards.nth(rng.randrange(n)).click(timeout=8_000 if attempt < 3 else HANG * 1000)
            break
        except sync_api.TimeoutError:
            if attempt == 3:
                raise
    if table.version == version and seat not in table.chosen:
        targets = page.locator(".zone[data-target]")
        if targets.count():
            targets.nth(rng.randrange(targets.count())).click()
    wait(lambda: table.version != version or seat in table.chosen, "the click to be played")
    return True


def check_privacy(page, table, seat, other):
    """The page shows this seat's hand card for card, the other person's hand only as backs."""
    st, game = table.state, table.game
    lay = st.layout
    for spec in game.zones[: len(game.ir["zones"])]:
        if spec.per_player and spec.visibility == "owner":
            theirs = page.locator(f'.zone[data-zone="{spec.name}"][data-owner="{other}"] .card:not(.back)')
            assert theirs.count() == 0, f"seat {seat}'s page shows seat {other}'s {spec.name}"
    hand = lay.instances[game.zone_index["hand"]][seat]
    shown = page.locator(f'.zone[data-zone="hand"][data-owner="{seat}"] .card')
    assert shown.count() == len(st.zone_cards(hand))


SHIPPED = [
    ("shipped/poison", {"rounds": "1"}),
    ("shipped/poison-five-card", {"rounds": "1"}),
    ("shipped/poison-kedric-winks", {"hands": "1"}),
]


@pytest.mark.parametrize(("rules", "params"), SHIPPED, ids=[r for r, _ in SHIPPED])
def test_two_people_and_two_agents_finish_a_game_by_clicking(browser, tmp_path, rules, params):
    """Each person sees their own hand, the shared zones and the scores, never the other's hand; the game ends."""
    rng = random.Random(1)
    with running(tmp_path) as server:
        links = server.create(rules, ["human", "human", "greedy", "random"], params, seed=2)
        table = server.tables.tables[links["table"]]
        pages = [open_seat(browser, server, links["seats"][p]["link"]) for p in (0, 1)]
        shared = [z.name for z in table.game.zones[: len(table.game.ir["zones"])] if not z.per_player]
        clicks = 0
        idle_since = None  # (the agents may still be choosing: then nobody here can move for a moment)
        while not table.state.over:
            moved = False
            for seat, page in enumerate(pages):
                caught_up(page, table)
                check_privacy(page, table, seat, 1 - seat)
                moved = click_a_move(page, table, seat, rng) or moved
                clicks += moved
            idle_since = None if moved or table.state.over else idle_since or time.monotonic()
            assert idle_since is None or time.monotonic() - idle_since < HANG, (
                "one of the two people must be able to move"
            )
            if idle_since is not None:
                time.sleep(0.05)
        for page in pages:
            caught_up(page, table)
            assert "game over" in page.locator(".turn-line").inner_text()
            for name in shared:
                assert page.locator(f'.shared .zone[data-zone="{name}"]').count() >= 1
            for p, total in enumerate(table.state.totals):
                assert page.locator(f'.total[data-seat="{p}"]').inner_text().endswith(f": {total}")
            assert page.locator('#links a:has-text("record")').count() == 1
            for name, lists in table.state.history[-1]["revealed"].items():  # what the rules reveal at scoring
                shown = page.locator(f'.last-round .revealed[data-zone="{name}"] .card').count()
                assert shown == sum(map(len, lists)) > 0, f"the {name} of every seat is shown once the round is scored"
            assert not page.errors, page.errors
        assert clicks > 5


def test_kedric_agenda_choice_waits_for_both_then_a_trick_is_won(browser, tmp_path):
    """The agenda choice is simultaneous: the first to click waits; then a trick is played and won."""
    rng = random.Random(2)
    with running(tmp_path) as server:
        links = server.create("shipped/poison-kedric-winks", ["human", "human", "greedy", "random"], {"hands": "1"})
        table = server.tables.tables[links["table"]]
        a, b = (open_seat(browser, server, links["seats"][p]["link"], width=380) for p in (0, 1))  # phone-sized
        for page in (a, b):
            caught_up(page, table)
            assert page.locator('.zone[data-zone="offer"][data-owner] .card[data-playable]').count() == 2
        first, second = (a, b) if table.state.current != 0 else (b, a)
        first_seat = 0 if first is a else 1
        first.locator(".card[data-playable]").first.click()
        wait(lambda: first_seat in table.chosen, "the first choice to be held")
        first.wait_for_selector(".chosen")
        assert "waiting for" in first.locator(".turn-line").inner_text()
        caught_up(second, table)
        assert second.locator(".card[data-playable]").count() == 2, "the other person may still choose"
        hidden = second.locator(f'.zone[data-zone="agenda_up"][data-owner="{first_seat}"] .card')
        assert hidden.count() == 0, "a choice not yet revealed is not shown"
        version = table.version
        second.locator(".card[data-playable]").first.click()
        wait(lambda: table.state.phase == 1 or table.version > version + 3, "the choices to be revealed")
        caught_up(second, table)
        assert second.locator(f'.zone[data-zone="agenda_up"][data-owner="{first_seat}"] .card').count() == 1
        assert second.locator(f'.zone[data-zone="agenda_down"][data-owner="{first_seat}"] .card.back').count() == 1
        won = table.game.zone_index["won"]
        piles = lambda: sum(len(table.state.zones[i]) for i in table.state.layout.instances[won])  # noqa: E731
        while piles() == 0:
            for seat, page in enumerate((a, b)):
                if table.state.current == seat:
                    click_a_move(page, table, seat, rng)
        for page in (a, b):
            caught_up(page, table)
            shown = page.locator('.zone[data-zone="won"] .pile').count()
            assert shown == piles() >= 1, "each trick won lies as one pile before its winner"
            assert not page.errors, page.errors


def test_the_lobby_creates_a_table_with_a_private_link_per_person(browser, tmp_path):
    """Pick Poison, three players, one person and two agents: one private link and a spectator's link."""
    with running(tmp_path) as server:
        page = open_seat(browser, server, "/")
        page.wait_for_selector("#rules option", state="attached")
        page.select_option("#rules", "shipped/poison")
        page.select_option("#players", "3")
        page.select_option('select[data-seat="1"]', "greedy")
        page.select_option('select[data-seat="2"]', "mcts")
        page.locator(".seat-choice input").nth(2).fill("20")
        page.fill('input[data-param="rounds"]', "1")
        page.click("#create")
        page.wait_for_selector("#links-out li[data-spectator]")
        assert page.locator("#links-out a").count() == 2
        (table,) = server.tables.tables.values()
        assert [s.get("agent") for s in table.seats] == [None, "greedy", "mcts:20"]
        assert table.state.params["rounds"] == 1
        link = page.locator('#links-out li[data-seat="0"] a').get_attribute("href")
        seat = open_seat(browser, server, link)
        caught_up(seat, table)
        assert seat.locator(".seat.me").count() == 1
        assert not page.errors and not seat.errors


def test_the_replay_viewer_steps_forward_and_back_as_a_seat_or_all(browser, tmp_path):
    """serve --replay: step forward three times and back once; seat 0 sees the others' hands as backs, all sees them."""
    with running(tmp_path, recorded_games("poison-kedric-winks", 3)) as server:
        page = open_seat(browser, server, "/")
        page.click("a[data-game]")
        page.wait_for_selector(".table")
        for _ in range(3):
            page.click("#forward")
        page.click("#back")
        page.wait_for_function("document.querySelector('.step').textContent.startsWith('step 2 of')")
        hands = '.zone[data-zone="hand"][data-owner="1"]'
        assert page.locator(f"{hands} .card:not(.back)").count() > 0, "all seats: seat 1's hand face up"
        page.select_option("#as", "0")
        page.wait_for_selector(f"{hands} .card.back")
        assert page.locator(f"{hands} .card:not(.back)").count() == 0, "as seat 0: seat 1's hand face down"
        assert page.locator('.zone[data-zone="hand"][data-owner="0"] .card:not(.back)').count() > 0
        assert not page.errors, page.errors


LOVE_LETTER = "examples/classics/love_letter.rules"


def played(table, moves, what):
    """Wait until the table has played ``moves`` moves in all (its version counts them, and moves
    on only once a move and all it set off are done)."""
    wait(lambda: table.version >= moves, what)
    assert table.version == moves, f"{what}: {table.version} moves played, not {moves}"


def first_turn_with(game, card, other=lambda kind: True):
    """A seed of a two-player Love Letter whose first player holds ``card`` (and the other a card
    that ``other`` accepts): the seat to move and the seed."""
    hand = game.zone_index["hand"]
    for seed in range(1, 500):
        state = game.new_game(2, seed)
        p = state.current_player
        insts = state.layout.instances[hand]
        mine, theirs = ([game.cards.json[c]["type"] for c in state.zone_cards(insts[q])] for q in (p, 1 - p))
        if card in mine and "countess" not in mine and all(other(k) for k in theirs):
            return p, seed
    raise AssertionError(f"no seed deals {card} to the first player")


def test_love_letter_powers_ask_their_player_and_show_a_hand_to_that_seat_only(browser, tmp_path):
    """Love Letter, two people: the priest asks its player for a rival (buttons of the seats it may
    name, nobody else) and shows that rival's hand to its player's page only; the guard asks for a
    rival, then for a guess among the legal values (never a guard), and a right guess puts the
    rival out, so the round is scored."""
    import interpreter

    game = interpreter.load(LOVE_LETTER)
    hand = game.zone_index["hand"]
    with running(tmp_path, files=(LOVE_LETTER,)) as server:
        # the priest: look at the rival's hand
        me, seed = first_turn_with(game, "priest")
        links = server.create("file/0", ["human", "human"], seed=seed)
        table = server.tables.tables[links["table"]]
        mine, theirs = (open_seat(browser, server, links["seats"][p]["link"]) for p in (me, 1 - me))
        watcher = open_seat(browser, server, links["spectator"])
        caught_up(mine, table)
        mine.locator('.seat.me .card[data-playable][data-card^="priest"]').first.click()
        played(table, 1, "the priest to be played")
        assert table.state.asking is not None, "the priest asks for a rival"
        caught_up(mine, table)
        assert mine.locator(".turn-line").inner_text() == "you choose rival"
        caught_up(theirs, table)
        assert theirs.locator(".turn-line").inner_text() == f"seat {me} chooses rival", "the other sees who is asked"
        assert theirs.locator(".choice button").count() == 0
        rivals = mine.locator('.choice[data-move="rival"] button')
        assert rivals.count() == 1 and rivals.inner_text() == f"seat {1 - me}", "only the other seat may be named"
        (held,) = table.state.zone_cards(table.state.layout.instances[hand][1 - me])
        rivals.click()
        played(table, 2, "the rival to be named")
        name = " ".join(str(v) for v in game.cards.json[held].values())
        for page in (mine, theirs, watcher):
            caught_up(page, table)
        shown = mine.locator(f'.zone[data-zone="hand"][data-owner="{1 - me}"] .shown .card')
        assert shown.count() == 1 and shown.get_attribute("data-card") == name, "the priest's player sees that hand"
        assert "shown to you" in mine.locator(".shown").inner_text()
        assert theirs.locator(".shown").count() == 0 and watcher.locator(".shown").count() == 0, "nobody else does"
        assert f"seat {me}: rival you" in theirs.locator(".log").inner_text()

        # the guard: name a rival, then guess their card
        me, seed = first_turn_with(game, "guard", other=lambda kind: kind != "guard")
        links = server.create("file/0", ["human", "human"], seed=seed)
        table = server.tables.tables[links["table"]]
        page = open_seat(browser, server, links["seats"][me]["link"])
        caught_up(page, table)
        asked = lambda: table.state.asking and game.moves[table.state.asking[1]].name  # noqa: E731
        page.locator('.seat.me .card[data-playable][data-card^="guard"]').first.click()
        played(table, 1, "the guard to be played")
        assert asked() == "rival"
        caught_up(page, table)
        page.locator('.choice[data-move="rival"] button').click()
        played(table, 2, "the rival to be named")
        assert asked() == "guess"
        caught_up(page, table)
        assert page.locator(".turn-line").inner_text() == "you choose guess"
        guesses = page.locator('.choice[data-move="guess"] button')
        assert guesses.all_inner_texts() == ["2", "3", "4", "5", "6", "7", "8"], "a guard may not be guessed"
        (held,) = table.state.zone_cards(table.state.layout.instances[hand][1 - me])
        page.locator(f'.choice[data-move="guess"] button[data-value="{game.cards.json[held]["value"]}"]').click()
        played(table, 3, "the guess to be played")
        assert table.state.round == 1, "the right guess ends the round"
        caught_up(page, table)
        assert table.state.totals[me] == 1
        assert page.locator(f'.total[data-seat="{me}"]').inner_text().endswith(": 1"), "a token for the guard's player"
        assert "round 1 scored" in page.locator(".last-round").inner_text()
        for p in (mine, theirs, watcher, page):
            assert not p.errors, p.errors


def test_the_log_tells_each_page_what_it_may_know_and_a_hand_is_held_in_order(browser, tmp_path):
    """Love Letter, two people and a spectator: the hand is in the ruleset's `order cards by`
    (value) and a click plays the card clicked; after a priest, "what happened" holds the deal,
    the moves and the look: `you saw: CARD` on the page that looked, a hidden card for the spectator."""
    import interpreter

    game = interpreter.load(LOVE_LETTER)
    me, seed = first_turn_with(game, "priest")
    with running(tmp_path, files=(LOVE_LETTER,)) as server:
        links = server.create("file/0", ["human", "human"], seed=seed)
        table = server.tables.tables[links["table"]]
        mine, theirs = (open_seat(browser, server, links["seats"][p]["link"]) for p in (me, 1 - me))
        watcher = open_seat(browser, server, links["spectator"])
        caught_up(mine, table)
        cards = mine.locator('.seat.me .zone[data-zone="hand"] .card')
        values = [int(cards.nth(i).get_attribute("data-card").split()[-1]) for i in range(cards.count())]
        assert len(values) == 2 and values == sorted(values)
        mine.locator('.seat.me .card[data-playable][data-card^="priest"]').first.click()
        played(table, 1, "the priest to be played")
        assert table.state.describe(table.state.history[-1]["moves"][0][1])["card"]["type"] == "priest"
        caught_up(mine, table)
        mine.locator('.choice[data-move="rival"] button').click()
        played(table, 2, "the rival to be named")
        (look,) = [ev for ev in table.state.history[-1]["events"] if ev[0] == "show"]
        ((held, _),) = look[3]
        name = " ".join(str(v) for v in game.cards.json[held].values())
        logs = []
        for page in (mine, theirs, watcher):
            caught_up(page, table)
            logs.append(page.locator(".log").inner_text())
            assert "round 1" in logs[-1] and "dealt: " in logs[-1]
            assert not page.errors, page.errors
        assert f"you saw: {name} in hand of seat {1 - me}" in logs[0]
        assert f"seat {me} saw: {name} in your hand" in logs[1], "(its own card, which it sees)"
        assert f"seat {me} saw: a hidden card in hand of seat {1 - me}" in logs[2], "the spectator is not told"
