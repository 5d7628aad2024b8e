"""Loops in effects (`for each player from P ... until C`, `for each card in ZONE by KEY`, `repeat
until C`), named effects (`effect NAME`, `do NAME`), `draw top N` and a draw move's `card`: what each
does in play, the bound on every loop, the positioned errors, and their place in fmt, render, diff
and the editor."""

from __future__ import annotations

import pytest

import interpreter
from conftest import position
from interpreter.editor.slots import slots
from interpreter.errors import PlayError, RulesetError
from interpreter.text.diff import diff
from interpreter.text.fmt import format_text
from interpreter.text.render import rulebook, to_markdown

HEAD = """game "Loops"
players 2..4

cards
  card  rank 1..9   suit sun | moon

zones
  hand     per player, owner sees
  row      shared, public
  kept     shared, public
  stock    shared, hidden

var n = 0
var asked per player = 0
"""
TAIL = """    ends when every hand is empty
  score
    n

game
  rounds 1
  winner highest total
"""


def rules(trigger: str, blocks: str = "") -> str:
    """A game whose every `play` runs ``trigger``'s effects (indented under `after play`)."""
    body = "".join(f"      {line}\n" for line in trigger.strip("\n").splitlines())
    phase = "  phase play\n    move play card from hand to row\n    after play\n"
    return HEAD + blocks + "\nround\n  deal 2 to hand, rest to stock\n" + phase + body + TAIL


def c(rank: int, suit: str = "sun") -> dict:
    return {"type": "card", "suit": suit, "rank": rank}


def ranks(state, zone: str, seat: int = 0) -> list[int]:
    base = state.layout.base[state.game.zone_index[zone]] + seat
    return [state.game.cards.json[i]["rank"] for i in state.zone_cards(base)]


def var(state, name: str):
    return state.vars[[v["name"] for v in state.game.ir["vars"]].index(name)]


def start(text: str, players: int = 3, **zones):
    game = interpreter.loads(text, "loops.rules")
    hands = zones.pop("hand", [[c(1)], [c(2)], [c(3)], [c(4)]][:players])
    return position(game, players, {"hand": hands, **zones})


def play_first(state) -> None:
    state.apply(state.legal_moves()[0])


# ---- for each player from P ... until C


ASKING = """
let mover = player
set n to 0
for each player from left of mover where player != mover until n > 0
  add 1 to asked of player
  ask player to choose answer one of object, accept
    if answer = object
      set n to seat of player + 1
"""


def answer(state, option: str) -> None:
    state.apply(next(m for m in state.legal_moves() if m.target == option))


def test_players_are_asked_in_turn_from_the_movers_left_and_the_first_objection_stops_the_loop():
    state = start(rules(ASKING), 4)
    assert state.current == 1  # the dealer's left plays first
    play_first(state)  # seats 2, 3, 0 are to be asked, in that order
    assert state.current == 2
    answer(state, "accept")
    assert state.current == 3
    answer(state, "object")  # seat 3 objects: seat 0 is never asked
    assert var(state, "asked") == [0, 0, 1, 1] and var(state, "n") > 0


def test_from_starts_at_the_seat_named_and_goes_round_the_table():
    state = start(rules(ASKING), 4)
    play_first(state)
    for _ in range(3):
        answer(state, "accept")
    assert state.current == 2 and var(state, "asked") == [1, 0, 1, 1]  # seat 1 played: seat 2 plays next
    play_first(state)
    assert state.current == 3  # seat 2 played: seat 3 is asked first, then 0, then 1
    answer(state, "accept")
    assert state.current == 0
    answer(state, "accept")
    assert state.current == 1


def test_an_option_an_ask_names_inside_a_for_each_is_known():
    """It was reported as an unknown name (the options were looked for outside `for each` only)."""
    assert interpreter.loads(rules(ASKING), "loops.rules").ir["round"]["phases"][0]["triggers"]


# ---- for each card in ZONE by KEY


@pytest.mark.parametrize(
    ("by", "order"), [("", [2, 5, 3, 9]), ("by rank", [2, 3, 5, 9]), ("by highest rank", [9, 5, 3, 2])]
)
def test_the_cards_of_a_zone_go_in_the_order_asked(by, order):
    text = rules(f"if count row = 4\n  for each card in row {by}\n    move card to kept")
    state = start(text, 2, hand=[[c(5), c(9)], [c(2), c(3)]])
    for _ in range(4):
        play_first(state)
    assert ranks(state, "kept") == order


def test_until_stops_the_cards_before_the_turn_it_holds_at():
    loop = "for each card in row by rank until n >= 5\n    add rank of card to n\n    move card to kept"
    text = rules("if count row = 4\n  " + loop)
    state = start(text, 2, hand=[[c(5), c(9)], [c(2), c(3)]])
    for _ in range(4):
        play_first(state)
    assert ranks(state, "kept") == [2, 3] and var(state, "n") == 5


# ---- repeat until C and its bound


def test_repeat_draws_until_the_condition_holds_and_not_at_all_when_it_holds_already():
    text = rules("repeat until sum of rank in kept >= 10\n  draw top 1 from stock to kept")
    stock = [c(8, "moon"), c(1, "moon"), c(6, "moon"), c(7, "moon")]  # the top is the last: 7, 6, 1, 8
    state = start(text, 2, hand=[[c(1)], [c(2)]], stock=stock)
    play_first(state)
    assert ranks(state, "kept") == [7, 6]  # 7, then 13: stops
    play_first(state)
    assert ranks(state, "kept") == [7, 6]  # 13 already: no pass


def test_draw_takes_the_first_cards_and_draw_top_the_last():
    stock = [c(8, "moon"), c(1, "moon"), c(6, "moon")]
    first = start(rules("draw 2 from stock to kept"), 2, hand=[[c(1)], [c(2)]], stock=stock)
    top = start(rules("draw top 2 from stock to kept"), 2, hand=[[c(1)], [c(2)]], stock=stock)
    play_first(first)
    play_first(top)
    assert ranks(first, "kept") == [8, 1] and ranks(top, "kept") == [6, 1]


def test_a_runaway_repeat_is_an_error_at_its_line_not_a_hang():
    text = rules("repeat until n < 0 or n > 5000\n  add 1 to n")
    state = start(text, 2)
    with pytest.raises(PlayError) as info:
        play_first(state)
    assert (
        "1000 passes" in info.value.message
        and info.value.span.line == text.splitlines().index("      repeat until n < 0 or n > 5000") + 1
    ), info.value.format()


@pytest.mark.parametrize(
    ("effects", "reads"),
    [
        ("repeat until count stock = 0\n  add 1 to n", "it reads stock; the effects change n"),
        ("repeat until n > 3\n  draw 1 from stock to kept", "it reads n; the effects change kept, stock"),
        ("repeat until 1 > 2\n  add 1 to n", "it reads nothing"),
    ],
)
def test_a_repeat_whose_effects_change_nothing_its_condition_reads_is_refused_at_load(effects, reads):
    text = rules(effects)
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, "loops.rules")
    err = info.value
    assert "can never end" in err.message and reads in err.message, err.format()
    assert err.span.line == next(i for i, t in enumerate(text.splitlines(), 1) if "repeat until" in t)


@pytest.mark.parametrize(
    ("effects", "says"),
    [
        ("for each card\n  add 1 to n", "needs the cards"),
        ("for each card in n\n  add 1 to n", "takes cards or a zone"),
        ("for each card in row from player\n  add 1 to n", "`from` names the seat"),
        ("for each player in row\n  add 1 to n", "`in` is for `for each card in ZONE`"),
        ("for each card in row by suit\n  add 1 to n", "number"),
    ],
)
def test_each_misuse_of_a_loop_is_a_positioned_error(effects, says):
    with pytest.raises(RulesetError) as info:
        interpreter.loads(rules(effects), "loops.rules")
    assert says in info.value.message and info.value.span is not None, info.value.format()


# ---- named effects


PENALTY = """
# A penalty: a card from the stock and a point.
effect penalty
  draw top 1 from stock to hand of player
  add 1 to n
"""


def test_a_named_effect_is_done_where_it_is_named_with_the_names_known_there():
    text = rules("if rank of card > 1\n  do penalty\nelse\n  do penalty\n  do penalty", PENALTY)
    state = start(text, 2, hand=[[c(2)], [c(1)]], stock=[c(7, "moon"), c(8, "moon")])
    play_first(state)  # seat 1 plays its 1: a penalty twice
    assert var(state, "n") == 2 and ranks(state, "hand", 1) == [8, 7]
    assert interpreter.loads(text, "loops.rules").ir["blocks"][0]["name"] == "penalty"


@pytest.mark.parametrize(
    ("trigger", "blocks", "says", "hint"),
    [
        ("do penalti", PENALTY, "no effect 'penalti'", "did you mean 'penalty'?"),
        ("do a", "effect a\n  do b\neffect b\n  do a\n", "does itself (a -> b -> a)", "bounded"),
        ("add 1 to n", "effect a\n  add 1 to asked of player\n", "player", None),
    ],
)
def test_each_misuse_of_a_named_effect_is_a_positioned_error(trigger, blocks, says, hint):
    with pytest.raises(RulesetError) as info:
        interpreter.loads(rules(trigger, blocks), "loops.rules")
    err = info.value
    assert says in err.message and err.span is not None, err.format()
    assert hint is None or hint in (err.hint or ""), err.format()


def test_a_named_effect_read_where_a_name_is_unknown_names_the_do_in_its_hint():
    text = (
        HEAD
        + "effect a\n  add 1 to asked of player\n"
        + rules("add 1 to n")[len(HEAD) :].replace("    after play\n", "    at end\n      do a\n    after play\n")
    )
    with pytest.raises(RulesetError) as info:
        interpreter.loads(text, "loops.rules")
    assert "done at" in (info.value.hint or "") and info.value.span.line == 16, info.value.format()


# ---- a draw move's card


def test_a_draw_moves_triggers_name_the_card_it_took():
    text = HEAD + (
        "\nround\n  deal 1 to hand, rest to stock\n  phase play\n    move take top card from stock to hand\n"
        "    after take\n      add rank of card to n\n      move card to kept\n" + TAIL
    )
    state = start(text, 2, hand=[[c(1)], [c(2)]], stock=[c(4, "moon"), c(7, "moon")])
    play_first(state)
    assert var(state, "n") == 7 and ranks(state, "kept") == [7]


# ---- in every tool


def test_fmt_keeps_every_loop_and_named_effect_and_is_stable():
    text = rules("for each card in row where rank of card > 1 by highest rank until n > 3\n  do penalty", PENALTY)
    text = text.replace("let", "let")
    messy = text.replace("by highest rank until", "by  highest   rank  until")
    once = format_text(messy, "loops.rules")
    assert "for each card in row where rank of card > 1 by highest rank until n > 3" in once
    assert "\neffect penalty\n  draw top 1 from stock to hand of player\n" in once
    assert format_text(once, "loops.rules") == once
    assert interpreter.loads(once, "loops.rules").ir == interpreter.loads(text, "loops.rules").ir | {
        "source": "loops.rules"
    }


def test_the_rulebook_says_each_loop_and_each_named_effect_once():
    text = rules(ASKING + "repeat until count kept > 1\n  do penalty\n  draw top 1 from row to kept", PENALTY)
    md = to_markdown(rulebook(interpreter.loads(text, "loops.rules").ir))
    assert "in seat order from the player to the left of *mover*, stopping as soon as" in md, md
    assert "Until the number of cards in the kept is more than 1, again and again" in md
    assert "Do *penalty* (see *Effects by name*)." in md
    assert md.count("### Effect: penalty") == 1 and "A penalty: a card from the stock and a point." in md


def test_diff_compares_a_named_effect_as_one_rule():
    a = interpreter.loads(rules("do penalty", PENALTY), "a.rules").ir
    b = interpreter.loads(rules("do penalty", PENALTY.replace("add 1 to n", "add 2 to n")), "b.rules").ir
    changes = diff(a, b)
    assert [(ch.change, ch.item.key) for ch in changes] == [("changed", "penalty")], changes


def test_the_editor_reads_a_named_effects_name_as_an_effect_not_a_shared_name():
    text = rules("do penalty", PENALTY)
    kinds = {(line, col): kind for (line, col), kind in slots("loops.rules", text).items() if kind == "effect"}
    lines = text.splitlines()
    assert {lines[line].strip() for line, _ in kinds} == {"effect penalty", "do penalty"}


def test_check_warns_of_a_named_effect_no_rule_does(tmp_path):
    from interpreter.checker import check

    path = tmp_path / "spare.rules"
    path.write_text(rules("do penalty", PENALTY + "\neffect spare\n  add 1 to n\n"))
    found = [(f.message, f.at.line) for f in check(str(path), games=0).findings if f.code == "unused-effect"]
    line = rules("do penalty", PENALTY + "\neffect spare\n  add 1 to n\n").splitlines().index("effect spare") + 1
    assert found == [("effect 'spare' is never done: no rule says `do spare`", line)], found


def test_the_cards_a_waiting_for_each_card_has_still_to_go_are_renamed_with_a_swap():
    """While an ask waits inside `for each card`, a sampler's swap of two cards renames them in
    the loop's turns still to go, as in the env (flow.renamed)."""
    from interpreter.engine.flow import Cards, Env, renamed

    frame = (print, (Cards((3, 4, 5)), 1, Env((0, 4, None))))
    asking = (1, 0, Env((0, 4)), (frame,))
    out = renamed(asking, {4: 9, 9: 4}, frozenset({1}), lambda m, other: m)
    assert out[3][0][1] == (Cards((3, 9, 5)), 1, Env((0, 9, None)))


def test_a_repeat_whose_effects_ask_waits_for_each_answer_then_goes_on():
    text = rules("set n to 0\nrepeat until n >= 2\n  ask player to choose answer one of go, stay\n    add 1 to n")
    state = start(text, 2)
    play_first(state)  # seat 1 plays and is asked
    assert state.current == 1 and var(state, "n") == 0
    answer(state, "go")
    assert state.current == 1 and var(state, "n") == 1  # asked again: n is 1, not yet 2
    answer(state, "stay")
    assert var(state, "n") == 2 and state.current == 0  # the loop is over: the next player moves
