"""Tiny Block's events, declared as every game declares its own (see ``boneyard.games.events``)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11

from boneyard.games.events import SEAT_ONLY


class Deal(TypedDict):
    """A hand is dealt: two tiles each, two left in the boneyard."""

    kind: Literal["deal"]
    hand: Annotated[int, "the hand's number"]


class Dealt(TypedDict):
    """Seen only by its seat: the tiles dealt to it."""

    kind: Literal["dealt"]
    seat: Annotated[int, "the seat dealt to"]
    tiles: Annotated[list[str], "its tiles"]


class Draw(TypedDict):
    """A player draws from the boneyard."""

    kind: Literal["draw"]
    seat: Annotated[int, "the player"]
    tile: NotRequired[Annotated[str, SEAT_ONLY, "the tile drawn"]]


class Pass(TypedDict):
    """A player who can neither play nor draw passes."""

    kind: Literal["pass"]
    seat: Annotated[int, "the player"]


class Play(TypedDict):
    """A player lays a tile on one end of the line."""

    kind: Literal["play"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile"]
    side: Annotated[Literal["left", "right"], "the end of the line"]


class HandEnd(TypedDict):
    """The hand is over: a player went out or both passed."""

    kind: Literal["hand_end"]
    hand: Annotated[int, "the hand's number"]
    winner: Annotated[int | None, "who scores (null: tied pips)"]
    line: Annotated[list[str], "the line as the hand ended"]
    hands: Annotated[list[list[str]], "the tiles left in each hand"]
    points: Annotated[list[int], "each seat's points this hand"]
    totals: Annotated[list[int], "each seat's total after it"]


EVENTS: tuple[type, ...] = (Deal, Dealt, Draw, Pass, Play, HandEnd)
