"""Four-man two-box draw's events: what happens at a two-box table, as data (see :mod:`boneyard.games.events`)."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11

from ..events import SEAT_ONLY, Dealt


class Redeal(TypedDict):
    """Nobody holds a double: the tiles are reshuffled and dealt again."""

    kind: Literal["redeal"]


class Deal(TypedDict):
    """A hand is dealt."""

    kind: Literal["deal"]
    hand: Annotated[int, "the hand's number, 1 for the first"]
    hand_size: Annotated[int, "tiles dealt to each seat"]
    boneyard: Annotated[int, "tiles left in the boneyard"]



class Spinner(TypedDict):
    """The holder of the highest double sets it as the spinner (and scores its count)."""

    kind: Literal["spinner"]
    seat: Annotated[int, "the player setting it"]
    tile: Annotated[str, "the double"]


class Draw(TypedDict):
    """A player draws a tile from the boneyard."""

    kind: Literal["draw"]
    seat: Annotated[int, "the player"]
    tile: NotRequired[Annotated[str, SEAT_ONLY, "the tile drawn"]]


class Play(TypedDict):
    """A player plays a tile on an arm."""

    kind: Literal["play"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile"]
    arm: Annotated[int, "the arm: 1 and 2 the sides, 3 and 4 the tips"]


class Stack(TypedDict):
    """A player stacks a tile on the identical tile at an arm's end (or on the spinner)."""

    kind: Literal["stack"]
    seat: Annotated[int, "the player"]
    tile: Annotated[str, "the tile"]
    on: Annotated[int, "the arm stacked on (0: the spinner)"]


class Score(TypedDict):
    """A play (or the spinner) makes the count a multiple of 5: the player scores it."""

    kind: Literal["score"]
    seat: Annotated[int, "the scorer"]
    points: Annotated[int, "the points scored"]
    count: Annotated[int, "the count of the open ends"]


class Steal(TypedDict):
    """Cutthroat: a stack right after a scoring play steals that score (doubled for a double)."""

    kind: Literal["steal"]
    seat: Annotated[int, "the stealer"]
    victim: Annotated[int, "the player who scored the play"]
    points: Annotated[int, "the points taken"]


class Pass(TypedDict):
    """A player who cannot play with the boneyard empty passes."""

    kind: Literal["pass"]
    seat: Annotated[int, "the player"]


class Domino(TypedDict):
    """A player plays his last tile and scores the pips left in the other hands."""

    kind: Literal["domino"]
    seat: Annotated[int, "the player"]
    points: Annotated[int, "the points he scores"]


class Blocked(TypedDict):
    """Every player passed in a row: the lightest hand scores the others' pips less its own."""

    kind: Literal["blocked"]
    seat: Annotated[int | None, "the player with the fewest pips (null: tied even on the lowest tile)"]
    points: Annotated[int, "the points he scores"]


class LaidTile(TypedDict):
    """A tile on an arm."""

    tile: Annotated[str, "the tile"]
    outer: Annotated[int, "its open (outer) number"]
    seat: Annotated[int, "who played it"]
    stacked_by: Annotated[int | None, "who stacked its twin on it, else null"]


class Arm(TypedDict):
    """One arm of the layout."""

    arm: Annotated[int, "1 and 2 the sides, 3 and 4 the tips"]
    tiles: Annotated[list[LaidTile], "its tiles from the spinner out"]


class HandEnd(TypedDict):
    """The hand is over: a player went out, every player was blocked, or someone reached the target."""

    kind: Literal["hand_end"]
    hand: Annotated[int, "the hand's number"]
    how: Annotated[Literal["domino", "blocked", "target"], "went out, blocked, or the target reached during play"]
    winner: Annotated[int | None, "who went out, scored the block, or reached the target (null: a tied block)"]
    award: Annotated[int, "the going-out or block award"]
    spinner: Annotated[str, "the spinner"]
    spinner_seat: Annotated[int, "who set it"]
    spinner_stacked_by: Annotated[int | None, "who stacked its twin on it, else null"]
    arms: Annotated[list[Arm], "the layout's four arms as the hand ended"]
    hands: Annotated[list[list[str]] | None, "the tiles left in each hand (null when the target ended play)"]
    pips: Annotated[list[int] | None, "the pips left in each hand (null when the target ended play)"]
    points: Annotated[list[int], "each seat's points this hand: counts, steals and awards"]
    totals: Annotated[list[int], "each seat's total after it"]


EVENTS: tuple[type, ...] = (
    Redeal, Deal, Dealt, Spinner, Draw, Play, Stack, Score, Steal, Pass, Domino, Blocked, HandEnd,
)
