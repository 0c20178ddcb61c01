"""Rummikub's simulation figures: tiles left in hand at hands' ends and at the game's end."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..stats import Stat
from . import Figures, outcomes


class RummikubFigures(Figures):
    """Tiles left in hand: at each hand's end where the results show them, and at the game's end."""

    def __init__(self) -> None:
        self.at_end = Stat()
        self.losers_at_end = Stat()
        self.per_hand = Stat()
        self.hands = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """Tally tiles left by seat, from the hand results and the final view."""
        for out in outcomes(record):
            self.hands += 1
            sizes = hand_sizes(out)
            for n in sizes:
                self.per_hand.add(n)
        left = record.get("tiles_left") or []
        for seat, n in enumerate(left):
            self.at_end.add(n)
            if seat not in record["winners"]:
                self.losers_at_end.add(n)

    def result(self) -> dict[str, Any]:
        """Tiles left per seat at hand ends and at the end of the game (all seats and losers)."""
        return {
            "hands": self.hands,
            "tiles_left_per_seat_at_hand_end": self.per_hand.to_dict(),
            "tiles_left_per_seat_at_game_end": self.at_end.to_dict(),
            "tiles_left_per_losing_seat_at_game_end": self.losers_at_end.to_dict(),
        }


def hand_sizes(outcome: Mapping[str, Any]) -> list[int]:
    """Tiles left per seat in a hand result, whichever way the engine lists them."""
    for key in ("tiles_left", "hand_sizes"):
        value = outcome.get(key)
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            return list(value)
    hands = outcome.get("hands")
    if isinstance(hands, list) and all(isinstance(h, list) for h in hands):
        return [len(h) for h in hands]
    return []


FIGURES = RummikubFigures
