"""The engine is generic: nothing under interpreter/ names a game; every game fact is in rulesets/."""

from __future__ import annotations

import re

from conftest import ROOT

GAME_WORDS = re.compile(r"\b(cauldron|potion|poison|agenda|bottle|brandy|sherry|cocktails?|knizia|amigo)\b", re.I)


def test_no_game_word_in_the_engine():
    hits = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if GAME_WORDS.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert hits == []


def test_no_game_number_in_the_engine():
    # The limit of AMIGO's Poison lives in rulesets/poison.rules, not in code.
    hits = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        if path.name == "protocol.py":  # the language server protocol's numbered kinds (Enum = 13)
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.search(r"(?<![\w.:<>^])13(?![\w.])", code):  # a format width like :<13 is not one
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert hits == []
