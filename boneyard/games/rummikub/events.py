"""Domino Rummikub's events: what happens at a Rummikub table, as data (see :mod:`boneyard.games.events`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11

from ..events import SEAT_ONLY, Dealt, FirstDealer


class Deal(TypedDict):
    """A hand is dealt; the seat after the dealer plays first."""

    kind: Literal["deal"]
    hand: Annotated[int, "the hand's number, 1 for the first"]
    dealer: Annotated[int, "the dealer"]
    first: Annotated[int, "the seat that plays first"]



class Draw(TypedDict):
    """A player draws a tile from the boneyard instead of playing."""

    kind: Literal["draw"]
    seat: Annotated[int, "the player"]
    tile: NotRequired[Annotated[str, SEAT_ONLY, "the tile drawn"]]


class Pass(TypedDict):
    """A player who does not play with the boneyard empty passes."""

    kind: Literal["pass"]
    seat: Annotated[int, "the player"]


class Play(TypedDict):
    """A player lays tiles, rearranging the table as he likes (his first play is his opening)."""

    kind: Literal["play"]
    seat: Annotated[int, "the player"]
    tiles: Annotated[list[str], "the tiles he laid from his hand, highest first"]
    opening: Annotated[bool, "whether this is his opening play"]


class Domino(TypedDict):
    """A player lays his last tile and wins the hand."""

    kind: Literal["domino"]
    seat: Annotated[int, "the player"]


class Blocked(TypedDict):
    """Every player passed in a row with the boneyard empty: the fewest pips win the hand."""

    kind: Literal["blocked"]
    seat: Annotated[int | None, "the player with the fewest pips (null: tied, nobody scores)"]


class HandEnd(TypedDict):
    """The hand is over and scored: the winner scores the pips left in the other hands."""

    kind: Literal["hand_end"]
    hand: Annotated[int, "the hand's number"]
    how: Annotated[Literal["domino", "blocked"], "a player went out, or every player passed"]
    winner: Annotated[int | None, "who won the hand (null: a tied block)"]
    table: Annotated[list[list[str]], "the table's groups as the hand ended"]
    hands: Annotated[list[list[str]], "the tiles left in each hand"]
    pips: Annotated[list[int], "the pips left in each hand"]
    points: Annotated[list[int], "each seat's points this hand"]
    totals: Annotated[list[int], "each seat's total after it"]


EVENTS: tuple[type, ...] = (FirstDealer, Deal, Dealt, Draw, Pass, Play, Domino, Blocked, HandEnd)
