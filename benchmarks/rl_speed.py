"""How fast the RL adapters step, beside the bare engine and peers of similar size.

Run: ``.venv/bin/python benchmarks/rl_speed.py [--seconds 1.0] [--games a,b]``. For every
game (standard player count, default rules) it plays seeded random games, each way
for about ``--seconds`` of CPU time, and prints actions per CPU second:

- ``engine``: the bare engine as a bot meets it: ``legal_actions()``, ``view(seat)``,
  ``apply`` of a random legal action (one decision);
- ``pettingzoo``: ``env.last()`` (observation and mask of the agent to act) and
  ``env.step`` of a random legal index;
- ``gymnasium``: ``env.step`` of a random legal index from ``info["action_mask"]``, the
  other seats played by the random bot; counted per game action (the learner's and the
  bots'), so that it compares with the engine's decisions;
- ``openspiel``: ``state.legal_actions()``, ``state.observation_tensor()`` and
  ``state.apply_action`` of a random legal index; chance nodes (the first dealer and
  every dealt or drawn tile) are sampled from ``state.chance_outcomes()`` and applied,
  their time counted, their steps not: the rate and cost are per player decision, as
  the engine's. The ``steps/s`` column adds the chance steps (OpenSpiel's own count of
  moves), with the cost per step beside it.

The machine may be shared, so every game is measured in ``--rounds`` interleaved rounds
(engine, then each adapter, in every round; each measurement ``--seconds`` of CPU time):
the rates printed are the medians over the rounds, and ``cost`` is the median over the
rounds of the engine's rate over the adapter's in the same round (the target: at most 2).
Then the peers,
measured the same way in the same run (every loop picks its random legal action with
Python's ``random``): PettingZoo's classic ``texas_holdem_v4`` and
``leduc_holdem_v4`` (they need ``rlcard``; when it cannot be imported the line says
so) and OpenSpiel's ``python_team_dominoes``; each adapter's rate is shown as a ratio
to them.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

import boneyard
from boneyard.rl import gym_id, pettingzoo_env


def timed(run_game: Callable[[int], int], seconds: float) -> float:
    """Actions per CPU second of ``run_game(seed) -> actions``, over whole games for ``seconds``."""
    actions = 0
    seed = 0
    start = time.process_time()
    while True:
        actions += run_game(seed)
        seed += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return actions / spent


def engine_game(game_id: str) -> Callable[[int], int]:
    """One random game on the bare engine, a decision being legal actions, view, apply."""

    def run(seed: int) -> int:
        g = boneyard.new_game(game_id, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not g.is_over:
            legal = g.legal_actions()
            g.view(g.current_player)
            g.apply(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return run


def aec_game(make: Callable[[], Any]) -> Callable[[int], int]:
    """One random game on a PettingZoo AEC environment (ours or a peer's)."""
    env = make()

    def run(seed: int) -> int:
        env.reset(seed=seed)
        rng = random.Random(seed)
        n = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return run


def gym_game(game_id: str) -> Callable[[int], int]:
    """One random game on the Gymnasium environment; counts every seat's actions."""
    import gymnasium

    from boneyard.rl.gym_env import BoneyardEnv

    env = cast(BoneyardEnv, gymnasium.make(gym_id(game_id), opponents="random").unwrapped)

    def run(seed: int) -> int:
        _, info = env.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        while not done:
            legal = info["action_mask"].nonzero()[0]
            _, _, term, trunc, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = term or trunc
        assert env.table is not None
        return int(env.table.steps)

    return run


def spiel_game(name: str, chance: list[int] | None = None) -> Callable[[int], int]:
    """One random game on an OpenSpiel game: legal actions, the observation tensor, apply.

    Returns the player decisions; the chance steps are added to ``chance[0]`` when given.
    """
    import pyspiel

    game = pyspiel.load_game(name)

    def run(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        draws = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                draws += 1
                continue
            player = state.current_player()
            legal = state.legal_actions()
            state.observation_tensor(player)
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        if chance is not None:
            chance[0] += draws
        return n

    return run


def load() -> str:
    """The load averages (1, 5 and 15 minutes) and the CPU count: how shared the machine was."""
    if not hasattr(os, "getloadavg"):
        return f"unknown on {os.cpu_count()} CPUs"
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} / {five:.1f} / {fifteen:.1f} (1 / 5 / 15 min) on {os.cpu_count()} CPUs"


def peers(seconds: float) -> dict[str, float | str]:
    """The peers' rates, or why one could not be measured."""
    out: dict[str, float | str] = {}
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4

        out["pettingzoo texas_holdem_v4"] = timed(aec_game(texas_holdem_v4.env), seconds)
        out["pettingzoo leduc_holdem_v4"] = timed(aec_game(leduc_holdem_v4.env), seconds)
    except ImportError as err:
        out["pettingzoo texas_holdem_v4"] = out["pettingzoo leduc_holdem_v4"] = (
            f"not measured: pettingzoo[classic] cannot be imported ({err})"
        )
    try:
        import open_spiel.python.games  # noqa: F401  (registers the Python games)

        out["openspiel python_team_dominoes"] = timed(spiel_game("python_team_dominoes"), seconds)
    except ImportError as err:
        out["openspiel python_team_dominoes"] = f"not measured: {err}"
    return out


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per measurement")
    parser.add_argument("--games", default=",".join(boneyard.games()), help="comma-separated game ids")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per game (medians are shown)")
    args = parser.parse_args()
    import boneyard.rl.openspiel as bos

    games = [g.strip() for g in args.games.split(",") if g.strip()]
    print(f"machine load at the start: {load()}")
    peer = peers(args.seconds)
    numbers = {k: v for k, v in peer.items() if isinstance(v, float)}
    print("peers (actions per CPU second):")
    for name, value in peer.items():
        print(f"  {name:34s} {value:>10,.0f}" if isinstance(value, float) else f"  {name:34s} {value}")
    heads = "".join(f"  / {k.split()[-1]:>22s}" for k in numbers)
    print()
    print(f"{'game':9s} {'adapter':11s} {'actions/s':>10s} {'cost':>6s}{heads}   {'steps/s':>9s} {'cost':>6s}")
    worst = 0.0
    worst_step = 0.0
    for game_id in games:
        chance = [0]
        runs: dict[str, Callable[[int], int]] = {
            "engine": engine_game(game_id),
            "pettingzoo": aec_game(functools.partial(pettingzoo_env, game_id)),
            "gymnasium": gym_game(game_id),
            "openspiel": spiel_game(bos.short_name(game_id), chance),
        }
        rates: dict[str, list[float]] = {name: [] for name in runs}
        spiel_steps: list[float] = []
        for _ in range(max(1, args.rounds)):
            for name, run in runs.items():
                chance[0] = 0
                start = time.process_time()
                rate = timed(run, args.seconds)
                rates[name].append(rate)
                if name == "openspiel":
                    spent = time.process_time() - start
                    spiel_steps.append(rate + chance[0] / spent)
        engine = statistics.median(rates["engine"])
        print(f"{game_id:9s} {'engine':11s} {engine:10,.0f} {'':>6s}")
        for adapter in ("pettingzoo", "gymnasium", "openspiel"):
            rate = statistics.median(rates[adapter])
            cost = statistics.median(e / a for e, a in zip(rates["engine"], rates[adapter], strict=True))
            worst = max(worst, cost)
            ratios = "".join(f"  {rate / v:24.2f}" for v in numbers.values())
            steps = ""
            if adapter == "openspiel":
                step_cost = statistics.median(e / a for e, a in zip(rates["engine"], spiel_steps, strict=True))
                worst_step = max(worst_step, step_cost)
                steps = f"   {statistics.median(spiel_steps):9,.0f} {step_cost:6.2f}"
            print(f"{'':9s} {adapter:11s} {rate:10,.0f} {cost:6.2f}{ratios}{steps}")
    print()
    verdict = "met" if worst <= 2.0 else "NOT met"
    print(f"largest adapter cost per decision: {worst:.2f}x the bare engine (target: at most 2x): {verdict}")
    print(f"largest OpenSpiel cost per step (chance steps counted): {worst_step:.2f}x")
    print(f"machine load at the end: {load()}")


if __name__ == "__main__":
    main()
