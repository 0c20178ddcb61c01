"""benchmarks/twobox_weights.py: the duplicate duel it measures greedy's weights by."""

from __future__ import annotations

from typing import Any

from boneyard.bots.greedy import twobox as greedy


class _Here:
    """An executor's ``map``, in this process (the benchmark's module is not importable by name)."""

    def map(self, fn: Any, items: Any, chunksize: int = 1) -> Any:
        return map(fn, items)


def test_a_deal_against_itself_is_even_and_blocking_nothing_loses(benchmark_module: Any) -> None:
    bench = benchmark_module("twobox_weights")
    base = greedy.WEIGHTS
    # the same weights in every seat: the swapped replay mirrors the first, exactly even
    assert bench.deal((3, base, base)) == (0.5, 0.0)
    win, _, lead, lead_half = bench.duel(_Here(), base._replace(block=0.0), base, 100, 1)
    # a greedy that ignores what it leaves the next player loses points (seeded: the same every run)
    assert lead + lead_half < 0 and win < 0.5
