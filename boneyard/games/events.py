"""How a game declares its events: what happened at a table, as data.

Every engine records what happens as *events*: plain JSON-ready dicts, each with a
``kind`` and plain fields (seats as numbers, tiles as ``"6-4"`` strings, amounts). A game
declares its kinds in ``events.py`` beside its engine, one :class:`~typing.TypedDict` per
kind, listed in that module's ``EVENTS``; the engine builds them as dict literals, which
mypy (and mypyc) check against the declarations. The declarations are the contract: the
JSON Schema in the package (:mod:`boneyard.games.schema`), the tables of ``docs/api.md``
and the tests are made from them.

Conventions shared by every game:

- ``seat``: the seat the event is about (the one who acts, when someone acts); other
  seats have names that say their part (``dealer``, ``winner``, ``victim``...).
- ``tile`` / ``tiles``: tiles as the notation writes them, high end first.
- A part that only some seats may see is declared ``NotRequired[Annotated[T, SEAT_ONLY,
  "..."]]``: the seat itself gets the event with it, the others the same event without it.
  An event that only one seat sees at all (the tiles dealt to it) is marked by
  :data:`PRIVATE` in its docstring's first line (``PRIVATE`` is checked by the tests).
- A field's meaning is a string in its ``Annotated`` metadata; the kind's meaning is its
  docstring.
- ``hand_end`` ends a hand, with how it ended, each seat's points this hand (``points``),
  the totals after it (``totals``) and the final position (layout, table or tricks);
  ``game_over`` (declared here, logged by the base class) ends the game.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from typing_extensions import TypedDict  # the one pydantic reads on Python 3.11


class Only:
    """Field metadata: the field is present only in the views of the seats named."""

    def __init__(self, who: str) -> None:
        self.who = who

    def __repr__(self) -> str:
        return f"Only({self.who!r})"


#: The field is present only in the view of the event's ``seat``.
SEAT_ONLY = Only("the seat itself")

#: The first words of the docstring of a kind that only its ``seat`` ever sees.
PRIVATE = "Seen only by its seat:"


class GameOver(TypedDict):
    """The game is over (after the hand that ended it)."""

    kind: Literal["game_over"]
    winners: Annotated[list[int], "the winning seats (every tied winner)"]
    hand_limit: NotRequired[Annotated[int, "the rules' hand limit, when reaching it ended the game"]]


class Dealt(TypedDict):
    """Seen only by its seat: the tiles dealt to it."""

    kind: Literal["dealt"]
    seat: Annotated[int, "the seat dealt to"]
    tiles: Annotated[list[str], "its tiles, as dealt"]


class TrickPlay(TypedDict):
    """One tile of a trick (the trick-taking games' ``trick`` events list them)."""

    seat: Annotated[int, "who played it"]
    tile: Annotated[str, "the tile"]


class FirstDealer(TypedDict):
    """The first dealer is chosen."""

    kind: Literal["first_dealer"]
    seat: Annotated[int, "the seat that deals the first hand"]


#: The events every game may log (the base class logs them).
COMMON_EVENTS: tuple[type, ...] = (GameOver,)
