"""`ruleset render`: the rulebook states the rules' facts, every note, for any ruleset."""

from __future__ import annotations

import sys

import pytest

from conftest import EXAMPLES, RULESETS, run_cli
from interpreter.loader import ir_from_path, ir_from_text
from interpreter.text.render import escape, render

SHIPPED = sorted(RULESETS.glob("*.rules"))

TINY = """game "Tiny"
players 2..4
param goal = 10
cards
  gem   color red | blue   value 1..3 x2
  wild  value 0 x4
zones
  hand  per player, owner sees
  pot   2, public
  pile  shared, hidden
var passes per player = 0
round
  deal 3 to hand, rest to pile
  phase play
    first player highest count hand of player
    move play card from hand to pot
      require not card is wild when some gem in hand of player
    after play if sum of value in target >= goal
      move cards in target to pile
      add 1 to passes of player
      draw 2 from pile to hand of player
    ends when every hand is empty or max of value in pile > goal - 1
  score
    each gem in hand of player: -(value of card)
    passes of player
game
  rounds 2 * players
  winner lowest total
"""


@pytest.fixture(scope="module")
def amigo() -> str:
    return render(ir_from_path(RULESETS / "poison.rules"))


def test_the_deck_table_gives_each_card_type_its_attributes_copies_and_total(amigo):
    """14 potion cards per color with their values, 8 poison cards worth 4, 50 in all."""
    assert (
        "| **potion** | color: red, blue or violet; value: 1 ×3, 2 ×3, 4 ×2, 5 ×3, 7 ×3 | 14 per color | 42 |" in amigo
    )
    assert "| **poison** | color: green; value: 4 ×8 | 8 | 8 |" in amigo
    assert "| **Total** |  |  | **50** |" in amigo
    assert "### Cards (50 cards)" in amigo


def test_the_limit_and_what_exceeding_it_does(amigo):
    """The limit 13 is a parameter, and the overflow trigger reads with its value."""
    assert "| `limit` | 13 | 13 |" in amigo
    assert (
        "After each play, if the total value of the cards in the cauldron the card went into is more than `limit` (13):"
        in amigo
    )
    assert "Move the cards in the cauldron the card went into except the card to the player's collected." in amigo


def test_scoring_states_the_strict_majority(amigo):
    """A potion scores -1 unless its color is the player's strict majority; nobody on a tie; poison -2."""
    assert (
        "Each potion card in the player's collected: -1, unless the number of potion cards in the player's "
        "collected whose color is the card's color is strictly the most of all players "
        "(on a tie for the most, for nobody)." in amigo
    )
    assert "Each poison card in the player's collected: -2." in amigo


def test_three_players_are_dealt_as_four_with_the_spare_hand_removed(amigo):
    """The deal says so, and the table of player counts shows 4 hands, 1 removed unseen, for 3 players."""
    assert "when the number of players is 3, deal as if for 4 players and remove the spare hands unseen" in amigo
    assert "| 3 | 4 | 12 or 13 | 1, removed unseen | 0 |" in amigo
    assert "| 4 | 4 | 12 or 13 | none | 0 |" in amigo
    assert "| 5 | 5 | 10 | none | 0 |" in amigo


def test_the_number_of_rounds_for_each_player_count(amigo):
    """Each player deals once, twice with three players."""
    assert "The game lasts `rounds` rounds: 6 with 3 players, 4 with 4, 5 with 5, 6 with 6" in amigo
    assert "the dealer passes clockwise after each round" in amigo
    assert "the player with the highest total wins; tied players share the win" in amigo


def test_legal_plays_are_listed_with_their_guards(amigo):
    """The move and each `allow` of it, in words."""
    assert "- play: a card from the player's hand to a cauldron" in amigo
    assert "    - the card is a poison card" in amigo
    assert (
        "    - the *color* of the cauldron the card goes into is none"
        " and there is no cauldron whose *color* is the card's color" in amigo
    )


def _notes(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "note":
                yield v
            else:
                yield from _notes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _notes(v)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_comment_beside_a_rule_appears_as_a_note(path):
    """Each rules decision written as a comment (a `note` in the IR) is in the rulebook."""
    ir = ir_from_path(path)
    book = render(ir)
    notes = list(_notes(ir))
    assert notes or "kedric" in path.name
    for note in notes:
        assert escape(note) in book


def test_kedric_winks_states_the_schedule_and_the_trick_rules():
    """The 9-6-3 schedule, following suit, the trick's winner, the winner leading the next trick."""
    book = render(ir_from_path(RULESETS / "poison-kedric-winks.rules"))
    assert "`size`: 9, 6, 3, repeated" in book
    assert "| 6 | 6 | 9, 6 or 3 | none | 0, 18 or 36 (aside, unseen) |" in book
    assert "the card's suit is *led*, whenever there is a card in the player's hand whose suit is *led*" in book
    assert "the first bottle card in the trick whose suit is *led*, else the best poison card in the trick" in book
    assert "Move the cards of the trick to the won of *winner* as one pile." in book
    assert "*winner* moves next." in book
    assert "The game lasts 9 rounds" in book


def test_any_ruleset_renders_from_its_constructs():
    """A ruleset unlike the shipped ones reads back: variables, draws, first player, rest of the deck."""
    book = render(ir_from_text(TINY, "tiny.rules"))
    assert "Passes: one for each player, starting at 0" in book
    assert "3 cards each, in one packet each, into each player's hand; the rest form the pile, face down" in book
    assert "| 2 | 2 | 3 | none | 10 (pile) |" in book
    assert "the player for whom the number of cards in the player's hand is highest" in book
    assert "the card is not a wild card, whenever there is a gem card in the player's hand" in book
    assert "Move the cards in the pot the card went into to the pile." in book
    assert "Add 1 to the player's passes." in book
    assert "Draw 2 cards from the pile to the player's hand, while any are left." in book
    assert (
        "every player's hand is empty or the highest value among the cards in the pile is more than `goal` (10) − 1"
        in book
    )
    assert "Each gem card in the player's hand: minus the card's value." in book
    assert "The game lasts 2 × the number of players rounds: 4 with 2 players, 6 with 3, 8 with 4" in book


def test_set_changes_the_values_the_rulebook_states():
    """`--set limit=17` renders the limit as 17 and says it was set."""
    result = run_cli("render", "rulesets/poison.rules", "--set", "limit=17", "--no-source")
    assert result.returncode == 0
    assert "more than `limit` (17)" in result.stdout
    assert "Parameters as set: `limit=17`." in result.stdout
    bad = run_cli("render", "rulesets/poison.rules", "--set", "limt=17")
    assert bad.returncode == 2 and "unknown parameter 'limt'" in bad.stderr


def test_html_is_a_page_with_tables_and_the_highlighted_rules(tmp_path):
    """HTML output: a standalone page, the deck as a table, the rules file highlighted by the lexer."""
    out = tmp_path / "book.html"
    result = run_cli("render", "rulesets/poison.rules", "--format", "html", "-o", str(out))
    assert result.returncode == 0 and result.stdout == ""
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<td><strong>potion</strong></td>" in page
    assert "<code>limit</code> (13)" in page
    assert '<div class="highlight">' in page and '<span class="c1"># Poison cards are green' in page


def test_html_falls_back_to_a_plain_pre_without_pygments(monkeypatch):
    """Without Pygments the rules file is shown in a plain, escaped <pre>."""
    monkeypatch.setitem(sys.modules, "pygments", None)
    page = render(ir_from_text(TINY, "tiny.rules"), "html", source_text='game "Tiny" <a>\n')
    assert "<pre>game &quot;Tiny&quot; &lt;a&gt;\n</pre>" in page


def test_markdown_ends_with_the_rules_file(amigo):
    """The CLI's rulebook ends with the rules file itself, as a `rules` code block."""
    result = run_cli("render", "rulesets/poison-five-card.rules")
    assert result.returncode == 0
    assert result.stdout.rstrip().endswith("```")
    assert "```rules\n# The variant at the end of AMIGO" in result.stdout
    assert "5 cards each, one at a time from the dealer's left, into each player's hand" in result.stdout


def test_a_guard_comparing_the_target_with_the_players_own_zone_does_not_read_as_itself():
    """`require target = discard of player` (Love Letter) names the zone the card goes into, not
    "the player's discard is the player's discard"; a trigger reads it as the zone the card went into."""
    book = render(ir_from_path(EXAMPLES / "classics" / "love_letter.rules"))
    assert "the discard the card goes into is the player's discard" in book
    assert "the player's discard is the player's discard" not in book
    tiny = render(ir_from_text(TINY, "tiny.rules"))
    assert (
        "After each play, if the total value of the cards in the pot the card went into is at least `goal` (10)" in tiny
    )


def test_the_rest_of_a_deal_leaves_out_what_the_set_up_deals_before_and_after_it_take():
    """`deal 1 to aside`, then `deal 5 to hand`, then `turn up 1 to table`: of 16 cards, 2 players
    leave 16 - 1 - 10 - 1 = 4 in the deck, not 6."""
    text = TINY.replace(
        "  deal 3 to hand, rest to pile\n", "  deal 1 to pile\n  deal 5 to hand\n  turn up 1 to table\n"
    ).replace("  pile  shared, hidden\n", "  pile  shared, hidden\n  table  shared, public\n")
    book = render(ir_from_text(text, "tiny.rules"))
    assert "| 2 | 2 | 5 | none | 4 (aside, unseen) |" in book
    assert "| 3 | 3 | 5 | none | too few cards! |" in book


def classic(name: str) -> str:
    return render(ir_from_path(EXAMPLES / "classics" / f"{name}.rules"))


def test_a_choice_or_a_sum_inside_a_larger_value_is_grouped():
    """`100 * (max ... else 0) + ...`, `(a - b + c) seats left of dealer` and `(if ...) - 20 * m`
    say where their part ends, as the rules file does with parentheses."""
    love_letter, lost_cities = classic("love_letter"), classic("lost_cities")
    assert "is 100 × (the highest value among the cards in the hand of *p*, else 0) + the total" in love_letter
    assert "the player (*winner seat* − the seat number of the dealer + the number of players) seats to" in love_letter
    assert "is (20 if the number of cards in the expedition of *p* whose color is the color of *c*" in lost_cities
    assert "is at least 8, else 0) − 20 × *multiplier* of *p* and *c*" in lost_cities


def test_conditions_on_the_element_read_as_a_player_would_say_them():
    """War: cards "played by the player", not "where the player who played it is the player";
    Sevens: "a player's hand that is empty"; Go Fish: "the stock is not empty", not "the cards in
    the stock is not empty"."""
    assert "the number of cards in the pot played by the player is less than 3 × the wars" in classic("war")
    assert "The phase ends when there is a player's hand that is empty." in classic("sevens")
    go_fish = classic("go_fish")
    assert "the player's hand is empty and the stock is not empty" in go_fish


def test_a_choice_reads_by_what_is_chosen_and_an_ask_by_its_name():
    """Go Fish's `fish_for value of rank` is "the rank chosen"; the player asked, named `asked` in
    the ask's head, is *asked* in its block (not "the asked chosen")."""
    go_fish = classic("go_fish")
    assert "there is a card in the player's hand whose rank is the rank chosen" in go_fish
    assert "The player chooses a player (*asked*):" in go_fish
    assert "Require: *asked* is not the player and the hand of *asked* is not empty." in go_fish
    assert "chosen chosen" not in go_fish and "the fish for chosen" not in go_fish


def test_a_deal_table_reads_plain_definitions_and_names_where_the_rest_goes():
    """Go Fish deals `hand_size` (a definition: 7 cards with 2 or 3 players, else 5), then the rest
    to the stock: the table works the numbers out instead of "?"."""
    go_fish = classic("go_fish")
    assert "| 2 | 2 | 7 | none | 38 (stock) |" in go_fish
    assert "| 4 | 4 | 5 | none | 32 (stock) |" in go_fish


def test_players_said_by_what_they_are_and_a_negated_quotient_grouped():
    """Love Letter's `count player where it is not eliminated` is "the number of players who are not
    eliminated"; Sushi Go's `-(6 / count ...)` is "minus (6 ÷ ...)", not "minus 6 ÷ ..."."""
    assert "*players left* is the number of players who are not eliminated" in classic("love_letter")
    assert "- Minus (6 ÷ the number of players for whom the puddings of that player is" in classic("sushi-go")


def test_a_shipped_ruleset_named_by_its_name_is_named_so_in_the_rulebook(tmp_path):
    """`ruleset render poison` from any folder says it was generated from poison.rules, not from
    wherever the package is installed."""
    out = run_cli("render", "poison", "--no-source", cwd=tmp_path).stdout
    assert "A rulebook generated from `poison.rules` by `ruleset render`." in out


def test_an_owner_with_else_is_grouped_and_chosen_cards_are_not_cards_in_cards():
    """President: "the hand of (the scum, else the dealer)", so the `else` does not seem to apply to
    the whole move; a set chosen is "the number of cards chosen to lay", not "cards in the cards"."""
    president = classic("president")
    assert "Move the best card in the hand of (the scum, else the dealer) to the hand of (the president," in president
    assert "the number of cards chosen to lay is the last count" in president
    assert "cards in the cards" not in president


@pytest.mark.parametrize(
    ("guard", "words"),
    [
        (
            "require (value of last card in target else 0) < value of card",
            "(the value of the last card in the pot the card goes into, else 0) is less than the card's value",
        ),
        (
            "require value of card > (value of last card in target else 0)",
            "the card's value is more than (the value of the last card in the pot the card goes into, else 0)",
        ),
        (
            "require not (value of last card in target else none) is none",
            "(the value of the last card in the pot the card goes into, else none) is not none",
        ),
    ],
)
def test_an_else_compared_is_a_parenthesised_operand_and_reads_grouped(guard, words):
    """`(A else B) < C` parses, loads and plays as an operand where a value is, and the rulebook groups
    it: "(A, else 0) is less than C", never "A, else 0 is less than C" (which reads as `A else (0 < C)`)."""
    text = TINY.replace("require not card is wild when some gem in hand of player", guard, 1)
    assert guard in text
    book = render(ir_from_text(text, "tiny.rules"))
    assert words in book, book
