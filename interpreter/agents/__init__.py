"""Agents choose moves for a seat from what that seat may see; chosen by name with --agents."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import RulesetError
from .base import Agent, SeatView
from .random_agent import RandomAgent

AGENTS: dict[str, Callable[[int, Any], Agent]] = {
    "random": RandomAgent,
}

__all__ = ["AGENTS", "Agent", "SeatView", "make_agents"]


def make_agents(spec: str | list[str] | None, players: int, seed: int | None) -> list[Agent]:
    """One agent per seat from "random" or "random,greedy,..." (the last name repeats)."""
    names = spec.split(",") if isinstance(spec, str) else list(spec or ["random"])
    names = [n.strip() for n in names if n.strip()] or ["random"]
    if len(names) > players:
        raise RulesetError(f"{len(names)} agents named for {players} players")
    names += [names[-1]] * (players - len(names))
    out = []
    for seat, name in enumerate(names):
        if name not in AGENTS:
            raise RulesetError(f"unknown agent '{name}'; the agents are: {', '.join(AGENTS)}")
        out.append(AGENTS[name](seat, seed))
    return out
