"""Pickling: engines, encodings and OpenSpiel states survive ``pickle`` (OpenSpiel's serialize, worker processes)."""

from __future__ import annotations

import pickle
import random

import pyspiel
import pytest

import boneyard
import boneyard.rl.openspiel  # registers the OpenSpiel games
from boneyard.rl import encoding

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
