"""Resolving how a round is scored (`score` rules) and the game section (rounds, dealer, winner).
A mixin of Resolver (resolve.py)."""

from __future__ import annotations

from typing import Any

from ..errors import DeclarationError, RulesTypeError
from .ast_nodes import ScoreRule
from .resolve_types import BOOL, CARD, NUMBER, PILE, PLAYER, T


class ScoringResolver:
    """Scoring rules and the game section."""

    def _score(self, r: ScoreRule) -> dict[str, Any]:
        scope: dict[str, T] = {"player": PLAYER}
        node: dict[str, Any] = {"each": None}
        if r.each is not None and r.each.op == "name" and r.each.args[0] == "team":  # each team: POINTS
            self._need_teams(r.each)
            scope, node["team"] = {"team": T("team")}, True
        elif r.each is not None:
            node["each"] = self.expr(r.each, scope, None)
            kind = self._last_type.kind
            if kind not in ("cards", "piles"):
                raise RulesTypeError(f"`each` goes over cards or piles, not {self._last_type}", r.each.span)
            scope = {**scope, ("card" if kind == "cards" else "pile"): CARD if kind == "cards" else PILE}
        node["points"] = self.expr(r.points, scope, NUMBER)
        if r.condition is not None:
            word, cond = r.condition
            node[word] = self.expr(cond, scope, BOOL)
        return self._noted(node, r.span)

    def _game(self) -> dict[str, Any]:
        g = self.p.game
        node = self._game_rounds(g)  # (resolve_flow.py: a cap of rounds, an end condition, or both)
        first = g["rounds"] if "rounds" in g else g["ends"]
        if "winner" not in g:
            raise DeclarationError(
                "the game does not say who wins",
                first.span,
                "add `winner highest total`, `winner lowest total` or `everyone wins if CONDITION` to the game section",
            )
        node["dealer"] = g["dealer"].value if "dealer" in g else "clockwise"
        if "max_moves" in g:
            if g["max_moves"].value < 1:
                raise DeclarationError(
                    "a round must allow at least 1 move", g["max_moves"].span, "write `max moves per round N`, N from 1"
                )
            node["max_moves_per_round"] = g["max_moves"].value
        node.update(self._winner(g["winner"]))
        return self._noted(node, first.span)

    def _winner(self, w: Any) -> dict[str, Any]:
        """`winner highest|lowest total`, or `everyone wins if CONDITION` (a cooperative game: all
        seats win together when it holds at the game's end, else all lose)."""
        if isinstance(w.value, str):
            return {"winner": w.value}
        if self.p.teams is not None:
            raise DeclarationError(
                "a cooperative game (`everyone wins if`) has no teams: all players win or lose together",
                w.span,
                "remove the `teams` line, or say which team wins with `winner highest total`",
            )
        return {"winner": "all", "all_win": self._noted({"if": self.expr(w.value, {}, BOOL)}, w.span)}
