"""The statistics every summary uses: proportions with Wilson intervals and running moments."""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> list[float]:
    """The Wilson score interval (95% by default) of a proportion; ``[0, 1]`` with no trials."""
    if trials <= 0:
        return [0.0, 1.0]
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return [round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)]


def rate(successes: float, trials: int) -> dict[str, Any]:
    """A proportion with its count, trials and 95% Wilson interval, JSON-ready."""
    return {
        "count": successes,
        "of": trials,
        "rate": round(successes / trials, 6) if trials else None,
        "ci95": wilson(successes, trials),
    }


class Stat:
    """Running count, mean, standard deviation, min and max (Welford's method)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0
        self.lo: float | None = None
        self.hi: float | None = None

    def add(self, x: float) -> None:
        """Add one value."""
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (x - self.mean)
        self.lo = x if self.lo is None or x < self.lo else self.lo
        self.hi = x if self.hi is None or x > self.hi else self.hi

    @property
    def std(self) -> float:
        """The sample standard deviation (0 with fewer than two values)."""
        return math.sqrt(self._m2 / (self.n - 1)) if self.n > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Count, mean, std, 95% CI of the mean, min and max, JSON-ready."""
        half = Z95 * self.std / math.sqrt(self.n) if self.n > 1 else 0.0
        return {
            "n": self.n,
            "mean": round(self.mean, 6),
            "std": round(self.std, 6),
            "mean_ci95": [round(self.mean - half, 6), round(self.mean + half, 6)],
            "min": self.lo,
            "max": self.hi,
        }
