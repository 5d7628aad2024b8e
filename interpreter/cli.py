"""The `ruleset` command: show, simulate, replay (`ruleset --help`, `ruleset COMMAND --help`).

Exit codes: 0 success; 1 the rules or a record failed a check (a replay that breaks the
rules); 2 bad input (a file that cannot be read or parsed, a bad option).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from .errors import RecordError, RulesetError
from .game import Game, compile_ir
from .loader import ir_from_path, locate
from .records import parse_line, replay
from .simulate import simulate

EPILOG = """examples:
  ruleset simulate rulesets/poison.rules --players 4 --games 1000
  ruleset simulate rulesets/poison.rules --players 3 --set rounds=3 --record games.jsonl
  ruleset replay games.jsonl
  ruleset show rulesets/poison-five-card.rules --format yaml
"""


def parse_sets(pairs: list[str] | None) -> dict[str, str]:
    """``--set NAME=VALUE`` options as a dict (values stay text; the game types them)."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise RulesetError(f"--set takes NAME=VALUE, not {pair!r}", hint="for example --set limit=17")
        out[name.strip()] = value.strip()
    return out


def _load(path: str) -> tuple[dict[str, Any], Game]:
    ir = ir_from_path(path)
    return ir, compile_ir(ir)


def _progress(enabled: bool):
    """A progress line on stderr (only on a terminal), with games/s and the time left."""
    if not enabled or not sys.stderr.isatty():
        return None

    def show(done: int, total: int, seconds: float) -> None:
        if seconds < 1 and done < total:
            return
        rate = done / seconds if seconds else 0.0
        left = (total - done) / rate if rate else 0.0
        width = 30
        filled = int(width * done / total) if total else width
        bar = "#" * filled + "-" * (width - filled)
        end = "\n" if done == total else ""
        sys.stderr.write(f"\r[{bar}] {done}/{total} games  {rate:,.0f} games/s  {left:,.0f}s left {end}")
        sys.stderr.flush()

    return show


# ---- commands ---------------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    """Print the resolved rules (IR) as JSON or YAML."""
    ir = ir_from_path(args.file)
    sets = parse_sets(args.set)
    if sets:
        game = compile_ir(ir)
        game.param_values(game.min_players, sets)  # checks names and types
        kinds = {p["name"]: p["type"] for p in ir["params"]}
        for p in ir["params"]:
            if p["name"] in sets:
                from .game import coerce

                value = coerce(next(x for x in game.params if x.name == p["name"]), sets[p["name"]])
                p["default"] = {"op": "num" if kinds[p["name"]] == "number" else "text", "value": value}
    if args.format == "yaml":
        sys.stdout.write(yaml.safe_dump(ir, sort_keys=False, allow_unicode=True))
    else:
        sys.stdout.write(json.dumps(ir, indent=2, ensure_ascii=False) + "\n")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play games with bots; print statistics and throughput."""
    _, game = _load(args.file)
    players = args.players if args.players is not None else game.min_players
    if args.games < 1:
        raise RulesetError(f"--games must be at least 1, not {args.games}")
    stats = simulate(game, players, args.games, args.seed, args.agents, parse_sets(args.set),
                     args.record, _progress(not args.quiet))
    if args.format == "json":
        sys.stdout.write(json.dumps(stats, indent=2) + "\n")
        return 0
    print(f"{stats['ruleset']}: {stats['games']} games, {players} players, seed {stats['seed']}")
    if stats["params"]:
        print("parameters: " + ", ".join(f"{k}={v}" for k, v in stats["params"].items()))
    print(f"{'seat':<6}{'agent':<10}{'mean score':>12}{'wins':>8}{'win rate':>10}")
    for s in stats["seats"]:
        print(f"{s['seat']:<6}{s['agent']:<10}{s['mean_score']:>12.2f}{s['wins']:>8}{s['win_rate']:>10.1%}")
    print(f"moves per game {stats['moves_per_game']:.1f}, rounds per game {stats['rounds_per_game']:.1f}")
    print(f"{stats['games']} games in {stats['seconds']:.2f} s: {stats['games_per_second']:,.1f} games/s, "
          f"{stats['moves_per_second']:,.0f} moves/s")
    if args.record:
        print(f"records written to {args.record}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Play records back through the rules; fail on an illegal move or a differing score."""
    path = Path(args.records)
    if not path.is_file():
        raise RulesetError(f"no such record file: {args.records}")
    try:
        lines = path.read_text("utf-8").splitlines()
    except UnicodeDecodeError:
        raise RulesetError(f"{args.records} is not UTF-8 text") from None
    games: dict[str, Game] = {}
    count = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        rec = parse_line(line, number)
        source = args.rules or _guess_rules(rec)
        if source not in games:
            games[source] = _load(source)[1]
        state = replay(games[source], rec, number)
        count += 1
        if args.format == "text" and not args.quiet:
            print(f"line {number}: {rec['ruleset']}, {rec['players']} players: totals {state.totals}, "
                  f"winners {state.winners()}: replayed")
    if args.format == "json":
        print(json.dumps({"replayed": count, "ok": True}))
    elif count == 0:
        print("no records in the file")
    else:
        print(f"{count} game(s) replayed; every move legal, every score the same")
    return 0


def _guess_rules(rec: dict[str, Any]) -> str:
    """The rules a record was played with: its `source`, or a bundled ruleset of that name."""
    if rec.get("source") and Path(rec["source"]).is_file():
        return rec["source"]
    for candidate in Path(str(locate("poison"))).parent.glob("*.rules"):
        try:
            if ir_from_path(candidate)["name"] == rec["ruleset"]:
                return str(candidate)
        except RulesetError:
            continue
    raise RecordError(f"cannot tell which rules '{rec['ruleset']}' was played with",
                      hint="name them: ruleset replay FILE.jsonl --rules RULES")


# ---- the parser ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = argparse.ArgumentParser(
        prog="ruleset",
        description="Card games as data: show, simulate and replay games written in the rules language.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p: argparse.ArgumentParser, *, fmt: tuple[str, ...] = ("text", "json")) -> None:
        p.add_argument("--format", choices=fmt, default=fmt[0], help=f"output format (default {fmt[0]})")
        p.add_argument("--set", action="append", metavar="NAME=VALUE",
                       help="override a parameter of the ruleset (repeatable), e.g. --set limit=17")
        p.add_argument("--seed", type=int, default=0, help="seed of all chance (default 0)")

    p = sub.add_parser("show", help="print the resolved rules (the IR) as JSON or YAML",
                       description="Print the resolved rules (IR): what every other command reads.")
    p.add_argument("file", help="a .rules file (or IR as .json/.yaml, or a bundled name like poison)")
    common(p, fmt=("json", "yaml"))
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("simulate", help="play many games with bots; statistics and throughput",
                       description="Play games with bots and report, per seat, the mean score and wins; "
                                   "moves per game; games and moves per second.")
    p.add_argument("file", help="a .rules file")
    p.add_argument("--players", type=int, help="number of players (default: the fewest the rules allow)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--agents", default="random",
                   help="agents by seat, comma-separated; the last repeats (default random)")
    p.add_argument("--record", metavar="FILE.jsonl", help="write each game's record, one JSON line a game")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    common(p)
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("replay", help="play game records back through the rules",
                       description="Replay each record of a .jsonl file: every move must be legal and "
                                   "every score the same as recorded.")
    p.add_argument("records", help="a .jsonl file written by `ruleset simulate --record`")
    p.add_argument("--rules", help="the rules file the games were played with (default: guessed by name)")
    p.add_argument("--quiet", action="store_true", help="only the summary line")
    common(p)
    p.set_defaults(run=cmd_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; errors are messages on stderr, never tracebacks."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except RecordError as err:
        print(err.format(), file=sys.stderr)
        return 1
    except RulesetError as err:
        print(err.format(), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
