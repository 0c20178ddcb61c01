"""Reinforcement-learning adapters: every game for PettingZoo, Gymnasium and OpenSpiel.

Install with the ``rl`` extra (``pip install 'boneyard[rl]'``). Importing this package
registers the Gymnasium environments ``boneyard/Montana-v0``, ``boneyard/Twobox-v0``,
``boneyard/Rummikub-v0``, ``boneyard/Eighty-v0`` and ``boneyard/Rounce-v0`` (with
``gymnasium.make_vec`` they come batched, as :class:`boneyard.rl.vector.BoneyardVectorEnv`);
``import boneyard.rl.openspiel`` registers the OpenSpiel games ``python_boneyard_<id>``.
Every adapter sees the games only through ``view(seat)`` and ``legal_actions()``; the
encodings are documented in ``docs/rl.md`` and in ``boneyard/rl/encodings/<id>.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium

from .encoding import Encoding, encoded_games, encoding
from .facts import Facts, facts


def gym_id(game_id: str) -> str:
    """The Gymnasium id of a game: ``boneyard/Rounce-v0`` for ``rounce``."""
    return f"boneyard/{game_id.capitalize()}-v0"


def _register_gym() -> None:
    """Register every game with Gymnasium (once): the single env, and the batched one for ``make_vec``."""
    for game_id in encoded_games():
        if gym_id(game_id) not in gymnasium.registry:
            gymnasium.register(id=gym_id(game_id), entry_point="boneyard.rl.gym_env:BoneyardEnv",
                               vector_entry_point="boneyard.rl.vector:BoneyardVectorEnv",
                               kwargs={"game": game_id})


def pettingzoo_env(
    game: str,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    hands: int | None = None,
    reward: str = "normalized",
    actions: str = "standard",
) -> Any:
    """A PettingZoo AEC environment of ``game`` (see :mod:`boneyard.rl.zoo`).

    ``hands=1`` for one-hand episodes; ``reward="score"`` for rewards in points rather
    than over the game's score bounds; ``actions="rearrange"`` (Rummikub) for the solver's
    keep-back plays in the mask as well.
    """
    from .zoo import BoneyardAEC

    return BoneyardAEC(game, players, rules, render_mode, hands, reward, actions)


_register_gym()

__all__ = ["Encoding", "Facts", "encoded_games", "encoding", "facts", "gym_id", "pettingzoo_env"]
