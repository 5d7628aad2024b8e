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
        if "rounds" not in g:
            raise DeclarationError(
                "the game does not say how many rounds it has",
                self.p.title.span,
                "add a `game` section with `rounds N`",
            )
        if "winner" not in g:
            raise DeclarationError(
                "the game does not say who wins",
                g["rounds"].span,
                "add `winner highest total` or `winner lowest total` to the game section",
            )
        node = {
            "rounds": self.expr(g["rounds"].value, {}, NUMBER),
            "dealer": g["dealer"].value if "dealer" in g else "clockwise",
            "winner": g["winner"].value,
        }
        return self._noted(node, g["rounds"].span)
