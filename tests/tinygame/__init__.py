"""Tiny Block: a two-player domino game that lives only under ``tests/``.

It proves that a game needs nothing outside its own folder: a test registers it with
``boneyard.games.register`` and then plays it through every layer (terminal, web API,
simulation, arena, search bot), each of which must fall back on its generic parts.
"""

from .engine import TinyBlock as GAME

__all__ = ["GAME"]
