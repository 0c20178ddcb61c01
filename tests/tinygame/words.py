"""Tiny Block's events in words, kept beside its engine: a game brings its own sentences too.

Registered by the tests that use the tiny game (``boneyard.words.register``); nothing in
``boneyard`` knows it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boneyard.words import Words


class TinyWords(Words):
    """Tiny Block's sentences: one ``on_<kind>`` per event kind of ``tests/tinygame/events.py``."""

    def on_deal(self, e: Mapping[str, Any]) -> str:
        """A new hand: two tiles each, two in the boneyard."""
        return self.sentence(f"Hand {e['hand']}: two tiles each, two in the boneyard")

    def on_draw(self, e: Mapping[str, Any]) -> str:
        """A draw: the tile for the seat that drew it, "a tile" for the other."""
        tile = e.get("tile")
        return self.sentence(f"{self.does(e['seat'], 'draws')} {tile if tile else 'a tile'}")

    def on_pass(self, e: Mapping[str, Any]) -> str:
        """A player who can neither play nor draw."""
        return self.sentence(self.does(e["seat"], "passes"))

    def on_play(self, e: Mapping[str, Any]) -> str:
        """A tile laid on one end of the line."""
        return self.sentence(f"{self.does(e['seat'], 'plays')} {e['tile']} on the {e['side']} end")

    def on_hand_end(self, e: Mapping[str, Any]) -> str:
        """The hand's end: who scores and how much, then the totals."""
        winner = e["winner"]
        if winner is None:
            how = f"Hand {e['hand']} is over: the pips are tied and nobody scores"
        else:
            scores = self.does(winner, "scores", start=False)
            how = f"Hand {e['hand']} is over: {scores} {self.points(e['points'][winner])}"
        totals = self.listing([(s, str(v)) for s, v in enumerate(e["totals"])])
        return f"{self.sentence(how)} {self.sentence(f'Totals: {totals}')}"


WORDS = TinyWords
