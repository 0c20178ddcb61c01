"""A game's search profile: every per-game setting of the search, the coach and inference, typed, in one place.

The search (:mod:`boneyard.bots.ismcts`) is generic over the games; what differs from one
game to the next (how much a hand's margin is worth, whether a decision is searched as a
tree or flat, whose choice the search starts from, how deep a playout runs, which of the
game's own fast paths it may take) is declared once per game as a :class:`SearchProfile`
named ``PROFILE``: in ``bots/profiles/<id>.py``, beside the search's own parts of the game
(``bots/<id>/``), or, for a game that keeps it there, in its greedy heuristic's
``bots/greedy/<id>.py``. The search, the coach (:mod:`boneyard.bots.coach`) and inference
(:mod:`boneyard.bots.inference`) read it through :func:`profile`; a game with neither
module, or no profile declared, gets the defaults. A profile is checked when it is made,
so a misspelt shape or a favourite the module does not provide fails at import, naming
the game, not in the middle of a search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..plugins import PerGame
from .greedy import policy

Chooser = Callable[[dict[str, Any], Sequence[Any], random.Random], Any]
Finisher = Callable[[Any, int], bool]

DEFAULT_MARGIN_SCALE = 20.0  # a hand's score swing that squashes margins into [0, 1], for games with none
DEFAULT_PRIOR = 0.1  # the share of the iterations credited to the search's favourite
DEFAULT_CANDIDATES = 4  # worlds drawn per weighted sample (inference), for games that weigh
DEFAULT_EPSILON = 0.3  # chance inference gives a seat of departing from greedy's choice
SHAPES = ("tree", "flat")
FAVOURITES = ("greedy", "playout", "own")


@dataclass(frozen=True)
class SearchProfile:
    """How the search plays one game. Every field has one value; the defaults suit a game with no tuning.

    **Reward.** ``margin_scale``: a hand's typical score swing; a playout's margin is
    squashed into [0, 1] by it.

    **Shape.** ``search``: ``"tree"`` (ISMCTS) or ``"flat"`` (candidates compared on common
    sampled worlds); ``search_by_phase``: a phase's own shape where it differs (Rounce's
    calls are flat); ``others_by_policy``: the phases in which, in the tree, the other
    seats decide by the playout policy on their own hands; ``evidence_z``: the standard
    errors by which another action must beat the favourite to overrule it (0: the best
    mean or most visits wins).

    **Favourite** (the action the search starts from, and falls back on).
    ``favourite``: ``"greedy"`` (greedy's choice), ``"playout"`` (the playout policy's,
    credited ``favourite_prior`` of the iterations) or ``"own"`` (``favourite_chooser``,
    a policy of the game's module: Montana's widened discard).

    **Playouts.** ``playout``: the cheap policy that plays a playout's moves (else greedy's
    ``choose``); ``finish(game, stop)``: the same policy's moves to the hand's end in one
    call (compiled where the game has it); ``playout_depth``: actions after which a
    playout stops and ``evaluate(game)`` estimates each seat's further gain in the hand;
    ``candidates(view, legal, greedy_action)``: the actions a flat search compares;
    ``outcomes(world, actions, seat, seed)``: a flat search's rounds played by the game
    itself, faster; ``endgame_tricks``: tricks left at which the exact endgame solver
    (:mod:`boneyard.bots.endgame`) takes a playout over (0: the game has none), which the
    coach always does and the search only where ``search_solves`` (else with its
    ``endgame`` parameter): a judge's accuracy against a search's iterations.

    **Defence.** ``defend(view, legal, greedy_action, draw, worlds)`` may replace the
    favourite by a safer action, judged on ``defence_worlds`` sampled worlds.

    **Inference.** ``past_decisions(view, world, seat)`` lists another seat's past
    decisions, whose likelihood under ``choose`` weighs a sampled world;
    ``seat_weight(view, world, seat)`` weighs it directly; ``infer_candidates`` worlds are
    drawn per weighted sample and ``infer_epsilon`` is the chance a seat departs from
    ``choose``.
    ``explain(view, world, rng)`` redraws a sampled world to agree with what the table
    proved; ``explain_by_default`` says whether the search uses it unless told.
    """

    margin_scale: float = DEFAULT_MARGIN_SCALE
    search: str = "tree"
    search_by_phase: Mapping[str, str] = field(default_factory=dict)
    others_by_policy: frozenset[str] = frozenset()
    evidence_z: float = 0.0
    favourite: str = "greedy"
    favourite_chooser: Chooser | None = None
    favourite_prior: float = DEFAULT_PRIOR
    playout: Chooser | None = None
    finish: Finisher | None = None
    playout_depth: int | None = None
    evaluate: Callable[[Any], list[float]] | None = None
    candidates: Callable[[dict[str, Any], Sequence[Any], Any], list[Any]] | None = None
    outcomes: Callable[[Any, Sequence[Any], int, int], Any] | None = None
    endgame_tricks: int = 0
    search_solves: bool = False
    defend: Callable[..., Any] | None = None
    defence_worlds: int = 0
    choose: Chooser | None = None
    past_decisions: Callable[[dict[str, Any], Any, int], list[Any]] | None = None
    seat_weight: Callable[[dict[str, Any], Any, int], float] | None = None
    infer_candidates: int = DEFAULT_CANDIDATES
    infer_epsilon: float = DEFAULT_EPSILON
    explain: Callable[[dict[str, Any], Any, random.Random], Any] | None = None
    explain_by_default: bool = True

    def __post_init__(self) -> None:
        problems = []
        if not self.margin_scale > 0:
            problems.append(f"margin_scale must be above 0, not {self.margin_scale!r}")
        for where, shape in [("search", self.search), *(
                (f"search_by_phase[{p!r}]", s) for p, s in self.search_by_phase.items())]:
            if shape not in SHAPES:
                problems.append(f"{where} must be one of {', '.join(SHAPES)}, not {shape!r}")
        if self.favourite not in FAVOURITES:
            problems.append(f"favourite must be one of {', '.join(FAVOURITES)}, not {self.favourite!r}")
        if self.favourite == "own" and self.favourite_chooser is None:
            problems.append("favourite 'own' needs its favourite_chooser")
        if self.favourite == "playout" and self.playout is None:
            problems.append("favourite 'playout' needs a playout policy")
        if not 0 <= self.favourite_prior <= 1:
            problems.append(f"favourite_prior must be from 0 to 1, not {self.favourite_prior!r}")
        if self.evidence_z < 0:
            problems.append(f"evidence_z must be 0 or more, not {self.evidence_z!r}")
        if self.playout_depth is not None and self.playout_depth < 1:
            problems.append(f"playout_depth must be 1 or more (or None), not {self.playout_depth!r}")
        if self.endgame_tricks < 0 or (self.search_solves and not self.endgame_tricks):
            problems.append(f"endgame_tricks must be 0 or more (above 0 where the search solves), "
                            f"not {self.endgame_tricks!r}")
        if self.defence_worlds < 0 or (self.defence_worlds and self.defend is None):
            problems.append("defence_worlds must be 0 or more, and above 0 only with a defend policy")
        if self.infer_candidates < 0:
            problems.append(f"infer_candidates must be 0 or more, not {self.infer_candidates!r}")
        if not 0 < self.infer_epsilon <= 1:
            problems.append(f"infer_epsilon must be in (0, 1], not {self.infer_epsilon!r}")
        if problems:
            raise ValueError("search profile: " + "; ".join(problems))
        # read-only, so one game's profile cannot be changed through a shared dict
        object.__setattr__(self, "search_by_phase", MappingProxyType(dict(self.search_by_phase)))
        object.__setattr__(self, "others_by_policy", frozenset(self.others_by_policy))

    def shape(self, phase: Any) -> str:
        """The shape a decision of ``phase`` is searched in: the phase's own, else the game's."""
        return self.search_by_phase.get(phase, self.search) if phase is not None else self.search

    @property
    def weighs(self) -> bool:
        """Whether inference has anything to weigh a world by (a past decision or a seat weight)."""
        return self.past_decisions is not None or self.seat_weight is not None


DEFAULT = SearchProfile()


def _profile_module(module: Any) -> Any:
    """A game's profile module, found by name: its ``PROFILE`` checked once, as it is first used."""
    found = getattr(module, "PROFILE", None)
    if not isinstance(found, SearchProfile):
        raise ValueError(f"{module.__name__} must declare PROFILE, a SearchProfile; got {found!r}")
    return module


_PROFILES: PerGame[Any] = PerGame("boneyard.bots.profiles", _profile_module, None)


def profile_module(game_id: str) -> Any:
    """Where ``game_id``'s profile lives: ``boneyard/bots/profiles/<id>.py``, else its greedy heuristic.

    Tests replace the ``PROFILE`` of the module this returns for one test.
    """
    found = _PROFILES.get(game_id)
    return found if found is not None else policy(game_id)


def profile(game_id: str) -> SearchProfile:
    """The search profile of ``game_id`` (see :func:`profile_module`), else :data:`DEFAULT`.

    Read afresh each time (an attribute lookup), so a test may replace a module's profile
    with :func:`dataclasses.replace` of it.
    """
    module = profile_module(game_id)
    found = getattr(module, "PROFILE", None) if module is not None else None
    return found if isinstance(found, SearchProfile) else DEFAULT
