"""How ``ismcts`` and the coach search Eighty."""

from __future__ import annotations

from ..eighty.reading import past_decisions
from ..greedy.eighty import choose
from ..profile import SearchProfile
from ..tricks.eighty import finish

#: How ``ismcts`` and the coach play Eighty (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=40.0,  # a hand's typical score swing, squashing margins into [0, 1]
    finish=finish,
    # the exact solver takes the last three tricks over in the coach's playouts; not in the
    # search's by default: a solve costs about four compiled playouts, and the search is short
    # of iterations in Eighty (docs/bots-measurements.md); ismcts:endgame=3 switches it on
    endgame_tricks=3,
    search_solves=False,
    # inference is off by default: at 200 ms it cost the search more than it gained (the
    # arena rows in docs/bots-measurements.md); ismcts:infer=2 switches it on
    past_decisions=past_decisions,
    infer_candidates=0,
    choose=choose,
)
