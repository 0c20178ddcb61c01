"""Pickling: engines, encodings and OpenSpiel states survive ``pickle`` (OpenSpiel's serialize, worker processes)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest

import boneyard
import boneyard.rl.openspiel  # registers the OpenSpiel games
from boneyard.rl import encoding, pettingzoo_env
from boneyard.rl.gym_env import BoneyardEnv

GAMES = boneyard.games()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_pickled_game_goes_on_exactly_as_the_original(game_id: str) -> None:
    game = boneyard.new_game(game_id, seed=3)
    rng = random.Random(3)
    for _ in range(25):
        game.apply(rng.choice(game.legal_actions()))
    copy = pickle.loads(pickle.dumps(game))
    assert copy.record() == game.record() and copy.view(0) == game.view(0)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        copy.apply(str(action))
    assert copy.is_over and copy.scores == game.scores and copy.record() == game.record()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_pickled_encoding_is_made_again(game_id: str) -> None:
    enc = encoding(game_id, rules={"max_hands": 3})
    again = pickle.loads(pickle.dumps(enc))
    assert (again.game_id, again.players, again.rules, again.obs_size) == (enc.game_id, enc.players, enc.rules,
                                                                           enc.obs_size)


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_random_sim_test_with_serialization(game_id: str) -> None:
    """OpenSpiel's own check: states serialized and deserialized at every step play on the same."""
    game = pyspiel.load_game(f"python_boneyard_{game_id}", {"max_hands": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


COPIES: dict[str, Callable[[Any], Any]] = {"pickle": lambda x: pickle.loads(pickle.dumps(x)), "deepcopy": copy.deepcopy}


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_copied_pettingzoo_env_goes_on_exactly_as_the_original(game_id: str, how: str) -> None:
    """Mid-game copies (pickle, deepcopy) give the same observations, masks and rewards for the same actions."""
    env = pettingzoo_env(game_id, hands=2)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(12):
        obs, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    twin = COPIES[how](env)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        obs2, reward2, term2, trunc2, _ = twin.last()
        assert twin.agent_selection == agent and (reward, term, trunc) == (reward2, term2, trunc2)
        assert np.array_equal(obs["observation"], obs2["observation"])
        assert np.array_equal(obs["action_mask"], obs2["action_mask"])
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        twin.step(action)
        steps += 1
    assert steps > 0 and not twin.agents and twin.table.game.scores == env.table.game.scores


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("game_id", GAMES)
def test_a_copied_gymnasium_env_goes_on_exactly_as_the_original(game_id: str, how: str) -> None:
    """The copy's bots (and their random streams) answer as the original's: the same episode follows."""
    env = BoneyardEnv(game_id, opponents="greedy,random" if game_id != "eighty" else "random", players=3
                      if game_id != "eighty" else 4, hands=1)
    _obs, info = env.reset(seed=7)
    rng = np.random.default_rng(7)
    _obs, *_rest, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    twin = COPIES[how](env)
    done = env.table is not None and env.table.over
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        obs2, reward2, term2, trunc2, info2 = twin.step(action)
        assert np.array_equal(obs, obs2) and (reward, term, trunc) == (reward2, term2, trunc2)
        assert np.array_equal(info["action_mask"], info2["action_mask"])
        assert np.array_equal(twin.action_masks(), info2["action_mask"].astype(bool))
        done = term or trunc
    assert twin.table is not None and env.table is not None
    assert twin.table.game.scores == env.table.game.scores
