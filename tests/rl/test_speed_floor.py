"""The benchmark's OpenSpiel floor game is a valid OpenSpiel game, and the floor is measured.

``benchmarks/rl_speed.py`` states the least cost per decision any OpenSpiel adapter could
have from the step cost of a Python game that does nothing; that claim holds only if the
game is a real OpenSpiel game played the way the benchmark plays the others.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pyspiel

ROOT = Path(__file__).resolve().parents[2]


def rl_speed() -> ModuleType:
    """``benchmarks/rl_speed.py`` as a module (the benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location("rl_speed", ROOT / "benchmarks" / "rl_speed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rl_speed"] = module
    spec.loader.exec_module(module)
    return module


def test_the_floor_game_passes_openspiels_random_sim_test() -> None:
    bench = rl_speed()
    bench.register_floor_game()
    bench.register_floor_game()  # a second registration is a no-op
    game = pyspiel.load_game(bench.FLOOR_GAME)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        assert state.is_chance_node() == (steps % 2 == 0)  # chance and decisions alternate
        state.apply_action(state.legal_actions()[0])
        steps += 1
    assert steps == bench.FLOOR_STEPS


def test_the_floor_is_measured_per_step() -> None:
    bench = rl_speed()
    bench.register_floor_game()
    chance = [0]
    decisions = bench.spiel_game(bench.FLOOR_GAME, chance)(0)
    assert decisions == bench.FLOOR_STEPS // 2 and chance[0] == bench.FLOOR_STEPS // 2
    floor = bench.spiel_floor(0.05)
    assert isinstance(floor, float) and 0 < floor < 1e-3  # seconds a step: microseconds, not milliseconds
