"""A batched Gymnasium environment: N tables of one game, the learner against boneyard's bots at each.

``boneyard.rl.vector.BoneyardVectorEnv("rounce", num_envs=64, opponents="greedy")`` is a
``gymnasium.vector.VectorEnv``: ``reset(seed=s)`` deals table ``i`` from seed ``s + i``
and ``step(actions)`` plays one learner action at every table, then the bots' answers,
returning ``(N, obs)`` float32 observations, ``(N,)`` rewards, terminations and
truncations, and ``infos`` holding ``action_mask`` (``(N, actions)`` int8), ``seat`` and
``hand_number`` (each with Gymnasium's ``_key`` flags). ``action_masks()`` gives the
masks as booleans. Each table is exactly the single-agent environment
(:class:`boneyard.rl.gym_env.BoneyardEnv`, made directly, without Gymnasium's wrappers):
the same deals, bots, rewards (``hands``, ``reward``), seats and illegal-action rule, so a
batch equals ``gymnasium.vector.SyncVectorEnv`` of N such environments with the same
seeds, observation for observation (``tests/rl/test_vector.py``).

Autoreset is Gymnasium's default, ``NEXT_STEP``: the step after a table's episode ends
deals it a new game (its action is ignored) and returns that game's first observation,
with reward 0 and neither terminated nor truncated.

What it saves over ``SyncVectorEnv``: the observations and masks are written straight
into the batch's arrays, no per-table info dict is built and merged, and the loop over
the tables is compiled: :func:`boneyard.rl.lane.step_lanes`, which mypyc compiles with
the table and the encodings, steps every table's :class:`~boneyard.rl.lane.Lane` (the
same play the single environment runs) in one call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .gym_env import BoneyardEnv
from .lane import Lane, step_lanes, write_lane


class BoneyardVectorEnv(VectorEnv):
    """``num_envs`` tables of one game; the learner plays one seat at each, boneyard's bots the others."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        num_envs: int,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        opponents: str = "random",
        seat: int | str = 0,
        illegal_penalty: float = -1.0,
        hands: int | None = None,
        reward: str = "normalized",
        actions: str = "standard",
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number, 1 or more, got {num_envs!r}")
        self.tables: list[BoneyardEnv] = [
            BoneyardEnv(game, players, rules, opponents, seat, illegal_penalty, None, hands, reward, actions)
            for _ in range(num_envs)
        ]
        self._lanes: list[Lane] = [env.lane for env in self.tables]
        first = self.tables[0]
        self.enc = first.enc
        self.num_envs = num_envs
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, self.enc.obs_size), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.enc.num_actions, dtype=np.int64))
        self._obs = np.zeros((num_envs, self.enc.obs_size), np.float32)
        self._masks = np.zeros((num_envs, self.enc.num_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._seats = np.zeros(num_envs, np.int64)
        self._hands = np.zeros(num_envs, np.int64)
        self._all = np.ones(num_envs, np.bool_)
        # Tables whose episode ended at the last step: dealt anew at the next (NEXT_STEP autoreset).
        self._autoreset = np.zeros(num_envs, np.bool_)

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every table: table ``i`` from ``seed + i`` (or ``seed[i]``), as ``SyncVectorEnv`` seeds them."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: one per table ({n}), got {len(seeds)}")
        given: Mapping[str, Any] = options or {}
        for i in range(n):
            table = self.tables[i]
            gym.Env.reset(table, seed=seeds[i])  # seeds the table's np_random, as its own reset does
            table._deal(given)
            self._write(i)
        self._rewards[:] = 0.0
        self._terminations[:] = False
        self._truncations[:] = False
        self._autoreset[:] = False
        return self._obs.copy(), self._infos()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner action per table, then the bots' answers; tables that ended last step are dealt anew."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(f"actions: one per table, shape ({self.num_envs},), got shape {chosen.shape}")
        picks: list[int] = [int(a) for a in chosen.tolist()]
        step_lanes(self._lanes, self.tables, picks, self._autoreset, self._rewards, self._terminations, self._obs,
                   self._masks, self._seats, self._hands)
        self._autoreset[:] = self._terminations
        return (self._obs.copy(), self._rewards.copy(), self._terminations.copy(), self._truncations.copy(),
                self._infos())

    def _write(self, i: int) -> None:
        """Table ``i``'s observation, mask, seat and hand number, into the batch's arrays."""
        write_lane(self._lanes[i], i, self._obs, self._masks, self._seats, self._hands)

    def _infos(self) -> dict[str, Any]:
        """Gymnasium's vector infos: each key an array over the tables, with its ``_key`` flags (all set)."""
        return {
            "action_mask": self._masks.copy(), "_action_mask": self._all.copy(),
            "seat": self._seats.copy(), "_seat": self._all.copy(),
            "hand_number": self._hands.copy(), "_hand_number": self._all.copy(),
        }

    def action_masks(self) -> np.ndarray:
        """Every table's legal indices now, ``(num_envs, actions)`` booleans (as the single env's ``action_masks``)."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the tables are plain Python objects."""
