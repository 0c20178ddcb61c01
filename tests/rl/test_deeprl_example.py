"""The deep-RL example (sb3-contrib's MaskablePPO on the Gymnasium environment) trains for a minute.

A smoke test of the whole path a researcher takes: the script trains, saves, measures; the
saved model loads again and, given the environment's mask, only ever picks legal actions.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
from sb3_contrib import MaskablePPO

import boneyard.rl  # noqa: F401
from boneyard.rl import gym_id

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo.py"


def test_maskable_ppo_trains_for_a_minute_saves_and_plays_only_legal_actions(tmp_path: Path) -> None:
    out = tmp_path / "ppo.zip"
    run = subprocess.run([sys.executable, str(EXAMPLE), "--game", "rounce", "--players", "2", "--seconds", "60",
                          "--games", "30", "--n-steps", "256", "--out", str(out)],
                         capture_output=True, text=True, timeout=400)
    assert run.returncode == 0, run.stderr[-3000:]
    steps = re.search(r"trained ([\d,]+) steps", run.stdout)
    assert steps and int(steps.group(1).replace(",", "")) >= 256 * 4, run.stdout  # several updates happened
    rates = re.findall(r"win rate (\d\.\d+) \[(-?\d\.\d+), (-?\d\.\d+)\] over 30 deals", run.stdout)
    assert len(rates) == 2, run.stdout  # the trained network and the control, on the same deals
    assert all(float(low) <= float(rate) <= float(high) for rate, low, high in rates)

    model = MaskablePPO.load(out)
    env = gymnasium.make(gym_id("rounce"), players=2, opponents="random", seat="random", hands=1)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            assert mask[action], "the masked network chose an illegal action"
            obs, _, terminated, truncated, info = env.step(action)
            assert "illegal_action" not in info
            done = terminated or truncated
    assert np.isfinite(obs).all()
