"""Two-box's simulation figures: where the points come from, and the cutthroat steals watched move by move."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..stats import Stat, rate
from . import Figures, outcomes


class TwoboxFigures(Figures):
    """Where the points come from: counts during play against dominoes and blocked hands.

    A hand's points from counts are the net change of all scores over the hand less the
    hand-end award (cutthroat steals move points between seats, so they net to zero; they
    are counted apart, from the watcher's per-hand tallies).
    """

    def __init__(self) -> None:
        self.hands = 0
        self.ends: Counter[str] = Counter()
        self.count_points = 0.0
        self.domino_points = 0.0
        self.blocked_points = 0.0
        self.per_hand_counts = Stat()
        self.steals = 0
        self.stolen_points = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """Split each hand's points into counts and hand-end awards."""
        for hand in record["hands"]:
            watched = hand.get("watched") or {}
            self.steals += watched.get("steals", 0)
            self.stolen_points += watched.get("stolen_points", 0)
        before = [0] * record["players"]
        for out in outcomes(record):
            after = list(out.get("scores", before))
            how = str(out.get("how"))
            award = out.get("award", 0) or 0
            counts = sum(after) - sum(before) - award
            self.hands += 1
            self.ends[how] += 1
            self.count_points += counts
            self.per_hand_counts.add(counts)
            if how == "domino":
                self.domino_points += award
            elif how == "blocked":
                self.blocked_points += award
            before = after

    def result(self) -> dict[str, Any]:
        """Totals and shares of count, domino and blocked points; how hands ended; cutthroat steals."""
        total = self.count_points + self.domino_points + self.blocked_points
        share = {
            "counts": round(self.count_points / total, 6) if total else None,
            "dominoes": round(self.domino_points / total, 6) if total else None,
            "blocked": round(self.blocked_points / total, 6) if total else None,
        }
        return {
            "hands": self.hands,
            "hand_ends": {k: rate(v, self.hands) for k, v in sorted(self.ends.items())},
            "points": {"counts": self.count_points, "dominoes": self.domino_points, "blocked": self.blocked_points},
            "share": share,
            "count_points_per_hand": self.per_hand_counts.to_dict(),
            "cutthroat_steals": {
                "steals": self.steals,
                "per_hand": round(self.steals / self.hands, 6) if self.hands else None,
                "points_moved": self.stolen_points,
            },
        }


def watching(rules: Mapping[str, Any]) -> bool:
    """Steals happen only under the ``cutthroat`` option: otherwise there is nothing to watch."""
    return bool(rules.get("cutthroat"))


def watch(view: Mapping[str, Any], memory: dict[str, Any], hand: dict[str, Any]) -> None:
    """Cutthroat steals: how many, and the points they moved."""
    play = view.get("last_play")
    if not isinstance(play, Mapping) or play == memory.get("play"):
        return
    memory["play"] = dict(play)
    if play.get("stolen_from") is not None:
        hand["steals"] = hand.get("steals", 0) + 1
        hand["stolen_points"] = hand.get("stolen_points", 0) + (play.get("scored") or 0)


FIGURES = TwoboxFigures
