"""Domino Rummikub: the engine (``engine``) and the exact arrangement search (``solver``,
compiled from ``_rummikub_dp.c``).

The registry finds this package by its ``GAME``; nothing outside this folder names the game.
"""

from .engine import Rummikub as GAME

__all__ = ["GAME"]
