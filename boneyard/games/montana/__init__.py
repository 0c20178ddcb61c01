"""Montana Domino Rummy: the engine (``engine``) and the hand analysis (``analysis``).

The registry finds this package by its ``GAME``; nothing outside this folder names the game.
"""

from .engine import Montana as GAME

__all__ = ["GAME"]
