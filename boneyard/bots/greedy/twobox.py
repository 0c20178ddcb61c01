"""Greedy two-box: score now, block the count, keep doubles playable.

The heuristic, as a decent player would put it. Each play (or stack) is valued as:

- **Score now**: the points it scores (the open-end count after it, when a multiple of 5;
  with ``cutthroat`` a stack right after a scoring play steals that score).
- **Block the count**: minus half the points the next player could score on the layout it
  leaves, averaged over the tiles unseen by this seat, weighted by the chance he holds them.
- **Keep doubles playable**: a bonus for playing a double while its number is open, and a
  penalty for each double left in hand whose number shows on no open end.
- **Keep a follow**: a bonus for each open end the hand left can still play on, so the
  seat is not soon forced to draw (every drawn tile is pips for whoever goes out).
- **Lighten the hand**: a little for heavy tiles, and a large bonus for going out.

Draw only when nothing can be played; pass only when nothing else is legal.

For the ``ismcts`` bot (its profile is in ``bots/profiles/twobox.py``) the heuristic runs
on the engine's fast path, compiled with the engines from ``bots/playouts/twobox.py``: the
search compares every play and stack, and a voluntary draw, each played out to the hand's
end by this heuristic for every seat. The values are computed in one place,
:func:`boneyard.bots.playouts.twobox.values`; this module turns a view into its input and
the answer back into the engine's action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from ...games.twobox.engine import action_index, fast_view
from ...tiles import tile_of
from ..playouts import twobox as fast


class Weights(NamedTuple):
    """The heuristic's weights (one source: the playouts are given these too)."""

    block: float = 0.5  # times the next player's expected best score on the layout left
    double: float = 3.0  # bonus for playing a double
    stranded: float = 2.0  # penalty per double left in hand whose number shows on no open end
    pip: float = 0.2  # per pip of the tile played
    out: float = 25.0  # bonus for going out
    follow: float = 1.0  # per open end left that a tile of the remaining hand matches


WEIGHTS = Weights()
# The search's playouts keep greedy as it was before the follow term: the term makes greedy
# itself stronger, but a search whose playouts had it did not play better (docs/bots-measurements.md).
PLAYOUT_WEIGHTS = WEIGHTS._replace(follow=0.0)


def fast_weights(weights: Weights) -> fast.Weights:
    """``weights`` as the compiled heuristic takes them."""
    return fast.Weights(*weights)


def choose(
    view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random, weights: Weights | None = None
) -> Any:
    """The greedy action for a two-box view (``weights``: the heuristic's, :data:`WEIGHTS` when ``None``).

    Play the best-valued play or stack; draw only when nothing can be played; pass only
    when nothing else is legal. :data:`WEIGHTS` is read at each call, so an experiment that
    swaps it changes greedy's choices (the search's playouts read :data:`PLAYOUT_WEIGHTS`).
    """
    hand = fast_view(view)
    moves = hand.plays()
    if not moves:
        for a in legal_actions:
            if a.kind == "draw":
                return a
        return legal_actions[0]
    move = fast.pick(hand, moves, fast_weights(WEIGHTS if weights is None else weights))
    return _listed(legal_actions, move)


def _listed(legal_actions: Sequence[Any], move: int) -> Any:
    """The listed engine action for integer action ``move``."""
    for a in legal_actions:
        if action_index(a) == move:
            return a
    raise ValueError(f"integer action {move} is not among the legal actions")


def values(view: dict[str, Any], legal_actions: Sequence[Any], weights: Weights | None = None) -> dict[str, float]:
    """The heuristic's value of each legal play or stack, by its notation (the coach and tests read them)."""
    hand = fast_view(view)
    moves = hand.plays()
    found = fast.values(hand, moves, fast_weights(WEIGHTS if weights is None else weights))
    by_move = dict(zip(moves, found, strict=True))
    return {str(a): by_move[action_index(a)] for a in legal_actions if action_index(a) in by_move}


def playout(view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
    """In the search profile: the playout policy, greedy with :data:`PLAYOUT_WEIGHTS` (as :func:`outcomes` plays)."""
    return choose(view, legal_actions, rng, PLAYOUT_WEIGHTS)


def evaluate(game: Any) -> list[float]:
    """Each seat's expected further gain in the hand, from its view.

    Used where a playout through the engine stops early: each seat expects the going-out
    award (the pips in the other hands) in proportion to its chance of going out, taken as
    ``1 / tiles in hand**2`` normalised over the seats.
    """
    hands = [game.view(s)["hand"] for s in range(game.players)]
    pips = [sum(tile_of(t).pips for t in h) for h in hands]
    weights = [1.0 / len(h) ** 2 if h else 0.0 for h in hands]
    total = sum(weights) or 1.0
    all_pips = sum(pips)
    return [w / total * (all_pips - p) for w, p in zip(weights, pips, strict=True)]
