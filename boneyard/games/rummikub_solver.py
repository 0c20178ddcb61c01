"""Domino Rummikub groups and the exact arrangement solver.

A *group* is three or more tiles forming a run (one number shared, the other ends
consecutive) or a sum group (one pip total). The four jokers (both ``0-0`` and both
``6-6``) stand for any tile. :func:`group_error` says why a group is invalid;
:func:`best_play` finds, for a table and a hand, a new table that plays the most hand
tiles (ties: the most pips); :func:`arrange` says whether tiles split into groups;
:func:`best_opening` and :func:`valid_triples` cover the opening.

How the solver works. Every group lies on one *line*: run line ``n`` holds the tiles
``n-0 .. n-6`` at positions ``0..6`` (the other end), sum line ``s`` holds the tiles
with pip total ``s``. Choosing the groups is choosing, for every tile, its line, and
then splitting each line into groups. The solver walks the 28 tile kinds ordered by pip
total; in that order every run line is visited position by position, and every sum line
is visited in one stretch. A dynamic programme over that walk keeps, per run line, how
many runs are open and how long they are (1, 2, 3+), the size of the sum line being
filled, and the jokers used; for each state only the best score is kept. That is exact
(every arrangement is one path of the walk) and fast (a few hundred states per step).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..tiles import Tile, double_six

__all__ = [
    "Solution",
    "arrange",
    "best_opening",
    "best_play",
    "group_error",
    "is_joker",
    "is_valid_group",
    "order_group",
    "valid_triples",
]

JOKER_KINDS = (Tile(0, 0), Tile(6, 6))
# How many distinct tiles have each pip total: the largest sum group when duplicates are
# forbidden (a joker's stand-in counts as one of them).
KINDS_WITH_SUM = [sum(1 for h in range(7) for lo in range(h + 1) if h + lo == s) for s in range(13)]
# Weight of one played tile in the objective: count first, pips to break ties.
_COUNT = 1000


def is_joker(tile: Tile) -> bool:
    """Whether a tile is a joker (``0-0`` or ``6-6``)."""
    return tile.high == tile.low and (tile.high == 0 or tile.high == 6)


# ----- groups ------------------------------------------------------------------------


def group_error(tiles: Sequence[Tile], distinct_sums: bool = False) -> str | None:
    """Why ``tiles`` are not a valid group, or ``None`` when they are one."""
    key = (tuple(sorted(t.key for t in tiles)), distinct_sums)
    try:
        return _ERRORS[key]
    except KeyError:
        pass
    err = _group_error(tiles, distinct_sums)
    if len(_ERRORS) > 200_000:
        _ERRORS.clear()
    _ERRORS[key] = err
    return err


_ERRORS: dict[tuple[tuple[int, ...], bool], str | None] = {}


def is_valid_group(tiles: Sequence[Tile], distinct_sums: bool = False) -> bool:
    """Whether ``tiles`` form a valid run or sum group (jokers standing in as needed)."""
    return group_error(tiles, distinct_sums) is None


def _group_error(tiles: Sequence[Tile], distinct_sums: bool) -> str | None:
    size = len(tiles)
    if size < 3:
        return f"it has {size} tile{'s' if size != 1 else ''}; a group needs three or more"
    naturals = [t for t in tiles if not is_joker(t)]
    if not naturals:
        return None  # jokers alone: they can stand for any run
    if _run_number(naturals, size) is not None:
        return None
    sums = {t.pips for t in naturals}
    if len(sums) == 1:
        total = sums.pop()
        if not distinct_sums:
            return None
        dup = [t for t, n in Counter(naturals).items() if n > 1]
        if dup:
            return f"the sum group holds {dup[0]} twice, and identical tiles are forbidden in a sum group"
        if size > KINDS_WITH_SUM[total]:
            return (
                f"only {KINDS_WITH_SUM[total]} different tiles total {total} pips, "
                f"too few for a sum group of {size} without repeats"
            )
        return None
    run = _why_not_run(naturals, size)
    return f"it is neither a run ({run}) nor a sum group (pip totals {_totals(naturals)} differ)"


def _run_number(naturals: Sequence[Tile], size: int) -> int | None:
    """The shared number of a run the tiles (plus jokers up to ``size``) can form, if any."""
    if size > 7:
        return None
    common = {naturals[0].high, naturals[0].low}
    for t in naturals[1:]:
        common &= {t.high, t.low}
    for n in sorted(common):
        ends = [t.other(n) for t in naturals]
        if len(set(ends)) == len(ends) and max(ends) - min(ends) < size:
            return n
    return None


def _why_not_run(naturals: Sequence[Tile], size: int) -> str:
    if size > 7:
        return "a run holds at most seven tiles"
    common = {naturals[0].high, naturals[0].low}
    for t in naturals[1:]:
        common &= {t.high, t.low}
    if not common:
        return "no number is shared by every tile"
    n = min(common)
    ends = sorted(t.other(n) for t in naturals)
    if len(set(ends)) != len(ends):
        return f"the other ends beside {n} repeat"
    return f"the other ends beside {n} ({', '.join(map(str, ends))}) are not consecutive"


def _totals(naturals: Sequence[Tile]) -> str:
    return ", ".join(str(t.pips) for t in naturals)


def order_group(tiles: Sequence[Tile]) -> list[Tile]:
    """A valid group in reading order: a run along its line (jokers where they stand), else high first."""
    naturals = [t for t in tiles if not is_joker(t)]
    jokers = [t for t in tiles if is_joker(t)]
    size = len(tiles)
    n = _run_number(naturals, size) if naturals else None
    if n is None:
        return sorted(naturals, key=lambda t: (-t.high, -t.low)) + sorted(jokers)
    at = {t.other(n): t for t in naturals}
    lo = min(at)
    lo = max(0, min(lo, max(at) - size + 1))
    out: list[Tile] = []
    spare = list(jokers)
    for pos in range(lo, lo + size):
        out.append(at[pos] if pos in at else spare.pop())
    return out


# ----- openings ----------------------------------------------------------------------


def valid_triples(hand: Iterable[Tile], distinct_sums: bool = False) -> list[tuple[Tile, Tile, Tile]]:
    """Every distinct valid group of exactly three tiles from ``hand`` (a multiset)."""
    counts = Counter(hand)
    kinds = sorted(counts)
    out: list[tuple[Tile, Tile, Tile]] = []
    for i, a in enumerate(kinds):
        for j in range(i, len(kinds)):
            b = kinds[j]
            if j == i and counts[a] < 2:
                continue
            for k in range(j, len(kinds)):
                c = kinds[k]
                need = Counter((a, b, c))
                if any(counts[t] < m for t, m in need.items()):
                    continue
                if group_error((a, b, c), distinct_sums) is None:
                    out.append((a, b, c))
    return out


def best_opening(hand: Iterable[Tile], distinct_sums: bool = False) -> tuple[Tile, Tile, Tile] | None:
    """The valid three-tile group from ``hand`` with the most pips (``None``: no opening)."""
    best: tuple[Tile, Tile, Tile] | None = None
    for triple in valid_triples(hand, distinct_sums):
        if best is None or sum(t.pips for t in triple) > sum(t.pips for t in best):
            best = triple
    return best


# ----- the arrangement solver ----------------------------------------------------------

# The 28 kinds ordered by pip total: each run line is then met position by position.
KINDS: list[Tile] = sorted(
    (Tile(h, lo) for h in range(7) for lo in range(h + 1)), key=lambda t: (t.pips, -t.high)
)
_INDEX = {t: i for i, t in enumerate(KINDS)}
_FIRST_OF_SUM = {min(i for i, t in enumerate(KINDS) if t.pips == s) for s in range(13)}
_LAST_OF_SUM = {max(i for i, t in enumerate(KINDS) if t.pips == s) for s in range(13)}
# Run line steps of each kind: (line, is first position, is last position).
_STEPS: list[tuple[tuple[int, int, bool, bool], ...]] = []
for _t in KINDS:
    if _t.high == _t.low:
        _STEPS.append(((_t.high, _t.low, _t.low == 0, _t.low == 6),))
    else:
        _STEPS.append(
            ((_t.high, _t.low, _t.low == 0, _t.low == 6), (_t.low, _t.high, _t.high == 0, _t.high == 6))
        )

_RUN_BITS = 24
_SUM_OFF = 168
_U_OFF = 176
_ROOM = 1 << 179
_CLOSED = 1 << 180
# The search runs in two worlds at once. Strict: some sum group will exist, so a spare
# joker can always join it, and runs need no dangling jokers (see _strict_options).
# Otherwise: no sum group at all (every pip total closed), jokers anywhere.
_STRICT = 1 << 181
_MASK9 = (1 << 24) - 1


@dataclass(frozen=True)
class Solution:
    """A solver answer: the new table (groups in reading order) and the hand tiles it uses."""

    table: list[list[Tile]]
    played: list[Tile]
    exact: bool = True

    @property
    def score(self) -> tuple[int, int]:
        """(tiles played, pips played): what the solver maximises, in that order."""
        return (len(self.played), sum(t.pips for t in self.played))


_RUN_CACHE: dict[tuple[int, int, bool, int, int, int, bool], list[tuple[int, int, int, int]]] = {}


def _run_options(
    state: int, c: int, last: bool, rem: int, av1: int, av2: int, closed: bool
) -> list[tuple[int, int, int, int]]:
    """Ways to cover one position of a run line: (new state, jokers used, runs kept, runs begun).

    ``state`` counts the runs open at the previous position (3 bits each): begun in a
    closed block with length 1, 2, 3+ (``j1 j2 j3``), begun in an open block with length
    1 or 2 (``u1 u2``), and begun in an open block but already through a closed one
    (``v2``). A *closed* block is a pip total with no sum group; with plain sums every
    run may be assumed to begin in a closed block, or to be exactly three long and pass
    through one (otherwise its tiles could join their sum groups instead). Runs shorter
    than three must go on; runs of 3+ may stop or go on; new runs may begin. Every run
    covering the position takes one of the ``c`` natural tiles or a joker. ``av1`` and
    ``av2`` are the tiles available at the next two positions (-1: past the end): runs
    that could not be finished are cut at once, and equivalent states merge.
    """
    key = (state, c, last, rem, av1, av2, closed)
    got = _RUN_CACHE.get(key)
    if got is not None:
        return got
    j1, j2, j3 = state & 7, (state >> 3) & 7, (state >> 6) & 7
    u1, u2, v2 = (state >> 9) & 7, (state >> 12) & 7, (state >> 15) & 7
    out: list[tuple[int, int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    must = j1 + j2 + u1 + u2 + v2
    if (u2 and not closed) or (last and (j1 or u1)):
        _RUN_CACHE[key] = out
        return out
    for k in range(j3 + 1):
        s_max = c + rem - must - k
        for s in range(max(0, s_max) + 1):
            if last and s:
                break
            z = must + k + s - c
            if z < 0 or z > rem:
                continue
            if last:
                new = 0
            else:
                left = rem - z
                go_on = s + j1 + u1  # runs that need the next position
                if go_on > av1 + left or (s and s > av2 + left):
                    continue
                kept = min(j2 + k, max(0, av1 + left - go_on))
                if closed:
                    new = s | (j1 << 3) | (kept << 6) | (u1 << 15)
                else:
                    new = (j1 << 3) | (kept << 6) | (s << 9) | (u1 << 12)
            if (new, z) in seen:
                continue
            seen.add((new, z))
            out.append((new, z, k, s))
    _RUN_CACHE[key] = out
    return out


def _pool_options(
    field: int, distinct: bool, t: int, h: int, gain1: int, closed: bool
) -> list[tuple[int, int, int, int]]:
    """How one kind's tiles may split between runs and its sum line: (to runs, played now, gain, new field).

    Plain sums: runs take table tiles first (never worse: the sum line then holds a hand
    tile, played only if the line becomes a group); the sum line's field counts its table
    tiles (capped at 3) and its hand tiles. Distinct sums: the field counts the line's
    tiles and whether one of them is doubled; every played tile is chosen here.
    """
    out = []
    if not distinct:
        forced, optional = field & 3, field >> 2
        for r in range(t if closed else 0, t + h + 1):
            from_hand = max(0, r - t)
            f = min(3, forced + max(0, t - r))
            o = optional + h - from_hand
            out.append((r, from_hand, from_hand * gain1, f | (o << 2)))
        return out
    w, dup = field & 15, field >> 4
    for p in range(h + 1):
        n = t + p
        for xs in range(n + 1):
            nf = (w + xs) | ((1 if (dup or xs == 2) else 0) << 4)
            out.append((n - xs, p, p * gain1, nf))
    return out


_STRICT_CACHE: dict[tuple[int, int, bool, int, int, int, bool], list[tuple[int, int, int, int]]] = {}


def _strict_options(
    state: int, c: int, last: bool, rem: int, av1: int, av2: int, closed: bool
) -> list[tuple[int, int, int, int]]:
    """Like :func:`_run_options`, for arrangements that hold a sum group somewhere.

    Then any run whose natural tiles all have open pip totals could be dissolved into
    sum groups (its jokers too), and a tile at either end of a run of four or more
    could leave it the same way unless it is a natural of a closed total. So runs may
    be assumed to hold a natural of a closed total, and either to begin on one (then
    any length, but ending on a natural) or to be exactly three long. Fields (3 bits
    each): ``j1 j2 j3`` runs begun on a closed natural, ``jp`` such runs of 3+ whose
    last tile is a joker (they must go on), ``e1`` runs of exactly three at length 1,
    ``e2u`` at length 2 still needing a closed natural (they take one here), ``e2v`` at
    length 2 with one. Returns (new state, jokers used, runs of 3+ kept, runs begun).
    """
    key = (state, c, last, rem, av1, av2, closed)
    got = _STRICT_CACHE.get(key)
    if got is not None:
        return got
    j1, j2, j3, jp = state & 7, (state >> 3) & 7, (state >> 6) & 7, (state >> 9) & 7
    e1, e2u, e2v = (state >> 12) & 7, (state >> 15) & 7, (state >> 18) & 7
    out: list[tuple[int, int, int, int]] = []
    seen: set[tuple[int, int]] = set()
    free = j1 + j2 + e2v  # runs that may take a natural or a joker here
    if (e2u and not closed) or (last and (j1 or e1)):
        _STRICT_CACHE[key] = out
        return out
    for k in range(j3 + 1):
        longs = k + jp
        for a3 in range(1) if last else range(longs + 1):
            for b in range(e1 + 1):
                for zf in range(free + 1):
                    s_n = c - (free - zf) - (longs - a3) - (e1 - b) - e2u
                    if s_n < 0:
                        continue
                    for s_j in range(rem - a3 - b - zf + 1):
                        z = s_j + a3 + b + zf
                        if last:
                            if s_n or s_j:
                                break
                            new = 0
                        else:
                            left = rem - z
                            if closed:
                                n_j1, n_e1, n_e2u, n_e2v = s_n, s_j, b, e1 - b
                            else:
                                n_j1, n_e1, n_e2u, n_e2v = 0, s_n + s_j, e1, 0
                            starts = n_j1 + n_e1
                            go_on = starts + j1 + n_e2u + n_e2v + a3
                            if go_on > av1 + left or (starts and starts > av2 + left):
                                continue
                            # runs still owed a closed natural need natural tiles ahead
                            if n_e2u > av1 or n_e1 > av1 + max(av2, 0):
                                continue
                            kept = min(j2 + longs - a3, max(0, av1 + left - go_on))
                            if max(n_j1, n_e1, kept, a3) > 7:
                                continue
                            new = (
                                n_j1 | (j1 << 3) | (kept << 6) | (a3 << 9)
                                | (n_e1 << 12) | (n_e2u << 15) | (n_e2v << 18)
                            )
                        if (new, z) in seen:
                            continue
                        seen.add((new, z))
                        out.append((new, z, longs, s_n + s_j))
    _STRICT_CACHE[key] = out
    return out


def _sum_close_options(
    field: int, distinct: bool, total: int, rem: int, closed: bool
) -> list[tuple[int, bool, int, int]]:
    """Ways to finish a sum line: (jokers it takes, whether a group with room is left, hand tiles played, gain)."""
    if not distinct:
        forced, optional = field & 3, field >> 2
        size = forced + optional
        if closed:
            return [(0, False, 0, 0)] if forced == 0 else []
        need = max(0, 3 - size)
        if size == 0 or need > rem:
            return []
        return [(need, True, optional, optional * (_COUNT + total))]
    w, dup = field & 15, field >> 4
    kinds = KINDS_WITH_SUM[total]
    res = []
    for j in range(rem + 1):
        size = w + j
        if size == 0:
            res.append((0, False, 0, 0))
            continue
        low = max(2 if dup else 1, -(-size // kinds))
        if low * 3 <= size:
            res.append((j, False, 0, 0))
    return res


def _block_flags(total: int, table: Counter[Tile], hand: Counter[Tile], distinct: bool) -> tuple[bool, ...]:
    """Whether a pip total's block may be open (hold a sum group) or closed: the choices to try."""
    if distinct:
        return (True,)  # sum groups are bounded, so no run can be assumed away
    for k in KINDS:
        if k.pips == total and not is_joker(k) and table[k] + hand[k]:
            return (False, True)
    return (True,)


def _ahead(avail: list[list[int]], line: int, pos: int) -> tuple[int, int]:
    """Tiles available at the next two positions of a run line (-1 past the end)."""
    row = avail[line]
    return (row[pos + 1] if pos < 6 else -1, row[pos + 2] if pos < 5 else -1)


_NO_B = ((-1, 0, 0, 0),)
_NO_CLOSE = ((-1, False, 0, 0),)


class SearchBudgetExceeded(Exception):
    """The exact search met its state budget before finishing."""


_U_ROOM = (7 << _U_OFF) | _ROOM


def _pareto(layer: dict[int, int]) -> dict[int, int]:
    """Drop beaten states: same runs and sum line, a sum group with room, no more jokers used, no less value.

    With a sum group on the table spare jokers can always join it, so using fewer
    jokers so far is never worse.
    """
    groups: dict[int, list[tuple[int, int, int]]] = {}
    for st, val in layer.items():
        groups.setdefault(st & ~_U_ROOM, []).append(((st >> _U_OFF) & 7, st, val))
    out: dict[int, int] = {}
    for entries in groups.values():
        if len(entries) == 1:
            _, st, val = entries[0]
            out[st] = val
            continue
        entries.sort(key=lambda e: (e[0], not e[1] & _ROOM, -e[2]))
        best = -1
        for _, st, val in entries:
            if val <= best:
                continue
            out[st] = val
            if st & _ROOM:
                best = val
    return out


def _solve(
    table: Counter[Tile], hand: Counter[Tile], distinct: bool, floor: int = -1, budget: int | None = None
) -> tuple[int, list[tuple[int, tuple[int, ...]]], int, int] | None:
    """Run the programme; returns (best value, choices per kind, jokers placed, hand jokers played)."""
    jt = table[JOKER_KINDS[0]] + table[JOKER_KINDS[1]]
    jh6, jh0 = hand[JOKER_KINDS[1]], hand[JOKER_KINDS[0]]
    jmax = jt + jh6 + jh0
    avail = [[0 if is_joker(Tile(n, a)) else table[Tile(n, a)] + hand[Tile(n, a)] for a in range(7)] for n in range(7)]
    # rest[i]: the most the hand tiles of kinds i.. and the hand jokers can still add.
    rest = [0] * (len(KINDS) + 1)
    rest[-1] = jh6 * (_COUNT + 12) + jh0 * _COUNT
    for i in range(len(KINDS) - 1, -1, -1):
        k = KINDS[i]
        rest[i] = rest[i + 1] + (0 if is_joker(k) else hand[k] * (_COUNT + k.pips))
    spent = 0
    limit = budget if budget is not None else 1 << 62
    layer: dict[int, int] = {0: 0} if distinct else {0: 0, _STRICT: 0}
    backs: list[dict[int, tuple[int, tuple[int, ...]]]] = []
    sum_mask = ~(255 << _SUM_OFF)
    u_mask = ~(7 << _U_OFF)
    for i, kind in enumerate(KINDS):
        joker_kind = is_joker(kind)
        t = 0 if joker_kind else table[kind]
        hc = 0 if joker_kind else hand[kind]
        gain1 = _COUNT + kind.pips
        steps = _STEPS[i]
        closing = i in _LAST_OF_SUM
        total = kind.pips
        new: dict[int, int] = {}
        back: dict[int, tuple[int, tuple[int, ...]]] = {}
        two = len(steps) == 2
        (la, pa, _, ea) = steps[0]
        offa = la * _RUN_BITS
        mask_a = ~(_MASK9 << offa)
        a1, a2 = _ahead(avail, la, pa)
        lb = pb = offb = b1 = b2 = 0
        eb = False
        mask_b = -1
        if two:
            (lb, pb, _, eb) = steps[1]
            offb = lb * _RUN_BITS
            mask_b = ~(_MASK9 << offb)
            b1, b2 = _ahead(avail, lb, pb)
        pools: dict[int, list[tuple[int, int, int, int]]] = {}
        after = rest[i + 1]
        per_optional = 0 if distinct or closing else _COUNT + total
        first = i in _FIRST_OF_SUM
        back_open: dict[int, int] = {}
        if first:
            opened: dict[int, int] = {}
            flags = _block_flags(total, table, hand, distinct)
            for st, val in layer.items():
                for flag in flags if st & _STRICT else (True,):
                    st0 = (st & ~_CLOSED) | (_CLOSED if flag else 0)
                    if opened.get(st0, -1) < val:
                        opened[st0] = val
                        back_open[st0] = st
            layer = opened
        for st, val in layer.items():
            cl = bool(st & _CLOSED)
            runs = _strict_options if st & _STRICT else _run_options
            u = (st >> _U_OFF) & 7
            rem = jmax - u
            sa = (st >> offa) & _MASK9
            sb = (st >> offb) & _MASK9 if two else 0
            field = (st >> _SUM_OFF) & 255
            choices = pools.get(field | (256 if cl else 0))
            if choices is None:
                choices = pools[field | (256 if cl else 0)] = _pool_options(field, distinct, t, hc, gain1, cl)
            for r, p, gain, nf in choices:
                v0 = val + gain
                for xa in range(r + 1) if two else (r,):
                    xb = r - xa
                    for na, za, ka, sa_ in runs(sa, xa, ea, rem, a1, a2, cl):
                        st1 = (st & mask_a) | (na << offa)
                        opts_b = runs(sb, xb, eb, rem - za, b1, b2, cl) if two else _NO_B
                        for nb, zb, kb, sb_ in opts_b:
                            st2 = st1 if nb < 0 else (st1 & mask_b) | (nb << offb)
                            z = za + zb
                            closes = _sum_close_options(nf, distinct, total, rem - z, cl) if closing else _NO_CLOSE
                            for j, room, pj, gj in closes:
                                if j < 0:
                                    used = z
                                    st3 = (st2 & sum_mask) | (nf << _SUM_OFF)
                                else:
                                    used = z + j
                                    st3 = st2 & sum_mask
                                    if room:
                                        st3 |= _ROOM
                                if used:
                                    st3 = (st3 & u_mask) | ((u + used) << _U_OFF)
                                v = v0 + gj
                                if v + after + (nf >> 2) * per_optional <= floor:
                                    continue
                                old = new.get(st3)
                                if old is None or v > old:
                                    if old is None:
                                        spent += 1
                                        if spent > limit:
                                            raise SearchBudgetExceeded
                                    new[st3] = v
                                    prev = back_open[st] if first else st
                                    back[st3] = (prev, (p, pj, xa, xb, ka, sa_, kb, sb_, max(j, 0), z, r))
        if jmax and len(new) > 64:
            new = _pareto(new)
        backs.append(back)
        layer = new
        if not layer:
            return None
    best: tuple[int, int, int, int] | None = None
    for st, val in layer.items():
        u = (st >> _U_OFF) & 7
        room = bool(st & _ROOM)
        if st & _STRICT and not room:
            continue
        for q in range(jh6 + jh0, -1, -1):
            placed = jt + q
            extra = placed - u
            if extra < 0:
                break
            if extra == 0 or extra >= 3 or room:
                q6 = min(q, jh6)
                score = val + q * _COUNT + 12 * q6
                if score > floor and (best is None or score > best[0]):
                    best = (score, st, placed, q)
                break
    if best is None:
        return None
    score, st, placed, q = best
    path: list[tuple[int, tuple[int, ...]]] = []
    for back in reversed(backs):
        prev, choice = back[st]
        path.append((st, choice))
        st = prev
    path.reverse()
    return score, path, placed, q


def _build(
    table: Counter[Tile], hand: Counter[Tile], choices: list[tuple[int, tuple[int, ...]]], distinct: bool
) -> tuple[list[list[Tile | None]], list[Tile], list[list[Tile | None]]]:
    """Turn the programme's choices into groups (``None`` marks a joker) and the played naturals."""
    groups: list[list[Tile | None]] = []
    open_runs: list[list[list[list[Tile | None]]]] = [[[], [], []] for _ in range(7)]
    sum_line: list[Tile] = []
    optional: list[Tile] = []
    played: list[Tile] = []
    sum_groups: list[list[Tile | None]] = []
    for i, (_, choice) in enumerate(choices):
        kind = KINDS[i]
        p, pj, xa, xb, ka, sa, kb, sb, j, _z, r = choice
        played.extend([kind] * p)
        if is_joker(kind):
            pass
        elif distinct:
            sum_line.extend([kind] * (table[kind] + p - r))
        else:
            sum_line.extend([kind] * max(0, table[kind] - r))
            optional.extend([kind] * (hand[kind] - p))
        steps = _STEPS[i]
        for (line, _, _, last), c, k, s in zip(steps, (xa, xb), (ka, kb), (sa, sb), strict=False):
            r1, r2, r3 = open_runs[line]
            going = r1 + r2 + r3[:k]
            groups.extend(r3[k:])
            begun: list[list[Tile | None]] = [[] for _ in range(s)]
            covering = going + begun
            for idx, run in enumerate(covering):
                run.append(None if idx >= c or is_joker(kind) else kind)
            if last:
                groups.extend(covering)
                open_runs[line] = [[], [], []]
            else:
                open_runs[line] = [begun, r1, r2 + r3[:k]]
        if i in _LAST_OF_SUM:
            if pj:
                played.extend(optional)
                sum_line.extend(optional)
            if sum_line or j:
                made = _split_sum(sum_line, j, kind.pips, distinct)
                groups.extend(made)
                sum_groups.extend(made)
            sum_line = []
            optional = []
    return groups, played, sum_groups


def _split_sum(naturals: list[Tile], jokers: int, total: int, distinct: bool) -> list[list[Tile | None]]:
    """Split one sum line's tiles into valid sum groups."""
    items: list[Tile | None] = [*naturals, *([None] * jokers)]
    if not distinct:
        return [items]
    size = len(items)
    kinds = KINDS_WITH_SUM[total]
    top = max(Counter(naturals).values(), default=1)
    g = max(top, 1, -(-size // kinds))
    out: list[list[Tile | None]] = [[] for _ in range(g)]
    for idx, t in enumerate(sorted(naturals)):
        out[idx % g].append(t)
    for _ in range(jokers):
        min(out, key=len).append(None)
    return out


def best_play(
    table: Iterable[Tile],
    hand: Iterable[Tile],
    distinct_sums: bool = False,
    require: bool = True,
    groups: Sequence[Sequence[Tile]] | None = None,
    budget: int | None = None,
) -> Solution | None:
    """The new table playing the most tiles of ``hand`` (ties: most pips), or ``None``.

    ``table`` is every tile on the table (its present grouping does not matter: the whole
    table may be rearranged); it must split into valid groups (``ValueError`` otherwise).
    ``None`` means no hand tile can be played. With ``require=False`` a solution playing
    nothing (just the table rearranged) is returned instead of ``None``. ``groups``, the
    table's present valid grouping when known, only speeds the search up (a quick greedy
    play found from it lets the exact search skip every branch that cannot beat it).
    ``budget`` (with ``groups``) caps the states the exact search may visit; past it the
    greedy play is returned, marked ``exact=False``.
    """
    t = Counter(table)
    h = Counter(hand)
    key = (_key(t), _key(h), distinct_sums)
    cached = _CACHE.get(key)
    if cached is None:
        cached = _solution(t, h, distinct_sums, groups, budget)
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = cached
    if cached is False:
        raise ValueError("the table tiles do not split into valid groups")
    assert isinstance(cached, Solution)
    if require and not cached.played:
        return None
    return cached


_CACHE: dict[tuple[tuple[int, ...], tuple[int, ...], bool], Solution | bool] = {}


def _key(c: Counter[Tile]) -> tuple[int, ...]:
    return tuple(sorted(t.key for t in c.elements()))


def _gain(tiles: Iterable[Tile]) -> int:
    return sum(_COUNT + t.pips for t in tiles)


def _greedy(groups: Sequence[Sequence[Tile]], hand: Counter[Tile], distinct: bool) -> Solution:
    """A quick play (not always the best): add tiles to groups, lay new triples, repeat."""
    table = [list(g) for g in groups]
    left = sorted(hand.elements(), key=lambda x: -x.pips)
    played: list[Tile] = []
    changed = True
    while changed and left:
        changed = False
        for tile in list(left):
            for g in table:
                if group_error([*g, tile], distinct) is None:
                    g.append(tile)
                    left.remove(tile)
                    played.append(tile)
                    changed = True
                    break
        triple = best_opening(left, distinct)
        if triple is not None:
            table.append(list(triple))
            for x in triple:
                left.remove(x)
                played.append(x)
            changed = True
    out = sorted((order_group(g) for g in table), key=lambda g: [-x.key for x in g])
    return Solution(out, sorted(played, reverse=True))


def _playable(t: Counter[Tile], h: Counter[Tile]) -> Counter[Tile]:
    """The hand tiles that might be played at all (a quick necessary test per tile)."""
    jokers = sum(t[j] + h[j] for j in JOKER_KINDS)
    by_sum: Counter[int] = Counter()
    for tile, n in (t + h).items():
        if not is_joker(tile):
            by_sum[tile.pips] += n
    out: Counter[Tile] = Counter()
    for tile, n in h.items():
        if is_joker(tile) or by_sum[tile.pips] + jokers >= 3 or _run_possible(tile, t, h, jokers):
            out[tile] = n
    return out


def _run_possible(tile: Tile, t: Counter[Tile], h: Counter[Tile], jokers: int) -> bool:
    for line in {tile.high, tile.low}:
        pos = tile.other(line)
        have = [0 if is_joker(Tile(line, a)) else min(1, t[Tile(line, a)] + h[Tile(line, a)]) for a in range(7)]
        for start in range(max(0, pos - 2), min(pos, 4) + 1):
            if sum(have[start : start + 3]) + jokers >= 3:
                return True
    return False


def _solution(
    t: Counter[Tile],
    h: Counter[Tile],
    distinct: bool,
    groups: Sequence[Sequence[Tile]] | None,
    budget: int | None = None,
) -> Solution | bool:
    h = _playable(t, h)
    incumbent: Solution | None = None
    if groups is not None:
        incumbent = _greedy(groups, h, distinct)
        if len(incumbent.played) == sum(h.values()):
            return incumbent
    floor = _gain(incumbent.played) if incumbent is not None else -1
    try:
        got = _solve(t, h, distinct, floor, budget if incumbent is not None else None)
    except SearchBudgetExceeded:
        assert incumbent is not None
        return Solution(incumbent.table, incumbent.played, exact=False)
    if got is None:
        return incumbent if incumbent is not None else False
    _, choices, placed, q = got
    groups_, played, sums = _build(t, h, choices, distinct)
    jokers = [JOKER_KINDS[1]] * min(q, h[JOKER_KINDS[1]])
    jokers += [JOKER_KINDS[0]] * (q - len(jokers))
    played += jokers
    pool = [JOKER_KINDS[0]] * t[JOKER_KINDS[0]] + [JOKER_KINDS[1]] * t[JOKER_KINDS[1]] + jokers
    used = sum(1 for g in groups_ for x in g if x is None)
    extra = placed - used
    if extra:
        if extra >= 3 or not sums or distinct:
            groups_.append([None] * extra)
        else:
            sums[0].extend([None] * extra)
    out: list[list[Tile]] = []
    for g in groups_:
        real = [pool.pop() if x is None else x for x in g]
        out.append(order_group(real))
    out.sort(key=lambda g: [-x.key for x in g])
    return Solution(out, sorted(played, reverse=True))


def arrange(tiles: Iterable[Tile], distinct_sums: bool = False) -> list[list[Tile]] | None:
    """Split ``tiles`` into valid groups (every tile used), or ``None`` when they cannot be."""
    try:
        sol = best_play(tiles, (), distinct_sums, require=False)
    except ValueError:
        return None
    return sol.table if sol is not None else None


def max_playable(table: Iterable[Tile], hand: Iterable[Tile], distinct_sums: bool = False) -> tuple[int, int]:
    """(tiles, pips) of the best play; (0, 0) when nothing can be played."""
    sol = best_play(table, hand, distinct_sums)
    return sol.score if sol is not None else (0, 0)


# ----- the reference model -------------------------------------------------------------


def milp_score(table: Iterable[Tile], hand: Iterable[Tile], distinct_sums: bool = False) -> tuple[int, int] | None:
    """(tiles, pips) of the best play by an integer programme solved with SciPy's HiGHS.

    An independent model of the same question, for cross-checking :func:`best_play`
    (SciPy is needed only here and imported on first use). Variables: how often each
    run (a line and a stretch of three to seven positions) is laid, how many natural
    tiles fill each of its positions (jokers fill the rest), how many tiles of each
    kind go to their sum line, jokers and group counts per sum line, and the tiles
    played. ``None`` when the table itself cannot be arranged.
    """
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    t, h = Counter(table), Counter(hand)
    cols: list[tuple[float, float, float]] = []  # (lower, upper, objective)

    def var(lo: float, hi: float, obj: float = 0.0) -> int:
        cols.append((lo, hi, obj))
        return len(cols) - 1

    rows: list[tuple[dict[int, float], float, float]] = []
    naturals = [k for k in KINDS if not is_joker(k)]
    play = {k: var(0, h[k], -(_COUNT + k.pips)) for k in naturals}
    q6 = var(0, h[JOKER_KINDS[1]], -(_COUNT + 12))
    q0 = var(0, h[JOKER_KINDS[0]], -_COUNT)
    uses: dict[Tile, dict[int, float]] = {k: {} for k in naturals}
    joker_terms: dict[int, float] = {}
    for line in range(7):
        for a in range(7):
            for b in range(a + 2, 7):
                y = var(0, 4)
                joker_terms[y] = joker_terms.get(y, 0) + (b - a + 1)
                for pos in range(a, b + 1):
                    kind = Tile(line, pos)
                    if is_joker(kind):
                        continue
                    x = var(0, 2)
                    rows.append(({x: 1, y: -1}, -np.inf, 0))  # at most one natural per copy
                    uses[kind][x] = 1
                    joker_terms[x] = joker_terms.get(x, 0) - 1
    for s in range(13):
        kinds = [k for k in naturals if k.pips == s]
        js = var(0, 4)
        joker_terms[js] = 1
        g = var(0, 1 if not distinct_sums else 4)
        size: dict[int, float] = {js: 1}
        for k in kinds:
            v = var(0, 2)
            uses[k][v] = 1
            size[v] = 1
            if distinct_sums:
                rows.append(({v: 1, g: -1}, -np.inf, 0))
        cap = 12 if not distinct_sums else KINDS_WITH_SUM[s]
        rows.append(({**size, g: -3}, 0, np.inf))
        rows.append(({**size, g: -cap}, -np.inf, 0))
    for k in naturals:
        rows.append(({**uses[k], play[k]: -1}, t[k], t[k]))
    jt = t[JOKER_KINDS[0]] + t[JOKER_KINDS[1]]
    rows.append(({**joker_terms, q6: -1, q0: -1}, jt, jt))
    matrix = np.zeros((len(rows), len(cols)))
    lo = np.empty(len(rows))
    hi = np.empty(len(rows))
    for r, (coef, low, high) in enumerate(rows):
        for c, val in coef.items():
            matrix[r, c] = val
        lo[r], hi[r] = low, high
    lower = np.array([c[0] for c in cols])
    upper = np.array([c[1] for c in cols])
    objective = np.array([c[2] for c in cols])
    res = milp(
        objective,
        constraints=LinearConstraint(matrix, lo, hi),
        integrality=np.ones(len(cols)),
        bounds=Bounds(lower, upper),
    )
    if res.status != 0:
        return None
    value = round(-res.fun)
    return (value // _COUNT, value % _COUNT)


def random_position(
    rng: random.Random, table_size: int, hand_size: int, distinct_sums: bool = False
) -> tuple[list[list[Tile]], list[Tile]]:
    """A random reachable position (for tests, benchmarks and puzzles): table groups and a hand.

    The table is built from random runs and sum groups of the two double-six sets
    (jokers standing in where a tile has run out) until it holds about ``table_size``
    tiles; the hand is ``hand_size`` of the remaining tiles.
    """
    pool = Counter(double_six(2))
    groups: list[list[Tile]] = []
    size = 0
    for _ in range(400):
        if size >= table_size:
            break
        if rng.random() < 0.5:
            line, length = rng.randrange(7), rng.randint(3, 5)
            start = rng.randint(0, 7 - length)
            want = [Tile(line, p) for p in range(start, start + length)]
        else:
            total = rng.randint(2, 10)
            kinds = [k for k in KINDS if k.pips == total and not is_joker(k)]
            want = [rng.choice(kinds) for _ in range(rng.randint(3, 4))]
        if size + len(want) > table_size + 2:
            continue
        got: list[Tile] = []
        for k in want:
            if pool[k] > 0 and not is_joker(k):
                pool[k] -= 1
                got.append(k)
                continue
            joker = next((j for j in JOKER_KINDS if pool[j] > 0), None)
            if joker is None:
                break
            pool[joker] -= 1
            got.append(joker)
        if len(got) == len(want) and group_error(got, distinct_sums) is None:
            groups.append(order_group(got))
            size += len(got)
        else:
            pool.update(got)
    rest = list(pool.elements())
    rng.shuffle(rest)
    return groups, sorted(rest[:hand_size], reverse=True)
