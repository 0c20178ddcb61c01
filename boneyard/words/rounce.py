"""Domino Rounce's events in words: the turn-up and its trump, the calls, five tricks, and points off.

The vocabulary is the rules page's (``docs/rules/rounce.md``): the turn-up names the
trump; each player passes (plays his hand), folds, calls dummy or, as dealer, takes the
turn-up or defends; each trick taken is a point off, and a player who played but took
none is rounced: five points back on. Scores count down, so the hand's end says the
points left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import Words


class RounceWords(Words):
    """Rounce's sentences: one ``on_<kind>`` per event kind of ``boneyard/games/rounce/events.py``."""

    def on_deal(self, e: Mapping[str, Any]) -> str:
        """A new hand: its dealer, the turn-up and the trump it names."""
        dealer = e["dealer"]
        deals = self.does(dealer, "deals", start=False)
        trump = f"the turn-up {e['turn_up']} makes {self.suit(e['trump'])} trumps"
        return self.sentence(f"Hand {e['hand']}: {deals}; {trump}")

    def on_pass(self, e: Mapping[str, Any]) -> str:
        """A call of pass: the player keeps the hand and plays it."""
        return self.sentence(f"{self.does(e['seat'], 'passes')} and {self.verb(e['seat'], 'plays')} the hand")

    def on_fold(self, e: Mapping[str, Any]) -> str:
        """A fold: out of this hand, nothing won or lost."""
        return self.sentence(self.does(e["seat"], "folds"))

    def on_dummy(self, e: Mapping[str, Any]) -> str:
        """A call of dummy: the hand thrown out, a new one taken from the boneyard."""
        seat = e["seat"]
        return self.sentence(
            f"{self.does(seat, 'calls')} dummy and {self.verb(seat, 'takes')} {self.count(e['count'], 'tile')} "
            "from the boneyard"
        )

    def on_dummy_tiles(self, e: Mapping[str, Any]) -> str:
        """The dummy hand's tiles, for the player who took it."""
        return self.sentence(f"{self.whose(e['seat'], start=True)} dummy hand: {self.tiles(e['tiles'])}")

    def on_take(self, e: Mapping[str, Any]) -> str:
        """The dealer takes the turn-up into his hand."""
        return self.sentence(f"{self.does(e['seat'], 'takes')} the turn-up {e['tile']}")

    def on_defend(self, e: Mapping[str, Any]) -> str:
        """The dealer defends: he plays against the dummy, his own score unchanged."""
        return self.sentence(f"{self.does(e['seat'], 'defends')} against the dummy, with nothing to win or lose")

    def on_play_on(self, e: Mapping[str, Any]) -> str:
        """The dealer, having taken the turn-up, plays on for himself instead of defending."""
        return self.sentence(f"{self.does(e['seat'], 'plays')} on without defending")

    def on_discard(self, e: Mapping[str, Any]) -> str:
        """A discard face down: the tile for its own player only."""
        tile = e.get("tile")
        return self.sentence(f"{self.does(e['seat'], 'discards')} {tile if tile else 'a tile'} face down")

    def on_walkover(self, e: Mapping[str, Any]) -> str:
        """Everyone else folded: only who is left in. The hand_end that follows at once says
        what it earns (all five tricks without play), and the log would say it twice."""
        return self.sentence(f"{self.does(e['seat'], 'is')} the only one left in")

    def on_play(self, e: Mapping[str, Any]) -> str:
        """A tile played; a lead that is neither trump nor double names its suit."""
        seat = e["seat"]
        if e["suit"] is not None:
            return self.sentence(f"{self.does(seat, 'leads')} {e['tile']} as a {self.number(e['suit'])}")
        return self.sentence(f"{self.does(seat, 'plays')} {e['tile']}")

    def on_trick(self, e: Mapping[str, Any]) -> str:
        """A trick won, and the tile that won it."""
        seat = e["seat"]
        tile = next((p["tile"] for p in e["plays"] if p["seat"] == seat), None)
        said = f"{self.does(seat, 'wins')} trick {e['number']}"
        return self.sentence(f"{said} with {tile}" if tile else said)

    def on_rounced(self, e: Mapping[str, Any]) -> str:
        """A player who played and took no trick: five points back on."""
        return self.sentence(f"{self.name(e['seat'])} took no trick: rounced, 5 points back on")

    def on_hand_end(self, e: Mapping[str, Any]) -> str:
        """The hand's end: each seat's tricks and what they cost or gave back, then the points left."""
        left = self.listing([(s, str(v)) for s, v in enumerate(e["totals"])])
        walkover = e["walkover"]
        if walkover is not None:
            took = (f"{self.does(walkover, 'takes', start=False)} all five tricks "
                    f"without play ({-e['points'][walkover]} off)")
            return self.sentence(f"Hand {e['hand']} is over: everyone else folded and {took}; points left: {left}")
        parts = []
        told_took = False
        for seat, call in enumerate(e["calls"]):
            who = self.name(seat, start=False)
            tricks = e["tricks"][seat]
            if call == "fold":
                parts.append(f"{who} folded")
                told_took = False  # "Bob folded, Cy took three tricks", not "Bob folded, Cy three"
            elif call == "defend":
                parts.append(f"{who} defended ({self.count(tricks, 'trick')}, no change)")
                told_took = False
            elif seat in e["rounced"]:
                parts.append(f"{who} took no trick (rounced: 5 back on)")
                told_took = False
            else:
                # "you took three tricks (3 off), Bob two (2 off)": the verb and noun said once, for neighbours
                took = f"{who} {self.cardinal(tricks)}" if told_took else f"{who} took {self.count(tricks, 'trick')}"
                told_took = True
                parts.append(f"{took} ({-e['points'][seat]} off)")
        return self.sentence(f"Hand {e['hand']} is over: {', '.join(parts)}; points left: {left}")


WORDS = RounceWords
