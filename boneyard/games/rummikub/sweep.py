"""The pure-Python arrangement search: used ONLY where the compiled search could not be built.

Production runs the compiled search (``_rummikub_dp.c``; ``make`` and ``pip install``
build it, installing a C compiler first where needed). Where no C compiler was available
at install time, :func:`boneyard.games.rummikub.solver.best_play` falls back on this
sweep rather than refusing: the engine lists its best play through the search, so a
game must stay playable. It gives the same optimum, slower
(``tests/games/test_rummikub.py`` checks that it agrees with the compiled search). Its
model:

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

from collections import Counter
from collections.abc import Iterable
from itertools import product

from ...tiles import Tile
from .groups import JOKER_KINDS, KINDS_BY_SUM, distinct_sum_options, is_joker
from .solver import COUNT_WEIGHT as _COUNT
from .solver import SearchBudgetExceeded

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


def solve(
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
    order = [k for s in range(13) for k in KINDS_BY_SUM[s]]
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
        kinds = KINDS_BY_SUM[s]
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
                for idx, (_g, j, r) in enumerate(distinct_sum_options(s, ns, bool(st & _DUP))):
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


def build(
    table: Counter[Tile], hand: Counter[Tile], path: list[tuple[int, tuple[int, ...]]], distinct: bool
) -> tuple[list[list[Tile | None]], list[Tile], list[list[Tile | None]], list[list[Tile | None]]]:
    """Turn the sweep's moves into groups: (groups, played naturals, sum groups, runs); ``None`` marks a joker."""
    counts = [[0] * 7 for _ in range(7)]
    sum_groups: list[list[Tile | None]] = []
    played: list[Tile] = []
    closed: list[bool] = [True] * 13
    step = 0
    for s in range(13):
        kinds = KINDS_BY_SUM[s]
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
                g = distinct_sum_options(s, len(line), max(Counter(line).values()) > 1)[move[0]][0]
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
