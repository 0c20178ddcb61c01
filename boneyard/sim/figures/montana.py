"""Montana's simulation figures: drawn hands, outs by how they were won, sets by kind."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..stats import Stat, rate
from . import Figures, outcomes


class MontanaFigures(Figures):
    """Drawn-hand rate, outs by how they were won, and the sets of winning hands by kind."""

    def __init__(self) -> None:
        self.hands = 0
        self.drawn = 0
        self.outs = 0
        self.how: Counter[str] = Counter()
        self.sets: Counter[str] = Counter()
        self.outs_with: Counter[str] = Counter()
        self.value = Stat()

    def add(self, record: Mapping[str, Any]) -> None:
        """Count the record's hands."""
        for out in outcomes(record):
            self.hands += 1
            if out.get("drawn"):
                self.drawn += 1
                continue
            self.outs += 1
            self.how[str(out.get("how"))] += 1
            kinds = [str(s.get("kind")) for s in out.get("sets", [])]
            self.sets.update(kinds)
            self.outs_with.update(set(kinds))
            self.value.add(out.get("value", 0))

    def result(self) -> dict[str, Any]:
        """Drawn-hand rate (95% CI), outs by pull/claim, sets by kind per out, hand value."""
        return {
            "hands": self.hands,
            "drawn_hand_rate": rate(self.drawn, self.hands),
            "outs": self.outs,
            "outs_by_how": {k: rate(v, self.outs) for k, v in sorted(self.how.items())},
            "sets_by_kind": {
                kind: {
                    "sets": n,
                    "per_out": round(n / self.outs, 6) if self.outs else None,
                    "outs_holding": rate(self.outs_with[kind], self.outs),
                }
                for kind, n in sorted(self.sets.items())
            },
            "hand_value": self.value.to_dict(),
        }


FIGURES = MontanaFigures
