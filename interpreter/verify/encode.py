# cython: annotation_typing=False
"""The canonical key of a state, for the visited set: two states with one key play on alike.

A key holds what the rules can read or what decides what comes next: every zone's cards in
order (piles kept), each card as its class (alike cards share one, chance.card_classes) and the
seat that played it; the variables, totals, round, dealer, phase, whose turn, who is still to
choose, the held moves of a simultaneous phase, a waiting ask (its env and what is left to run),
the cards shown to a seat, the seats out of the round, statuses that expire. A card named
outside the zones (a held move, an ask's env, a shown card) is named by its place (zone instance
and index), which alike cards trading places does not change. What no rule reads is left out:
the history (records write it; no expression reads it), the moves made so far in the round (the
engine's bound against endless rounds: verify finds the loops themselves), caches.

A zone whose order no rule can tell (order.py: no `first` or `last` reads it, no draw takes from
it, it keeps no piles, ...) is keyed as the sorted list of its cards, so that a hand dealt in
another order is the same hand.

The key is those values' bytes themselves, written compactly (a card a byte, a small number a
byte; some 40 to 120 bytes a state on the shrunk games of docs/verify.md), as a text of one
character a byte (latin-1, one to one: made from the encoder's buffer in one step): no digest, so
two different states never share a key; a key takes a little more to keep than a 16-byte digest
did (an object's own overhead is most of either).
"""

from __future__ import annotations

from collections import Counter
from marshal import dumps
from typing import Any

from .order import ordered_zones

PILE, END = 254, 255  # in the zones' bytes: a pile begins, a zone ends (tokens are below both)
BYTES, NUMBERS = 0, 1  # a key's first byte: its zones as bytes, or as numbers (a list, _value's)
# after the zones, each value (Encoder._value): a whole number from -NEGATIVE to SMALL - 1 is one
# byte below SMALL + NEGATIVE; the marks are above
SMALL, NEGATIVE = 200, 32
NONE, FALSE, TRUE, LIST, TUPLE, CLOSE, MARSHALLED, TEXT = 232, 233, 234, 235, 236, 237, 238, 239
HELD = 240  # the held moves, written as numbers (Encoder._held_moves; else marshalled, _Places)
TAIL_ROOM = 96  # the bytes made ready for the values after the zones (Encoder._small_tail)


class Encoder:
    """Keys of the states of one game."""

    def __init__(self, game: Any, classes: tuple[int, ...], players: int):
        self.kinds = kinds = max(classes, default=0) + 1
        # every token a byte below PILE: the zones are keyed a byte a card; else as a list of
        # numbers, marks below 0
        self.as_bytes = kinds * (players + 1) <= PILE
        small = bytes if self.as_bytes else list  # (bytes: read as C numbers in the compiled engine)
        self.classes = small(classes)
        # who played a card, as the part of its token, by the seat plus one: -1 (nobody) -> 0,
        # seat p -> kinds * (p + 1)
        self.played = small(kinds * p for p in range(players + 1))
        self.card_slots = game.card_slots
        key_of = {cls: game.cards.key[c] for c, cls in enumerate(classes)}
        ordered = ordered_zones(game.ir, len(set(key_of.values())) == len(key_of))
        lay = game.layout(players)
        # the zone instances keyed as sorted hands: those of zones whose order no rule can tell
        self.free = frozenset(
            i for i, z in enumerate(lay.zone_of) if ordered is not None and game.zones[z].name not in ordered
        )
        self.sorted_at = bytes(i in self.free for i in range(lay.size))
        self.room = 1 + 2 * len(classes) + lay.size  # the zones' bytes at most: the mark, a card, a pile, a zone's end
        self.spare = bytes(TAIL_ROOM)  # (room for the values after the zones: _small_tail)
        self.buf = bytearray(self.room + TAIL_ROOM)  # where ``key`` writes (one key at a time)
        copies = Counter(classes)
        self.alike = bytes(copies[k] > 1 for k in classes)  # card id -> whether another card is alike

    def _zone_bytes(self, s: Any, flat: bytearray) -> int:
        """Every zone's cards in a row, each card as its token (class and who played it), each
        zone closed by END (in it, each pile opened by PILE); a zone whose order no rule can tell
        as its sorted tokens: written in ``flat`` (``room`` bytes at least), after the mark BYTES;
        how many bytes were written."""
        classes, played, by, sorted_at = self.classes, self.played, s.played_by, self.sorted_at
        flat[0] = BYTES
        k = 1
        zones = s.zones
        for i in range(len(zones)):
            z = zones[i]
            n = len(z)
            if n == 0:
                pass
            elif type(z[0]) is list:  # piles, each in order
                for pile in z:
                    flat[k] = PILE
                    k += 1
                    for c in pile:
                        p = by[c]
                        flat[k] = classes[c] + played[p + 1]
                        k += 1
            else:  # (a zone keyed as a sorted hand: each token put in its place as it comes)
                ranked = n > 1 and sorted_at[i]
                start = k
                for c in z:
                    p = by[c]
                    token = classes[c] + played[p + 1]
                    j = k
                    k += 1
                    if ranked:
                        while j > start and flat[j - 1] > token:
                            flat[j] = flat[j - 1]
                            j -= 1
                    flat[j] = token
            flat[k] = END
            k += 1
        return k

    def _zone_list(self, s: Any) -> list:
        """The zones as ``_zone_bytes`` has them, for tokens that do not all fit a byte: a list of
        numbers, marks below 0."""
        classes, played, by, sorted_at = self.classes, self.played, s.played_by, self.sorted_at
        flat: list[int] = []
        for i, z in enumerate(s.zones):
            if not z:
                pass
            elif type(z[0]) is list:
                for pile in z:
                    flat.append(-2)
                    flat.extend([classes[c] + played[by[c] + 1] for c in pile])
            elif sorted_at[i]:
                flat.extend(sorted([classes[c] + played[by[c] + 1] for c in z]))
            else:
                flat.extend([classes[c] + played[by[c] + 1] for c in z])
            flat.append(-1)
        return flat

    def move_class(self, s: Any, move: Any) -> Any:
        """What a move that plays card ``c`` of a zone keyed as a sorted hand has in common with
        the moves that play an alike card from there (same class, same player before), when
        nothing else in the state names the card: (rule, token, zone instance, target). Two such
        moves lead to states with one key (each is the other with the two cards' names traded,
        which no key tells), so verify plays only the first (explore). None for any other move."""
        rule, c, t = move
        if c < 0 or type(t) is not int or s.asking is not None or s.picking is not None or s.shown or s.expiring:
            return None
        inst = s.loc[c]
        if not self.sorted_at[inst]:
            return None
        for _, held in s.pending:  # (a held move names its card: the state knows which copy)
            if held[1] == c:
                return None
        return (rule, self.classes[c] + self.played[s.played_by[c] + 1], inst, t)

    def token(self, c: int, s: Any) -> int:
        """A card as the zones' keys hold it: its class and who played it."""
        return self.classes[c] + self.kinds * (s.played_by[c] + 1)

    def key(self, s: Any) -> str:
        """The state's key: its zones (one byte a card when every token fits a byte), then every
        other value the rules can read, each written as it comes (``_value``); the bytes as a text
        of one character a byte (latin-1: one to one, and made from the buffer in one step, where a
        bytes object takes a slice and a copy)."""
        k = -1
        buf = self.buf
        if self.as_bytes:
            try:  # (written in place in the encoder's buffer; the key is what was written)
                k = self._zone_bytes(s, buf)
            except IndexError:  # more cards than the game has (a card in two zones: the property says so)
                k = -1
        if k >= 0:
            end = self._small_tail(buf, k, s)
            if end >= 0 and not s.pending and s.asking is None and not s.shown:  # (the usual: at once)
                return buf[:end].decode("latin-1")
            flat = buf[:k]
        else:
            flat = bytearray((NUMBERS,))
            self._value(flat, self._zone_list(s))
            k = len(flat)
        flat += self.spare
        end = self._small_tail(flat, k, s)
        if end < 0:
            del flat[k:]
            self._tail(flat, s)
        else:
            del flat[end:]
        if s.pending and s.asking is None and not s.shown and self._held_moves(flat, s):
            pass
        elif s.pending or s.asking is not None or s.shown:
            held = _Places(s, self.card_slots, self.token, self.free).held()
            try:  # (marshal's version 2 writes no back-references: equal values, equal bytes)
                self._escaped(flat, MARSHALLED, dumps(held, 2))
            except ValueError:  # a value marshal does not write (an engine object in an ask's frames)
                self._escaped(flat, TEXT, repr(held).encode())
        return flat.decode("latin-1")

    def _tail(self, flat: bytearray, s: Any) -> None:
        """Every value of the state but its zones and held moves, after the zones, as ``_value``
        writes each."""
        self._number(flat, s.round)
        self._number(flat, s.dealer)
        self._number(flat, s.phase)
        self._number(flat, s.current)
        flat.append(TRUE if s.over else FALSE)
        self._value(flat, s.won_together)
        self._value(flat, s.next_player)
        self._value(flat, s.vars)
        self._value(flat, s.totals)
        self._value(flat, s.to_move)
        self._value(flat, s.choosers)
        self._value(flat, s.expiring)
        self._value(flat, sorted(s.out) if s.out else ())
        flat.append(LIST)  # the schedule's values as a list (its names are the game's, in its order)
        for v in s.schedule.values():
            self._value(flat, v)
        flat.append(CLOSE)

    def _small_tail(self, flat: bytearray, start: int, s: Any) -> int:
        """``_tail``, written at once from ``start`` into the room left in ``flat`` (no append a
        value), when every value is one ``_put`` writes (the usual: small numbers, lists of them,
        None): where it ends; else -1. The bytes are ``_tail``'s (a state has one key whichever
        way it went)."""
        end = len(flat)
        k = self._put(flat, start, end, s.round, 0)
        k = self._put(flat, k, end, s.dealer, 0)
        k = self._put(flat, k, end, s.phase, 0)
        k = self._put(flat, k, end, s.current, 0)
        if k < 0 or k >= end:
            return -1
        flat[k] = TRUE if s.over else FALSE
        k += 1
        k = self._put(flat, k, end, s.won_together, 0)
        k = self._put(flat, k, end, s.next_player, 0)
        k = self._put(flat, k, end, s.vars, 0)
        k = self._put(flat, k, end, s.totals, 0)
        k = self._put(flat, k, end, s.to_move, 0)
        k = self._put(flat, k, end, s.choosers, 0)
        k = self._put(flat, k, end, s.expiring, 0)
        k = self._put(flat, k, end, sorted(s.out) if s.out else (), 0)
        return self._put(flat, k, end, list(s.schedule.values()) if s.schedule else [], 0)

    def _held_moves(self, flat: bytearray, s: Any) -> bool:
        """The held moves of a simultaneous phase (no ask, no card shown), after HELD, each as its
        player, rule, card by place (zone instance, then its token in a zone keyed as a sorted hand,
        else its index) and target zone, as ``_put`` writes numbers, when each is a card played to
        a zone and every number is small; else False, and ``flat`` as it was (_Places then)."""
        start = len(flat)
        flat += self.spare
        end = start + TAIL_ROOM
        flat[start] = HELD
        k = start + 1
        loc, zones = s.loc, s.zones
        for p, move in s.pending:
            rule, c, t = move
            if type(t) is not int or type(c) is not int or c < 0:
                k = -1
                break
            inst = loc[c]
            if self.sorted_at[inst]:
                at = self.classes[c] + self.played[s.played_by[c] + 1]
            else:
                z = zones[inst]
                at = ([x for pile in z for x in pile] if z and type(z[0]) is list else z).index(c)
            k = self._put(flat, k, end, p, 0)
            k = self._put(flat, k, end, rule, 0)
            k = self._put(flat, k, end, inst, 0)
            k = self._put(flat, k, end, at, 0)
            k = self._put(flat, k, end, t, 0)
        if k < 0 or k >= end:
            del flat[start:]
            return False
        flat[k] = CLOSE
        del flat[k + 1 :]
        return True

    def _put(self, flat: bytearray, k: int, end: int, v: Any, depth: int) -> int:
        """``v`` written as ``_value`` writes it at ``k`` (before ``end``): the place after it; -1
        for a value that is not a whole number from -NEGATIVE to SMALL - 1, a boolean, None, nor a
        list or tuple of such (two deep at most), or that does not fit (``k`` -1: -1)."""
        if k < 0 or k >= end:
            return -1
        t = type(v)
        if t is int:
            if 0 <= v < SMALL:
                flat[k] = v
            elif -NEGATIVE <= v < 0:
                flat[k] = SMALL - 1 - v
            else:
                return -1
            return k + 1
        if v is None:
            flat[k] = NONE
            return k + 1
        if t is bool:
            flat[k] = TRUE if v else FALSE
            return k + 1
        if (t is list or t is tuple) and depth < 2:
            flat[k] = LIST if t is list else TUPLE
            k += 1
            for x in v:
                k = self._put(flat, k, end, x, depth + 1)
                if k < 0:
                    return -1
            if k >= end:
                return -1
            flat[k] = CLOSE
            return k + 1
        return -1

    def _value(self, flat: bytearray, v: Any) -> None:
        """``v`` appended to ``flat`` so that it reads back alone (no value's bytes begin
        another's): a whole number from -32 to 199 as one byte, None and booleans as one, a list or
        a tuple as its values between two marks, anything else marshalled, after its length."""
        t = type(v)
        if t is int:
            if -NEGATIVE <= v < SMALL:
                self._number(flat, v)
            else:
                self._escaped(flat, MARSHALLED, dumps(v, 2))
        elif v is None:
            flat.append(NONE)
        elif t is bool:
            flat.append(TRUE if v else FALSE)
        elif t is list or t is tuple:
            flat.append(LIST if t is list else TUPLE)
            for x in v:
                if type(x) is int and -NEGATIVE <= x < SMALL:  # (the usual value, at once)
                    self._number(flat, x)
                else:
                    self._value(flat, x)
            flat.append(CLOSE)
        else:
            try:
                self._escaped(flat, MARSHALLED, dumps(v, 2))
            except ValueError:
                self._escaped(flat, TEXT, repr(v).encode())

    def _number(self, flat: bytearray, n: int) -> None:
        """A whole number as ``_value`` writes it (``n``: a C integer in the compiled engine)."""
        if 0 <= n < SMALL:
            flat.append(n)
        elif -NEGATIVE <= n < 0:
            flat.append(SMALL - 1 - n)
        else:
            self._escaped(flat, MARSHALLED, dumps(n, 2))

    def _escaped(self, flat: bytearray, mark: int, data: bytes) -> None:
        """``data`` appended after ``mark`` and its length (4 bytes)."""
        flat.append(mark)
        flat += len(data).to_bytes(4, "little")
        flat += data


class _Places:
    """Cards named outside the zones, as their places: (zone instance, index in it, piles flattened);
    in a zone keyed as a sorted hand, (zone instance, the card's token)."""

    def __init__(self, s: Any, card_slots: frozenset[int], token: Any, free: frozenset[int]):
        self.s, self.card_slots, self.token, self.free = s, card_slots, token, free

    def held(self) -> tuple:
        """The held moves of a simultaneous phase, a waiting ask, the cards shown to a seat."""
        s = self.s
        return (
            tuple((p, self.data(m)) for p, m in s.pending),
            self.asking(s.asking) if s.asking is not None else None,
            tuple(sorted((seat, self.card(c), inst) for seat, c, inst in s.shown)),
        )

    def card(self, c: Any) -> Any:
        if type(c) is not int or c < 0:
            return c
        s = self.s
        inst = s.loc[c]
        if inst in self.free:
            return (inst, self.token(c, s))
        z = s.zones[inst]
        flat = [x for p in z for x in p] if z and type(z[0]) is list else z
        return (inst, flat.index(c))

    def cards(self, v: Any) -> Any:
        if isinstance(v, (tuple, list)):
            return tuple(self.card(x) for x in v)
        return self.card(v)

    def data(self, x: Any) -> Any:
        """A frame's data, an env or a held move, with the cards in it named by place."""
        from ..engine.flow import Env

        if type(x) is Env:
            return tuple(self.cards(v) if i in self.card_slots else v for i, v in enumerate(x))
        if hasattr(x, "_fields") and hasattr(x, "card") and hasattr(x, "rule"):  # a move
            target = x.target
            if hasattr(target, "cards") and hasattr(target, "to"):  # a set of cards and where it goes
                target = (self.cards(target.cards), target.to)
            return (x.rule, self.card(x.card), target)
        if type(x) is tuple:
            return tuple(self.data(y) for y in x)
        if callable(x):
            return getattr(x, "__qualname__", repr(x))
        return x

    def asking(self, asking: tuple) -> tuple:
        seat, rule, env, frames = asking
        env = tuple(self.cards(v) if i in self.card_slots else v for i, v in enumerate(env))
        return (seat, rule, env, tuple((self.data(fn), self.data(arg)) for fn, arg in frames))
