"""How ``ismcts`` and the coach search Rounce."""

from __future__ import annotations

from ..greedy.rounce import choose
from ..profile import SearchProfile
from ..rounce.reading import explain, past_decisions
from ..tricks.rounce import finish

#: How ``ismcts`` and the coach play Rounce (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=2.0,  # a hand's typical score swing, squashing margins into [0, 1]
    # the calls, the discards after them and the dealer's defend are searched flat, so that
    # the other seats' calls in its playouts follow their own hands (in a tree they would be
    # chosen blind to them); the tricks are searched in the tree
    search_by_phase={"call": "flat", "discard": "flat", "defend": "flat"},
    # searching those phases in the tree (shape=tree): the other seats' calls, discards and
    # defend there follow the playout policy on their own hands, not the tree's statistics
    others_by_policy=frozenset({"call", "discard", "defend"}),
    finish=finish,
    # the exact solver takes the last three tricks over in the coach's playouts; not in the
    # search's by default, nor inference from the plays: with the calls searched flat, both
    # lost points in the arena (docs/bots-measurements.md); ismcts:endgame=4:infer=4 switches
    # both on
    endgame_tricks=3,
    search_solves=False,
    past_decisions=past_decisions,
    infer_candidates=0,
    explain=explain,
    choose=choose,
)
