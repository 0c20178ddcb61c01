"""Benchmark of the Rummikub arrangement solver against SciPy's HiGHS on the same positions.

A fixed set of realistic positions (seeded): a table of 10-50 tiles built from random
runs and sum groups, a hand of 4-20 tiles, at least one joker among them. For each the
exact solver (``best_play`` given the table's grouping, as the engine calls it) and the
integer programme (``milp_score``) are timed; the optimum of every finished solve is
compared with HiGHS's. The solver runs under a state budget (``--budget``: search states
or depth-first nodes, as the engine passes it) so that the run ends: positions that
exceed it are counted and timed up to the cut, so the percentiles printed are then lower
bounds. It also says whether the compiled search was in use. Run:
``python benchmarks/rummikub_solver.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from boneyard.games.rummikub import solver
from boneyard.games.rummikub.groups import is_joker
from boneyard.tiles import Tile

# The reference (SciPy's HiGHS) and the random positions are test tooling, kept with the tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.games import rummikub_reference as reference


def positions(count: int, seed: int) -> list[tuple[list[list[Tile]], list[Tile]]]:
    """The fixed benchmark positions: (table groups, hand), each with a joker somewhere."""
    rng = random.Random(seed)
    out: list[tuple[list[list[Tile]], list[Tile]]] = []
    while len(out) < count:
        groups, hand = reference.random_position(rng, rng.randint(10, 50), rng.randint(4, 20))
        size = sum(len(g) for g in groups)
        tiles = [t for g in groups for t in g] + hand
        if 10 <= size <= 52 and any(is_joker(t) for t in tiles):
            out.append((groups, hand))
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Time both solvers and print medians and the solver's 99th percentile."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--budget", type=int, default=200_000, help="solver state budget per position")
    parser.add_argument("--no-milp", action="store_true", help="skip HiGHS")
    args = parser.parse_args()
    cases = positions(args.positions, args.seed)
    ours: list[float] = []
    highs: list[float] = []
    cut = mismatches = 0
    for groups, hand in cases:
        table = [t for g in groups for t in g]
        solver._CACHE.clear()
        start = time.perf_counter()
        sol = solver.best_play(table, hand, groups=groups, budget=args.budget, require=False)
        ours.append(time.perf_counter() - start)
        assert sol is not None
        if not sol.exact:
            cut += 1
        if args.no_milp:
            continue
        start = time.perf_counter()
        ref = reference.milp_score(table, hand)
        highs.append(time.perf_counter() - start)
        if sol.exact and ref != sol.score:
            mismatches += 1
    ms = 1000.0
    print(f"positions: {len(cases)} (table 10-50 tiles, hand 4-20, jokers present; seed {args.seed})")
    print(f"search: {'compiled (C)' if solver.COMPILED else 'pure Python (no compiled module)'}")
    print(
        f"solver: median {statistics.median(ours) * ms:.2f} ms, p99 {percentile(ours, 0.99) * ms:.1f} ms, "
        f"max {max(ours) * ms:.1f} ms; over the {args.budget} state budget: {cut}"
        + (" (their times are to the cut, so these are lower bounds)" if cut else "")
    )
    if highs:
        print(f"HiGHS:  median {statistics.median(highs) * ms:.2f} ms, p99 {percentile(highs, 0.99) * ms:.1f} ms")
        speedup = statistics.median(highs) / statistics.median(ours)
        p99 = percentile(ours, 0.99) * ms
        print(f"speed-up of the medians: {speedup:.1f}x; "
              f"optimum differs from HiGHS on {mismatches} finished positions")
        met = speedup >= 10 and p99 < 50 and not cut and not mismatches
        print(f"targets (median >= 10x HiGHS, p99 < 50 ms, all exact and equal): {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
