"""What a request to the server may carry (the caps of a table's set-up and of an upload), and what
a table may take while it plays (moves, an agent's time, pages and their messages).

Each cap is an option of `ruleset serve` (``--max-rounds`` and so on; see docs/serve.md); a table
is checked against them in full before anything of it is written, so a refused table leaves
nothing behind, and an agent that would think for minutes or never stop is refused at once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ...errors import RulesetError

MAX_NUMBER = 1_000_000_000  # the largest number the rules language writes (resolve_exprs)
MAX_TEXT = 200  # characters of a parameter's name or value, or of an agent's spec
MAX_SEED = 2**63


@dataclass(frozen=True)
class Limits:
    """The caps one server enforces (each a `serve` option of the same name)."""

    max_players: int = 12  # seats at one table, whatever the ruleset allows
    max_rounds: int = 100  # rounds of one game (a game ended by `ends when` only: the engine's bound)
    agent_time: float = 5.0  # seconds an agent may think per move (mcts's `time`)
    agent_iterations: int = 20_000  # playouts per move (mcts's `iterations`)
    agent_samples: int = 64  # sampled deals per move (greedy's and mcts's `samples`)
    upload_bytes: int = 64_000  # one uploaded rules file (the shipped ones are under 7,000)
    uploads: int = 100  # uploaded rulesets kept by one server
    max_tables: int = 1000  # tables kept by one server (each a folder under --data)
    body_bytes: int = 300_000  # one request's body, read before it is parsed (an upload, JSON-escaped)
    # while the tables play (hub.py, workers.py); agent_time is also each agent move's budget
    max_moves: int = 100_000  # a game longer than this stops (its rules run away)
    workers: int = 4  # threads doing the tables' engine work
    max_link_sockets: int = 8  # open pages per link
    max_table_sockets: int = 64  # open pages per table
    send_queue: int = 32  # messages waiting for a page that reads slowly
    send_timeout: float = 10.0  # seconds one message may take to go out
    refresh_gap: float = 0.05  # seconds between two states sent for a page's refreshes
    # connections (connections.py)
    max_client_sockets: int = 64  # connections open at once from one address (pages and requests)
    head_time: float = 10.0  # seconds a connection may take to send a request's head
    body_time: float = 10.0  # seconds a request's body may take to arrive, from its head (app._json)


def check_params(raw: Any) -> dict[str, str]:
    """A table's ``params`` as {name: text}: an object of short names and short values, or nothing."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RulesetError(f"params is an object of name: value, not {type(raw).__name__}")
    out = {}
    for key, value in raw.items():
        if value is None:  # (as an empty field: the default)
            continue
        if not isinstance(value, str | int | float | bool) or (isinstance(value, float) and not math.isfinite(value)):
            raise RulesetError(f"parameter {key[:MAX_TEXT]!r} is a number, a text or true/false")
        text = str(value).strip()
        if len(key) > MAX_TEXT or len(text) > MAX_TEXT:
            raise RulesetError(f"a parameter's name and value are at most {MAX_TEXT} characters each")
        if text:
            out[key] = text
    return out


def check_values(values: dict[str, Any]) -> None:
    """Every parameter's number within the language's range (what a ruleset could itself write)."""
    for name, value in values.items():
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            raise RulesetError(f"parameter {name} is {value:,}: numbers are limited to {MAX_NUMBER:,}")


def check_rounds(rounds: int | None, limits: Limits) -> None:
    """The game's rounds (after its parameters) within the server's cap."""
    if rounds is not None and rounds > limits.max_rounds:
        raise RulesetError(
            f"this table would play {rounds:,} rounds; this server plays at most {limits.max_rounds}",
            hint="lower the parameter that sets the rounds (the server's --max-rounds sets the cap)",
        )


def check_seed(seed: Any) -> int:
    """A whole number that ``random.Random`` takes in one step."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not -MAX_SEED < seed < MAX_SEED:
        raise RulesetError(f"the seed is a whole number below 2**63, not {str(seed)[:40]!r}")
    return seed


def check_agent(spec: Any, seat: int, seed: int, limits: Limits) -> str:
    """An agent's spec that makes an agent (its options finite and within the server's caps)."""
    from ...agents import make_agent

    spec = str(spec or "random")
    if len(spec) > MAX_TEXT:
        raise RulesetError(f"seat {seat}: an agent's name and options are at most {MAX_TEXT} characters")
    agent = make_agent(spec, seat, seed)  # an unknown agent or option, a value not a finite number
    for option, cap, unit in (
        ("time", limits.agent_time, " seconds"),
        ("iterations", limits.agent_iterations, ""),
        ("samples", limits.agent_samples, ""),
    ):
        value = _option(agent, option)
        if value is not None and value > cap:
            raise RulesetError(
                f"seat {seat}: {spec}: {option} {value:g} is more than this server allows ({cap:g}{unit})",
                hint=f"the server's --agent-{option} sets the cap",
            )
    return spec


def searches(agent: Any) -> bool:
    """Whether an agent searches (samples deals, plays games out): its move may take --agent-time."""
    return any(_option(agent, name) is not None for name in ("time", "iterations", "samples"))


def _option(agent: Any, name: str) -> float | None:
    value = getattr(agent, name, None)
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None
