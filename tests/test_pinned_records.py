"""Seeded games of every shipped and example ruleset stay byte for byte what they were when pinned."""

from __future__ import annotations

import pytest
from pin_records import CASES, PINNED, name, records


@pytest.mark.parametrize("case", CASES, ids=name)
def test_pinned_games_are_played_again_byte_for_byte(case):
    """A change to the language or the engine leaves every game a shipped ruleset plays unchanged."""
    assert records(case) == (PINNED / name(case)).read_text()
