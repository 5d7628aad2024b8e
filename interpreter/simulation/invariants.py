"""Invariants of play, for soak tests: after every move each card is in exactly one zone (and
where ``State.loc`` says); whoever is to move has a legal move; the game ends; its record
replays to the same record. ``soak`` plays random games and lists every broken invariant.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..engine.accounting import cards_accounted
from ..engine.game import Game
from ..engine.records import record, replay
from ..errors import RulesetError

MAX_PROBLEMS = 20  # per call of soak: enough to see a pattern


def card_problems(state: Any) -> list[str]:
    """Cards that are in no zone, in two, or somewhere else than the state places them (the one
    card check, engine.accounting.cards_accounted; none: [])."""
    why = cards_accounted(state)
    return [why] if why else []


def soak_game(game: Game, players: int, seed: int) -> tuple[int, list[str]]:
    """Play one random game checking every invariant after every move: (moves played, problems)."""
    rng = random.Random(f"soak/{seed}")
    try:
        state = game.new_game(players, seed)
    except RulesetError as err:
        return 0, [f"cannot start: {err.message}"]
    problems = card_problems(state)
    moves = 0
    while not state.is_over and not problems:
        legal = state.legal_moves()
        if not legal:
            problems.append(f"deadlock after {moves} moves: seat {state.current_player} has no legal move")
            break
        try:
            state.apply(rng.choice(legal))
        except RulesetError as err:  # a deadlock found by the engine, or an endless round
            problems.append(f"after {moves} moves: {err.message}")
            break
        except Exception as err:  # a bug: report it with the rest, do not stop the soak
            problems.append(f"crash after {moves} moves: {type(err).__name__}: {err}")
            break
        moves += 1
        problems += card_problems(state)
    if state.is_over and not problems:
        problems += replay_problems(game, state)
    return moves, problems


def replay_problems(game: Game, state: Any) -> list[str]:
    """A finished game's record must replay through the rules to the very same record."""
    rec = record(state)
    try:
        again = record(replay(game, rec))
    except RulesetError as err:
        return [f"the record does not replay: {err.message}"]
    if again != rec:
        return ["the replayed game's record differs from the original"]
    return []


def soak(game: Game, players: int, games: int, first_seed: int = 0) -> dict[str, Any]:
    """Play ``games`` random games (seeds first_seed...) checking every invariant; figures and problems."""
    start = time.perf_counter()
    moves, problems = 0, []
    for seed in range(first_seed, first_seed + games):
        played, found = soak_game(game, players, seed)
        moves += played
        problems += [f"{game.name}, {players} players, seed {seed}: {p}" for p in found]
        if len(problems) >= MAX_PROBLEMS:
            break
    seconds = time.perf_counter() - start
    return {
        "ruleset": game.name,
        "players": players,
        "games": games,
        "moves": moves,
        "seconds": seconds,
        "problems": problems[:MAX_PROBLEMS],
    }
