"""Eighty: the engine (``engine``).

The registry finds this package by its ``GAME``; nothing outside this folder names the game.
"""

from .engine import Eighty as GAME

__all__ = ["GAME"]
