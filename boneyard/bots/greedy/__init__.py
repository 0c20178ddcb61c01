"""The ``greedy`` bot: one documented heuristic per game, chosen by the view's game id.

Each game's heuristic lives in ``boneyard/bots/greedy/<id>.py`` and exposes
``choose(view, legal_actions, rng) -> action``. It reads only the seat's view and the
legal actions, and returns one of the legal actions. A game with no heuristic module yet
falls back to a uniformly random legal action (said in ``GreedyBot.has_policy``).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

_POLICIES: dict[str, ModuleType | None] = {}


def policy(game_id: str) -> ModuleType | None:
    """The heuristic module of a game, or ``None`` when the game has none."""
    if game_id not in _POLICIES:
        try:
            _POLICIES[game_id] = importlib.import_module(f"{__name__}.{game_id}")
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{game_id}":
                raise
            _POLICIES[game_id] = None
    return _POLICIES[game_id]


class GreedyBot:
    """Plays each game's documented heuristic (see ``docs/bots.md``)."""

    name = "greedy"

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The heuristic's action for this view; always one of ``legal_actions``."""
        if not legal_actions:
            raise ValueError("greedy bot asked to choose with no legal actions")
        if len(legal_actions) == 1:
            return legal_actions[0]
        module = policy(view["game"])
        if module is None:
            return legal_actions[rng.randrange(len(legal_actions))]
        action = module.choose(view, legal_actions, rng)
        return action

    @staticmethod
    def has_policy(game_id: str) -> bool:
        """Whether ``game_id`` has its own heuristic (otherwise greedy plays at random)."""
        return policy(game_id) is not None


def by_text(legal_actions: Sequence[Any]) -> dict[str, Any]:
    """The legal actions keyed by their notation."""
    return {str(a): a for a in legal_actions}
