"""`ruleset play` driven as a person would: a real process, typed input, what the screen shows."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

from conftest import HANG, ROOT, ctrl_c_as_at_a_terminal, run_cli


def _screens(out: str) -> list[str]:
    return out.split("=== ")[1:]


def test_a_whole_game_shows_the_seats_hand_and_never_another_seats(tmp_path):
    rec = tmp_path / "game.jsonl"
    r = run_cli(
        "play", "poison", "--players", "3", "--seat", "1", "--agents", "random",
        "--set", "rounds=1", "--seed", "4", "--record", str(rec), input="1\n" * 40,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    out = r.stdout
    assert "your hand: potion" in out or "your hand: poison" in out
    hands = [line for line in out.splitlines() if line.startswith("hand of seat")]
    assert hands and all(re.fullmatch(r"hand of seat [02]: \d+ cards?, hidden", h) for h in hands)  # (1 card: "1 card")
    assert "round 1 scored" in out and "game over" in out
    assert re.search(r"cauldron \d: .*\[color (red|blue|violet|none); sum of value \d+\]", out)
    # the hand the screen showed is the hand the record dealt to seat 1
    game = json.loads(rec.read_text())
    first = next(line for line in out.splitlines() if line.startswith("your hand:"))
    dealt = game["rounds"][0]["deal"]["hand"][1]
    assert len(first.split(": ", 1)[1].split("   [")[0].split(", ")) == len(dealt)


def test_the_recorded_game_replays_as_the_seat_saw_it(tmp_path):
    rec = tmp_path / "game.jsonl"
    run_cli("play", "poison", "--players", "4", "--set", "rounds=1", "--record", str(rec), input="1\n" * 40)
    r = run_cli("replay", str(rec), "--seat", "2")
    assert r.returncode == 0, r.stderr
    assert "seen from seat 2" in r.stdout and "your hand:" in r.stdout
    assert all("hidden" in line for line in r.stdout.splitlines() if line.startswith("hand of seat"))
    assert "every move legal" in r.stdout


def test_a_game_that_ends_on_a_condition_replays_without_a_number_of_rounds():
    """Sevens plays until a total reaches its goal: its rounds are not counted in advance (once
    "round 1 of None")."""
    rec, rules = "tests/pinned/sevens-4p-random_greedy_random_greedy.jsonl", "examples/classics/sevens.rules"
    r = run_cli("replay", rec, "--rules", rules, "--seat", "1")
    assert r.returncode == 0, r.stderr
    headers = [line for line in r.stdout.splitlines() if line.startswith("=== round")]
    assert headers[0] == "=== round 1, dealer seat 0 ===" and "None" not in r.stdout


def test_bad_input_asks_again_and_q_quits_cleanly():
    r = run_cli("play", "poison", "--players", "4", input="seven\n0\n99\n?\nq\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "not a move: 'seven'" in r.stdout
    assert "there is no move 0" in r.stdout and "there is no move 99" in r.stdout
    assert "move play card from hand to cauldron" in r.stdout  # ? shows the phase's rules
    assert "you quit" in r.stdout


def test_a_card_can_be_named_instead_of_numbered():
    first = run_cli("play", "poison", "--players", "4", "--seed", "1", input="q\n")
    card, where = re.search(r" 2\) play (.*) to (cauldron \d)", first.stdout).groups()  # e.g. "potion red 7"
    r = run_cli("play", "poison", "--players", "4", "--seed", "1", input=f"{card.upper()} {where}\nq\n")
    assert f"you: play {card} to {where}" in r.stdout


def test_end_of_input_ends_the_game_cleanly():
    r = run_cli("play", "poison", "--players", "4", input="")
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "end of input" in r.stdout


def test_bots_are_named_per_seat_and_a_bad_name_is_exit_2():
    r = run_cli("play", "poison", "--players", "3", "--agents", "wizard", input="q\n")
    assert r.returncode == 2 and "unknown agent 'wizard'" in r.stderr
    r = run_cli("play", "poison", "--players", "3", "--agents", "greedy,mcts:5", "--seat", "0", input="1\n1\nq\n")
    assert r.returncode == 0 and "(mcts(iterations=5))" in r.stdout


def test_in_the_trick_taking_game_another_seats_face_down_agenda_stays_hidden():
    r = run_cli(
        "play", "rulesets/poison-kedric-winks.rules", "--players", "3", "--agents", "random",
        "--set", "hands=1", input="1\n" * 20,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "game over" in r.stdout
    for line in lines:
        if line.startswith(("agenda_down of seat", "hand of seat", "offer of seat")):
            assert line.endswith("hidden"), line


def test_ctrl_c_at_the_prompt_ends_without_a_traceback():
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter", "play", "poison", "--players", "4"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    line = ""
    while "your move" not in line:
        line = proc.stdout.readline()
        assert line, "the prompt never came"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=HANG)
    assert "Traceback" not in err
    assert proc.returncode in (0, 130)


def _play_through(*args: str) -> str:
    """A whole game typed as "1" at every prompt (the seat's first move), its screen."""
    r = run_cli("play", *args, "--agents", "random", "--seed", "3", input="1\n" * 400)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_the_end_of_a_round_shows_what_was_hidden_and_the_scores_by_rule():
    """Poison: each seat's collected cards, revealed at scoring, then each score rule's points per seat."""
    out = _play_through("poison", "--players", "3", "--set", "rounds=2")
    block = out.split("--- round 1 scored ---\n", 1)[1].split("=== round 2", 1)[0].splitlines()
    assert block[0].startswith("revealed: your collected: ")
    assert any(line.startswith("revealed: collected of seat 1: ") for line in block)
    rule = next(line for line in block if line.endswith("each poison in collected of player: -2"))
    points = [int(x) for x in rule.split("each poison")[0].split()]
    assert len(points) == 3 and all(p <= 0 and p % 2 == 0 for p in points)
    assert block[-2].endswith("this round") and block[-1].endswith("total")


def test_a_new_rounds_header_comes_before_its_first_moves():
    """After a round's scores, `=== round 2 of 2, dealer seat 1 ===` opens round 2, before any of its moves."""
    out = _play_through("poison", "--players", "3", "--set", "rounds=2")
    after = out.split("--- round 1 scored ---\n", 1)[1].splitlines()
    first_move = next(i for i, line in enumerate(after) if re.match(r"  (you|seat \d): ", line))
    assert "=== round 2 of 2, dealer seat 1 ===" in after[:first_move]


def test_who_takes_the_cards_of_a_shared_zone_is_said_in_words_and_it_is_true():
    """Kedric Winks: the winner of each trick is named as the rules move the trick to their won pile,
    with the trick's cards, those just played to it (once the count of any zone that lost cards
    was paired with any that gained some: takes that never happened)."""
    out = _play_through("poison-kedric-winks", "--players", "3", "--set", "hands=1")
    lines = [line for line in out.splitlines() if line.startswith("  ")]
    takes = [i for i, line in enumerate(lines) if re.match(r"  (you take|seat \d takes) .+ from trick into won$", line)]
    assert takes
    for i in takes:
        played = [m.group(1) for m in (re.match(r"  (?:you|seat \d): play (.+) to trick", x) for x in lines[:i]) if m]
        taken = lines[i].split(" take", 1)[1].split(" ", 1)[1].split(" from trick")[0].split(", ")
        assert taken == played[-len(taken) :], lines[i]
    assert not re.search(r"takes? .* from (deck|hand)", out)


def test_the_hand_is_sorted_and_shows_no_sum_that_no_rule_reads():
    """Your hand is in the deck's order (type, colour, value); only the cauldrons show `sum of value`."""
    out = _play_through("poison", "--players", "3", "--set", "rounds=1")
    order = {"potion": 0, "poison": 1, "red": 0, "blue": 1, "violet": 2, "green": 3}
    for line in (x for x in out.splitlines() if x.startswith("your hand: ")):
        cards = [c.split() for c in line.removeprefix("your hand: ").split(", ")]
        keys = [(order[t], order[color], int(value)) for t, color, value in cards]
        assert keys == sorted(keys), line
        assert "sum of" not in line
    assert "sum of rank" not in _play_through("poison-kedric-winks", "--players", "3", "--set", "hands=1")


def test_a_single_choice_is_not_asked_as_a_range():
    """With one legal move the prompt says so and Enter plays it; never `(1-1, ...)`."""
    import io
    import random

    import interpreter
    from interpreter.play.terminal import ask

    out = _play_through("poison-kedric-winks", "--players", "3", "--set", "hands=1")
    assert "(1-1," not in out and "your only move" in out
    game, rng = interpreter.load("poison-kedric-winks"), random.Random(5)
    state = game.new_game(3, 5)
    while len({(state.describe(m)["card"]["type"], str(state.describe(m))) for m in state.legal_moves()}) != 1:
        state.apply(rng.choice(state.legal_moves()))
    said: list[str] = []
    move = ask(state, state.current_player, io.StringIO("\n"), said.append)
    assert move in state.legal_moves() and any("your only move" in s and "Enter" in s for s in said)


def test_a_plain_decks_cards_are_named_by_their_values_as_a_player_types_them():
    """Oh Hell!'s one kind of card is declared `card`: the hand reads `hearts 2, spades 4`, not
    `card hearts 2, card spades 4`, and the name shown is the name typed."""
    import io

    import interpreter
    from interpreter.play.terminal import ask, screen

    game = interpreter.load(ROOT / "examples" / "classics" / "oh_hell.rules")
    state = game.new_game(3, 1, {"largest": 2})
    while game.phases[state.phase].name == "bidding":
        state.apply(state.legal_moves()[0])
    seat = state.current_player
    (hand,) = [x for x in screen(state, seat).splitlines() if x.startswith("your hand: ")]
    assert re.fullmatch(r"your hand: (clubs|diamonds|hearts|spades) \d+(, \w+ \d+)*", hand), hand
    first = hand.removeprefix("your hand: ").split(", ")[0]
    said: list[str] = []
    move = ask(state, seat, io.StringIO(f"{first}\n"), said.append)
    suit, rank = first.split()
    assert state.describe(move)["card"] == {"type": "card", "suit": suit, "rank": int(rank)}
