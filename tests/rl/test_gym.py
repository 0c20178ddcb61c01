"""Gymnasium: the registered environments pass its env checker; masked play; illegal actions."""

from __future__ import annotations

import warnings
from typing import cast

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import boneyard
import boneyard.rl
from boneyard.rl import gym_id
from boneyard.rl.gym_env import BoneyardEnv

GAMES = boneyard.games()


@pytest.mark.parametrize("game_id", GAMES)
def test_check_env_passes(game_id: str) -> None:
    env = gymnasium.make(gym_id(game_id), opponents="random", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)
    env.close()


def test_the_ids_are_registered() -> None:
    ids = {"boneyard/Montana-v0", "boneyard/Twobox-v0", "boneyard/Rummikub-v0", "boneyard/Eighty-v0",
           "boneyard/Rounce-v0"}
    assert ids <= set(gymnasium.registry)


@pytest.mark.parametrize("game_id", GAMES)
def test_masked_play_reaches_the_end(game_id: str) -> None:
    env = gymnasium.make(gym_id(game_id), opponents="random", seat="random")
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    total = 0.0
    steps = 0
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) > 0
        obs, reward, term, trunc, info = env.step(int(rng.choice(legal)))
        total += float(reward)
        done = term or trunc
        steps += 1
    inner = cast(BoneyardEnv, env.unwrapped)
    assert inner.table is not None
    game = inner.table.game
    assert game.is_over and steps > 0
    f = inner.enc.facts
    start = boneyard.game_info(game_id)["start_scores"]  # the scores before the first deal
    assert total == pytest.approx(f.rewards(start, game.scores)[inner.seat])


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = gymnasium.make("boneyard/Eighty-v0")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, term, trunc, info = env.step(illegal)
    assert reward == -1.0 and term and not trunc and "illegal_action" in info
    with pytest.raises(ValueError, match="over"):
        env.step(0)


def test_the_same_seed_gives_the_same_episode() -> None:
    def run() -> list[float]:
        env = gymnasium.make("boneyard/Twobox-v0", opponents="greedy")
        obs, info = env.reset(seed=11)
        rng = np.random.default_rng(0)
        out = [float(obs.sum())]
        done = False
        while not done:
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            out.append(float(obs.sum()) + float(r))
            done = term or trunc
        return out

    assert run() == run()


def test_bad_arguments_name_the_problem() -> None:
    with pytest.raises(ValueError, match="seat"):
        gymnasium.make("boneyard/Rounce-v0", seat=9)
    with pytest.raises(ValueError, match="opponents"):
        gymnasium.make("boneyard/Rounce-v0", players=4, opponents="random,random")
    with pytest.raises(ValueError, match="unknown bot"):
        gymnasium.make("boneyard/Rounce-v0", opponents="nobody")
    env = gymnasium.make("boneyard/Rounce-v0", players=4, opponents="greedy,random,ismcts:iterations=5")
    assert [b.name for b in cast(BoneyardEnv, env.unwrapped).bots] == ["greedy", "random", "ismcts"]


def test_stepping_before_reset_is_refused() -> None:
    from boneyard.rl.gym_env import BoneyardEnv
    from boneyard.rl.zoo import BoneyardAEC

    with pytest.raises(RuntimeError, match="reset"):
        BoneyardEnv("rounce").step(0)
    with pytest.raises(RuntimeError, match="reset"):
        BoneyardAEC("rounce").step(0)



def test_action_masks_is_the_info_mask_as_booleans() -> None:
    """sb3-contrib's MaskablePPO asks the environment for ``action_masks()``; it must agree with ``info``."""
    env = gymnasium.make(gym_id("rounce"), opponents="random")
    inner = cast(BoneyardEnv, env.unwrapped)
    with pytest.raises(RuntimeError, match="reset"):
        inner.action_masks()
    _obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(20):
        masks = inner.action_masks()
        assert masks.dtype == np.bool_ and masks.shape == (inner.enc.num_actions,)
        assert np.array_equal(masks, info["action_mask"].astype(bool)) and masks.any()
        _obs, _r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(masks))))
        if term or trunc:
            break
