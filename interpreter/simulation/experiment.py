"""Experiment files (``ruleset simulate --config experiment.yaml``): rulesets, parameter overrides,
player counts, agents and game counts in YAML; every combination is a run; results to a JSON file.

The file is read with ``yaml.safe_load`` and checked against ``schemas/experiment.schema.json``.
A schema error is reported at its line and column: the error's path (``rulesets/1/set/limit``)
is followed through the YAML node tree (``yaml.compose``, which keeps each node's position).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jsonschema.exceptions import best_match

from ..agents import make_agents
from ..engine.game import Game
from ..errors import ExperimentError, ReadError, RulesetError, Span, remember_source
from ..language.schema import validator
from ..loader import bundled

DEFAULT_GAMES = 100


@dataclass
class Run:
    """One run of an experiment: a ruleset with its overrides, a player count, an agent line-up."""

    label: str
    file: str
    game: Game
    players: int
    agents: str
    params: dict[str, Any]


@dataclass
class Experiment:
    """A checked experiment file: its runs, games per run, seed and where the results go."""

    name: str
    file: str
    runs: list[Run]
    games: int
    seed: int | None  # None: the command line's --seed
    output: Path
    data: dict[str, Any] = field(default_factory=dict)


# ---- positions --------------------------------------------------------------------------------------


def node_at(root: yaml.Node | None, path: list[Any]) -> yaml.Node | None:
    """The YAML node at a path of keys and indexes (the deepest one that exists)."""
    node = root
    for key in path:
        if isinstance(node, yaml.MappingNode):
            child = next((v for k, v in node.value if k.value == str(key)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            child = node.value[key]
        else:
            child = None
        if child is None:
            break
        node = child
    return node


def key_at(root: yaml.Node | None, path: list[Any], key: str) -> yaml.Node | None:
    """The key node ``key`` of the mapping at ``path`` (to point at an unknown key itself)."""
    node = node_at(root, path)
    if isinstance(node, yaml.MappingNode):
        return next((k for k, _ in node.value if k.value == key), None)
    return None


def span(file: str, node: yaml.Node | None) -> Span:
    """The 1-based position of a YAML node (the top of the file without one)."""
    if node is None:
        return Span(file, 1, 1)
    return Span(file, node.start_mark.line + 1, node.start_mark.column + 1)


def _where(path: list[Any]) -> str:
    """A schema path as a reader writes it: rulesets[1].set.limit."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the experiment"


# ---- reading ---------------------------------------------------------------------------------------


def read(path: str | Path) -> tuple[dict[str, Any], yaml.Node | None, str]:
    """The experiment's data, its YAML node tree and its file name; YAML and schema errors positioned."""
    file = str(path)
    p = Path(path)
    if not p.is_file():
        raise ReadError(f"no such experiment file: {file}", None, "give a .yaml file, e.g. --config experiment.yaml")
    try:
        text = p.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ReadError(f"cannot read {file}: {err}") from None
    remember_source(file, text)
    try:
        data = yaml.safe_load(text)
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = Span(file, mark.line + 1, mark.column + 1) if mark else None
        raise ExperimentError(f"not valid YAML: {getattr(err, 'problem', None) or err}", where) from None
    if not isinstance(data, dict):
        raise ExperimentError(
            "an experiment file is a mapping of keys (rulesets, players, agents, games, ...)",
            span(file, root),
            "start with a line like `rulesets: [GAME.rules]`",
        )
    err = best_match(validator("experiment").iter_errors(data))
    if err is not None:
        path = list(err.absolute_path)
        node = node_at(root, path)
        message = err.message
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = set(err.schema.get("properties", {}))
            extra = [k for k in err.instance if k not in allowed]
            if extra:
                node = key_at(root, path, str(extra[0])) or node
                message = f"unknown key '{extra[0]}'"
                hint = "the keys are: " + ", ".join(sorted(allowed))
                raise ExperimentError(f"{_where(path)}: {message}", span(file, node), hint)
        raise ExperimentError(
            f"{_where(path)}: {message}",
            span(file, node),
            "see docs/simulation.md (experiment files) and interpreter/schemas/experiment.schema.json",
        )
    return data, root, file


def load_experiment(path: str | Path, load_game: Callable[[str], Game]) -> Experiment:
    """A checked experiment: every ruleset found and compiled, every player count, agent and override valid."""
    data, root, file = read(path)
    here = Path(file).resolve().parent
    players_list = data.get("players")
    players_list = [players_list] if isinstance(players_list, int) else players_list
    agent_specs = data.get("agents", "random")
    agent_specs = [agent_specs] if isinstance(agent_specs, str) else agent_specs
    runs = []
    for i, entry in enumerate(data["rulesets"]):
        entry = {"file": entry} if isinstance(entry, str) else entry
        at = ["rulesets", i] + ([] if isinstance(data["rulesets"][i], str) else ["file"])
        ruleset = _locate(entry["file"], here)
        if ruleset is None:
            raise ExperimentError(
                f"unknown ruleset '{entry['file']}': no such file, nor a bundled ruleset",
                span(file, node_at(root, at)),
                "a path is relative to the experiment file; shipped games go by file name",
            )
        game = load_game(str(ruleset))
        params = {**(data.get("set") or {}), **(entry.get("set") or {})}
        for n, players in enumerate(players_list or [game.min_players]):
            if not game.min_players <= players <= game.max_players:
                where = ["players"] + ([n] if isinstance(data.get("players"), list) else [])
                raise ExperimentError(
                    f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}",
                    span(file, node_at(root, where)),
                )
            set_at = ["rulesets", i, "set"] if "set" in entry else ["set"]
            _checked(file, root, set_at, game.param_values, players, params)
            for k, spec in enumerate(agent_specs):
                where = ["agents"] + ([k] if isinstance(data.get("agents"), list) else [])
                _checked(file, root, where, make_agents, spec, players, 0)
                label = entry.get("label") or game.name
                runs.append(Run(label, str(ruleset), game, players, spec, params))
    out = Path(data["output"]) if data.get("output") else Path(Path(file).stem + ".results.json")
    return Experiment(
        name=data.get("name", Path(file).stem),
        file=file,
        runs=runs,
        games=data.get("games", DEFAULT_GAMES),
        seed=data.get("seed"),
        output=out if out.is_absolute() else here / out,
        data=data,
    )


def _locate(name: str, here: Path) -> Path | None:
    """A ruleset named in an experiment: a path relative to the experiment file, or a bundled name."""
    p = Path(name)
    candidate = p if p.is_absolute() else here / p
    if candidate.is_file():
        return candidate
    return bundled(name)


def _checked(file: str, root: yaml.Node | None, path: list[Any], check: Callable[..., Any], *args: Any) -> Any:
    """Run a check; its error (an unknown agent or parameter) is reported at the key it came from."""
    try:
        return check(*args)
    except ExperimentError:
        raise
    except RulesetError as err:
        raise ExperimentError(f"{_where(path)}: {err.message}", span(file, node_at(root, path)), err.hint) from None


# ---- running ---------------------------------------------------------------------------------------


def run_experiment(
    exp: Experiment,
    simulate: Callable[..., dict[str, Any]],
    games: int | None = None,
    seed: int = 0,
    before_run: Callable[[int, Run], Any] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Play every run (each under the same seeds) and return the results document.

    ``games`` (from the command line) overrides the file's; the file's seed overrides ``seed``.
    """
    games = games or exp.games
    seed = exp.seed if exp.seed is not None else seed
    results = []
    for n, run in enumerate(exp.runs):
        progress = before_run(n, run) if before_run else None
        stats = simulate(run.game, run.players, games, seed, run.agents, run.params, progress=progress, **options)
        results.append({"label": run.label, "file": run.file, "set": run.params, **stats})
    return {"experiment": exp.name, "file": exp.file, "games": games, "seed": seed, "runs": results}
