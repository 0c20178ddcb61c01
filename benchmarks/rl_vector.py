"""How fast the batched environment steps, beside Gymnasium's ``SyncVectorEnv`` of the same N.

Run: ``.venv/bin/python benchmarks/rl_vector.py [--seconds 1.0] [--rounds 3] [--sizes 16,64]
[--games a,b]``. For every game (standard player count, default rules, the learner in seat 0,
the random bot at the other seats) and every N it steps

- ``batched``: :class:`boneyard.rl.vector.BoneyardVectorEnv` with N tables;
- ``sync``: ``gymnasium.vector.SyncVectorEnv`` of N ``gymnasium.make("boneyard/<Game>-v0")``
  environments (Gymnasium's usual wrappers included, as a user makes them),

with random legal actions drawn from the batch's masks (one NumPy call per step, the same
for both), and prints learner steps per CPU second (table-steps: N per ``step``; each
includes the bots' answers until the learner's next turn). Both play the same games (the
same seeds and actions), the same number of ``step`` calls: as many as the batched
environment makes in about ``--seconds`` of CPU time. The machine may be shared, so the
two are measured in ``--rounds`` interleaved rounds (batched and sync in turn, the order
alternating, after an unmeasured pass that warms the engines' caches on the round's games);
the rates are the medians over the rounds and ``ratio`` the median of batched / sync
within a round.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import gymnasium
import numpy as np
from gymnasium.vector import SyncVectorEnv

import boneyard
from boneyard.rl import gym_id
from boneyard.rl.vector import BoneyardVectorEnv


def rate(env: gymnasium.vector.VectorEnv, calls: int, seed: int) -> float:
    """Learner steps per CPU second over ``calls`` calls of ``step`` (N steps each), random legal actions.

    Both environments play the same games from the same seed (they are equal step for
    step), so a fixed number of calls gives both the same work: a fixed time would let
    the faster one reach later, dearer positions (Rummikub's full tables).
    """
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    start = time.process_time()
    for _ in range(calls):
        masks = info["action_mask"]
        # A uniformly random legal index per table (an ended table's row is all zero: index 0, ignored).
        actions = np.argmax(rng.random(masks.shape) * masks, axis=1)
        _obs, _reward, _term, _trunc, info = env.step(actions)
    return calls * env.num_envs / max(time.process_time() - start, 1e-9)


def calls_for(env: gymnasium.vector.VectorEnv, seconds: float) -> int:
    """How many ``step`` calls take about ``seconds`` of CPU time (measured once, on the batched env)."""
    _obs, info = env.reset(seed=0)
    calls = 0
    start = time.process_time()
    rng = np.random.default_rng(0)
    while time.process_time() - start < seconds:
        masks = info["action_mask"]
        _obs, _reward, _term, _trunc, info = env.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        calls += 1
    return max(calls, 1)


def make_sync(game_id: str, n: int) -> SyncVectorEnv:
    """Gymnasium's own batch of N single environments, each made as a user makes it."""
    makers: list[Callable[[], gymnasium.Env]] = [lambda: gymnasium.make(gym_id(game_id)) for _ in range(n)]
    return SyncVectorEnv(makers)


def main() -> None:
    """Measure every game and size, interleaved, and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians are printed)")
    parser.add_argument("--sizes", default="16,64", help="comma-separated numbers of tables")
    parser.add_argument("--games", default=",".join(boneyard.games()), help="comma-separated game ids")
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    print("| game | N | batched steps/s | SyncVectorEnv steps/s | ratio |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for game_id in args.games.split(","):
        for n in sizes:
            batched_env = BoneyardVectorEnv(game_id, n)
            sync_env = make_sync(game_id, n)
            calls = calls_for(batched_env, args.seconds)
            batched: list[float] = []
            sync: list[float] = []
            for r in range(args.rounds):
                # The engines keep caches across games (Rummikub's solver): a first, unmeasured
                # pass over the round's games warms them, so neither measured pass pays for it.
                rate(batched_env, calls, seed=r)
                if r % 2 == 0:
                    batched.append(rate(batched_env, calls, seed=r))
                    sync.append(rate(sync_env, calls, seed=r))
                else:
                    sync.append(rate(sync_env, calls, seed=r))
                    batched.append(rate(batched_env, calls, seed=r))
            ratio = statistics.median(b / s for b, s in zip(batched, sync, strict=True))
            print(f"| {game_id} | {n} | {statistics.median(batched):,.0f} | {statistics.median(sync):,.0f} "
                  f"| {ratio:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
