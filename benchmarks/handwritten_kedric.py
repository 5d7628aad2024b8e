"""Hand-written simulation of Kedric Winks' Poison, used as a speed baseline.

Every turn the full list of legal moves ``(card index in hand, target)`` is
built (the only target is the trick, ``0``) and one is picked uniformly with
``rng.choice``, as a generic rules engine would do.

Decisions on points the rules leave open:

* The agenda deck is reshuffled and dealt anew (2 per player) every hand, and
  agendas score for the hand in which they are held.  Each agenda card scores
  on its own, so two copies of the same agenda both score if achieved.
* The face-up / face-down choice is drawn with ``rng`` but is not counted as a
  move (it has no effect on scoring since both agendas score).
* A bottle belongs to its drink suit (it follows suit and counts for Purist).
"""

from __future__ import annotations

import argparse
import json
import random
import time

BRANDY, COCKTAILS, WINE, SHERRY, POISON = range(5)
DRINKS = (BRANDY, COCKTAILS, WINE, SHERRY)
BOTTLE = 11
SUIT_ORDER = {COCKTAILS: 4, WINE: 3, SHERRY: 2, BRANDY: 1, POISON: 0}
HAND_SIZES = (9, 6, 3, 9, 6, 3, 9, 6, 3)
SUICIDE_BID, PURIST = 0, 1
AGENDA_POINTS = {SUICIDE_BID: 6, PURIST: 3}
TRICK = 0  # the only target of a move

Card = tuple[int, int]  # (suit, rank)
Move = tuple[int, int]  # (card index in hand, target)


def make_deck() -> list[Card]:
    """Return the 54-card deck: 40 drinks, 4 bottles and 10 poisons."""
    deck = [(s, r) for s in DRINKS for r in range(1, 11)]
    deck += [(s, BOTTLE) for s in DRINKS]
    deck += [(POISON, r) for r in range(1, 11)]
    return deck


def card_key(card: Card) -> tuple[int, int]:
    """Strength used to break ties for the first leader."""
    return card[1], SUIT_ORDER[card[0]]


def legal_moves(hand: list[Card], trick: list[Card]) -> list[Move]:
    """Enumerate every legal (card index, target) pair."""
    if trick:
        led = trick[0][0]
        follow = [(i, TRICK) for i, (s, _) in enumerate(hand) if s == led]
        if follow:
            return follow
    return [(i, TRICK) for i in range(len(hand))]


def trick_winner(trick: list[Card]) -> int:
    """Index within the trick of the winning card."""
    led = trick[0][0]
    for i, (s, r) in enumerate(trick):
        if s == led and r == BOTTLE:
            return i
    poisons = [i for i, (s, _) in enumerate(trick) if s == POISON]
    if poisons:
        return max(poisons, key=lambda i: trick[i][1])
    led_cards = [i for i, (s, _) in enumerate(trick) if s == led]
    return max(led_cards, key=lambda i: trick[i][1])


def trick_points(trick: list[Card], winner: int) -> int:
    """Points scored by the winner of a trick."""
    if trick[winner][1] == BOTTLE:
        return 1
    return -1 if any(s == POISON for s, _ in trick) else 1


def first_leader(totals: list[int], hands: list[list[Card]]) -> int:
    """Lowest total leads; ties are broken by the best card held."""
    low = min(totals)
    tied = [p for p, t in enumerate(totals) if t == low]
    return max(tied, key=lambda p: max(card_key(c) for c in hands[p]))


def agenda_points(agendas: list[list[int]], won: list[list[list[Card]]]) -> list[int]:
    """Points from achieved agendas (face up and face down alike)."""
    poison = [sum(s == POISON for t in tricks for s, _ in t) for tricks in won]
    most = max(poison)
    bid_winner = poison.index(most) if poison.count(most) == 1 else -1
    points = []
    for p, held in enumerate(agendas):
        purist = any(len({s for s, _ in t}) == 1 for t in won[p])
        achieved = {SUICIDE_BID: p == bid_winner, PURIST: purist}
        points.append(sum(AGENDA_POINTS[a] for a in held if achieved[a]))
    return points


def play_hand(
    players: int, size: int, dealer: int, totals: list[int], rng: random.Random
) -> tuple[list[int], int, int]:
    """Play one hand; return (hand scores, moves, tricks played)."""
    deck = make_deck()
    rng.shuffle(deck)
    hands: list[list[Card]] = [[] for _ in range(players)]
    for n in range(size * players):
        hands[(dealer + 1 + n) % players].append(deck[n])
    agenda_deck = [SUICIDE_BID] * 8 + [PURIST] * 7  # 15 cards, as in the ruleset
    rng.shuffle(agenda_deck)
    agendas: list[list[int]] = [[] for _ in range(players)]
    for n in range(2 * players):
        agendas[(dealer + 1 + n) % players].append(agenda_deck[n])
    for held in agendas:
        up = rng.choice((0, 1))
        held[:] = [held[up], held[1 - up]]  # [face up, face down]
    scores = [0] * players
    won: list[list[list[Card]]] = [[] for _ in range(players)]
    leader = first_leader(totals, hands)
    moves = tricks = 0
    while any(hands):
        trick: list[Card] = []
        seats: list[int] = []
        for k in range(players):
            seat = (leader + k) % players
            index, _ = rng.choice(legal_moves(hands[seat], trick))
            trick.append(hands[seat].pop(index))
            seats.append(seat)
            moves += 1
        w = trick_winner(trick)
        leader = seats[w]
        scores[leader] += trick_points(trick, w)
        won[leader].append(trick)
        tricks += 1
    bonus = agenda_points(agendas, won)
    return [s + b for s, b in zip(scores, bonus, strict=True)], moves, tricks


def play_game(players: int, rng: random.Random) -> tuple[list[int], int]:
    """Play all nine hands; return (totals per seat, number of moves)."""
    if not 2 <= players <= 6:
        raise ValueError("Kedric Winks' Poison needs 2 to 6 players")
    totals = [0] * players
    moves = 0
    for h, size in enumerate(HAND_SIZES):
        scores, hand_moves, _ = play_hand(players, size, h % players, totals, rng)
        moves += hand_moves
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
