"""Every boneyard game as a single-agent Gymnasium environment against boneyard's bots.

``gymnasium.make("boneyard/Rounce-v0", opponents="greedy")`` (registered when
:mod:`boneyard.rl` is imported). The learner plays one seat (``seat``, or ``"random"``
for a new seat each episode); every other seat is played by a boneyard bot seeing only
its own view (``opponents``: one bot name for all, or a comma-separated name per other
seat in turn order, each written as on the command line, ``ismcts:iterations=50``; in
Eighty the learner's partner is one of them). Observations are
the game's float32 vector from the learner's view; the action space is the game's fixed
discrete space. ``info["action_mask"]`` (int8) marks the legal indices: sample with it.

``hands=1`` plays one hand per episode (the rules' ``max_hands``); ``reward="score"``
pays points rather than the score over the game's bounds (``"normalized"``, the default).

Rewards: the learner's hand-end rewards (see :mod:`boneyard.rl.core`), summed over the
opponents' turns in between; those of hands the bots finish before the learner's first
turn come with its first step's reward, so that an episode's return is the whole game's.
A game the bots end before the learner's first decision is no episode (``reset`` could
return neither its reward nor its end): ``reset`` deals another, and
``info["skipped_games"]`` says how many it skipped (rare: a one-hand Rounce where every
other seat folds to the learner's deal).
An illegal action ends the episode at once (``terminated``) with reward
``illegal_penalty`` (default -1, below any game's return), and ``info["illegal_action"]``
naming it; that is the documented choice, so that Gymnasium's checker, which samples
without the mask, can run a whole episode.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot
from ..bots.spec import parse_bot_spec
from .core import Table
from .encoding import Encoding, encoding
from .facts import check_reward, rules_with_hands
from .lane import Lane


class BoneyardEnv(gym.Env):
    """One seat of a boneyard game; bots play the others."""

    # Gymnasium declares ``metadata`` as a plain attribute.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        opponents: str = "random",
        seat: int | str = 0,
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        hands: int | None = None,
        reward: str = "normalized",
        actions: str = "standard",
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.reward = check_reward(reward)
        self.enc: Encoding = encoding(game, players, rules_with_hands(rules, hands), actions)
        n = self.enc.players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"seat must be 0 to {n - 1} or 'random', got {seat!r}")
        names = [s.strip() for s in str(opponents).split(",") if s.strip()]
        if len(names) == 1:
            names = names * (n - 1)
        if len(names) != n - 1:
            raise ValueError(f"opponents: one bot name, or {n - 1} comma-separated names (one per other seat), "
                             f"got {opponents!r}")
        bots: list[Bot] = [parse_bot_spec(name).make() for name in names]
        self.seat_choice = seat
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (self.enc.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.enc.num_actions)
        #: The play itself (compiled): the table, the learner's seat, the bots and their rewards.
        self.lane = Lane(self.enc, bots, 0 if seat == "random" else int(seat), seat == "random",
                         self.illegal_penalty, self.reward)

    @property
    def table(self) -> Table | None:
        """The game in progress (``None`` before the first reset)."""
        return self.lane.table

    @property
    def seat(self) -> int:
        """The learner's seat in the game in progress."""
        return self.lane.seat

    @property
    def bots(self) -> list[Bot]:
        """The bots of the other seats, in turn order from the learner's left."""
        return self.lane.bots

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new game and play the bots up to the learner's first turn."""
        super().reset(seed=seed)
        skipped = self._deal(options or {})
        assert self.table is not None
        info = self._info(self.lane.carried)
        info["skipped_games"] = skipped
        return self.table.observe(self.seat), info

    def _deal(self, options: Mapping[str, Any]) -> int:
        """Deal a game from ``np_random`` and let the bots play to the learner's first decision.

        Returns how many games it dealt and skipped because the bots ended them before
        the learner could decide (see the module docstring). The batched environment
        deals its tables through this too.
        """
        return self.lane.deal(self.np_random, options.get("deck"), options.get("dealer"))

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; the bots answer until its next turn or the end."""
        table = self.table
        if table is None:
            raise RuntimeError("the environment has not been reset: call reset() first")
        if table.over or self.lane.ended:
            raise ValueError("the episode is over: call reset()")
        reward, terminated, illegal = self.lane.advance(int(action))
        info = self._info(reward)
        if illegal is not None:
            info["illegal_action"] = illegal
        return table.observe(self.seat), reward, terminated, False, info

    def _info(self, reward: float) -> dict[str, Any]:
        table = self.table
        assert table is not None
        return {
            "action_mask": table.mask(self.seat),
            "seat": self.seat,
            "scores": list(table.game.scores),
            "hand_number": table.game.hand_number,
        }

    def action_masks(self) -> np.ndarray:
        """The learner's legal indices now, as booleans: sb3-contrib's MaskablePPO reads this method.

        The same mask as ``info["action_mask"]`` (which stays, for other libraries).
        """
        if self.table is None:
            raise RuntimeError("the environment has not been reset: call reset() first")
        return self.table.mask(self.seat).astype(bool)

    def render(self) -> str | None:
        """The table as text (``ansi``)."""
        if self.render_mode is None or self.table is None:
            return None
        return self.table.render()

    def legal_action(self, index: int) -> Any:
        """The engine's action of a legal index now (for logs and tests)."""
        assert self.table is not None
        return self.table.legal()[index]
