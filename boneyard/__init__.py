"""boneyard: exact engines, bots and tools for five domino games.

The public contract (see ``docs/api.md``)::

    import boneyard
    g = boneyard.new_game("rounce", players=3, seed=7)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
"""

from __future__ import annotations

# First: choose between the compiled and the pure-Python engines before any is imported.
from . import compiled  # noqa: F401

# isort: split
from .api import game_info, games, new_game, replay, sample_game
from .bots import Bot, bot, bots
from .bots.coach import analyse
from .errors import IllegalAction, RulesError
from .sim import simulate
from .tiles import Tile

__all__ = [
    "Bot",
    "IllegalAction",
    "RulesError",
    "Tile",
    "analyse",
    "bot",
    "bots",
    "game_info",
    "games",
    "new_game",
    "replay",
    "sample_game",
    "simulate",
]
__version__ = "0.1.0"
