"""Eighty's events in words: the shuffler, one round of bids, trumps, ten tricks, and the sides' scores.

The vocabulary is the rules page's (``docs/rules/eighty.md``): the shuffler, bids from 50
to 80 or Nel-O, trumps named by the bidder, count tiles in the tricks, a bid made or set.
Eighty is played by two sides of partners sitting opposite (the game's declared
``sides``), and a side is named by both its partners: "Ann and Cy". With the marks rule a
hand wins its side one mark, and the hand's end says the marks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import Words


class EightyWords(Words):
    """Eighty's sentences: one ``on_<kind>`` per event kind of ``boneyard/games/eighty/events.py``."""

    def side(self, seat: int) -> str:
        """The side a seat plays for, named by both partners in seat order: "Ann and Cy", "Bob and you"."""
        return self.side_name(self.side_index(seat))

    def their(self, seat: int) -> str:
        """The possessive of a seat's side: "your" when the reader is on it, else "their"."""
        mine = self.me is not None and self.side_index(self.me) == self.side_index(seat)
        return "your" if mine else "their"

    @staticmethod
    def bid(bid: Any) -> str:
        """A bid as said: "60", "Nel-O"."""
        return "Nel-O" if bid == "nel-o" else str(bid)

    def on_first_dealer(self, e: Mapping[str, Any]) -> str:
        """Who shuffles the first hand."""
        return self.sentence(f"{self.does(e['seat'], 'shuffles')} first")

    def on_deal(self, e: Mapping[str, Any]) -> str:
        """A new hand and its shuffler; two tiles lie out unseen."""
        dealer = e["dealer"]
        shuffles = self.does(dealer, "shuffles", start=False)
        return self.sentence(f"Hand {e['hand']}: {shuffles}; two tiles lie out")

    def on_pass(self, e: Mapping[str, Any]) -> str:
        """A pass in the bidding."""
        return self.sentence(self.does(e["seat"], "passes"))

    def on_bid(self, e: Mapping[str, Any]) -> str:
        """A bid: a number of points, or Nel-O."""
        return self.sentence(f"{self.does(e['seat'], 'bids')} {self.bid(e['bid'])}")

    def on_thrown_in(self, e: Mapping[str, Any]) -> str:
        """All four passed: the hand is thrown in and the next seat shuffles."""
        dealer = e["dealer"]
        return self.sentence(
            f"All four passed: hand {e['hand']} is thrown in and {self.name(dealer, start=False)} "
            f"{self.verb(dealer, 'shuffles')} next"
        )

    def on_bid_won(self, e: Mapping[str, Any]) -> str:
        """The bidding won, and what the bidder's side must now take."""
        seat = e["seat"]
        won = f"{self.does(seat, 'wins')} the bidding with {self.bid(e['bid'])}"
        if e["bid"] == "nel-o":
            return self.sentence(f"{won} and must take no trick")
        if e["early"]:
            won += " (no higher bid is possible)"
        return self.sentence(f"{won}: {self.side(seat)} must take {self.points(e['bid'])}")

    def on_nel_o(self, e: Mapping[str, Any]) -> str:
        """Nel-O: the bidder's partner sits out with his tiles face down, and there are no trumps."""
        return self.sentence(f"Nel-O: {self.does(e['seat'], 'sits', start=False)} out, "
                             "tiles face down, and there are no trumps")

    def on_trump(self, e: Mapping[str, Any]) -> str:
        """The trump suit named by the bidder."""
        return self.sentence(f"{self.does(e['seat'], 'names')} {self.suit(e['suit'])} trumps")

    def on_play(self, e: Mapping[str, Any]) -> str:
        """A tile played to the trick."""
        return self.sentence(f"{self.does(e['seat'], 'plays')} {e['tile']}")

    def on_trick(self, e: Mapping[str, Any]) -> str:
        """A trick won, with the tile that won it and the points it brings the winner's side."""
        seat = e["seat"]
        tile = next((p["tile"] for p in e["plays"] if p["seat"] == seat), None)
        said = f"{self.does(seat, 'wins')} trick {e['number']}" + (f" with {tile}" if tile else "")
        return self.sentence(f"{said}: {self.points(e['points'])} for {self.side(seat)}")

    def on_nel_o_set(self, e: Mapping[str, Any]) -> str:
        """The Nel-O bidder took a trick: the bid is set and the hand stops."""
        return self.sentence(f"{self.name(e['seat'])} took a trick: Nel-O is set")

    def on_hand_end(self, e: Mapping[str, Any]) -> str:
        """The hand's end: the bid made or set, what each side scores, then the scores or marks."""
        bidder = e["bidder"]
        side = self.side_index(bidder)
        other = 1 - side
        us, them = self.side_name(side), self.side_name(other)
        bid = e["bid"]
        marks = e["scoring"] == "marks"
        if bid == "nel-o":
            who = self.name(bidder, start=False)
            if e["made"]:
                result = f"{who} made Nel-O, taking no trick; {us} score {e['gains'][side]}"
            else:
                result = f"{who} took a trick and Nel-O is set; {them} score {e['gains'][other]}"
        elif e["made"]:
            took = f"{self.points(e['taken'][side])} in {self.count(e['tricks'][side], 'trick')}"
            result = f"{us} made {self.their(bidder)} bid of {bid} with {took}; {them} score {e['gains'][other]}"
        else:
            took = self.points(e["taken"][side])
            result = (f"{us} are set, taking {took} against {self.their(bidder)} bid of {bid}; "
                      f"{them} score {e['gains'][other]} (the bid and {e['taken'][other]} taken)")
        first = self.sentence(f"Hand {e['hand']} is over: {result}")
        if marks:
            winner = side if e["made"] else other
            tally = f"{self.figure(us, str(e['marks'][side]))}, {self.figure(them, str(e['marks'][other]))}"
            return f"{first} {self.sentence(f'{self.side_name(winner)} win the hand and a mark; marks: {tally}')}"
        ours, theirs = e["totals"][self.sides[side][0]], e["totals"][self.sides[other][0]]
        tally = f"{self.figure(us, str(ours))}, {self.figure(them, str(theirs))}"
        return f"{first} {self.sentence(f'Scores: {tally}')}"

WORDS = EightyWords
