"""The zones a round's scoring reveals are read from a plan kept for the last game and layout
(observe.revealed_zones): games of several rulesets and player counts played in turn, move by
move, each see their own zones, as the declarations say, and a round log's deal reads the same
whether its empty zones were kept as lists or not (history.RoundLog)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
from conftest import EXAMPLES, RULESETS
from interpreter.engine.observe import revealed_zones

GAMES = [
    (RULESETS / "poison-kedric-winks.rules", 4),
    (RULESETS / "poison-kedric-winks.rules", 3),
    (EXAMPLES / "poison-kedric-winks-house-agendas.rules", 3),
    (RULESETS / "poison.rules", 4),  # (no zone revealed when scored)
]


def declared(state) -> dict:
    """What the declarations say: every zone `revealed when scored`, each instance's cards (piles
    flattened), as record objects."""
    game, lay, cards = state.game, state.layout, state.game.cards.json
    return {
        spec.name: [[cards[c] for c in state.zone_cards(i)] for i in lay.instances[z]]
        for z, spec in enumerate(game.zones)
        if spec.revealed
    }


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.lists(st.integers(0, len(GAMES) - 1), min_size=5, max_size=60))
def test_each_game_reads_its_own_revealed_zones_when_games_take_turns(seed, turns):
    loaded = {path: interpreter.load(path) for path, _ in GAMES}
    states = [loaded[path].new_game(players, seed + k) for k, (path, players) in enumerate(GAMES)]
    for k in turns:
        state = states[k]
        if not state.is_over:
            state.apply(state.legal_moves()[seed % len(state.legal_moves())])
        assert revealed_zones(state) == declared(state)
    kedric = states[0]
    assert set(declared(kedric)) == {"agenda_down"}  # (the test reads something)


def test_a_round_logs_deal_lists_every_zone_empty_ones_included():
    game = interpreter.load(RULESETS / "poison-kedric-winks.rules")
    state = game.new_game(4, 1)
    deal = state.history[0]["deal"]
    assert "trick" not in deal  # (a shared zone empty at the deal is left out, as before)
    assert deal["agenda_up"] == [[], [], [], []]
    assert [len(hand) for hand in deal["hand"]] == [9, 9, 9, 9]
