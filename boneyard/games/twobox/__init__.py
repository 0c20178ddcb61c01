"""The four-man two-box draw game: the engine (``engine``).

The registry finds this package by its ``GAME``; nothing outside this folder names the game.
"""

from .engine import Twobox as GAME

__all__ = ["GAME"]
