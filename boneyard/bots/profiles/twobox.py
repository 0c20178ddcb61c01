"""How ``ismcts`` and the coach search two-box: every play, and a voluntary draw, played out on the engine's fast path.

The search is flat: :func:`candidates` are compared on common sampled worlds, each
played out to the hand's end by greedy for every seat (:func:`outcomes`, compiled with
the engines in ``bots/playouts/twobox.py``), :data:`ROUNDS_PER_WORLD` boneyard orders per
sampled world. The rules let a seat draw even when it could play, and the search weighs
that too (:data:`SEARCH_DRAW`): one more tile from the boneyard, then greedy's play,
against every play now (``docs/bots-measurements.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...games.twobox.engine import PASS_INDEX, action_index
from ..greedy import twobox as heuristic
from ..greedy.twobox import choose, evaluate, playout, values
from ..playouts import twobox as fast
from ..profile import SearchProfile

SEARCH_DRAW = True  # compare a voluntary draw too (ismcts draw=0: never)
ROUNDS_PER_WORLD = 16  # boneyard orders tried per sampled world (given the hands, each as likely)

# A playout's outcome: every seat's score at the hand's end, and the winners if the game ended.
Outcome = tuple[list[int], list[int] | None]


def candidates(view: dict[str, Any], legal_actions: Sequence[Any], greedy_action: Any) -> list[Any]:
    """The actions the flat search compares: every play and stack, best valued first, and a voluntary draw.

    The draw is offered while the boneyard has tiles (:data:`SEARCH_DRAW`); it is played
    out as one tile drawn and then greedy's play.
    """
    plays = [a for a in legal_actions if a.kind in ("play", "stack")]
    if not plays:
        return [greedy_action]
    found = values(view, plays)
    ranked = sorted(plays, key=lambda a: (found[str(a)], str(a)), reverse=True)
    if SEARCH_DRAW:
        ranked += [a for a in legal_actions if a.kind == "draw"]
    return ranked


def outcomes(game: Any, actions: Sequence[Any], seat: int, seed: int) -> list[list[Outcome]] | None:
    """Each candidate played out by greedy to the hand's end on the engine's fast path, :data:`ROUNDS_PER_WORLD` times.

    One row per round, one outcome per action: the seats' scores at the hand's end and the
    winners if the game ended there, else ``None`` (the search turns outcomes into rewards
    itself, with the same formula as for every other playout). Every action of a round
    meets the same hands and boneyard order: common random numbers. ``game`` is a sampled
    world; each round draws a fresh order of its boneyard (given the hands, every order is
    equally likely, so a round is as good a sample as a fresh world, and cheaper). ``None``
    where an action is a pass (nothing to compare). The weights are the heuristic's
    ``PLAYOUT_WEIGHTS``, read at each call.
    """
    moves = [action_index(a) for a in actions]
    if PASS_INDEX in moves:
        return None
    weights = heuristic.fast_weights(heuristic.PLAYOUT_WEIGHTS)
    flat = fast.outcomes(game.fast_hand(), moves, ROUNDS_PER_WORLD, seed, weights)
    found: list[Outcome] = [(row[:-1], None if row[-1] < 0 else [row[-1]]) for row in flat]
    n = len(actions)
    return [found[i : i + n] for i in range(0, len(found), n)]


#: How ``ismcts`` and the coach play two-box (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=25.0,  # a hand's typical score swing, squashing margins into [0, 1]
    search="flat",  # every candidate played out on common sampled worlds ...
    evidence_z=0.0,  # ... and the best mean over those worlds is played
    candidates=candidates,
    outcomes=outcomes,
    playout=playout,
    playout_depth=6,  # engine playouts (a pass): actions after each candidate before evaluate() guesses the rest
    evaluate=evaluate,
    choose=choose,
)
