"""Domino Rummikub's groups: what a valid run or sum group is, and how a table is written.

A *group* is three or more tiles forming a run (one number shared, the other ends
consecutive) or a sum group (one pip total). The four jokers (both ``0-0`` and both
``6-6``) stand for any tile. :func:`group_error` says why a group is invalid (the engine's
messages), :func:`order_group` puts a group in reading order, :func:`valid_triples` and
:func:`best_opening` cover the opening group of three, and :func:`play_notation` writes a
whole-table play. The engine, the arrangement search, the bots and the server's hints all
use these; none re-derives them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ...tiles import Tile

__all__ = [
    "JOKER_KINDS",
    "KINDS",
    "KINDS_WITH_SUM",
    "best_opening",
    "distinct_sum_options",
    "group_error",
    "is_joker",
    "is_valid_group",
    "order_group",
    "play_notation",
    "valid_triples",
]

JOKER_KINDS = (Tile(0, 0), Tile(6, 6))
# How many distinct tiles have each pip total: the largest sum group when duplicates are
# forbidden (a joker's stand-in counts as one of them).
KINDS_WITH_SUM = [sum(1 for h in range(7) for lo in range(h + 1) if h + lo == s) for s in range(13)]


def is_joker(tile: Tile) -> bool:
    """Whether a tile is a joker (``0-0`` or ``6-6``)."""
    return tile.high == tile.low and (tile.high == 0 or tile.high == 6)

KINDS: list[Tile] = sorted(
    (Tile(h, lo) for h in range(7) for lo in range(h + 1)), key=lambda t: (t.pips, -t.high)
)
KINDS_BY_SUM: list[list[Tile]] = [[k for k in KINDS if k.pips == s] for s in range(13)]


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


def distinct_sum_options(total: int, n: int, doubled: bool) -> list[tuple[int, int, int]]:
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


def play_notation(groups: Sequence[Sequence[object]]) -> str:
    """The notation of a whole-table play: ``play`` then the groups, tiles by spaces, groups by ``|``.

    The one writer of the notation: the engine's actions print with it, and the bots and
    the server's hints build the plays they suggest with it.
    """
    return "play " + " | ".join(" ".join(str(t) for t in g) for g in groups)
