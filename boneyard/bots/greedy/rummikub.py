"""Greedy Rummikub: play the solver's best, keeping jokers while they are not needed.

Built on the exact solver (``boneyard.games.rummikub.solver``) and the group rules
(``boneyard.games.rummikub.groups``):

- **Opening**: the starting group with the most pips, preferring one without jokers.
- **After opening**: the new table that lays the most hand tiles (ties: most pips).
  Jokers (``0-0``, ``6-6``) are kept back when the hand without them can still play:
  they are spent only when that goes out, or lays at least two tiles more.
- Otherwise draw (pass when the boneyard is empty).

The play is returned as a listed legal action when it is one, else as its notation
(the engine accepts any valid whole-table play, not only the listed ones).

The ``ismcts`` search plays :func:`playout` in its playouts: greedy's play, but *held*
(a draw instead) after opening until it goes out, while the boneyard lasts. Laid tiles
are every seat's to rework, so each play feeds the others' next plays; a seat that holds
gives them nothing and goes out in one play from its own tiles and everything they laid.
The search also starts from the held choice (:data:`PROFILE`'s favourite), with three times the
usual head start (its ``favourite_prior``). The ``greedy`` bot itself
still plays as above; what holding is worth is in ``docs/bots-measurements.md``.

For the ``ismcts`` bot, the profile's ``evidence_z`` is 0: the most visited action is played. Each
simulated turn of an opened player asks the engine for its legal plays, which runs the
exact solver; with the compiled solver (about a millisecond) an iteration costs about
2 ms, so a 200 ms decision affords about a hundred playouts, enough for the search's
own choice to beat this play (``docs/bots-measurements.md``). With the solver's old pure-Python search
a decision afforded only a few playouts, and the search was made to keep greedy's play
unless it had two standard errors of evidence against it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rummikub import solver
from ...games.rummikub.engine import distinct_sums, has_opened, table_groups
from ...games.rummikub.groups import best_opening, is_joker, order_group, play_notation, valid_triples
from ...tiles import Tile
from ..profile import SearchProfile

JOKER_SAVING = 2  # spend jokers only to lay this many more tiles (or to go out)
# States the exact search may visit (the engine's own bound on listing plays): past it
# the solver's quick play is used, so a dense table never stalls a decision.
SOLVER_BUDGET = 20_000
# the search's playout policy holds plays while every other seat has more tiles than this
# (0: until the seat goes out or the boneyard is empty); see playout
HOLD_UNTIL = 0


def best_text(view: dict[str, Any]) -> str | None:
    """The greedy play's notation, or ``None`` when no hand tile can be played."""
    hand = [Tile.parse(t) for t in view.get("hand") or []]
    if not hand:
        return None
    distinct = distinct_sums(view)
    groups = table_groups(view)
    naturals = [t for t in hand if not is_joker(t)]
    if not has_opened(view):
        triples = valid_triples(naturals, distinct)
        opening = max(triples, key=lambda g: sum(t.pips for t in g)) if triples else None
        if opening is None:
            opening = best_opening(hand, distinct)
        if opening is None:
            return None
        return play_notation([*groups, order_group(list(opening))])
    present = [[Tile.parse(t) for t in g] for g in groups]
    table = [t for g in present for t in g]
    full = solver.best_play(table, hand, distinct, groups=present, budget=SOLVER_BUDGET)
    if full is None:
        return None
    if len(naturals) < len(hand) and len(full.played) < len(hand):
        saving = solver.best_play(table, naturals, distinct, groups=present, budget=SOLVER_BUDGET)
        if saving is not None and len(saving.played) + JOKER_SAVING > len(full.played):
            return play_notation(saving.table)
    return play_notation(full.table)


def choose(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """The greedy action for a Rummikub view."""
    texts = {str(a): a for a in legal_actions}
    try:
        found = best_text(view)
    except ValueError:
        found = None
    if found is not None:
        return texts.get(found, found)
    for word in ("draw", "pass"):
        if word in texts:
            return texts[word]
    return legal_actions[0]


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


#: How ``ismcts`` and the coach play Rummikub (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=25.0,  # a hand's typical score swing, squashing margins into [0, 1]
    evidence_z=0.0,  # the most visited action is played (see the module docstring)
    playout=playout,
    # the head start goes to the playout policy's choice, not greedy's, and is this share of
    # the iterations: the held draw is a plan, seldom worth dropping on a few noisy playouts
    # (with the usual 0.1 the search overruled it in a third of its turns)
    favourite="playout",
    favourite_prior=0.3,
    choose=choose,
)
