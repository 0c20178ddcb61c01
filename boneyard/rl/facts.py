"""The game facts the RL adapters need, read in one place.

``boneyard.game_info(id, players, rules)`` declares ``lower_is_better``,
``score_bounds`` (no seat's score ever leaves them in a game with those players and
rules), ``start_scores`` (each seat's score before the first deal), ``teams`` and
``max_game_length`` (the most actions a whole game can take: every
game ends after the rules' ``max_hands`` hands at the latest). Generic code reads them
here and never holds a per-game list.

Rewards come from here too: a seat's reward is the change of its score scaled into
``[0, 1]`` by the score bounds, negated in lower-is-better games, so that a whole game's
return lies in ``[-1, 1]``, and it is the scaled change from ``start_scores`` to the final
scores: points scored at a deal are paid like any other. That is the ``"normalized"``
reward scale (the default); the ``"score"`` scale pays the change in points, unscaled
(negated too where lower is better), for a learner that wants the game's own units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The reward scales every adapter takes (``reward=``): the score change over the game's
#: declared bounds (a whole game's return in [-1, 1]), or in points.
REWARD_SCALES = ("normalized", "score")


def check_reward(reward: str) -> str:
    """``reward`` if it names a scale, else ``ValueError`` naming the scales (the adapters' shared check)."""
    if reward not in REWARD_SCALES:
        raise ValueError(f"reward must be one of {', '.join(repr(r) for r in REWARD_SCALES)}, got {reward!r}")
    return reward


def rules_with_hands(rules: Mapping[str, Any] | None, hands: int | None) -> dict[str, Any]:
    """``rules`` with the ``hands`` option folded into the engines' ``max_hands`` rule.

    ``hands=1`` plays one hand per episode (short, learnable episodes); ``None`` keeps the
    rules as given. Every game has ``max_hands``; giving both with different values is an
    error rather than a silent choice.
    """
    out = dict(rules or {})
    if hands is None:
        return out
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise ValueError(f"hands must be a whole number of hands, 1 or more, got {hands!r}")
    if out.get("max_hands", hands) != hands:
        raise ValueError(f"hands={hands} and rules max_hands={out['max_hands']} disagree: give one of them")
    out["max_hands"] = hands
    return out


@dataclass(frozen=True)
class Facts:
    """A game's facts for one player count and rules."""

    game_id: str
    players: int
    lower_is_better: bool
    score_bounds: tuple[float, float]
    #: Every seat's score before the first deal: where the rewards start counting from.
    start_scores: tuple[float, ...]
    teams: bool
    max_game_length: int

    def scale(self, score: float) -> float:
        """A score scaled into ``[0, 1]`` by the bounds (clipped, should a score ever leave them)."""
        lo, hi = self.score_bounds
        x = (float(score) - lo) / (hi - lo)
        return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def rewards(self, before: Sequence[float], after: Sequence[float], reward: str = "normalized") -> list[float]:
        """Per seat: the score change from ``before`` to ``after`` (negated if lower is better).

        ``reward="normalized"`` scales each score by the bounds first (a whole game's
        return in [-1, 1]); ``"score"`` pays the change in points.
        """
        sign = -1.0 if self.lower_is_better else 1.0
        if reward == "score":
            return [sign * (float(b) - float(a)) for a, b in zip(before, after, strict=True)]
        return [sign * (self.scale(b) - self.scale(a)) for a, b in zip(before, after, strict=True)]

    def return_bound(self, reward: str = "normalized") -> float:
        """The largest a whole game's return can be in absolute value: 1, or the bounds' width in points."""
        lo, hi = self.score_bounds
        return 1.0 if reward == "normalized" else hi - lo


def facts(game_id: str, players: int, rules: Mapping[str, Any]) -> Facts:
    """The facts of ``game_id`` for a player count and rules, from ``boneyard.game_info``."""
    from .. import api

    info = api.game_info(game_id, players, rules)
    lo, hi = info["score_bounds"]
    if not hi > lo:
        raise ValueError(f"{game_id}: score bounds must be [low, high] with high > low, got {[lo, hi]}")
    return Facts(
        game_id=game_id,
        players=players,
        lower_is_better=bool(info["lower_is_better"]),
        score_bounds=(float(lo), float(hi)),
        start_scores=tuple(float(x) for x in info["start_scores"]),
        teams=bool(info["teams"]),
        max_game_length=int(info["max_game_length"]),
    )
