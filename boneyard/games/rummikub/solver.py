"""Domino Rummikub's exact arrangement search: the best new table for a hand.

:func:`best_play` finds, for a table and a hand, a new table that plays the most hand
tiles (ties: the most pips); :func:`arrange` says whether tiles split into groups. The
group rules themselves are in :mod:`.groups`.

One exact search runs in production: the compiled one (``_rummikub_dp.c``, built at
install time; see that file for its model). It first looks depth-first for an
arrangement playing every hand tile that could go anywhere (nearly always the answer,
found in well under a millisecond), and only when there is none runs the full sweep with
the quick play's value as a floor. Where no C compiler was available at install time the
pure-Python sweep of :mod:`.sweep` stands in for it (the same optimum, tested; far
slower): a fallback only, so that a game stays playable, never used where the compiled
search is built. The integer-programming reference that cross-checks both lives with
the tests (``tests/games/rummikub_reference.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

from ...tiles import Tile
from .groups import (
    JOKER_KINDS,
    KINDS_WITH_SUM,
    best_opening,
    distinct_sum_options,
    group_error,
    is_joker,
    order_group,
)

__all__ = ["COMPILED", "Solution", "arrange", "best_play"]

# Weight of one played tile in the objective: count first, pips to break ties.
COUNT_WEIGHT = 1000
_COUNT = COUNT_WEIGHT


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
            g = distinct_sum_options(s, len(line), max(Counter(line).values()) > 1)[choice][0]
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
            from . import sweep  # the no-compiler fallback only (see the module docstring)

            got = sweep.solve(t, h, distinct, floor, limit)
            if got is None:
                return incumbent if incumbent is not None else False
            _, path, spare, q = got
            groups_, played, sums, runs = sweep.build(t, h, path, distinct)
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
