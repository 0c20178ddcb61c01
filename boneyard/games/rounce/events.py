"""Domino Rounce's events: what happens at a Rounce table, as data (see :mod:`boneyard.games.events`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11

from ..events import SEAT_ONLY, Dealt, FirstDealer, TrickPlay


class Deal(TypedDict):
    """A hand is dealt: five tiles each, and the next tile turned up names the trump."""

    kind: Literal["deal"]
    hand: Annotated[int, "the hand's number, 1 for the first"]
    dealer: Annotated[int, "the dealer"]
    turn_up: Annotated[str, "the tile turned up"]
    trump: Annotated[int, "the trump number (the turn-up's higher end)"]



class Pass(TypedDict):
    """A player keeps his hand and plays it (his call)."""

    kind: Literal["pass"]
    seat: Annotated[int, "the caller"]


class Fold(TypedDict):
    """A player folds: his tiles go out face down and he sits out the hand."""

    kind: Literal["fold"]
    seat: Annotated[int, "the caller"]


class Dummy(TypedDict):
    """A player throws his hand out face down and takes the dummy hand from the boneyard."""

    kind: Literal["dummy"]
    seat: Annotated[int, "the caller"]
    count: Annotated[int, "how many tiles the dummy hand holds (he discards down to five)"]


class DummyTiles(TypedDict):
    """Seen only by its seat: the tiles of the dummy hand it took."""

    kind: Literal["dummy_tiles"]
    seat: Annotated[int, "the seat that took the dummy"]
    tiles: Annotated[list[str], "the dummy hand's tiles"]


class Take(TypedDict):
    """The dealer takes the turn-up into his hand (he then discards one tile)."""

    kind: Literal["take"]
    seat: Annotated[int, "the dealer"]
    tile: Annotated[str, "the turn-up"]


class Defend(TypedDict):
    """The dealer defends: he plays against the dummy without scoring himself."""

    kind: Literal["defend"]
    seat: Annotated[int, "the dealer"]


class PlayOn(TypedDict):
    """The dealer, having taken the turn-up, plays on without defending."""

    kind: Literal["play_on"]
    seat: Annotated[int, "the dealer"]


class Discard(TypedDict):
    """A player discards a tile face down (after taking the turn-up or a dummy)."""

    kind: Literal["discard"]
    seat: Annotated[int, "the player discarding"]
    tile: NotRequired[Annotated[str, SEAT_ONLY, "the tile discarded"]]


class Walkover(TypedDict):
    """Every other player folded: the one left in takes all five tricks without play."""

    kind: Literal["walkover"]
    seat: Annotated[int, "the player left in"]


class Play(TypedDict):
    """A tile is played to the trick."""

    kind: Literal["play"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile"]
    suit: Annotated[int | None, "the suit a lead that is neither trump nor double is played as (else null)"]



class Trick(TypedDict):
    """A trick is complete and won."""

    kind: Literal["trick"]
    seat: Annotated[int, "the winner of the trick"]
    number: Annotated[int, "the trick's number in the hand, 1 to 5"]
    plays: Annotated[list[TrickPlay], "the trick's tiles in the order played, the lead first"]


class Rounced(TypedDict):
    """A player who played the hand took no trick: five points go back on."""

    kind: Literal["rounced"]
    seat: Annotated[int, "the player rounced"]


class HandEnd(TypedDict):
    """The hand is over and scored."""

    kind: Literal["hand_end"]
    hand: Annotated[int, "the hand's number"]
    dealer: Annotated[int, "its dealer"]
    trump: Annotated[int, "its trump number"]
    calls: Annotated[list[str | None], "each seat's call: pass, fold, dummy, take or defend"]
    tricks: Annotated[list[int], "tricks taken per seat"]
    rounced: Annotated[list[int], "the seats rounced"]
    walkover: Annotated[int | None, "the seat that took all five tricks without play, else null"]
    played: Annotated[list[Trick], "every trick of the hand, in order: its trick event again"]
    points: Annotated[list[int], "each seat's change this hand (negative: points off)"]
    totals: Annotated[list[int], "each seat's points left after the hand"]


EVENTS: tuple[type, ...] = (
    FirstDealer, Deal, Dealt, Pass, Fold, Dummy, DummyTiles, Take, Defend, PlayOn, Discard, Walkover, Play,
    Trick, Rounced, HandEnd,
)
