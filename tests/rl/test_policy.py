"""The learned-policy machinery: training moves the weights, saved policies play in the arena."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import boneyard
from boneyard.bots import bot, bots
from boneyard.bots.arena import Arena, parse_bots
from boneyard.rl import encoding
from boneyard.rl.policy import LinearPolicy, PolicyBot, train

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rounce_policy.npz"


def test_training_changes_the_weights_and_reports_a_curve(tmp_path: Path) -> None:
    policy, curve = train("rounce", players=2, episodes=16, batch=8, seed=3)
    assert len(curve) == 2 and all(np.isfinite(curve))
    assert np.abs(policy.w).sum() > 0
    path = tmp_path / "p.npz"
    policy.save(path)
    again = LinearPolicy.load(path)
    assert again.enc.game_id == "rounce" and again.enc.players == 2
    assert np.allclose(again.w, policy.w, atol=1e-6)


def test_probabilities_are_zero_off_the_mask() -> None:
    enc = encoding("eighty")
    policy = LinearPolicy(enc, np.random.default_rng(1).normal(size=(enc.num_actions, enc.obs_size)))
    g = boneyard.new_game("eighty", seed=1)
    view = g.view(g.current_player)
    legal = enc.legal_map(view, g.legal_actions())
    p = policy.probabilities(enc.observe(view), enc.mask(legal))
    assert p.sum() == pytest.approx(1.0) and set(np.flatnonzero(p)) <= set(legal)
    assert policy.act(enc.observe(view), enc.mask(legal)) in legal


def test_the_policy_bot_is_an_arena_bot() -> None:
    assert "policy" in bots()
    specs = parse_bots(f"policy:weights={EXAMPLE},random")
    report = Arena("rounce", specs, games=4, players=2, seed=3).run()
    assert report["games"] == 4 and report["summary"][0]["decisions"] > 0


def test_the_policy_bot_names_bad_input(tmp_path: Path) -> None:
    plain = bot("policy")  # no file: the shipped network of its table, where there is one
    two = boneyard.new_game("rounce", players=2, seed=1)
    with pytest.raises(ValueError, match="no learned network is shipped for rounce with 2 players"):
        plain.choose(two.view(two.current_player), two.legal_actions(), random.Random(0))
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a policy")
    with pytest.raises(ValueError, match="not a saved boneyard policy"):
        bot("policy", weights=str(bad))
    with pytest.raises(ValueError, match="must be"):
        LinearPolicy(encoding("rounce", 2), np.zeros((3, 3)))
    player = PolicyBot(str(EXAMPLE))
    g = boneyard.new_game("rounce", players=3, seed=1)
    with pytest.raises(ValueError, match="2 players"):
        player.choose(g.view(g.current_player), g.legal_actions(), random.Random(0))
