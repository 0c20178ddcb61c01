"""Domino Rummikub groups and the exact arrangement solver.

A *group* is three or more tiles forming a run (one number shared, the other ends
consecutive) or a sum group (one pip total). The four jokers (both ``0-0`` and both
``6-6``) stand for any tile. :func:`group_error` says why a group is invalid;
:func:`best_play` finds, for a table and a hand, a new table that plays the most hand
tiles (ties: the most pips); :func:`arrange` says whether tiles split into groups;
:func:`best_opening` and :func:`valid_triples` cover the opening.

How the solver works. The search runs compiled (``_rummikub_dp.c``, built at install
time; see that file for its model); the pure-Python sweep below is the fallback where no
C compiler was available, and gives the same optimum. The compiled search first looks
depth-first for an arrangement playing every hand tile that could go anywhere (nearly
always the answer, found in well under a millisecond), and only when there is none runs
the full sweep with the greedy play's value as a floor. The pure-Python sweep:

A natural tile ``a-b`` can sit in a run on *row* ``a`` (at
position ``b``), in a run on row ``b`` (at position ``a``), or in a sum group of total
``a+b``. Walking the pip totals 0..12 visits every row position by position (row ``r``
is at position ``s-r`` at total ``s``) and every sum line in one go. A dynamic
programme over that walk decides, kind by kind, how many hand tiles to play and how
the copies split between the two rows and the sum line. Its state holds, per row, the
*set* of run structures the row may be in with the jokers each costs beyond the row's
cheapest (rows never interact once the tiles are split, so the row's own choices are
folded into one deterministic state), the jokers used, a lower bound on the jokers the
open runs still need, and whether spare jokers have room.

It only looks at canonical arrangements, which lose nothing:

- a joker sits inside a run (between two naturals) or completes a group to exactly
  three; any other joker can be taken out and the group stays valid. Such spare jokers
  are placed at the end: three or more form their own group, one or two join a group
  with room (any run: runs of six or seven split into two; a plain sum group; a
  distinct sum group below its size limit). Hand jokers are played when they fit.
- with plain sums, a pip total either has no sum group (*closed*: its tiles go to runs)
  or has one, and then every hand tile of that total is played. A run holds a natural
  of a closed total, a run of four or more begins and ends on one, and a run begun on
  an open total is three long (otherwise its open-total tiles could join their sum
  groups and the run shrink or vanish).

States are pruned by the jokers (used plus still needed, at most the jokers there
are), by an upper bound on the value still to come against the best play known, and
by Pareto dominance on jokers used. The winning path is rebuilt into groups; each
row's runs come from a small per-row search over the same moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from types import ModuleType

from ...tiles import Tile, double_six

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
    valid = _valid_kind_triples(distinct_sums)
    out: list[tuple[Tile, Tile, Tile]] = []
    for i, a in enumerate(kinds):
        for j in range(i, len(kinds)):
            b = kinds[j]
            if j == i and counts[a] < 2:
                continue
            for k in range(j, len(kinds)):
                c = kinds[k]
                if k == j and counts[b] < (3 if j == i else 2):
                    continue
                if (a, b, c) in valid:
                    out.append((a, b, c))
    return out


@lru_cache(maxsize=2)
def _valid_kind_triples(distinct_sums: bool) -> frozenset[tuple[Tile, Tile, Tile]]:
    """Every valid group of three tiles, as kinds in sorted order (computed once)."""
    kinds = sorted(KINDS)
    return frozenset(
        (a, b, c)
        for i, a in enumerate(kinds)
        for j, b in enumerate(kinds[i:], i)
        for c in kinds[j:]
        if _group_error((a, b, c), distinct_sums) is None
    )


def best_opening(hand: Iterable[Tile], distinct_sums: bool = False) -> tuple[Tile, Tile, Tile] | None:
    """The valid three-tile group from ``hand`` with the most pips (``None``: no opening)."""
    best: tuple[Tile, Tile, Tile] | None = None
    for triple in valid_triples(hand, distinct_sums):
        if best is None or sum(t.pips for t in triple) > sum(t.pips for t in best):
            best = triple
    return best


# ----- the arrangement solver ----------------------------------------------------------

# The 28 kinds ordered by pip total (the sweep's order).
KINDS: list[Tile] = sorted(
    (Tile(h, lo) for h in range(7) for lo in range(h + 1)), key=lambda t: (t.pips, -t.high)
)
_BY_SUM: list[list[Tile]] = [[k for k in KINDS if k.pips == s] for s in range(13)]


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


class SearchBudgetExceeded(Exception):
    """The exact search met its state budget before finishing."""


# Run types of the row automaton. A run is named by its naturals: it has begun on a
# natural, and (span so far, jokers pending after its last natural). L4 is "four or
# more without pending jokers"; the G types have pending jokers and need a natural next.
L1, L2, L3, L4, G11, G12, G13, G21, G22, G31 = range(10)
_ON_NATURAL = {L1: L2, L2: L3, L3: L4, L4: L4, G11: L3, G12: L4, G13: L4, G21: L4, G22: L4, G31: L4}
_ON_JOKER = {L1: G11, L2: G21, L3: G31, G11: G12, G12: G13, G21: G22}
_STOP_COST = {L1: 2, L2: 1, L3: 0, L4: 0}
_NATURAL, _JOKER, _STOP = 0, 1, 2

_ROW_OF: dict[tuple[int, ...], int] = {(): 0}
_ROWS: list[tuple[int, ...]] = [()]
# (row id, naturals, last column) -> [(new row id, jokers, runs begun, per-run moves)]
_ROW_MOVES: dict[int, list[tuple[int, int, int, tuple[int, ...]]]] = {}


def _row_id(runs: tuple[int, ...]) -> int:
    rid = _ROW_OF.get(runs)
    if rid is None:
        rid = _ROW_OF[runs] = len(_ROWS)
        _ROWS.append(runs)
    return rid


# Run flags (plain sums): the run holds a natural of a closed total (no sum group
# there), its last natural is of a closed total, it began on an open total.
_HC, _LC, _SO = 1, 2, 4
_WIDE = {G12, G13, G21, G22, G31, L4}


def _step(run: int, move: int, closed: bool) -> int:
    """A run (type * 8 + flags) after a move at a position; -1 when the move breaks a rule."""
    rtype, flags = run >> 3, run & 7
    if move == _NATURAL:
        new = _ON_NATURAL[rtype]
        if flags & _SO and new == L4:
            return -1
        flags = (flags | _HC | _LC) if closed else (flags & ~_LC)
        return new * 8 + flags
    new = _ON_JOKER[rtype]
    if flags & _SO and new in _WIDE:
        return -1
    return new * 8 + flags


def _can_stop(run: int) -> bool:
    """Whether a run may end here (completed to three by jokers if shorter)."""
    rtype, flags = run >> 3, run & 7
    return rtype in _STOP_COST and bool(flags & _HC) and (rtype != L4 or bool(flags & _LC))


def _row_moves(key: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Ways one row takes ``c`` natural tiles at its next position (``key`` = id*16 + c*4 + closed*2 + last).

    Each open run takes a natural, takes a joker (a joker then needs a natural after
    it: jokers sit only inside runs) or stops (a run of one or two naturals is completed
    to three by jokers); the naturals left over begin new runs. At the row's last
    position every run stops. With plain sums a run must hold a natural of a closed
    pip total, a run of four or more must begin and end on one, and a run begun on an
    open total is three long (otherwise its open-total tiles could join their sum
    groups). Returns the distinct (new row, jokers used, runs begun, moves), the moves
    aligned with the row's sorted runs.
    """
    rid, c, closed, last = key >> 4, (key >> 2) & 3, bool(key & 2), key & 1
    runs = _ROWS[rid]
    choices: list[list[int]] = []
    for r in runs:
        rtype = r >> 3
        opts = [_NATURAL] if _step(r, _NATURAL, closed) >= 0 else []
        if not last and rtype in _ON_JOKER and _step(r, _JOKER, closed) >= 0:
            opts.append(_JOKER)
        if _can_stop(r):
            opts.append(_STOP)
        choices.append(opts)
    out: list[tuple[int, int, int, tuple[int, ...]]] = []
    seen: set[tuple[int, int]] = set()
    fresh = L1 * 8 + ((_HC | _LC) if closed else _SO)
    for moves in product(*choices):
        took = moves.count(_NATURAL)
        if took > c:
            continue
        cost = 0
        new: list[int] = []
        for r, m in zip(runs, moves, strict=True):
            if m == _STOP:
                cost += _STOP_COST[r >> 3]
            else:
                new.append(_step(r, m, closed))
                cost += m == _JOKER
        begun = c - took
        new.extend([fresh] * begun)
        if last:
            if not all(_can_stop(r) for r in new):
                continue
            cost += sum(_STOP_COST[r >> 3] for r in new)
            new = []
        nid = _row_id(tuple(sorted(new)))
        if (nid, cost) in seen:
            continue
        seen.add((nid, cost))
        out.append((nid, cost, begun, tuple(moves)))
    _ROW_MOVES[key] = out
    return out


# A row's search state: for each run structure the row may be in, the jokers it used
# beyond the row's cheapest structure (the cheapest cost itself is charged to the whole
# state at once). Rows never interact once the tiles are split, so this is exact.
_VEC_OF: dict[tuple[tuple[int, int], ...], int] = {((0, 0),): 0}
_VECS: list[tuple[tuple[int, int], ...]] = [((0, 0),)]


def _run_need(rtype: int, a1: int, a2: int, a3: int) -> int:
    """The fewest jokers one open run still needs, given the naturals that exist at the next three positions."""
    if rtype in (L3, L4):
        return 0
    if rtype == L2:
        return 0 if a1 else 1
    if rtype == L1:
        return 0 if a1 and a2 else (1 if a1 or a2 else 2)
    if a1:
        return 0
    if rtype in (G11, G12, G21) and a2:
        return 1
    if rtype == G11 and a3:
        return 2
    return 99


def _row_need(runs: tuple[int, ...], a1: int, a2: int, a3: int) -> int:
    """A lower bound on the jokers a row's open runs still need (runs compete for the next position's tiles)."""
    total = 0
    eager = 0
    for r in runs:
        need = _run_need(r >> 3, a1, a2, a3)
        total += need
        if need == 0 and r >> 3 not in (L3, L4):
            eager += 1
    return total + max(0, eager - a1)


_MOVES: dict[int, tuple[int, int, int]] = {}
_NEEDS: dict[int, int] = {}


def _move(key: int) -> tuple[int, int, int]:
    """A row state taking naturals at its next position: (new state or -1, jokers now, jokers still needed).

    ``key`` packs (row state, naturals here, the naturals that exist at the next three
    positions, whether this is the row's last position, the jokers the row may still
    use, whether this pip total is closed). Only run structures that can still be
    finished within that many jokers are kept; the last figure is the fewest jokers the
    kept structures still need (a lower bound used to prune whole states).
    """
    closed, cap, rest = key & 1, (key >> 1) & 7, key >> 4
    pos, rest = rest % 54, rest // 54
    c, vid = rest % 3, rest // 3
    last, ahead = pos & 1, pos >> 1
    a1, a2, a3 = ahead // 9, (ahead // 3) % 3, ahead % 3
    best: dict[int, int] = {}
    needs: dict[int, int] = {}
    for rid, cost in _VECS[vid]:
        mkey = (rid << 4) | (c << 2) | (closed << 1) | last
        for nid, jc, _, _ in _ROW_MOVES.get(mkey) or _row_moves(mkey):
            v = cost + jc
            if v > cap or best.get(nid, 99) <= v:
                continue
            nkey = nid * 27 + ahead
            need = _NEEDS.get(nkey)
            if need is None:
                need = _NEEDS[nkey] = _row_need(_ROWS[nid], a1, a2, a3)
            if v + need <= cap:
                best[nid] = v
                needs[nid] = need
    if not best:
        got = (-1, 0, 0)
    else:
        low = min(best.values())
        vec = tuple(sorted((nid, v - low) for nid, v in best.items()))
        vid2 = _VEC_OF.get(vec)
        if vid2 is None:
            vid2 = _VEC_OF[vec] = len(_VECS)
            _VECS.append(vec)
        got = (vid2, low, min(v + needs[nid] for nid, v in best.items()) - low)
    _MOVES[key] = got
    return got


def _reset_memo() -> None:
    """Forget every row state but the empty one (ids are only meaningful within one search)."""
    _MOVES.clear()
    _VEC_OF.clear()
    _VEC_OF[((0, 0),)] = 0
    del _VECS[1:]


def _position_code(avail: list[list[int]], row: int, col: int) -> int:
    """The part of a move's key that says what lies ahead of ``col`` on ``row``."""
    a1, a2, a3 = (avail[row][col + d] if col + d <= 6 else 0 for d in (1, 2, 3))
    return (a1 * 9 + a2 * 3 + a3) * 2 + int(col == 6)


# Bit layout of a search state: 7 rows x 20 bits of row state, then the jokers used,
# the room for spare jokers (0-2), and the sum line being filled (open, size, doubled).
_ROW_BITS = 20
_ROW_MASK = (1 << _ROW_BITS) - 1
_U_OFF = 140
_ROOM_OFF = 143
_OPEN = 1 << 145
_N_OFF = 146
_DUP = 1 << 150
_L_OFF = 151
# the shared memo of row states is emptied between searches once it grows this big
_MEMO_LIMIT = 200_000
_L_FIELD = 7 << _L_OFF
_U_FIELD = 7 << _U_OFF
_ROOM_FIELD = 3 << _ROOM_OFF
_ROOM2 = 2 << _ROOM_OFF
_N_FIELD = 15 << _N_OFF
_SUM_FIELD = _OPEN | _N_FIELD | _DUP


def _distinct_sum_options(total: int, n: int, doubled: bool) -> list[tuple[int, int, int]]:
    """Distinct sums: ways to split ``n`` naturals of one total into groups: (groups, jokers, room)."""
    if n == 0:
        return [(0, 0, 0)]
    kinds = KINDS_WITH_SUM[total]
    if kinds < 3:
        return []
    out: list[tuple[int, int, int]] = []
    for g in range(2 if doubled else 1, n + 1):
        if n > g * kinds:
            continue
        j = max(0, 3 * g - n)
        room = min(2, g * kinds - n - j)
        if not any(j2 <= j and r2 >= room for _, j2, r2 in out):
            out.append((g, j, room))
    return out


def _solve(
    table: Counter[Tile], hand: Counter[Tile], distinct: bool, floor: int = -1, budget: int | None = None
) -> tuple[int, list[tuple[int, tuple[int, ...]]], int, int] | None:
    """Run the sweep; returns (best value, the path of (state, move) per stage, spare jokers, hand jokers played).

    ``None`` when no arrangement scores above ``floor`` (or none exists at all).
    """
    if len(_VECS) > _MEMO_LIMIT:
        _reset_memo()
    jt = table[JOKER_KINDS[0]] + table[JOKER_KINDS[1]]
    jh6, jh0 = hand[JOKER_KINDS[1]], hand[JOKER_KINDS[0]]
    jmax = jt + jh6 + jh0
    joker_gain = jh6 * (_COUNT + 12) + jh0 * _COUNT
    order = [k for s in range(13) for k in _BY_SUM[s]]
    rest: dict[Tile, int] = {}
    acc = joker_gain
    for k in reversed(order):
        rest[k] = acc
        if not is_joker(k):
            acc += hand[k] * (_COUNT + k.pips)
    limit = budget if budget is not None else 1 << 62
    spent = 0
    layer: dict[int, int] = {0: 0}
    path_backs: list[dict[int, tuple[int, tuple[int, ...]]]] = []
    avail = [[0 if is_joker(Tile(r, c)) else table[Tile(r, c)] + hand[Tile(r, c)] for c in range(7)] for r in range(7)]
    moves_get = _MOVES.get
    needs: dict[int, int] = {}  # (row state << 6 | row*7 + col) -> jokers it still needs
    keep = ~(_U_FIELD | _N_FIELD | _L_FIELD)
    for s in range(13):
        kinds = _BY_SUM[s]
        present = sum(table[k] + hand[k] for k in kinds if not is_joker(k))
        if not distinct and present:
            # plain sums: a pip total's sum line is either empty, or holds a group and
            # then every hand tile of that total joins it (more tiles never hurt it)
            opened: dict[int, int] = {}
            back: dict[int, tuple[int, tuple[int, ...]]] = {}
            for st, val in layer.items():
                opened[st] = val
                back[st] = (st, (0,))
                opened[st | _OPEN] = val
                back[st | _OPEN] = (st, (1,))
            layer = opened
            path_backs.append(back)
        for kind in kinds:
            a, b = kind.high, kind.low
            t = 0 if is_joker(kind) else table[kind]
            h = 0 if is_joker(kind) else hand[kind]
            gain1 = _COUNT + kind.pips
            offa, offb = a * _ROW_BITS, b * _ROW_BITS
            two = a != b
            after = rest[kind]
            here_a, here_b = a * 7 + b, b * 7 + a
            prev_a, prev_b = here_a - 1, here_b - 1
            clear = keep & ~((_ROW_MASK << offa) | (_ROW_MASK << offb))
            code_a, code_b = _position_code(avail, a, b), _position_code(avail, b, a)
            new: dict[int, int] = {}
            back = {}
            for st, val in layer.items():
                if val + h * gain1 + after <= floor:
                    continue
                u = (st >> _U_OFF) & 7
                is_open = st & _OPEN
                ns = (st >> _N_OFF) & 15
                plays: Iterable[int] = (h,) if is_open and not distinct else range(h + 1)
                ra = (st >> offa) & _ROW_MASK
                rb = (st >> offb) & _ROW_MASK
                others = ((st >> _L_OFF) & 7) - needs.get((ra << 6) | prev_a, 0)
                if two:
                    others -= needs.get((rb << 6) | prev_b, 0)
                cap = jmax - u - others
                if cap < 0:
                    continue
                closed = 1 if distinct or not is_open else 0
                base = st & clear
                for p in plays:
                    v = val + p * gain1
                    if v + after <= floor:
                        continue
                    n = t + p
                    sum_max = n if (distinct or is_open) and s and t + h else 0
                    for xs in range(sum_max + 1):
                        if distinct:
                            field = ((ns + xs) << _N_OFF) | (_DUP if xs == 2 else 0)
                        else:
                            field = min(3, ns + xs) << _N_OFF
                        rest_n = n - xs
                        for xa in range(rest_n + 1) if two else (rest_n,):
                            xb = rest_n - xa
                            if xa > 2 or xb > 2:
                                continue
                            key = (((((ra * 3 + xa) * 54 + code_a) << 3) | cap) << 1) | closed
                            na, ja, la = moves_get(key) or _move(key)
                            if na < 0:
                                continue
                            if two:
                                key = (((((rb * 3 + xb) * 54 + code_b) << 3) | (cap - ja - la)) << 1) | closed
                                nb, jb, lb = moves_get(key) or _move(key)
                                if nb < 0:
                                    continue
                                st2 = base | (na << offa) | (nb << offb)
                                needs[(nb << 6) | here_b] = lb
                            else:
                                jb = lb = 0
                                st2 = base | (na << offa)
                            needs[(na << 6) | here_a] = la
                            uu = u + ja + jb
                            st2 |= field | (uu << _U_OFF) | ((others + la + lb) << _L_OFF)
                            if rest_n:
                                st2 = (st2 & ~_ROOM_FIELD) | _ROOM2
                            old = new.get(st2)
                            if old is None or v > old:
                                if old is None:
                                    spent += 1
                                    if spent > limit:
                                        raise SearchBudgetExceeded
                                new[st2] = v
                                back[st2] = (st, (p, xs, xa))
            layer = new
            path_backs.append(back)
            if not layer:
                return None
        # close the sum line of total s
        new = {}
        back = {}
        for st, val in layer.items():
            u = (st >> _U_OFF) & 7
            free = jmax - ((st >> _L_OFF) & 7)  # jokers the rows do not need yet
            ns = (st >> _N_OFF) & 15
            room = (st >> _ROOM_OFF) & 3
            clean = st & ~(_SUM_FIELD | _U_FIELD | _ROOM_FIELD)
            if distinct:
                for idx, (_g, j, r) in enumerate(_distinct_sum_options(s, ns, bool(st & _DUP))):
                    if u + j > free:
                        continue
                    st2 = clean | ((u + j) << _U_OFF) | (min(2, room + r) << _ROOM_OFF)
                    if new.get(st2, -1) < val:
                        new[st2] = val
                        back[st2] = (st, (idx,))
                continue
            if st & _OPEN:
                if ns == 0:
                    continue
                j = max(0, 3 - ns)
                room = 2
            else:
                j = 0
            if u + j > free:
                continue
            st2 = clean | ((u + j) << _U_OFF) | (room << _ROOM_OFF)
            if new.get(st2, -1) < val:
                new[st2] = val
                back[st2] = (st, (0,))
        layer = _pareto(new) if jmax and len(new) > 1 else new
        path_backs.append(back)
        if not layer:
            return None
    best: tuple[int, int, int, int] | None = None
    for st, val in layer.items():
        u = (st >> _U_OFF) & 7
        room = (st >> _ROOM_OFF) & 3
        for q in range(jh6 + jh0, -1, -1):
            spare = jt + q - u
            if spare < 0:
                break
            if spare == 0 or spare >= 3 or spare <= room:
                score = val + q * _COUNT + 12 * min(q, jh6)
                if score > floor and (best is None or score > best[0]):
                    best = (score, st, spare, q)
                break
    if best is None:
        return None
    score, st, spare, q = best
    path: list[tuple[int, tuple[int, ...]]] = []
    for back in reversed(path_backs):
        prev, step = back[st]
        path.append((prev, step))
        st = prev
    path.reverse()
    return score, path, spare, q


def _pareto(layer: dict[int, int]) -> dict[int, int]:
    """Drop beaten states: the same rows and room, more jokers used and no more value.

    With room for two spare jokers (or three or more spares, which form their own
    group) a state that used fewer jokers can do all the other one can.
    """
    groups: dict[int, list[tuple[int, int, int]]] = {}
    for st, val in layer.items():
        groups.setdefault(st & ~_U_FIELD, []).append(((st >> _U_OFF) & 7, st, val))
    out: dict[int, int] = {}
    for key, entries in groups.items():
        if len(entries) == 1 or (key >> _ROOM_OFF) & 3 != 2:
            for _, st, val in entries:
                out[st] = val
            continue
        entries.sort()
        best = -1
        for _, st, val in entries:
            if val > best:
                out[st] = val
                best = val
    return out


def _row_runs(row: int, counts: list[int], closed: list[bool]) -> list[list[Tile | None]]:
    """The cheapest runs (fewest jokers) covering a row's naturals, ``counts[col]`` per position."""
    Open = list[tuple[int, list[Tile | None]]]
    layer: dict[int, tuple[int, list[list[Tile | None]], Open]] = {0: (0, [], [])}
    for col in range(7):
        c, last, cl = counts[col], int(col == 6), closed[col]
        kind = Tile(max(row, col), min(row, col))
        fresh = L1 * 8 + ((_HC | _LC) if cl else _SO)
        new: dict[int, tuple[int, list[list[Tile | None]], Open]] = {}
        for rid, (cost, done, open_runs) in layer.items():
            key = (rid << 4) | (c << 2) | (int(cl) << 1) | last
            for nid, jc, _, moves in _ROW_MOVES.get(key) or _row_moves(key):
                if nid in new and new[nid][0] <= cost + jc:
                    continue
                done2 = [list(r) for r in done]
                kept: Open = []
                took = 0
                for (run, items), m in zip(open_runs, moves, strict=True):
                    if m == _STOP:
                        done2.append(items + [None] * _STOP_COST[run >> 3])
                        continue
                    kept.append((_step(run, m, cl), [*items, kind if m == _NATURAL else None]))
                    took += m == _NATURAL
                kept.extend((fresh, [kind]) for _ in range(c - took))
                if last:
                    done2.extend(items + [None] * _STOP_COST[run >> 3] for run, items in kept)
                    kept = []
                kept.sort(key=lambda e: e[0])
                new[nid] = (cost + jc, done2, kept)
        layer = new
    return layer[0][1]


def _build(
    table: Counter[Tile], hand: Counter[Tile], path: list[tuple[int, tuple[int, ...]]], distinct: bool
) -> tuple[list[list[Tile | None]], list[Tile], list[list[Tile | None]], list[list[Tile | None]]]:
    """Turn the sweep's moves into groups: (groups, played naturals, sum groups, runs); ``None`` marks a joker."""
    counts = [[0] * 7 for _ in range(7)]
    sum_groups: list[list[Tile | None]] = []
    played: list[Tile] = []
    closed: list[bool] = [True] * 13
    step = 0
    for s in range(13):
        kinds = _BY_SUM[s]
        if not distinct and any(table[k] + hand[k] > 0 for k in kinds if not is_joker(k)):
            closed[s] = path[step][1] == (0,)
            step += 1
        line: list[Tile] = []
        for kind in kinds:
            p, xs, xa = path[step][1]
            step += 1
            t = 0 if is_joker(kind) else table[kind]
            played.extend([kind] * p)
            line.extend([kind] * xs)
            a, b = kind.high, kind.low
            counts[a][b] += xa
            if a != b:
                counts[b][a] += t + p - xs - xa
        move = path[step][1]
        step += 1
        if distinct:
            if line:
                g = _distinct_sum_options(s, len(line), max(Counter(line).values()) > 1)[move[0]][0]
                made: list[list[Tile | None]] = [[] for _ in range(g)]
                for idx, tile in enumerate(sorted(line)):
                    made[idx % g].append(tile)
                for grp in made:
                    grp.extend([None] * max(0, 3 - len(grp)))
                sum_groups.extend(made)
        elif line:
            sum_groups.append([*line, *([None] * max(0, 3 - len(line)))])
    runs = [r for row in range(7) for r in _row_runs(row, counts[row], [closed[row + col] for col in range(7)])]
    return runs + sum_groups, played, sum_groups, runs


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
    entry = _CACHE.get(key)
    # an answer cut short by a budget is reused only under a budget no larger
    if entry is None or not _still_good(entry, budget):
        entry = (_solution(t, h, distinct_sums, groups, budget), budget)
        if len(_CACHE) > 4096:
            _CACHE.clear()
        _CACHE[key] = entry
    cached = entry[0]
    if cached is False:
        raise ValueError("the table tiles do not split into valid groups")
    assert isinstance(cached, Solution)
    if require and not cached.played:
        return None
    return cached


_CACHE: dict[tuple[tuple[int, ...], tuple[int, ...], bool], tuple[Solution | bool, int | None]] = {}


def _still_good(entry: tuple[Solution | bool, int | None], budget: int | None) -> bool:
    answer, spent = entry
    if not isinstance(answer, Solution) or answer.exact:
        return True
    return budget is not None and spent is not None and budget <= spent


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


# ----- the compiled search -------------------------------------------------------------

_dp: ModuleType | None
try:  # built from _rummikub_dp.c at install time; the pure-Python sweep above is the fallback
    from . import _rummikub_dp as _dp
except ImportError:  # pragma: no cover - exercised only where no C compiler was available
    _dp = None

COMPILED = _dp is not None
"""Whether the compiled search is in use (otherwise the slower pure-Python sweep is)."""


def _counts(c: Counter[Tile]) -> bytes:
    out = bytearray(49)
    for tile, n in c.items():
        if not is_joker(tile):
            out[tile.high * 7 + tile.low] = n
    return bytes(out)


def _solve_compiled(
    t: Counter[Tile], h: Counter[Tile], distinct: bool, floor: int, budget: int | None
) -> tuple[int, int, list[tuple[int, ...]]] | None:
    """The compiled search: (score, hand jokers played, path) or ``None`` (nothing above ``floor``)."""
    assert _dp is not None
    jt = t[JOKER_KINDS[0]] + t[JOKER_KINDS[1]]
    got = _dp.solve(
        _counts(t), _counts(h), jt, h[JOKER_KINDS[0]], h[JOKER_KINDS[1]], distinct, floor,
        budget if budget is not None else 1 << 62,
    )
    if isinstance(got, int):
        raise SearchBudgetExceeded
    if got is None:
        return None
    score, q, _used, path = got
    return score, q, path


def _cheapest_runs(row: int, counts: list[int]) -> list[list[Tile | None]]:
    """Runs covering a row's naturals (``counts[col]`` per position) with the fewest jokers (``None``)."""
    return [list(r) for r in _cheapest_runs_of(row, tuple(counts))]


@lru_cache(maxsize=1 << 16)
def _cheapest_runs_of(row: int, counts: tuple[int, ...]) -> tuple[tuple[Tile | None, ...], ...]:
    Runs = list[list[Tile | None]]
    # key: (open runs of one, of two, of three or more) -> (jokers, finished runs, open runs by length)
    layer: dict[tuple[int, int, int], tuple[int, Runs, Runs]] = {(0, 0, 0): (0, [], [])}
    for col in range(7):
        c, last = counts[col], col == 6
        kind = Tile(max(row, col), min(row, col))
        new: dict[tuple[int, int, int], tuple[int, Runs, Runs]] = {}
        for (n1, n2, n3), (cost, done, opened) in layer.items():
            short = [r for r in opened if len(r) < 3]
            long = [r for r in opened if len(r) >= 3]
            for cont in range(n3 + 1):
                for k in range(3):
                    cover = n1 + n2 + cont + k
                    if cover > 2 or cover < c or (last and (k or n1)):
                        continue
                    covering = [list(r) for r in short] + [list(r) for r in long[:cont]] + [[] for _ in range(k)]
                    for i, r in enumerate(covering):
                        r.append(kind if i < c else None)
                    done2 = done + [list(r) for r in long[cont:]]
                    if last:
                        done2 += covering
                        covering = []
                    key = (
                        sum(len(r) == 1 for r in covering),
                        sum(len(r) == 2 for r in covering),
                        sum(len(r) >= 3 for r in covering),
                    )
                    jokers = cost + cover - c
                    if key not in new or new[key][0] > jokers:
                        new[key] = (jokers, done2, covering)
        layer = new
    return tuple(tuple(r) for r in layer[(0, 0, 0)][1])


def _build_compiled(
    t: Counter[Tile], h: Counter[Tile], path: list[tuple[int, ...]], distinct: bool
) -> tuple[list[list[Tile | None]], list[Tile], list[list[Tile | None]], list[list[Tile | None]]]:
    """Turn the compiled search's path into groups: (groups, played naturals, sum groups, runs)."""
    counts = [[0] * 7 for _ in range(7)]
    lines: dict[int, list[Tile]] = {}
    played: list[Tile] = []
    sum_groups: list[list[Tile | None]] = []
    for step in path:
        if step[0] == 0:
            _, a, b, p, xs, xa = step
            kind = Tile(a, b)
            if is_joker(kind):
                continue
            n = t[kind] + p
            played.extend([kind] * p)
            lines.setdefault(a + b, []).extend([kind] * xs)
            counts[a][b] += xa
            if a != b:
                counts[b][a] += n - xs - xa
            continue
        _, s, choice = step
        line = lines.get(s, [])
        if not line:
            continue
        if distinct:
            g = _distinct_sum_options(s, len(line), max(Counter(line).values()) > 1)[choice][0]
            made: list[list[Tile | None]] = [[] for _ in range(g)]
            for idx, tile in enumerate(sorted(line)):
                made[idx % g].append(tile)
        else:
            made = [list(line)]
        for grp in made:
            grp.extend([None] * max(0, 3 - len(grp)))
        sum_groups.extend(made)
    runs = [r for row in range(7) for r in _cheapest_runs(row, counts[row])]
    return runs + sum_groups, played, sum_groups, runs


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
    limit = budget if incumbent is not None else None
    try:
        if COMPILED:
            found = _solve_compiled(t, h, distinct, floor, limit)
            if found is None:
                return incumbent if incumbent is not None else False
            _, q, steps = found
            groups_, played, sums, runs = _build_compiled(t, h, steps, distinct)
            used = sum(x is None for g in groups_ for x in g)
            spare = t[JOKER_KINDS[0]] + t[JOKER_KINDS[1]] + q - used
            assert spare >= 0, "the search placed more jokers than there are"
        else:
            got = _solve(t, h, distinct, floor, limit)
            if got is None:
                return incumbent if incumbent is not None else False
            _, path, spare, q = got
            groups_, played, sums, runs = _build(t, h, path, distinct)
    except SearchBudgetExceeded:
        assert incumbent is not None
        return Solution(incumbent.table, incumbent.played, exact=False)
    jokers = [JOKER_KINDS[1]] * min(q, h[JOKER_KINDS[1]])
    jokers += [JOKER_KINDS[0]] * (q - len(jokers))
    played += jokers
    pool = [JOKER_KINDS[0]] * t[JOKER_KINDS[0]] + [JOKER_KINDS[1]] * t[JOKER_KINDS[1]] + jokers
    if spare:
        _place_spares(groups_, sums, runs, spare, distinct)
    out: list[list[Tile]] = []
    for g in groups_:
        real = [pool.pop() if x is None else x for x in g]
        out.append(order_group(real))
    out.sort(key=lambda g: [-x.key for x in g])
    return Solution(out, sorted(played, reverse=True))


def _place_spares(
    groups: list[list[Tile | None]],
    sums: list[list[Tile | None]],
    runs: list[list[Tile | None]],
    spare: int,
    distinct: bool,
) -> None:
    """Put jokers the groups do not need somewhere (the search made sure they fit)."""
    if spare >= 3:
        groups.append([None] * spare)
        return
    if sums and not distinct:
        sums[0].extend([None] * spare)
        return
    if runs:
        short = next((r for r in runs if len(r) <= 5), None)
        if short is None:
            # a run of six or seven splits into two runs (its ends are natural tiles)
            long = runs[0]
            at = next(i for i, g in enumerate(groups) if g is long)
            groups[at : at + 1] = [long[:3], long[3:]]
            short = groups[at]
        short.extend([None] * spare)
        return
    for g in sums:
        total = next(x.pips for x in g if x is not None)
        while spare and len(g) < KINDS_WITH_SUM[total]:
            g.append(None)
            spare -= 1
    assert spare == 0, "spare jokers found no room"


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
