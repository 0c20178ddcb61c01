"""Domino Rummikub's events in words: openings, tiles laid on the table, draws, and the pips caught.

The vocabulary is the rules page's (``docs/rules/rummikub.md``): each player's first play
of a hand is his opening (three tiles of his own as one group); after it he lays tiles
onto the table, reworking its groups as he likes. The hand ends when someone plays his
last tile or everyone passes in a row, and the winner scores the pips left in the other
hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import Words


class RummikubWords(Words):
    """Rummikub's sentences: one ``on_<kind>`` per event kind of ``boneyard/games/rummikub/events.py``."""

    def on_deal(self, e: Mapping[str, Any]) -> str:
        """A new hand: its dealer and who plays first."""
        dealer, first = e["dealer"], e["first"]
        deals = self.does(dealer, "deals", start=False)
        return self.sentence(f"Hand {e['hand']}: {deals} and {self.name(first, start=False)} "
                             f"{self.verb(first, 'plays')} first")

    def on_draw(self, e: Mapping[str, Any]) -> str:
        """A draw from the boneyard: the tile for the seat that drew it, "a tile" for the others."""
        tile = e.get("tile")
        return self.sentence(f"{self.does(e['seat'], 'draws')} {tile if tile else 'a tile'}")

    def on_pass(self, e: Mapping[str, Any]) -> str:
        """A pass, the boneyard being empty."""
        return self.sentence(self.does(e["seat"], "passes"))

    def on_play(self, e: Mapping[str, Any]) -> str:
        """Tiles laid from the hand: the opening group, or tiles worked into the table."""
        seat = e["seat"]
        if e["opening"]:
            return self.sentence(f"{self.does(seat, 'opens')} with {self.group(e['tiles'])}")
        return self.sentence(f"{self.does(seat, 'lays')} {self.tiles(e['tiles'])} on the table")

    def on_domino(self, e: Mapping[str, Any]) -> str:
        """A player has laid his last tile and wins the hand."""
        seat = e["seat"]
        return self.sentence(f"{self.does(seat, 'has')} laid every tile and {self.verb(seat, 'wins')} the hand")

    def on_blocked(self, e: Mapping[str, Any]) -> str:
        """Everyone passed in a row: the fewest pips win, or nobody when they tie."""
        seat = e["seat"]
        if seat is None:
            return self.sentence("Everyone has passed and the fewest pips are tied: nobody wins the hand")
        return self.sentence(f"Everyone has passed: {self.does(seat, 'has', start=False)} "
                             f"the fewest pips and {self.verb(seat, 'wins')} the hand")

    def on_hand_end(self, e: Mapping[str, Any]) -> str:
        """The hand's end: who won it and how, what he scores, then the totals."""
        winner = e["winner"]
        hand = e["hand"]
        if winner is None:
            how = f"Hand {hand} is over, blocked, with the fewest pips tied: nobody scores"
        else:
            who = self.name(winner, start=False)
            scores = f"{self.verb(winner, 'scores')} {self.points(e['points'][winner])}"
            if e["how"] == "domino":
                how = f"Hand {hand} is over: {who} went out and {scores} for the pips left in the other hands"
            else:
                how = f"Hand {hand} is over, blocked: {who} held the fewest pips and {scores}"
        totals = self.listing([(s, str(v)) for s, v in enumerate(e["totals"])])
        return f"{self.sentence(how)} {self.sentence(f'Totals: {totals}')}"


WORDS = RummikubWords
