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
  moves), with the cost per step beside it. ``floor`` is the least cost per decision any
  adapter could have: the engine's own work plus, for the decision and for each of its
  chance steps, the cost of one step of the cheapest possible OpenSpiel Python game (one
  whose every method returns at once, registered here and measured in the same run: its
  step is OpenSpiel's pybind protocol alone).

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


FLOOR_GAME = "python_rl_speed_floor"
FLOOR_STEPS = 40  # steps a game of the floor game lasts, alternately chance and decision


def register_floor_game() -> None:
    """Register OpenSpiel's cheapest possible Python game: every method returns at once.

    Its state overrides the same methods as boneyard's OpenSpiel state, each doing the
    least it can (a counter moves on; two chance outcomes, two legal actions, a
    one-entry observation), so a step of it costs OpenSpiel's protocol alone: the
    pybind calls into the C++ state and the calls back into Python. No Python game's
    step can cost less.
    """
    import numpy as np
    import pyspiel

    if FLOOR_GAME in pyspiel.registered_names():
        return
    kind = pyspiel.GameType(
        short_name=FLOOR_GAME,
        long_name="rl_speed floor",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.REWARDS,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=True,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=2, max_chance_outcomes=2, num_players=2, min_utility=-1.0, max_utility=1.0,
        max_game_length=FLOOR_STEPS,
    )
    chance, terminal = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
    zeros = [0.0, 0.0]

    class FloorState(pyspiel.State):
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.n = 0

        def current_player(self) -> int:
            n = self.n
            return terminal if n >= FLOOR_STEPS else chance if n % 2 == 0 else n // 2 % 2

        def _legal_actions(self, player: int) -> list[int]:
            return [0, 1]

        def legal_actions(self, player: int | None = None) -> list[int]:
            return [0, 1]

        def is_chance_node(self) -> bool:
            return self.n % 2 == 0 and self.n < FLOOR_STEPS

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(0, 0.5), (1, 0.5)]

        def observation_tensor(self, player: int | None = None) -> list[float]:
            return [0.0]

        def _apply_action(self, action: int) -> None:
            self.n += 1

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def is_terminal(self) -> bool:
            return self.n >= FLOOR_STEPS

        def returns(self) -> list[float]:
            return zeros

        def rewards(self) -> list[float]:
            return zeros

        def __str__(self) -> str:
            return str(self.n)

    class FloorObserver:
        def __init__(self) -> None:
            self.tensor = np.zeros(1, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state: FloorState, player: int) -> None:
            pass

        def string_from(self, state: FloorState, player: int) -> str:
            return str(state.n)

    class FloorGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> FloorObserver:
            return FloorObserver()

    pyspiel.register_game(kind, FloorGame)


def spiel_floor(seconds: float) -> float | str:
    """Seconds a step of the cheapest possible OpenSpiel Python game costs, or why not measured.

    The steps are played as :func:`spiel_game` plays them (half chance, half decisions),
    over the game :func:`register_floor_game` registers.
    """
    try:
        register_floor_game()
    except ImportError as err:
        return f"not measured: {err}"
    chance = [0]
    start = time.process_time()
    decisions = timed(spiel_game(FLOOR_GAME, chance), seconds)
    spent = time.process_time() - start
    return 1.0 / (decisions + chance[0] / spent)


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
    floor = spiel_floor(args.seconds)
    if isinstance(floor, float):
        print(f"  {'openspiel floor (a game that does nothing)':34s} {1 / floor:>10,.0f} steps/s, "
              f"{floor * 1e6:.1f} us a step")
    else:
        print(f"  {'openspiel floor':34s} {floor}")
    heads = "".join(f"  / {k.split()[-1]:>22s}" for k in numbers)
    print()
    print(f"{'game':9s} {'adapter':11s} {'actions/s':>10s} {'cost':>6s}{heads}   "
          f"{'steps/s':>9s} {'cost':>6s} {'floor':>6s}")
    worst = 0.0
    worst_step = 0.0
    worst_floor = 0.0
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
        chance_per_decision: list[float] = []
        for _ in range(max(1, args.rounds)):
            for name, run in runs.items():
                chance[0] = 0
                start = time.process_time()
                rate = timed(run, args.seconds)
                rates[name].append(rate)
                if name == "openspiel":
                    spent = time.process_time() - start
                    spiel_steps.append(rate + chance[0] / spent)
                    chance_per_decision.append(chance[0] / (rate * spent))
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
                if isinstance(floor, float):
                    # The least cost per decision any adapter could have: the engine's own
                    # work plus OpenSpiel's floor for the decision step and its chance steps.
                    least = 1.0 + (1.0 + statistics.median(chance_per_decision)) * floor * engine
                    worst_floor = max(worst_floor, least)
                    steps += f" {least:6.2f}"
            print(f"{'':9s} {adapter:11s} {rate:10,.0f} {cost:6.2f}{ratios}{steps}")
    print()
    verdict = "met" if worst <= 2.0 else "NOT met"
    print(f"largest adapter cost per decision: {worst:.2f}x the bare engine (target: at most 2x): {verdict}")
    print(f"largest OpenSpiel cost per step (chance steps counted): {worst_step:.2f}x")
    if worst_floor:
        print(f"largest OpenSpiel floor per decision (no adapter could cost less): {worst_floor:.2f}x")
    print(f"machine load at the end: {load()}")


if __name__ == "__main__":
    main()
