"""Simulation at scale: many seeded games between bots, in parallel, with statistics.

``boneyard.simulate(...)`` (here :func:`simulate`) plays the games through the public
contract on local processes or on Ray, writes ``results.jsonl`` and ``summary.json``, and
returns the summary and the records. See ``docs/simulate.md``.
"""

from __future__ import annotations

from .run import SimResult, load_records, simulate
from .runner import BotSpec, Plan, SimulationError, game_seed, make_plan, play_game
from .summary import summarize

__all__ = [
    "BotSpec",
    "Plan",
    "SimResult",
    "SimulationError",
    "game_seed",
    "load_records",
    "make_plan",
    "play_game",
    "simulate",
    "summarize",
]
