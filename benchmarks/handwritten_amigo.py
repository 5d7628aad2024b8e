"""Hand-written simulation of AMIGO Poison, used as a speed baseline.

Every turn the full list of legal moves ``(card index in hand, cauldron)``
is built and one is picked uniformly with ``rng.choice``, as a generic rules
engine would do.

Decisions on points the rules leave open:

* Poison (green) is not a "color" for the majority rule: the player with
  strictly the most cards of red / blue / violet scores 0 for that color,
  but collected poison cards always score -2 each.
* With 3 players the deal goes round four positions: seats 0, 1, 2 and a
  spare hand sitting after seat 2 (position 3).  Dealing starts at the
  position left of the dealer, so when seat 2 deals, the spare hand receives
  the first card.  The spare hand is removed unseen; play is among the three
  seats, starting left of the dealer.
"""

from __future__ import annotations

import argparse
import json
import random
import time

COLORS = ("red", "blue", "violet")
POISON = 3  # color index of the green poison cards
NONE = -1  # cauldron color when empty or holding only poison
LIMIT = 13
N_CAULDRONS = 3
POTION_VALUES = (1, 1, 1, 2, 2, 2, 4, 4, 5, 5, 5, 7, 7, 7)

Card = tuple[int, int]  # (color index, value)
Move = tuple[int, int]  # (card index in hand, cauldron index)


def make_deck() -> list[Card]:
    """Return the 50-card deck: 14 potions in each of 3 colors plus 8 poisons."""
    deck = [(c, v) for c in range(len(COLORS)) for v in POTION_VALUES]
    deck += [(POISON, 4)] * 8
    return deck


def cauldron_color(pile: list[Card]) -> int:
    """Color of the first potion in the pile, or NONE."""
    for color, _ in pile:
        if color != POISON:
            return color
    return NONE


def legal_moves(hand: list[Card], cauldrons: list[list[Card]]) -> list[Move]:
    """Enumerate every legal (card index, cauldron index) pair."""
    colors = [cauldron_color(pile) for pile in cauldrons]
    moves: list[Move] = []
    for i, (color, _) in enumerate(hand):
        if color == POISON:
            targets = range(N_CAULDRONS)
        elif color in colors:
            targets = [k for k in range(N_CAULDRONS) if colors[k] == color]
        else:
            targets = [k for k in range(N_CAULDRONS) if colors[k] == NONE]
        moves.extend((i, k) for k in targets)
    return moves


def score_round(collections: list[list[Card]]) -> list[int]:
    """Score each player's collected cards for one round (never positive)."""
    counts = [[0] * (len(COLORS) + 1) for _ in collections]
    for cnt, pile in zip(counts, collections, strict=True):
        for color, _ in pile:
            cnt[color] += 1
    scores = [-2 * cnt[POISON] for cnt in counts]
    for color in range(len(COLORS)):
        per_player = [cnt[color] for cnt in counts]
        best = max(per_player)
        immune = per_player.index(best) if per_player.count(best) == 1 else -1
        for p, n in enumerate(per_player):
            if p != immune:
                scores[p] -= n
    return scores


def play_round(
    players: int, dealer: int, rng: random.Random
) -> tuple[list[int], int, list[list[Card]], list[list[Card]]]:
    """Play one round; return (scores, moves, collections, cauldrons)."""
    deck = make_deck()
    rng.shuffle(deck)
    positions = 4 if players == 3 else players
    hands: list[list[Card]] = [[] for _ in range(positions)]
    for n, card in enumerate(deck):
        hands[(dealer + 1 + n) % positions].append(card)
    hands = hands[:players]  # with 3 players the spare hand is dropped
    cauldrons: list[list[Card]] = [[] for _ in range(N_CAULDRONS)]
    collections: list[list[Card]] = [[] for _ in range(players)]
    seat = (dealer + 1) % players
    moves = 0
    while any(hands):
        hand = hands[seat]
        if hand:
            index, k = rng.choice(legal_moves(hand, cauldrons))
            card = hand.pop(index)
            pile = cauldrons[k]
            pile.append(card)
            moves += 1
            if sum(v for _, v in pile) > LIMIT:
                collections[seat].extend(pile[:-1])
                cauldrons[k] = [card]
        seat = (seat + 1) % players
    return score_round(collections), moves, collections, cauldrons


def play_game(players: int, rng: random.Random) -> tuple[list[int], int]:
    """Play a full game; return (totals per seat, number of moves)."""
    if not 3 <= players <= 6:
        raise ValueError("AMIGO Poison needs 3 to 6 players")
    totals = [0] * players
    moves = 0
    rounds = 6 if players == 3 else players
    for r in range(rounds):
        scores, round_moves, _, _ = play_round(players, r % players, rng)
        moves += round_moves
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
    return totals, moves


def main() -> None:
    """Play random games and print a JSON line with throughput figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    moves = 0
    start = time.perf_counter()
    for _ in range(args.games):
        moves += play_game(args.players, rng)[1]
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "games": args.games,
                "moves": moves,
                "seconds": round(seconds, 4),
                "moves_per_second": round(moves / seconds, 1),
                "games_per_second": round(args.games / seconds, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
