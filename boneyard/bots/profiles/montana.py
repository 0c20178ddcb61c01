"""How ``ismcts`` and the coach search Montana."""

from __future__ import annotations

from ..greedy.montana import choose, widest
from ..montana.defence import defend
from ..montana.reading import explain, seat_weight
from ..montana.search import candidates, finish, playout
from ..profile import SearchProfile

#: How ``ismcts`` and the coach play Montana (:mod:`boneyard.bots.profile`).
PROFILE = SearchProfile(
    margin_scale=30.0,  # a hand's typical score swing, squashing margins into [0, 1]
    search="flat",  # a few candidates compared on common sampled worlds (see candidates) ...
    evidence_z=1.0,  # ... greedy overruled only on this many standard errors of evidence
    candidates=candidates,
    # the search starts from widest's choice (greedy's, widened by acceptance) instead of greedy's
    favourite="own",
    favourite_chooser=widest,
    playout=playout,
    finish=finish,
    defend=defend,
    defence_worlds=24,  # sampled worlds a defended discard is judged on (ismcts's ``defence`` parameter overrides)
    # inference: worlds drawn per weighted sample; 0: off unless asked for (ismcts:infer=N)
    seat_weight=seat_weight,
    infer_candidates=0,
    # the claim windows' reading: off unless asked (ismcts:explain=1), since head to head it
    # gained nothing measurable (docs/bots-measurements.md, "Montana reads the claim windows")
    explain=explain,
    explain_by_default=False,
    choose=choose,
)
