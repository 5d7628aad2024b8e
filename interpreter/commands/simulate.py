"""`ruleset simulate FILE`: play many games with bots; statistics with intervals, and throughput.

Also `ruleset simulate --config experiment.yaml`: the runs an experiment file describes, with
the results written to a JSON file.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import RulesetError
from .cli import (
    JOBS_HELP,
    QUIET_HELP,
    add_common,
    jobs,
    load_game,
    parse_sets,
    player_count,
    write_output,
)
from .console import blocks, progress_bar

ORDER = 20


def add_run_options(p: argparse.ArgumentParser, games: str = "number of games (default 100)") -> None:
    """The options of every command that plays many games: players, games, agents, spread, plot
    (``games``: what --games means, for --help). --jobs is by default one process per CPU, as in
    every command (1 with --scheduler: the cluster's workers spread the games)."""
    p.add_argument("--players", type=int, help="number of players (default: the fewest the rules allow)")
    p.add_argument("--games", type=int, help=games)
    p.add_argument(
        "--agents",
        help="agents by seat, comma-separated; the last repeats (default random). Agents: random, "
        "greedy (greedy:N averages N samples), mcts (mcts:N iterations a move, or "
        "mcts(iterations=N,time=SECONDS,c=C,depth=D,samples=S)); e.g. mcts:200,greedy,random",
    )
    p.add_argument(
        "--jobs",
        type=jobs,
        metavar="N",
        help=JOBS_HELP.format(also=", or 1 with --scheduler"),
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="play the games on a dask.distributed cluster (tcp://host:8786); "
        'needs pip install "ruleset-cards[cluster]"',
    )
    p.add_argument(
        "--plot", metavar="FILE.png|svg", help='draw the statistics; needs pip install "ruleset-cards[plots]"'
    )
    p.add_argument("--quiet", action="store_true", help=QUIET_HELP)
    add_common(p)
    p.set_defaults(seed=None)  # None: not given (an experiment file's seed then rules), else 0


def run_options(args: argparse.Namespace) -> dict[str, Any]:
    """The checked --jobs/--scheduler options as keywords of simulate(); --plot checked before any game."""
    if args.games is not None and args.games < 1:
        raise RulesetError(f"--games must be at least 1, not {args.games}")
    if args.jobs is None:
        from ..checker import default_jobs

        args.jobs = 1 if args.scheduler else default_jobs()
    elif args.scheduler and args.jobs > 1:
        raise RulesetError("give --jobs or --scheduler, not both", hint="the dask cluster's workers set the spread")
    if args.plot:
        from ..simulation.plots import check_plot_path

        check_plot_path(args.plot)
    return {"jobs": args.jobs, "scheduler": args.scheduler}


def progress_for(args: argparse.Namespace, label: str | None = None):
    """The progress bar of one run (on stderr, only on a terminal); a label line first when given."""
    bar = progress_bar(not args.quiet)
    if bar and label:
        sys.stderr.write(f"{label}\n")
    return bar


def register(sub: Any) -> None:
    """Add the `simulate` command."""
    p = sub.add_parser(
        "simulate",
        help="play many games with bots; statistics with intervals, and throughput",
        description="Play games with bots and report, per seat, the win rate and the mean and spread of "
        "scores (each with its 95% interval), the seat and first-player advantage, scores per round, "
        "game length, how often each rule fired and, for mixed agents, the results per agent. "
        "Or run an experiment file (--config).",
    )
    p.add_argument("file", nargs="?", help="a .rules file (or a shipped game by file name)")
    p.add_argument("--config", metavar="EXPERIMENT.yaml", help="run the experiment a YAML file describes")
    p.add_argument("--output", metavar="FILE.json", help="with --config: where the results go")
    p.add_argument("--record", metavar="FILE.jsonl", help="write each game's record, one JSON line a game")
    p.add_argument(
        "--no-rule-counts",
        dest="count_rules",
        action="store_false",
        help="do not count how often each rule fired (a little faster)",
    )
    add_run_options(p)
    p.set_defaults(run=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play games with bots; print statistics and throughput."""
    from ..simulation.simulate import simulate

    options = run_options(args)
    if args.config:
        return run_config(args, options)
    if args.output:
        raise RulesetError(
            "--output is where an experiment's results go, with --config",
            hint="for the statistics of one run use --format json > FILE.json; for its games, --record",
        )
    if not args.file:
        raise RulesetError(
            "name a rules file, or an experiment with --config", hint="ruleset simulate rulesets/GAME.rules"
        )
    game = load_game(args.file, args.max_moves, parse_sets(args.set))
    players = player_count(game, args.players)
    stats = simulate(
        game,
        players,
        args.games or 100,
        args.seed or 0,
        args.agents,
        parse_sets(args.set),
        args.record,
        progress_for(args),
        count_rules=args.count_rules,
        **options,
    )
    if args.plot:
        from ..simulation.plots import plot_run

        plot_run(stats, args.plot)
    if args.format == "json":
        sys.stdout.write(json.dumps(stats, indent=2) + "\n")
        return 0
    from ..simulation.report import run_blocks

    blocks(run_blocks(stats))
    if args.record:
        print(f"records written to {args.record}")
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0


def run_config(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """Run an experiment file; write its results to JSON, print each run's statistics."""
    from pathlib import Path

    from ..simulation.experiment import load_experiment, run_experiment
    from ..simulation.report import experiment_blocks, run_blocks
    from ..simulation.simulate import simulate

    if args.file or args.record or args.set or args.agents:
        raise RulesetError(
            "with --config, the experiment file names the rulesets, agents and parameters",
            hint="drop the FILE, --record, --agents and --set options, or put them in the experiment file",
        )
    if args.players is not None:
        raise RulesetError("with --config, the experiment file gives the player counts", hint="players: [3, 4]")
    exp = load_experiment(args.config, lambda path: load_game(path, args.max_moves))
    results = run_experiment(
        exp,
        simulate,
        games=args.games,
        seed=args.seed or 0,
        before_run=lambda n, run: progress_for(args, f"run {n + 1}/{len(exp.runs)}: {run.label}, {run.players}p"),
        **options,
    )
    out = Path(args.output) if args.output else exp.output
    write_output(out, json.dumps(results, indent=2) + "\n")
    if args.plot:
        from ..simulation.plots import plot_compare, plot_run

        if len(results["runs"]) == 1:
            plot_run(results["runs"][0], args.plot)
        else:
            plot_compare(results["runs"], args.plot, results["experiment"])
    if args.format == "json":
        sys.stdout.write(json.dumps(results, indent=2) + "\n")
        return 0
    for n, run in enumerate(results["runs"]):
        header = f"== run {n + 1}/{len(results['runs'])}: {run['label']}, {run['players']} players"
        blocks([header, *run_blocks(run), ""])
    summary = experiment_blocks(results["runs"])
    if summary:
        blocks([f"== {results['experiment'] or 'the experiment'}: the runs side by side", *summary, ""])
    print(f"results written to {out}")
    if args.plot:
        print(f"plot written to {args.plot}")
    return 0
