"""Rounce's simulation figures: how often a seat that stood in takes no trick."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..stats import rate
from . import Figures, outcomes


class RounceFigures(Figures):
    """The rounce rate: how often a seat that stood in takes no trick."""

    def __init__(self) -> None:
        self.hands = 0
        self.hands_with_rounce = 0
        self.played = 0
        self.rounced = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """A seat played when its points changed; it was rounced when they went up."""
        for out in outcomes(record):
            changes = out.get("changes", [])
            self.hands += 1
            played = [c for c in changes if c != 0]
            rounced = [c for c in played if c > 0]
            self.played += len(played)
            self.rounced += len(rounced)
            self.hands_with_rounce += int(bool(rounced))

    def result(self) -> dict[str, Any]:
        """Rounce rate per seat that played a hand, and per hand."""
        return {
            "hands": self.hands,
            "rounce_rate": rate(self.rounced, self.played),
            "hands_with_a_rounce": rate(self.hands_with_rounce, self.hands),
        }


FIGURES = RounceFigures
