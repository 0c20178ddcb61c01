"""The batched environment equals N single-agent environments with the same seeds, step for step."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

import boneyard
from boneyard.rl.gym_env import BoneyardEnv
from boneyard.rl.vector import BoneyardVectorEnv

GAMES = boneyard.games()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_batch_equals_separate_envs_with_the_same_seeds(game_id: str) -> None:
    """Observations, rewards, ends, masks, seats and hand numbers, across autoresets and an illegal action."""
    n = 4
    kwargs = {"opponents": "random", "seat": "random", "hands": 1, "reward": "score"}
    batch = BoneyardVectorEnv(game_id, n, **kwargs)  # type: ignore[arg-type]
    sync = SyncVectorEnv([lambda: BoneyardEnv(game_id, **kwargs) for _ in range(n)])  # type: ignore[arg-type]
    obs, info = batch.reset(seed=11)
    obs2, info2 = sync.reset(seed=11)
    assert np.array_equal(obs, obs2) and np.array_equal(info["action_mask"], info2["action_mask"])
    assert np.array_equal(info["seat"], info2["seat"])
    rng = np.random.default_rng(11)
    ends = 0
    for step in range(150):
        mask = info["action_mask"]
        # (a table that just ended has no legal action: its action is ignored, the table dealt anew)
        actions = np.array([int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in mask])
        if step == 7 and mask[1].any():  # an illegal action ends that episode with the penalty, in both
            actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
        obs, reward, term, trunc, info = batch.step(actions)
        obs2, reward2, term2, trunc2, info2 = sync.step(actions)
        assert np.array_equal(obs, obs2), step
        assert np.array_equal(reward, reward2) and np.array_equal(term, term2) and np.array_equal(trunc, trunc2)
        for key in ("action_mask", "seat", "hand_number"):
            assert np.array_equal(info[key], info2[key]), (step, key)
        assert np.array_equal(batch.action_masks(), mask_of(sync))
        ends += int(term.sum())
    assert ends >= n  # every table went through an autoreset or more


def mask_of(sync: SyncVectorEnv) -> np.ndarray:
    """The single envs' ``action_masks()``, stacked."""
    return np.stack([env.unwrapped.action_masks() for env in sync.envs])  # type: ignore[attr-defined]


def test_the_batch_declares_gymnasiums_vector_spaces_and_refuses_bad_input() -> None:
    batch = BoneyardVectorEnv("eighty", 3)
    assert batch.num_envs == 3
    assert batch.observation_space.shape == (3, batch.enc.obs_size)
    assert batch.single_action_space.n == batch.enc.num_actions  # type: ignore[attr-defined]
    assert batch.metadata["autoreset_mode"].name == "NEXT_STEP"
    obs, info = batch.reset(seed=[1, 2, 3])
    assert obs.shape == (3, batch.enc.obs_size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (3, batch.enc.num_actions) and info["_action_mask"].all()
    with pytest.raises(ValueError, match="one per table"):
        batch.step([0, 0])
    with pytest.raises(ValueError, match="seed: one per table"):
        batch.reset(seed=[1])
    with pytest.raises(ValueError, match="num_envs"):
        BoneyardVectorEnv("eighty", 0)


def test_make_vec_gives_the_batched_environment() -> None:
    """``gymnasium.make_vec`` of a registered game makes the batch (its vector entry point), with the kwargs."""
    import gymnasium

    from boneyard.rl import gym_id

    env = gymnasium.make_vec(gym_id("rounce"), num_envs=5, players=2, opponents="greedy", hands=1)
    assert isinstance(env, BoneyardVectorEnv) and env.num_envs == 5
    assert env.enc.players == 2 and env.enc.rules["max_hands"] == 1
    obs, _info = env.reset(seed=0)
    assert obs.shape == (5, env.enc.obs_size)
    sync = gymnasium.make_vec(gym_id("rounce"), num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, SyncVectorEnv)


def test_the_benchmark_measures_both_on_the_same_games() -> None:
    """``benchmarks/rl_vector.py`` runs: both rates positive, from a few calls of each."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_vector.py"
    spec = importlib.util.spec_from_file_location("rl_vector", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_vector"] = module
    spec.loader.exec_module(module)
    assert module.rate(BoneyardVectorEnv("rounce", 2), 3, 0) > 0
    assert module.rate(module.make_sync("rounce", 2), 3, 0) > 0
    assert module.calls_for(BoneyardVectorEnv("rounce", 2), 0.01) >= 1
