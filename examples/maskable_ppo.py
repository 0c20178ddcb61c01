"""Train a boneyard seat with a standard deep-RL library: sb3-contrib's MaskablePPO (PyTorch).

The Gymnasium environment ``boneyard/<Game>-v0`` is one seat of a table whose other seats
the bots play; its ``action_masks()`` is the method MaskablePPO reads, so the network only
ever samples legal actions. This script trains for a fixed wall time, saves the model,
then plays the same seeded deals twice from the learner's seat, once with the trained
network and once choosing uniformly among the legal actions (the control), and prints both
win rates with their 95% intervals (Student-t over deals, as `boneyard arena` states them):

    .venv/bin/pip install torch==2.13.0 '.[rl,deeprl]'   # the CPU build of torch (see docs/rl.md)
    .venv/bin/python examples/maskable_ppo.py --game rounce --players 2 --seconds 600

One hand a game (``--hands 1``, the default) keeps the episodes short and the rewards
dense; ``--opponents greedy`` trains against the heuristic instead of the random bot.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

import boneyard.rl  # noqa: F401  (registers the boneyard/<Game>-v0 environments)
from boneyard.bots.arena import mean_interval
from boneyard.rl import gym_id


class WallClock(BaseCallback):
    """Stops training once the wall time is spent, and moves a progress bar by the second."""

    def __init__(self, seconds: float, progress: Progress, task: Any) -> None:
        super().__init__()
        self.seconds = seconds
        self.progress = progress
        self.task = task
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        spent = time.monotonic() - self.start
        self.progress.update(self.task, completed=min(spent, self.seconds), steps=self.num_timesteps)
        return spent < self.seconds


def make_env(args: argparse.Namespace) -> gymnasium.Env:
    """The learner's environment: its seat taken at random each game, the other seats played by bots."""
    return gymnasium.make(gym_id(args.game), players=args.players, opponents=args.opponents, seat="random",
                          hands=args.hands, reward=args.reward)


def train(args: argparse.Namespace) -> tuple[MaskablePPO, int]:
    """MaskablePPO with a small MLP, trained until ``args.seconds`` have passed; returns it and its steps."""
    env = make_env(args)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=args.n_steps, batch_size=64,
                        learning_rate=args.lr, gamma=1.0, policy_kwargs={"net_arch": [128, 128]}, verbose=0)
    with Progress(TextColumn("training"), BarColumn(), TextColumn("{task.fields[steps]:,} steps"),
                  TimeRemainingColumn()) as progress:
        task = progress.add_task("train", total=args.seconds, steps=0)
        # a budget far beyond what the wall time allows: the callback is what stops it
        model.learn(total_timesteps=10**9, callback=WallClock(args.seconds, progress, task))
    return model, int(model.num_timesteps)


def measure(model: MaskablePPO | None, args: argparse.Namespace) -> tuple[list[float], list[float]]:
    """Play ``args.games`` seeded deals from the learner's seat: the model's choice, or a uniform legal one.

    Returns the learner's win share and return in each deal. The same seeds serve both
    policies, so the deals, seats and bots' randomness are the same for the trained
    network and the control.
    """
    env = make_env(args)
    rng = np.random.default_rng(args.seed)
    wins: list[float] = []
    returns: list[float] = []
    for game in range(args.games):
        obs, info = env.reset(seed=10_000 + game)
        done, total = False, 0.0
        while not done:
            mask = env.unwrapped.action_masks()
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            done = terminated or truncated
        winners = env.unwrapped.table.game.winners
        wins.append(1 / len(winners) if info["seat"] in winners else 0.0)
        returns.append(total)
    return wins, returns


def main() -> None:
    """Train, save, and compare the trained network with the uniform legal policy on the same deals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="rounce", help="a game id (montana, twobox, rummikub, eighty, rounce)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponents", default="random", help="the bot of the other seats")
    parser.add_argument("--hands", type=int, default=1, help="hands a game (one keeps episodes short)")
    parser.add_argument("--reward", default="normalized", help="normalized or score (see docs/rl.md)")
    parser.add_argument("--seconds", type=float, default=600.0, help="training wall time")
    parser.add_argument("--games", type=int, default=400, help="seeded deals to measure each policy on")
    parser.add_argument("--n-steps", type=int, default=1024, help="steps collected between updates")
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's CPU threads (a small network gains little)")
    parser.add_argument("--out", type=Path, default=Path("maskable_ppo.zip"), help="where the model is saved")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)

    print(f"training MaskablePPO for {args.seconds:.0f} s: {args.players}-player {args.game}, "
          f"against {args.opponents}, {args.hands} hand(s) a game")
    model, steps = train(args)
    model.save(args.out)
    print(f"trained {steps:,} steps; saved {args.out}")
    for name, policy in (("trained network", model), ("uniform legal (control)", None)):
        wins, returns = measure(policy, args)
        rate, low, high = mean_interval(wins)
        print(f"  {name:24s} win rate {rate:.3f} [{low:.3f}, {high:.3f}] over {len(wins)} deals, "
              f"mean return {statistics.fmean(returns):+.3f}")

if __name__ == "__main__":
    main()
