"""Eighty's events: what happens at an Eighty table, as data (see :mod:`boneyard.games.events`).

Eighty is played by two sides: seats 0 and 2 against seats 1 and 3 (``game_info``'s
``sides``); fields per side list side 0 first.
"""

from __future__ import annotations

from typing import Annotated, Literal

from typing_extensions import TypedDict  # pydantic reads these on Python 3.11

from ..events import Dealt, TrickPlay

#: A bid: a number of points from 50 to 80, or Nel-O.
Bid = int | Literal["nel-o"]


class FirstDealer(TypedDict):
    """The first shuffler is chosen."""

    kind: Literal["first_dealer"]
    seat: Annotated[int, "the seat that shuffles the first hand"]


class Deal(TypedDict):
    """A hand is dealt: ten tiles each, two lie out face down."""

    kind: Literal["deal"]
    hand: Annotated[int, "the hand's number, 1 for the first"]
    dealer: Annotated[int, "the shuffler"]



class Pass(TypedDict):
    """A player passes in the bidding."""

    kind: Literal["pass"]
    seat: Annotated[int, "the player"]


class MakeBid(TypedDict):
    """A player bids."""

    kind: Literal["bid"]
    seat: Annotated[int, "the player"]
    bid: Annotated[Bid, "the bid"]


class ThrownIn(TypedDict):
    """All four passed: the hand is thrown in and the next seat shuffles."""

    kind: Literal["thrown_in"]
    hand: Annotated[int, "the hand thrown in"]
    dealer: Annotated[int, "who shuffles next"]


class BidWon(TypedDict):
    """The bidding is over: the highest bidder names the trump and leads."""

    kind: Literal["bid_won"]
    seat: Annotated[int, "the bidder"]
    bid: Annotated[Bid, "the winning bid"]
    early: Annotated[bool, "whether it ended before the shuffler's turn (no higher bid was possible)"]


class NelO(TypedDict):
    """Nel-O is played: the bidder's partner lays his tiles face down and sits out; no trumps."""

    kind: Literal["nel_o"]
    seat: Annotated[int, "the partner sitting out"]


class Trump(TypedDict):
    """The bidder names the trump suit."""

    kind: Literal["trump"]
    seat: Annotated[int, "the bidder"]
    suit: Annotated[int, "the trump number"]


class Play(TypedDict):
    """A tile is played to the trick."""

    kind: Literal["play"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile"]



class Trick(TypedDict):
    """A trick is complete: its winner's side takes its points."""

    kind: Literal["trick"]
    seat: Annotated[int, "the winner of the trick"]
    number: Annotated[int, "the trick's number in the hand"]
    points: Annotated[int, "its worth: 2 for the trick and its count tiles (in Nel-O only who takes it counts)"]
    plays: Annotated[list[TrickPlay], "its tiles in the order played, the lead first"]


class NelOSet(TypedDict):
    """The Nel-O bidder took a trick: Nel-O is set and the hand ends."""

    kind: Literal["nel_o_set"]
    seat: Annotated[int, "the bidder"]


class HandEnd(TypedDict):
    """The hand is over: the bid is made or set, and each side scores."""

    kind: Literal["hand_end"]
    hand: Annotated[int, "the hand's number"]
    bidder: Annotated[int, "the bidder"]
    bid: Annotated[Bid, "the winning bid"]
    trump: Annotated[int | None, "the trump number (null: Nel-O)"]
    sitting_out: Annotated[int | None, "in Nel-O, the bidder's partner who sat out (else null)"]
    made: Annotated[bool, "whether the bid was made"]
    tricks: Annotated[list[int], "tricks taken per side"]
    taken: Annotated[list[int], "points taken in tricks per side"]
    gains: Annotated[list[int], "points scored this hand per side"]
    marks: Annotated[list[int], "hands won per side, after this one"]
    scoring: Annotated[Literal["points", "marks"], "what the totals count: points, or marks (the marks rule)"]
    played: Annotated[list[Trick], "every trick of the hand, in order: its trick event again"]
    points: Annotated[list[int], "each seat's points this hand (its side's)"]
    totals: Annotated[list[int], "each seat's score after it (its side's)"]


EVENTS: tuple[type, ...] = (
    FirstDealer, Deal, Dealt, Pass, MakeBid, ThrownIn, BidWon, NelO, Trump, Play, Trick, NelOSet, HandEnd,
)
