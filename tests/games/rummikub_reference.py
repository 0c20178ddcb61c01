"""Test tooling for Rummikub's arrangement search: an independent reference and random positions.

:func:`milp_score` answers the search's question with an integer programme solved by
SciPy's HiGHS (SciPy is a development dependency, imported on first use), so the tests
and ``benchmarks/rummikub_solver.py`` can cross-check the production search against a
model built another way. :func:`random_position` makes reachable positions for both.
Neither is part of the game: nothing under ``boneyard/`` imports this module.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from boneyard.games.rummikub.groups import JOKER_KINDS, KINDS, KINDS_WITH_SUM, group_error, is_joker, order_group
from boneyard.games.rummikub.solver import COUNT_WEIGHT
from boneyard.tiles import Tile, double_six


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
    play = {k: var(0, h[k], -(COUNT_WEIGHT + k.pips)) for k in naturals}
    q6 = var(0, h[JOKER_KINDS[1]], -(COUNT_WEIGHT + 12))
    q0 = var(0, h[JOKER_KINDS[0]], -COUNT_WEIGHT)
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
    return (value // COUNT_WEIGHT, value % COUNT_WEIGHT)


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
