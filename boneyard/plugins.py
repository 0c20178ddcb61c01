"""Finding a game's module in a layer (its greedy heuristic, terminal view, simulation figures).

Each layer keeps one module per game, named by the game id, beside a generic fallback;
no layer lists game ids. :func:`per_game_module` is the one lookup they share, so that
all of them tell "this game has no module here" (use the fallback) from "the game's
module is broken" (raise, never hide it behind the fallback).
"""

from __future__ import annotations

import importlib
from types import ModuleType


def per_game_module(package: str, game_id: str) -> ModuleType | None:
    """The module ``<package>.<game_id>``, or ``None`` when the package has none for that game.

    Only a missing module of exactly that name counts as none: a module that exists but
    fails to import (an import of its own that is missing, say) raises as it would anywhere.
    """
    name = f"{package}.{game_id}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name != name:
            raise
        return None
