"""Every boneyard game as a PettingZoo AEC environment, with the classic-games conventions.

``boneyard.rl.pettingzoo_env("eighty")`` returns a :class:`BoneyardAEC`. Agents are
``player_0`` ... ``player_{n-1}`` (the seats); each observation is a dict with
``observation`` (the game's float32 vector, from that seat's view only) and
``action_mask`` (int8, 1 where legal; all zero for a seat not to act). Actions are
indices of the game's fixed discrete space (see ``docs/rl.md``). Rewards are paid to
every seat at the end of each hand and of the game (see :mod:`boneyard.rl.core`).
``hands=1`` plays one hand per game (the rules' ``max_hands``); ``reward="score"`` pays
points instead of the score over the game's bounds (``"normalized"``, the default).
``reset(seed=...)`` seeds the deal, so the same seed and actions give the same game;
``options={"deck": [...], "dealer": 0}`` fixes the first hand's deal as ``new_game`` does.
An illegal action raises ``ValueError`` naming the legal ones and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .core import Table
from .encoding import Encoding, encoding
from .facts import check_reward, rules_with_hands


class BoneyardAEC(AECEnv):
    """One boneyard game, every seat an agent, turn order the game's own."""

    # PettingZoo declares ``metadata`` as a plain attribute; each environment names its game.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi"], "name": "boneyard_v0", "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        rules: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        hands: int | None = None,
        reward: str = "normalized",
        actions: str = "standard",
    ) -> None:
        super().__init__()
        self.reward = check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        self.enc: Encoding = encoding(game, players, rules_with_hands(rules, hands), actions)
        self.metadata = {**self.metadata, "name": f"boneyard_{game}_v0"}
        self.render_mode = render_mode
        n = self.enc.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.enc.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.enc.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.enc.num_actions) for a in self.possible_agents}
        self.table: Table | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation dict's space (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The game's discrete action space."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes it, ``options`` may fix the first deal (deck, dealer)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**62))
        options = options or {}
        self.table = Table(self.enc, game_seed, deck=options.get("deck"), dealer=options.get("dealer"),
                           reward=self.reward)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._paid = False  # whether ``rewards`` holds a non-zero reward (of the last step)
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.seat or 0]

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The agent to act, step after step, until the game is over or ``max_iter`` steps.

        PettingZoo's own iterator, with the same stops (no agents left, or ``max_iter``
        agents yielded), as a generator: every AEC loop asks it at every step, and a
        generator answers about three times faster than PettingZoo's iterator class.
        """
        left = max_iter
        while self.agents and left > 0:
            left -= 1
            yield self.agent_selection

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation (its seat's view only) and action mask."""
        if self.table is None:
            raise RuntimeError("the environment has not been reset: call reset() first")
        return self.table.observation(self._seat[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, termination, truncation and info.

        PettingZoo's own ``last``, with the observation made in one call (every AEC loop
        calls this at every step).
        """
        agent = self.agent_selection
        table = self.table
        if table is None:
            raise RuntimeError("the environment has not been reset: call reset() first")
        return (
            table.observation(self._seat[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """The selected agent plays the action of index ``action`` (``None`` once it is done)."""
        table = self.table
        if table is None:
            raise RuntimeError("the environment has not been reset: call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: an action index is needed, got None")
        rewards = table.play_index(action if type(action) is int else int(action))
        self._cumulative_rewards[agent] = 0.0
        if rewards is not None and (any(rewards) or self._paid):
            # Rewards are paid only at hand ends: most steps skip rebuilding the dicts.
            self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
            self._paid = any(rewards)
            self._accumulate_rewards()
        elif self._paid:
            self.rewards = {a: 0.0 for a in self.agents}
            self._paid = False
            self._accumulate_rewards()
        if table.over:
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            self.agent_selection = self.possible_agents[table.seat]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None or self.table is None:
            return None
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def pettingzoo_env(
    game: str,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    hands: int | None = None,
    reward: str = "normalized",
) -> BoneyardAEC:
    """A PettingZoo AEC environment of ``game`` (default player count and rules unless given)."""
    return BoneyardAEC(game, players, rules, render_mode, hands, reward)
