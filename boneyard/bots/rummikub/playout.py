"""Rummikub's playout policy: greedy's play, held back (a draw instead) until it goes out.

The ``ismcts`` search plays :func:`playout` in its playouts: greedy's play
(``greedy/rummikub.py``), but *held* after opening until it goes out, while the boneyard
lasts. Laid tiles are every seat's to rework, so each play feeds the others' next plays;
a seat that holds gives them nothing and goes out in one play from its own tiles and
everything they laid. The search also starts from the held choice (the profile's
favourite, :mod:`boneyard.bots.profiles.rummikub`). What holding is worth is in
``docs/bots-measurements.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rummikub.engine import has_opened
from ..greedy.rummikub import choose

# the playout policy holds plays while every other seat has more tiles than this
# (0: until the seat goes out or the boneyard is empty); see holds
HOLD_UNTIL = 0


def _tiles_in(action: Any) -> int:
    """How many tiles a play's whole new table holds (its notation, ``play a b c | d e f``)."""
    return sum(len(group.split()) for group in str(action)[len("play ") :].split("|"))


def holds(view: dict[str, Any], action: Any) -> bool:
    """Whether :func:`playout` holds ``action`` back (draws instead of making it).

    Held: a play by a seat that has opened, which does not lay its whole hand, while the
    boneyard has tiles and every other seat holds more than :data:`HOLD_UNTIL` tiles.
    The opening is never held (until a seat opens it cannot use the table at all), nor a
    play that goes out, nor any play once drawing is no longer possible.
    """
    text = str(action)
    if not text.startswith("play ") or not has_opened(view) or not view.get("boneyard"):
        return False
    laid = _tiles_in(text) - sum(len(group) for group in view.get("table") or [])
    if laid >= len(view["hand"]):
        return False
    seat = view["seat"]
    sizes = view.get("hand_sizes") or []
    return all(n > HOLD_UNTIL for s, n in enumerate(sizes) if s != seat)


def playout(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The ``ismcts`` search's policy: greedy's choice, held back (a draw) where :func:`holds` says.

    Why hold: the laid tiles are every opened seat's to rework, so a play that does not go
    out hands the other seats material for theirs, while a held hand grows by a tile a
    turn and goes out at once from its tiles and the table's. Against greedy this policy
    wins by far (``benchmarks/rummikub_hold.py``; figures in ``docs/bots-measurements.md``).
    """
    action = choose(view, legal_actions, rng)
    if holds(view, action):
        for candidate in legal_actions:
            if str(candidate) == "draw":
                return candidate
    return action
