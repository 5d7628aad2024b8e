"""What ruleset B changes relative to ruleset A, rule by rule, in the rulebook's words.

Both IRs are cut into keyed items (a parameter, a deck line, a zone, a deal, a move, a guard,
a trigger, a phase's end, a scoring rule, a game line); an item is added, removed or changed
when its key is new, gone, or its resolved rule differs. Positions (`at`) and the comments
beside rules (`note`) are not rules: they are ignored when comparing, so a variant that
`extends` its base diffs to exactly its overrides.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from . import flow_phrases as F
from . import phrases as P
from . import rule_phrases as R
from .value_phrases import teams_sentence

KINDS = (
    "name",
    "players",
    "teams",
    "parameter",
    "cards",
    "attribute",
    "card order",
    "zone",
    "definition",
    "variable",
    "schedule",
    "deal",
    "round effects",
    "repeat",
    "round end",
    "phase",
    "first player",
    "order of resolution",
    "phase effects",
    "move",
    "guard",
    "trigger",
    "end",
    "effect",
    "score",
    "rounds",
    "game end",
    "dealer",
    "max moves",
    "winner",
    "check",  # the `checks` section's lines
)


@dataclass(frozen=True)
class Item:
    """One comparable rule: its kind and key, a label and phrase to show, its IR (positions removed)."""

    kind: str
    key: str
    label: str
    words: str
    data: Any
    note: str | None = None


@dataclass(frozen=True)
class Change:
    """An item added, removed or changed."""

    change: str  # added | removed | changed
    before: Item | None
    after: Item | None

    @property
    def item(self) -> Item:
        """The item as it is after the change (before it, for a removal)."""
        return self.after or self.before  # type: ignore[return-value]

    def as_json(self) -> dict[str, Any]:
        """The change as data."""
        it = self.item
        return {
            "change": self.change,
            "kind": it.kind,
            "key": it.key,
            "label": plain(it.label),
            "before": plain(self.before.words) if self.before else None,
            "after": plain(self.after.words) if self.after else None,
            "note": self.after.note if self.after else None,
            "before_ir": strip(self.before.data) if self.before else None,
            "after_ir": strip(self.after.data) if self.after else None,
        }

    def as_text(self) -> str:
        """The change as a line of text (and its note, if the new rule has one)."""
        it = self.item
        if self.change == "changed":
            line = f"changed  {plain(it.label)}: {plain(self.before.words)} -> {plain(self.after.words)}"  # type: ignore[union-attr]
        else:
            line = f"{self.change:<8} {plain(it.label)}: {plain(it.words)}"
        if self.after and self.after.note:
            line += f"\n         note: {self.after.note}"
        return line


def plain(text: str) -> str:
    """Phrase markup (`code`, *emphasis*, backslash escapes) removed, for a terminal."""
    return re.sub(r"\\(.)|[`*]", lambda m: m.group(1) or "", text)


def strip(node: Any) -> Any:
    """An IR subtree without positions and notes: what a rule says, not where or why."""
    if isinstance(node, dict):
        if node.get("do") == "do":  # do NAME: the block's own item says what it does
            return {"do": "do", "name": node["name"]}
        return {k: strip(v) for k, v in node.items() if k not in ("at", "note")}
    if isinstance(node, list):
        return [strip(x) for x in node]
    return node


def _key(data: Any) -> str:
    return json.dumps(strip(data), sort_keys=True)


# ---- cutting an IR into items ------------------------------------------------------------------------------


def items(ir: dict[str, Any]) -> list[Item]:
    """The keyed rules of an IR, in rulebook order."""
    ctx = P.Ctx.of(ir)
    out = [Item("name", "", "Name", ir["name"], ir["name"])]
    pl = ir["players"]
    out.append(Item("players", "", "Players", f"{pl['min']} to {pl['max']}", pl))
    if ir.get("teams"):
        words = teams_sentence(ir["teams"], pl["min"], pl["max"])
        out.append(Item("teams", "", "Teams", words, ir["teams"], ir["teams"].get("note")))
    for p in ir["params"]:
        out.append(Item("parameter", p["name"], f"Parameter `{p['name']}`", P.say(p["default"], ctx), p, p.get("note")))
    for deck in ir["decks"]:
        seen: dict[str, int] = {}
        for line in deck["cards"]:
            names = [str(v["value"]) for a in line["attributes"] for v in a["values"] if isinstance(v["value"], str)]
            key = f"{deck['name']}/{line['type']}"
            if key in seen:  # several lines of one type: tell them apart by their named values
                key += "/" + "/".join(names)
            seen[key] = 1
            label = "Cards" if deck["name"] == "deck" else f"Cards of the {P.human(deck['name'])} deck"
            out.append(Item("cards", key, label, R.card_line(line, ctx), line, line.get("note")))
    for name, attr in ir["attributes"].items():
        if attr["kind"] == "text":
            words = " < ".join(P.human(v) for v in attr["values"])
            out.append(Item("attribute", name, f"Values of {P.human(name)}", words, attr))
    if ir.get("card_order"):
        words = ", then ".join(P.human(a) for a in ir["card_order"])
        out.append(Item("card order", "", "Cards compare by", words, ir["card_order"]))
    for z in ir["zones"]:
        out.append(Item("zone", z["name"], "Zone", R.zone(z), z, z.get("note")))
    for d in ir["defines"]:
        out.append(Item("definition", d["name"], "Definition", R.define(d, ctx), d, d.get("note")))
    for v in ir["vars"]:
        out.append(Item("variable", v["name"], "Variable", R.var(v, ctx), v, v.get("note")))
    for s in ir["schedules"]:
        out.append(Item("schedule", s["name"], "Schedule", R.schedule(s, ctx), s, s.get("note")))
    zones = {z["name"]: z for z in ir["zones"]}
    for d in ir["round"]["deals"]:
        shared = zones.get(d["to"], {}).get("owner") != "player"
        words = F.shared_deal(d, ctx) if shared else R.deal(d, ctx)
        out.append(Item("deal", d["to"], f"Deal into the {P.human(d['to'])}", words, d, d.get("note")))
    out += _flow_items(ir, ctx)
    for ph in ir["round"]["phases"]:
        out += _phase_items(ph, ctx)
    for b in ir.get("blocks", ()):  # effect NAME
        words = " ".join(text for _, text, _ in R.effect_lines(b["effects"], ctx))
        out.append(Item("effect", b["name"], f"Effect `{b['name']}`", words, b, b.get("note")))
    for r in ir["round"]["score"]:
        key = _key(r["each"]) if r.get("each") is not None else _key(r["points"])
        out.append(Item("score", key, "Scoring", R.score_rule(r, ctx), r, r.get("note")))
    g = ir["game"]
    if g.get("rounds") is not None:
        out.append(Item("rounds", "", "Rounds", P.say(g["rounds"], ctx), g["rounds"], g.get("note")))
    if g.get("ends"):
        e = g["ends"]
        out.append(Item("game end", "", "Game end", f"when {P.say(e['when'], ctx)}", e["when"], e.get("note")))
    out.append(Item("dealer", "", "Dealer", R.game_dealer(g), g.get("dealer", "clockwise")))
    if g.get("max_moves_per_round") is not None:
        out.append(Item("max moves", "", "Moves per round", R.game_max_moves(g), g["max_moves_per_round"]))
    won = g["all_win"]["if"] if g.get("all_win") else g["winner"]  # (a cooperative game: its condition)
    out.append(
        Item("winner", "", "Winner", R.game_winner(g, ir.get("teams"), ctx), won, (g.get("all_win") or {}).get("note"))
    )
    for c in ir.get("checks") or []:  # the rules' own checks, keyed by kind and condition
        words = f"{c['kind']} {P.say(c['if'], ctx)}"
        out.append(Item("check", f"{c['kind']} {_key(c['if'])}", "Check", words, c, c.get("note")))
    return out


def _phase_items(ph: dict[str, Any], ctx: P.Ctx) -> list[Item]:
    name = ph["name"]
    where = f"Phase {P.human(name)}"
    how = "all players at once" if ph["simultaneous"] else "one player at a time"
    how += ", revealed together" if ph.get("revealed") else ""
    data = {"name": name, "simultaneous": ph["simultaneous"], "at": ph.get("at")}  # `at` for editors, not compared
    if ph.get("revealed"):
        data["revealed"] = True
    out = [Item("phase", name, where, how, data, ph.get("note"))]
    fp = ph.get("first_player")
    who = fp and (fp.get("keys") or fp.get("seat"))  # who starts: by keys, or a seat (`first player is P`)
    out.append(Item("first player", name, f"{where}, first player", R.first_player(fp, ctx), who))
    moves = {m["name"]: m for m in ph["moves"]}
    for m in ph["moves"]:
        mctx = R.move_ctx(m, ctx)
        data = {k: m.get(k) for k in ("name", "from", "to", "choice", "at", "at_place")}  # (a choice: what it chooses)
        out.append(Item("move", f"{name}/{m['name']}", f"{where}, move", R.move(m, ctx), data, m.get("note")))
        seen: dict[str, int] = {}
        for g in m["guards"]:
            key = f"{name}/{m['name']}/{_key(g)}"
            seen[key] = seen.get(key, 0) + 1
            label = f"{where}, move {P.human(m['name'])}, {g['kind']}"
            out.append(Item("guard", f"{key}#{seen[key]}", label, R.guard(g, mctx), g, g.get("note")))
    seen = {}
    for t in ph["triggers"]:
        mctx = F.trigger_ctx(t, moves, ctx)
        after = t["after"] if isinstance(t["after"], str) else "+".join(t["after"])
        key = f"{name}/{after}/{_key(t.get('if'))}"
        seen[key] = seen.get(key, 0) + 1
        words = R.trigger(t, mctx)
        out.append(Item("trigger", f"{key}#{seen[key]}", f"{where}, trigger", words, t, t.get("note")))
    if ph.get("ends"):
        e = ph["ends"]
        out.append(Item("end", name, f"{where}, end", f"when {P.say(e['when'], ctx)}", e["when"], e.get("note")))
    if ph.get("ends_when_nobody_can_move"):
        e = ph["ends_when_nobody_can_move"]
        out.append(Item("end", f"{name}/stuck", f"{where}, end", "when nobody can move", True, e.get("note")))
    if ph.get("resolve"):
        r = ph["resolve"]
        words = F.resolve_order(r, ctx)
        out.append(Item("order of resolution", name, f"{where}, order", words, r["keys"], r.get("note")))
    for when in ("start", "end"):
        if ph.get(f"at_{when}"):
            timed = ph[f"at_{when}"]
            words = " ".join(text for _, text, _ in F.timed_lines(timed, when, f"phase {P.human(name)}", ctx))
            out.append(Item("phase effects", f"{name}/{when}", f"{where}, at {when}", words, timed, timed.get("note")))
    return out


def _flow_items(ir: dict[str, Any], ctx: P.Ctx) -> list[Item]:
    """A round's own effects, its repeated phases and its early end."""
    rnd, out = ir["round"], []
    for when in ("start", "end"):
        if rnd.get(f"at_{when}"):
            timed = rnd[f"at_{when}"]
            words = " ".join(text for _, text, _ in F.timed_lines(timed, when, "the round", ctx))
            out.append(Item("round effects", when, f"Round, at {when}", words, timed, timed.get("note")))
    for words, loop in F.repeats(rnd, ctx):
        out.append(Item("repeat", loop["first"], "Repeat", words, loop, loop.get("note")))
    if rnd.get("ends"):
        e = rnd["ends"]
        out.append(Item("round end", "", "Round end", F.round_end(rnd, ctx), e["when"], e.get("note")))
    return out


# ---- comparing ----------------------------------------------------------------------------------------------------


def diff(a: dict[str, Any], b: dict[str, Any]) -> list[Change]:
    """Every rule that B adds, removes or changes relative to A, in rulebook order."""
    before = {(i.kind, i.key): i for i in items(a)}
    after = {(i.kind, i.key): i for i in items(b)}
    keys = list(dict.fromkeys([*after, *before]))
    keys.sort(key=lambda k: KINDS.index(k[0]))  # stable: B's order, then what B removed
    out = []
    for k in keys:
        x, y = before.get(k), after.get(k)
        if x is None:
            out.append(Change("added", None, y))
        elif y is None:
            out.append(Change("removed", x, None))
        elif strip(x.data) != strip(y.data):
            out.append(Change("changed", x, y))
    return out


def diff_text(changes: list[Change]) -> str:
    """The changes as lines of text (nothing when there are none)."""
    return "".join(c.as_text() + "\n" for c in changes)


def diff_json(changes: list[Change], a: str, b: str) -> dict[str, Any]:
    """The changes as data."""
    return {"a": a, "b": b, "changes": [c.as_json() for c in changes]}
