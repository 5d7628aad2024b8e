# cython: annotation_typing=False
"""No card made or lost: the one test of it, for check's playouts, verify's states and the soak.

Each card in play lies in exactly one zone, the one the state places it in; the copies a player
count leaves out lie in none. A state that breaks it is named card by card (a few ids), so that a
designer sees which cards went missing or were doubled.
"""

from __future__ import annotations

from typing import Any

from ..errors import plural

SHOWN_IDS = 10  # card ids a message lists at most (enough to see a pattern)


def cards_accounted(state: Any, absent: frozenset[int] | None = None) -> str | None:
    """None when every card in play is in exactly one zone, where the state places it; else why
    not, naming the cards. The one test of "no card made or lost", for check's playouts, verify's
    states and the soak. ``absent``: the copies this player count does not use (default: the
    game's, looked up), which must be in no zone."""
    if absent is None:
        absent = state.game.cards.absent(state.n)
    if _all_in_place(state.zones, state.loc, absent):
        return None
    return _faults(state, absent)


def _all_in_place(zones: list, loc: list, absent: frozenset[int]) -> bool:
    """Whether each card in the zones lies where ``loc`` places it, none twice and none of
    ``absent``, and as many as are in play: then every card in play is in exactly one zone (the
    usual case, at once; in C integers in the compiled engine, accounting.pxd)."""
    seen = [0] * len(loc)  # (a list: compiled, made without a call to a type, read in place)
    placed = 0
    for inst in range(len(zones)):
        z = zones[inst]
        if len(z) and type(z[0]) is list:  # piles
            for pile in z:
                for c in pile:
                    if loc[c] != inst or seen[c]:
                        return False
                    seen[c] = 1
                    placed += 1
        else:
            for c in z:
                if loc[c] != inst or seen[c]:
                    return False
                seen[c] = 1
                placed += 1
    if placed != len(loc) - len(absent):
        return False
    if not absent:
        return True
    for c in absent:  # noqa: SIM110 (Cython compiles no generator in a cpdef function)
        if seen[c]:
            return False
    return True


def _faults(state: Any, absent: frozenset[int]) -> str | None:
    """Why the cards are not each in exactly one zone, naming them."""
    loc = state.loc
    seen = [0] * len(loc)
    faults = []
    for inst, content in enumerate(state.zones):
        if content and type(content[0]) is list:  # piles
            content = [c for pile in content for c in pile]
        for c in content:
            if loc[c] != inst:
                faults.append(f"card {c} is in zone instance {inst}, but the state places it in {loc[c]}")
            seen[c] += 1
    faults = faults[:SHOWN_IDS]
    lost = [c for c, k in enumerate(seen) if k == 0 and c not in absent]
    doubled = [c for c, k in enumerate(seen) if k > 1]
    made = sorted(c for c in absent if seen[c])
    if lost:
        faults.append(f"{plural(len(lost), 'card')} in no zone: {lost[:SHOWN_IDS]}")
    if doubled:
        faults.append(f"{plural(len(doubled), 'card')} in more than one place: {doubled[:SHOWN_IDS]}")
    if made:
        faults.append(
            f"{plural(len(made), 'copy', 'copies')} left out at this player count in a zone: {made[:SHOWN_IDS]}"
        )
    return "; ".join(faults) or None
