"""A probe of the engine's caches: plays random games and, after every effect and every move,
evaluates every definition twice, through the engine's caches (the values a state keeps, by
argument, with a zone, per card) and in a copy of the state that keeps nothing; it also lists the
legal moves both ways (the guards' hoisted parts are kept with the zones). Any difference is a
value the engine kept past a change it depends on.

test_caches.py runs it on the source tree, and in an isolated interpreter on the installed
(compiled) package: this file is self-contained and runs as a program too (``main``)."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import interpreter
from interpreter.engine import effects as effects_module
from interpreter.engine import game as game_module

CARD_SAMPLE = 6  # cards tried as the argument of a definition of a card, at each probe
NUMBERS = range(6)  # numbers tried as a number parameter


class Probe:
    """The definitions of the game being compiled, and what the probes found."""

    def __init__(self) -> None:
        self.compilers: list[Any] = []
        self.calls: list[tuple[str, Any, Any]] = []  # (name, closure, arguments of a state)
        self.found: list[str] = []
        self.where = ""
        self.probes = 0
        self.busy = False

    def attach(self, game: Any) -> None:
        """The closures that call each definition as the rules do (through the caches)."""
        cx = self.compilers[-1]
        self.calls = []
        for d in game.ir["defines"]:
            params = d.get("params") or ()
            if params:
                scope = cx.scope(*(f"${p['name']}" for p in params))
                node = {
                    "op": "call",
                    "name": d["name"],
                    "args": [{"op": "bound", "name": f"${p['name']}"} for p in params],
                }
                slots = [scope.slots[f"${p['name']}"] for p in params]
                kinds = [p.get("type") for p in params]
            elif d.get("of"):
                scope = cx.scope("$arg")
                node = {"op": "call", "name": d["name"], "arg": {"op": "bound", "name": "$arg"}}
                slots, kinds = [scope.slots["$arg"]], [d["of"]]
            else:
                scope = cx.scope()
                node = {"op": "call", "name": d["name"]}
                slots, kinds = [], []
            self.calls.append((d["name"], cx.compile(node, scope), (slots, kinds, cx.env_size)))

    def arguments(self, s: Any, kinds: list[str], rng: random.Random) -> list[tuple]:
        """Arguments to try: every player, every instance of a zone, some cards, small numbers."""
        out: list[tuple] = [()]
        for kind in kinds:
            if kind == "player":
                values: Any = range(s.n)
            elif kind == "card":
                values = rng.sample(range(len(s.game.cards)), min(CARD_SAMPLE, len(s.game.cards)))
            elif kind == "number":
                values = NUMBERS
            elif kind in s.game.zone_index:
                values = s.layout.instances[s.game.zone_index[kind]]
            else:
                return []  # (a kind this probe does not try)
            out = [(*a, v) for a in out for v in values]
        return out

    def check(self, s: Any, what: str) -> None:
        """Every definition through the caches of ``s`` and in a copy that keeps nothing."""
        if self.busy or not hasattr(s, "current"):  # (not while a state is being made: it cannot be copied)
            return
        self.busy = True
        try:
            self.probes += 1
            rng = random.Random(self.probes)
            fresh = s.copy()
            for name, call, (slots, kinds, size) in self.calls:
                for args in self.arguments(s, kinds, rng):
                    kept, computed = _value(call, s, slots, args, size), _value(call, fresh, slots, args, size)
                    if kept != computed:
                        self.found.append(f"{self.where} {what}: {name}{args} is {kept!r}, {computed!r} when computed")
        finally:
            self.busy = False

    def check_moves(self, s: Any) -> None:
        if s.is_over:
            return
        kept, computed = s.legal_moves(), s.copy().legal_moves()
        if kept != computed:
            self.found.append(f"{self.where}: legal moves {kept!r}, {computed!r} when computed")


def _value(call: Any, s: Any, slots: list[int], args: tuple, size: list) -> Any:
    env = [None] * max(size, *(k + 1 for k in slots), 1)
    for k, v in zip(slots, args, strict=True):
        env[k] = v
    try:
        return call(s, env)
    except Exception as err:  # (a definition that fails for an argument fails alike both ways)
        return ("fails", type(err).__name__)


def install(probe: Probe) -> Any:
    """Hooks that make every game compiled from now on probe after each of its effects; returns
    a function that removes them."""
    builders = dict(effects_module._BUILDERS)
    compiler = game_module.ExprCompiler

    class Recording(compiler):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            probe.compilers.append(self)

    def probing(kind: str, build: Any) -> Any:
        def built(cx: Any, node: Any, scope: Any) -> Any:
            effect = build(cx, node, scope)
            where = f"after `{kind}` at {node.get('at', '?')}"

            def probed(s: Any, e: list) -> None:
                effect(s, e)
                probe.check(s, where)

            return probed

        return built

    for kind, build in builders.items():
        effects_module._BUILDERS[kind] = probing(kind, build)
    game_module.ExprCompiler = Recording

    def remove() -> None:
        effects_module._BUILDERS.update(builders)
        game_module.ExprCompiler = compiler

    return remove


def play(probe: Probe, path: str, players: int, seed: int, max_moves: int) -> None:
    """One random game of the ruleset at ``path``, probed after every effect and every move."""
    game = interpreter.load(path)
    probe.attach(game)
    s = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    for i in range(max_moves):
        if s.is_over:
            break
        probe.where = f"{path} ({players} players, seed {seed}) move {i}"
        s.apply(rng.choice(s.legal_moves()))
        probe.check(s, "after the move")
        probe.check_moves(s)


def probe_games(games: list[tuple[str, int, int]], max_moves: int) -> tuple[list[str], int]:
    """What the probes found in these games (path, players, seed), and how many probes ran."""
    probe = Probe()
    remove = install(probe)
    try:
        for path, players, seed in games:
            play(probe, path, players, seed, max_moves)
    finally:
        remove()
    return probe.found, probe.probes


def main() -> None:
    games, max_moves = json.loads(sys.argv[1])
    found, probes = probe_games([tuple(g) for g in games], max_moves)
    from interpreter.build import engine_build

    print(json.dumps({"build": engine_build(), "found": found, "probes": probes}))


if __name__ == "__main__":
    main()
