"""The shipped Deep Monte-Carlo network (``boneyard/rl/weights/rounce-4.npz``) loads and plays whole games."""

from __future__ import annotations

import random
from pathlib import Path

import boneyard
from boneyard.rl.policy import PolicyBot

WEIGHTS = Path(boneyard.__file__).resolve().parent / "rl" / "weights" / "rounce-4.npz"


def test_the_example_network_plays_four_player_rounce_to_the_end() -> None:
    """It loads with today's encoding (a stale file is refused) and makes only legal choices."""
    bot = PolicyBot(str(WEIGHTS))
    greedy = boneyard.bot("greedy")
    rng = random.Random(0)
    for seed in range(3):
        game = boneyard.new_game("rounce", players=4, seed=seed)
        while not game.is_over:
            seat = game.current_player
            legal = game.legal_actions()
            chooser = bot if seat % 2 == 0 else greedy
            action = chooser.choose(game.view(seat), legal, rng)
            assert action in legal
            game.apply(action)
