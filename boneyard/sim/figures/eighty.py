"""Eighty's simulation figures: bids made and set by bid level."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..stats import rate
from . import Figures, outcomes


class EightyFigures(Figures):
    """Bids made and set, by bid level (Nel-O as its own level)."""

    def __init__(self) -> None:
        self.levels: dict[str, list[int]] = {}
        self.hands = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """Tally each hand's winning bid and whether it was made."""
        for out in outcomes(record):
            self.hands += 1
            level = str(out.get("bid"))
            made_set = self.levels.setdefault(level, [0, 0])
            made_set[0 if out.get("made") else 1] += 1

    def result(self) -> dict[str, Any]:
        """For each bid level: bids, made, set, and the made rate with a 95% CI."""

        def order(level: str) -> tuple[int, str]:
            return (0, f"{int(level):04d}") if level.isdigit() else (1, level)

        out = {}
        for level in sorted(self.levels, key=order):
            made, set_ = self.levels[level]
            out[level] = {"bids": made + set_, "made": made, "set": set_, "made_rate": rate(made, made + set_)}
        return {"hands": self.hands, "by_bid": out}


FIGURES = EightyFigures
