"""How ``ismcts`` and the coach search Rummikub.

The search's playouts hold plays back (:mod:`boneyard.bots.rummikub.playout`), and it
starts from the held choice with three times the usual head start (``favourite_prior``).

Its ``evidence_z`` is 0: the most visited action is played. Each simulated turn of an
opened player asks the engine for its legal plays, which runs the exact solver; with the
compiled solver (about a millisecond) an iteration costs about 2 ms, so a 200 ms decision
affords about a hundred playouts, enough for the search's own choice to beat greedy's
play (``docs/bots-measurements.md``). With the solver's old pure-Python search a decision
afforded only a few playouts, and the search was made to keep greedy's play unless it had
two standard errors of evidence against it.
"""

from __future__ import annotations

from ..greedy.rummikub import choose
from ..profile import SearchProfile
from ..rummikub.playout import playout

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
