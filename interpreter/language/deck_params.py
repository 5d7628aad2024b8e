"""A deck laid out for the parameters given: a parameter may be a card line's copies (`x (copies)`)
or a range's end (`value 1..values`), so that `--set values=2` shrinks the deck without editing
the file (what `ruleset verify` needs, docs/verify.md).

The resolver lays the deck out with the parameters' defaults, so an IR is complete as it is and
every tool reads it as before; it marks what a parameter decided: a value whose copies are a
parameter names it (`{"value": 1, "copies": 2, "param": "copies"}`), a number in a copy count's
expression too (`{"op": "num", "value": 2, "param": "copies"}`), and an attribute keeps its
ranges with a parameter for an end (`"ranges": [{"from": 1, "to": "values", "first": 0}]`, first:
where the range's values start in the attribute's list). ``with_params`` lays them out again for
other values, before the game is compiled: the deck is compiled after the parameters are known.
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import ParameterError
from .copies import copies_for
from .resolve_types import MAX_DECK


def deck_params(ir: dict[str, Any]) -> dict[str, int]:
    """The parameters the deck reads, with the values it was laid out for."""
    out: dict[str, int] = {}
    for p in ir.get("params", []):
        default = p["default"]
        if default.get("op") == "num" and isinstance(default.get("value"), int):
            out[p["name"]] = default["value"]
    read = set()
    for line in _lines(ir):
        for a in line["attributes"]:
            for r in a.get("ranges", ()):
                read |= {end for end in (r["from"], r["to"]) if isinstance(end, str)}
            for v in a["values"]:
                read |= _params_in(v["copies"]) | ({v["param"]} if "param" in v else set())
    return {name: out[name] for name in sorted(read) if name in out}


def with_params(ir: dict[str, Any], values: dict[str, Any] | None) -> dict[str, Any]:
    """The IR with its deck laid out for ``values`` (parameter -> value, as `--set` gives it or a
    record keeps it); the IR itself when they change nothing the deck reads."""
    current = deck_params(ir)
    wanted = {name: _whole(name, values[name]) for name in current if values and name in values}
    if all(current[name] == v for name, v in wanted.items()):
        return ir
    out = copy.deepcopy(ir)
    for p in out["params"]:
        if p["name"] in wanted:
            p["default"] = {**p["default"], "value": wanted[p["name"]]}
    now = {**current, **wanted}
    for line in _lines(out):
        for a in line["attributes"]:
            for v in a["values"]:
                v["copies"] = now[v["param"]] if "param" in v else _set_counts(v["copies"], now)
            _lay_out_ranges(a, current, now)
    low, high = out["players"]["min"], out["players"]["max"]
    for deck in out["decks"]:
        size = 0
        for line in deck["cards"]:
            cards = 1
            for a in line["attributes"]:
                for v in a["values"]:
                    for n in range(low, high + 1):
                        if not 0 <= copies_for(v["copies"], n) <= 10_000:
                            raise ParameterError(
                                f"with {n} players, {_setting(wanted)} gives the {line['type']} cards "
                                f"{copies_for(v['copies'], n)} copies, not 0 to 10,000"
                            )
                cards *= sum(copies_for(v["copies"], high) for v in a["values"])
            size += cards
        if size > MAX_DECK:
            raise ParameterError(f"{_setting(wanted)} makes the deck '{deck['name']}' more than {MAX_DECK} cards")
    return out


def _lines(ir: dict[str, Any]) -> list[dict[str, Any]]:
    return [line for deck in ir.get("decks", []) for line in deck["cards"]]


def _params_in(node: Any) -> set[str]:
    if isinstance(node, list):
        return set().union(*map(_params_in, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    out = {node["param"]} if node.get("op") == "num" and "param" in node else set()
    for k, v in node.items():
        if k != "at":
            out |= _params_in(v)
    return out


def _set_counts(node: Any, values: dict[str, int]) -> Any:
    """A copy count with each parameter's number set to its value."""
    if isinstance(node, list):
        return [_set_counts(x, values) for x in node]
    if not isinstance(node, dict):
        return node
    if node.get("op") == "num" and node.get("param") in values:
        return {**node, "value": values[node["param"]]}
    return {k: _set_counts(v, values) for k, v in node.items()}


def _lay_out_ranges(attr: dict[str, Any], was: dict[str, int], now: dict[str, int]) -> None:
    """An attribute's ranges with a parameter for an end, laid out again for ``now``."""
    values, shift = attr["values"], 0
    for r in attr.get("ranges", ()):
        lo, hi = (was.get(e, e) for e in (r["from"], r["to"]))
        new_lo, new_hi = (now.get(e, e) for e in (r["from"], r["to"]))
        if new_hi < new_lo or new_hi - new_lo > MAX_DECK:
            raise ParameterError(
                f"the range {r['from']}..{r['to']} of {attr['name']} would be {new_lo}..{new_hi}: "
                f"it must go up and have at most {MAX_DECK} values"
            )
        first = r["first"] + shift
        like = {k: v for k, v in values[first].items() if k != "value"}  # (its copies, and their parameter)
        values[first : first + hi - lo + 1] = [{"value": v, **like} for v in range(new_lo, new_hi + 1)]
        r["first"] = first
        shift += (new_hi - new_lo) - (hi - lo)


def _whole(name: str, value: Any) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ParameterError(f"parameter '{name}' sets the deck: it takes a whole number, not {value!r}") from None
    if number < 0 or str(number) != str(value).strip().lstrip("+"):
        raise ParameterError(f"parameter '{name}' sets the deck: it takes a whole number from 0, not {value!r}")
    return number


def _setting(values: dict[str, int]) -> str:
    return " ".join(f"{k}={v}" for k, v in values.items())
