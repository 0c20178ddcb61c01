"""The game facts the RL adapters need, read in one place.

``boneyard.game_info(id)`` declares ``lower_is_better``, ``score_bounds``, ``teams`` and
``max_game_length``. Where an install's ``game_info`` does not carry one of them yet, the
game's encoding module supplies it (``fallback_facts`` in
``boneyard/rl/encodings/<id>.py``), so generic code never holds a per-game list.

Rewards come from here too: a seat's reward is the change of its score scaled into
``[0, 1]`` by the score bounds (clipped there), negated in lower-is-better games, so that a
whole game's return lies in ``[-1, 1]``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Facts:
    """A game's facts for one player count and rules."""

    game_id: str
    players: int
    lower_is_better: bool
    score_bounds: tuple[float, float]
    teams: bool
    max_game_length: int

    def scale(self, score: float) -> float:
        """A score scaled into ``[0, 1]`` by the bounds (clipped: bounds are for whole games)."""
        lo, hi = self.score_bounds
        x = (float(score) - lo) / (hi - lo)
        return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x

    def rewards(self, before: Sequence[float], after: Sequence[float]) -> list[float]:
        """Per seat: the scaled score change from ``before`` to ``after`` (negated if lower is better)."""
        sign = -1.0 if self.lower_is_better else 1.0
        return [sign * (self.scale(b) - self.scale(a)) for a, b in zip(before, after, strict=True)]


def _resolve(value: Any, players: int, rules: Mapping[str, Any]) -> Any:
    """A fact may be a value, a mapping by player count, or a function of (players, rules)."""
    if callable(value):
        return value(players, rules)
    if isinstance(value, Mapping):
        return value.get(players, value.get(str(players)))
    return value


def facts(game_id: str, players: int, rules: Mapping[str, Any]) -> Facts:
    """The facts of ``game_id`` for a player count and (complete) rules."""
    from .. import api

    info = api.game_info(game_id)
    fallback: Callable[[int, Mapping[str, Any]], dict[str, Any]] = importlib.import_module(
        f"{__package__}.encodings.{game_id}"
    ).fallback_facts
    spare = fallback(players, rules)

    def get(name: str) -> Any:
        found = _resolve(info[name], players, rules) if name in info else None
        return spare[name] if found is None else found

    lo, hi = get("score_bounds")
    if not hi > lo:
        raise ValueError(f"{game_id}: score bounds must be [low, high] with high > low, got {[lo, hi]}")
    return Facts(
        game_id=game_id,
        players=players,
        lower_is_better=bool(get("lower_is_better")),
        score_bounds=(float(lo), float(hi)),
        teams=bool(get("teams")),
        max_game_length=int(get("max_game_length")),
    )
