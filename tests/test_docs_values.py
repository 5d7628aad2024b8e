"""The examples of docs/language.md's section on values (players, teams, private counters,
definitions with parameters, derived attributes, copy counts) run: each is put into a small host
game that is played to its end, and every definition it makes is compared, after every move, with
what the reference says it means."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import interpreter
from conftest import ROOT

DOC = (ROOT / "docs" / "language.md").read_text()
SECTION = DOC[DOC.index("## Values: players, teams and definitions") : DOC.index("## Expressions")]
# (a whole game among them is played by test_docs.py; these are the snippets a host game holds)
BLOCKS = [b for b in re.findall(r"```rules\n(.*?)```", SECTION, flags=re.S) if not b.startswith("game ")]

HOST = """game "Host"
players {players}
{teams}
cards
{cards}
zones
  hand  per player, owner sees
  trick shared, public
  won   per player, hidden
{vars}
{defines}
round
  deal 2 to hand
  phase play
    move play card from hand to trick
    after play
      add -1 to chips of player
    after play if count trick = players
      move trick to won of player
    ends when every hand is empty
  score
    each card in won of player: 1
game
  rounds 3
  dealer rotates clockwise
  winner highest total
"""
CARDS = "  card  suit clubs | hearts | spades   rank 2..8"


def host(block: str) -> tuple[str, str]:
    """The host game holding ``block``, and its player counts."""
    parts = {"players": "3..4", "teams": "", "cards": CARDS, "vars": "var chips per player = 2", "defines": ""}
    if block.startswith("cards"):
        parts["cards"] = block.split("\n", 1)[1].rstrip()
    elif block.startswith("var"):
        parts["vars"] = block.rstrip()
    else:
        lines = block.rstrip().splitlines()
        parts["teams"] = "\n".join(x for x in lines if x.startswith("teams"))
        parts["defines"] = "\n".join(x for x in lines if not x.startswith("teams"))
    if parts["teams"] or "across" in block:
        parts["players"] = "4..4"
    return HOST.format(**parts), parts["players"]


class View:
    """What the reference reads of a state, from its zones, variables and totals."""

    def __init__(self, state: Any) -> None:
        self.s, self.game = state, state.game
        self.n = state.n

    def zone(self, name: str, seat: int = 0) -> list[int]:
        lay = self.s.layout
        return [c for item in self.s.zones[lay.base[self.game.zone_index[name]] + seat] for c in _ids(item)]

    def card(self, cid: int) -> dict[str, Any]:
        return self.game.cards.json[cid]

    def chips(self, p: int) -> int:
        return self.s.vars[[v[0] for v in self.game.vars].index("chips")][p]

    def team(self, p: int) -> int:
        return p % (self.n // 2)  # teams of 2, partners across


def _ids(item: Any) -> list[int]:
    return list(item) if isinstance(item, list | tuple) else [item]


def heads(card: dict[str, Any]) -> int:
    return 2 if card["rank"] > 10 else 1


def beats(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["suit"] == b["suit"] and a["rank"] > b["rank"]


# What each definition of the section means, in Python.
MEANING = {
    "leader_total": lambda v: max(v.s.totals),
    "chips_left": lambda v: sum(v.chips(p) for p in range(v.n) if p != v.s.dealer),
    "anyone_out": lambda v: any(not v.zone("hand", p) for p in range(v.n)),
    "all_in": lambda v: all(v.chips(p) > 0 for p in range(v.n)),
    "active": lambda v: sum(v.chips(p) > 0 for p in range(v.n)),
    "next_seat": lambda v: (v.s.dealer + 1) % v.n,
    "opposite": lambda v: (v.s.dealer + v.n // 2) % v.n,
    "second": lambda v: (v.s.dealer + 2) % v.n,
    "ahead": lambda v: any(
        sum(v.s.totals[p] for p in range(v.n) if v.team(p) == t)
        > sum(v.s.totals[p] for p in range(v.n) if v.team(p) == v.team(v.s.dealer))
        for t in range(2)
    ),
    "partner_out": lambda v: not v.zone("hand", (v.s.dealer + 2) % 4),
    "side_cards": lambda v: sum(len(v.zone("won", p)) for p in range(v.n) if v.team(p) == v.team(v.s.dealer)),
    "last_beats_first": lambda v: (
        beats(v.card(v.zone("trick")[-1]), v.card(v.zone("trick")[0])) if v.zone("trick") else False
    ),
    "trick_heads": lambda v: sum(heads(v.card(c)) for c in v.zone("trick")),
}


def test_the_section_has_an_example_of_each_construct():
    text = "\n".join(BLOCKS)
    for construct in ("for each player", "some player", "every player", "count player", "seat of", "%", "across"):
        assert construct in text
    for construct in ("seats left of", "teams of 2", "partner of", "owner sees", "hidden", "beats(", " of card"):
        assert construct in text
    assert "x (2 * players)" in text


@pytest.mark.parametrize("block", BLOCKS, ids=[f"values{i}" for i in range(len(BLOCKS))])
def test_each_example_plays_a_game_and_means_what_the_reference_says(block):
    text, players = host(block)
    game = interpreter.loads(text, "docs/language.md")
    defined = [name for name in re.findall(r"^define (\w+) =", block, flags=re.M)]
    for name in defined:
        assert name in MEANING, f"no meaning written for the example's '{name}'"
    n = int(players.split("..")[-1])
    state = game.new_game(n, seed=5)
    rng = random.Random(5)
    checked = 0
    while not state.is_over:
        view = View(state)
        for name in defined:
            got = game.extra["defines"][name][1](state, None)
            assert got == MEANING[name](view), (name, got)
            checked += 1
        state.apply(rng.choice(state.legal_moves()))
    assert checked == len(defined) * sum(len(r["moves"]) for r in state.history) or not defined


def test_the_derived_attribute_is_a_column_of_every_card():
    text, _ = host(next(b for b in BLOCKS if "heads of card" in b))
    game = interpreter.loads(text, "docs/language.md")
    assert list(game.cards.attrs["heads"]) == [heads(c) for c in game.cards.json]


def test_the_private_counters_are_seen_by_their_owner_only():
    text, _ = host(next(b for b in BLOCKS if b.startswith("var")))
    state = interpreter.loads(text, "docs/language.md").new_game(3, seed=1)
    seen = state.observe(1)["vars"]
    assert seen["chips"] == [None, 10, None]
    assert seen["bid"] == [None, None, None]


@pytest.mark.parametrize("players", [3, 4])
def test_the_copy_count_follows_the_number_of_players(players):
    text, _ = host(next(b for b in BLOCKS if b.startswith("cards")))
    game = interpreter.loads(text, "docs/language.md")
    present = [c for c in range(len(game.cards)) if c not in game.cards.absent(players)]
    values = sorted(game.cards.json[c]["value"] for c in present)
    assert values == [1] * (2 * players) + [5] * 3
    state = game.new_game(players, seed=2)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    assert sum(state.totals) == 2 * players * 3  # every card dealt is played and won, three rounds
