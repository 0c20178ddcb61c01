"""Greedy Rummikub: play the solver's best, keeping jokers while they are not needed.

Built on the exact solver (``boneyard.games.rummikub_solver``):

- **Opening**: the starting group with the most pips, preferring one without jokers.
- **After opening**: the new table that lays the most hand tiles (ties: most pips).
  Jokers (``0-0``, ``6-6``) are kept back when the hand without them can still play:
  they are spent only when that goes out, or lays at least two tiles more.
- Otherwise draw (pass when the boneyard is empty).

The play is returned as a listed legal action when it is one, else as its notation
(the engine accepts any valid whole-table play, not only the listed ones).

For the ``ismcts`` bot, :data:`EVIDENCE_Z` is 0: the most visited action is played. Each
simulated turn of an opened player asks the engine for its legal plays, which runs the
exact solver; with the compiled solver (about a millisecond) an iteration costs about
2 ms, so a 200 ms decision affords about a hundred playouts, enough for the search's
own choice to beat this play (``docs/bots.md``). With the solver's old pure-Python search
a decision afforded only a few playouts, and the search was made to keep greedy's play
unless it had two standard errors of evidence against it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rummikub import solver
from ...tiles import Tile

JOKER_SAVING = 2  # spend jokers only to lay this many more tiles (or to go out)
# States the exact search may visit (the engine's own bound on listing plays): past it
# the solver's quick play is used, so a dense table never stalls a decision.
SOLVER_BUDGET = 20_000
EVIDENCE_Z = 0.0  # ismcts plays its most visited action (see the module docstring)


def table_groups(view: dict[str, Any]) -> list[list[str]]:
    """The table's groups (``view["table"]``) as lists of tile strings."""
    return [[str(t) for t in g] for g in view.get("table") or []]


def opened(view: dict[str, Any]) -> bool:
    """Whether this seat has played its starting group this hand (True if the view does not say)."""
    seat = view.get("seat")
    flags = view.get("opened") or []
    if not isinstance(seat, int) or not 0 <= seat < len(flags):
        return True
    return bool(flags[seat])


def play_text(groups: Sequence[Sequence[Any]]) -> str:
    """The notation of a whole-table play."""
    return "play " + " | ".join(" ".join(str(t) for t in g) for g in groups)


def distinct_sums(view: dict[str, Any]) -> bool:
    """Whether the table plays with the ``distinct_sums`` option."""
    return bool((view.get("rules") or {}).get("distinct_sums", False))


def best_text(view: dict[str, Any]) -> str | None:
    """The greedy play's notation, or ``None`` when no hand tile can be played."""
    hand = [Tile.parse(t) for t in view.get("hand") or []]
    if not hand:
        return None
    distinct = distinct_sums(view)
    groups = table_groups(view)
    naturals = [t for t in hand if not solver.is_joker(t)]
    if not opened(view):
        triples = solver.valid_triples(naturals, distinct)
        opening = max(triples, key=lambda g: sum(t.pips for t in g)) if triples else None
        if opening is None:
            opening = solver.best_opening(hand, distinct)
        if opening is None:
            return None
        return play_text([*groups, solver.order_group(list(opening))])
    present = [[Tile.parse(t) for t in g] for g in groups]
    table = [t for g in present for t in g]
    full = solver.best_play(table, hand, distinct, groups=present, budget=SOLVER_BUDGET)
    if full is None:
        return None
    if len(naturals) < len(hand) and len(full.played) < len(hand):
        saving = solver.best_play(table, naturals, distinct, groups=present, budget=SOLVER_BUDGET)
        if saving is not None and len(saving.played) + JOKER_SAVING > len(full.played):
            return play_text(saving.table)
    return play_text(full.table)


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
