"""Agents choose moves for a seat from what that seat may see; chosen by name with --agents.

An agent is named alone (``mcts``), with its main option after a colon (``mcts:200``: 200
iterations a move; ``greedy:4``: 4 samples) or with options by name in parentheses
(``mcts(iterations=200,c=1.0)``, ``mcts(time=0.5)``); seats are separated by commas.

Takes a seat's view (``SeatView``: its legal moves and observation, never the state); gives a move.
May import: ``interpreter.engine``, ``interpreter.language``, ``interpreter.errors``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from functools import lru_cache
from importlib import import_module
from typing import Any

from ..errors import RulesetError, plural
from .base import Agent, SeatView
from .random_agent import RandomAgent


def _imported(module: str, name: str) -> Callable[..., Agent]:
    """An agent class imported when the first agent of it is made: a run of random agents (most
    simulations) does not load the search agents and their belief (a tenth of a command's start)."""

    def make(*args: Any, **options: Any) -> Agent:
        return getattr(import_module(module, __name__), name)(*args, **options)

    return make


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": _imported(".greedy", "GreedyAgent"),
    "mcts": _imported(".mcts", "MctsAgent"),
}
# the option a bare ``name:value`` sets
MAIN_OPTION = {"greedy": "samples", "mcts": "iterations"}
OPTIONS = {"random": (), "greedy": ("samples",), "mcts": ("iterations", "time", "c", "depth", "samples")}

__all__ = ["AGENTS", "Agent", "SeatView", "make_agent", "make_agents", "split_agents"]

# An agent's name and its options: compiled when a spec is more than a bare name (a few ms of start-up).
_SPEC = r"^\s*([a-z_]+)\s*(?::\s*([^()]+?)|\((.*)\))?\s*$"


def split_agents(spec: str) -> list[str]:
    """Split "mcts(iterations=9,c=1),random" at the commas outside parentheses."""
    out, depth, word = [], 0, ""
    for ch in spec:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            out.append(word)
            word = ""
        else:
            word += ch
    out.append(word)
    return [w.strip() for w in out if w.strip()]


def make_agent(spec: str, seat: int, seed: int | None) -> Agent:
    """One agent from its name and options (see the module docstring)."""
    name, options = _parsed(spec)
    try:
        return AGENTS[name](seat, seed, **dict(options))
    except ValueError as err:
        raise RulesetError(f"agent '{spec}': {err}") from None


@lru_cache(maxsize=256)
def _parsed(spec: str) -> tuple[str, tuple[tuple[str, float | int], ...]]:
    """An agent's name and options, read from its spec (once: a run makes its agents every game)."""
    if spec in AGENTS:  # (a bare name, as most runs give)
        return spec, ()
    m = re.match(_SPEC, spec)
    name = m.group(1) if m else spec
    if not m or name not in AGENTS:
        raise RulesetError(
            f"unknown agent '{spec}'; the agents are: {', '.join(AGENTS)}",
            hint="for example --agents mcts:200,random or --agents 'mcts(time=0.5),greedy'",
        )
    options: dict[str, Any] = {}
    if m.group(2):
        if name not in MAIN_OPTION:
            raise RulesetError(f"agent '{name}' takes no options, not '{spec}'")
        options[MAIN_OPTION[name]] = m.group(2)
    elif m.group(3) and m.group(3).strip():
        for pair in m.group(3).split(","):
            key, sep, value = pair.partition("=")
            key = key.strip()
            if not sep or key not in OPTIONS[name]:
                known = ", ".join(OPTIONS[name]) or "none"
                raise RulesetError(f"agent '{name}' has no option '{pair.strip()}'; its options: {known}")
            options[key] = value.strip()
    for key, value in options.items():
        try:
            options[key] = float(value) if key in ("time", "c") else int(value)
        except ValueError:
            raise RulesetError(f"option {key} of agent '{name}' is a number, not {value!r}") from None
        if not math.isfinite(options[key]):  # nan compares false with everything: no search ends
            raise RulesetError(f"option {key} of agent '{name}' is a finite number, not {value!r}")
    return name, tuple(options.items())


def make_agents(spec: str | list[str] | None, players: int, seed: int | None) -> list[Agent]:
    """One agent per seat from "random" or "mcts:200,random,greedy" (the last name repeats)."""
    names = split_agents(spec) if isinstance(spec, str) else list(spec or ["random"])
    names = [n.strip() for n in names if n.strip()] or ["random"]
    if len(names) > players:
        raise RulesetError(f"{plural(len(names), 'agent')} named for {plural(players, 'player')}")
    names += [names[-1]] * (players - len(names))
    return [make_agent(name, seat, seed) for seat, name in enumerate(names)]
