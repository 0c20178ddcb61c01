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

The search's own parts live beside it: the playout policy that holds plays back
(:mod:`boneyard.bots.rummikub.playout`), joined in the search profile
(:mod:`boneyard.bots.profiles.rummikub`). The ``greedy`` bot itself plays as above.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...games.rummikub import solver
from ...games.rummikub.engine import distinct_sums, has_opened, table_groups
from ...games.rummikub.groups import best_opening, is_joker, order_group, play_notation, valid_triples
from ...tiles import Tile

JOKER_SAVING = 2  # spend jokers only to lay this many more tiles (or to go out)
# States the exact search may visit (the engine's own bound on listing plays): past it
# the solver's quick play is used, so a dense table never stalls a decision.
SOLVER_BUDGET = 20_000


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
