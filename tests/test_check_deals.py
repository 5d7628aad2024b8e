"""What `check` says of each deal line (interpreter/checker/deck.py): so many to each player, to
each of a zone's instances, or laid on one shared zone (no "each" there), and a deal that cannot
be made, worded for one card as for several."""

from __future__ import annotations

from interpreter.checker import check

TABLE = """game "Table"
players 2..3

cards
  card  suit red | blue   rank 1..6

zones
  hand     per player, owner sees
  row      2, public
  discard  shared, public
  stock    shared, hidden

round
  deal 2 to hand
  deal 1 to each row
  turn up 1 to discard
  deal all to stock
  phase play
    move play card from hand to discard
    ends when every hand is empty
  score
    count hand of player

game
  rounds 1
  winner highest total
"""


def infos(path) -> list[str]:
    return [f.message for f in check(str(path), games=5, seed=1).findings if f.code == "deal"]


def test_a_deal_to_one_shared_zone_says_how_many_lie_there_not_each(tmp_path):
    path = tmp_path / "table.rules"
    path.write_text(TABLE)
    said = infos(path)
    assert (
        "deals from 'deck' (12 cards) to hand, by players: 2: 2 each, 4 dealt, 8 aside | 3: 2 each, 6 dealt, 6 aside"
        in said
    )
    assert "deals from 'deck' (12 cards) to row, by players: 2: 1 each, 2 dealt | 3: 1 each, 2 dealt" in said
    assert "deals from 'deck' (12 cards) to discard, by players: 2: 1 dealt | 3: 1 dealt" in said
    assert "deals from 'deck' (12 cards) to stock, by players: 2: 5 dealt | 3: 3 dealt" in said


def test_a_deal_short_of_one_card_says_card(tmp_path):
    path = tmp_path / "short.rules"
    path.write_text(
        TABLE.replace("  turn up 1 to discard\n  deal all to stock\n", "  deal all to stock\n  turn up 1 to discard\n")
    )
    said = [f.message for f in check(str(path), games=5, seed=1).findings if f.severity == "error"]
    assert any("deals 1 card; the deck has 0 left" in s for s in said), said
