"""Four-man two-box draw's events in words: the spinner, plays on the four arms, stacks, counts and steals.

The vocabulary is the rules page's (``docs/rules/twobox.md``): the spinner, its four
arms (sides 1 and 2, tips 3 and 4), the count of the open ends, stacking a tile on its
twin, the cutthroat steal, going out ("domino") and the blocked hand. Points come during
play as well as at a hand's end, so the hand's end says each seat's points this hand,
counts included, and the totals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import Words


class TwoboxWords(Words):
    """Two-box's sentences: one ``on_<kind>`` per event kind of ``boneyard/games/twobox/events.py``."""

    @staticmethod
    def arm(arm: int) -> str:
        """An arm as players call it: "arm 1, a side", "arm 3, a tip"."""
        return f"arm {arm}, a {'side' if arm in (1, 2) else 'tip'}"

    def on_redeal(self, e: Mapping[str, Any]) -> str:
        """Nobody holds a double: the tiles are shuffled and dealt again."""
        return self.sentence("Nobody holds a double: the tiles are shuffled and dealt again")

    def on_deal(self, e: Mapping[str, Any]) -> str:
        """A new hand: tiles each and the boneyard's size."""
        each = self.count(e["hand_size"], "tile")
        return self.sentence(f"Hand {e['hand']}: {each} each, {self.count(e['boneyard'], 'tile')} in the boneyard")

    def on_spinner(self, e: Mapping[str, Any]) -> str:
        """The highest double set as the spinner."""
        return self.sentence(f"{self.does(e['seat'], 'sets')} the spinner, {e['tile']}")

    def on_draw(self, e: Mapping[str, Any]) -> str:
        """A draw from the boneyard: the tile for the seat that drew it, "a tile" for the others."""
        tile = e.get("tile")
        return self.sentence(f"{self.does(e['seat'], 'draws')} {tile if tile else 'a tile'}")

    def on_play(self, e: Mapping[str, Any]) -> str:
        """A tile played on an arm."""
        return self.sentence(f"{self.does(e['seat'], 'plays')} {e['tile']} on {self.arm(e['arm'])}")

    def on_stack(self, e: Mapping[str, Any]) -> str:
        """A tile stacked on its twin at an arm's end, or on the spinner."""
        on = "the spinner" if e["on"] == 0 else f"the {e['tile']} ending arm {e['on']}"
        return self.sentence(f"{self.does(e['seat'], 'stacks')} {e['tile']} on {on}")

    def on_score(self, e: Mapping[str, Any]) -> str:
        """A play that makes the count a multiple of five, and what it scores."""
        return self.sentence(f"{self.does(e['seat'], 'scores')} {e['points']} (the count is {e['count']})")

    def on_steal(self, e: Mapping[str, Any]) -> str:
        """A cutthroat stack taking the previous play's score from its scorer."""
        victim = self.name(e["victim"], start=False)
        return self.sentence(f"{self.does(e['seat'], 'steals')} {e['points']} from {victim} (cutthroat)")

    def on_pass(self, e: Mapping[str, Any]) -> str:
        """A player who cannot play with the boneyard empty."""
        return self.sentence(f"{self.name(e['seat'])} cannot play and {self.verb(e['seat'], 'passes')}")

    def on_domino(self, e: Mapping[str, Any]) -> str:
        """Going out: the pips left in the other hands scored."""
        seat = e["seat"]
        return self.sentence(f"{self.does(seat, 'goes')} out and {self.verb(seat, 'scores')} {e['points']} "
                             "for the pips left in the other hands")

    def on_blocked(self, e: Mapping[str, Any]) -> str:
        """The hand blocked: the lightest hand scores, unless the lightest tie even on their lowest tile."""
        seat = e["seat"]
        if seat is None:
            return self.sentence("Blocked: the lightest hands tie even on their lowest tile, so nobody scores")
        return self.sentence(f"The hand is blocked: {self.does(seat, 'has', start=False)} "
                             f"the fewest pips and {self.verb(seat, 'scores')} {e['points']}")

    def on_hand_end(self, e: Mapping[str, Any]) -> str:
        """The hand's end: how it ended, then each seat's points this hand (counts included) and the totals."""
        winner = e["winner"]
        hand = e["hand"]
        if e["how"] == "target" and winner is not None:
            who = self.does(winner, "reaches", start=False)
            how = f"Hand {hand} stops: {who} the target with {self.points(e['totals'][winner])}"
        elif e["how"] == "domino" and winner is not None:
            how = f"Hand {hand} is over: {self.name(winner, start=False)} went out (+{e['award']} for the pips left)"
        elif winner is not None:
            how = f"Hand {hand} is blocked: {self.name(winner, start=False)} had the fewest pips (+{e['award']})"
        else:
            how = f"Hand {hand} is blocked and the lightest hands tie: nobody scores the block"
        this_hand = self.listing([(s, self.signed(v)) for s, v in enumerate(e["points"])])
        totals = self.listing([(s, str(v)) for s, v in enumerate(e["totals"])])
        return " ".join(self.sentence(t) for t in (how, f"Points this hand: {this_hand}", f"Totals: {totals}"))


WORDS = TwoboxWords
