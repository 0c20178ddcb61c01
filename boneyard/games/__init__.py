"""The registry of games: id to engine class, imported on first use."""

from __future__ import annotations

import importlib
from typing import Any

# The contract's order of game ids.
ORDER = ("montana", "twobox", "rummikub", "eighty", "rounce")

# id -> module holding a ``GAME`` class. Only registered games are listed by ``game_ids``.
_MODULES: dict[str, str] = {
    "montana": "boneyard.games.montana",
    "eighty": "boneyard.games.eighty",
    "twobox": "boneyard.games.twobox",
    "rounce": "boneyard.games.rounce",
    "rummikub": "boneyard.games.rummikub",
}

_loaded: dict[str, Any] = {}


def game_ids() -> list[str]:
    """The ids of every game boneyard plays, in the contract's order."""
    return [g for g in ORDER if g in _MODULES]


def game_class(game_id: str) -> Any:
    """The engine class of a game; ``ValueError`` naming the known games if unknown."""
    cls = _loaded.get(game_id)
    if cls is None:
        if not isinstance(game_id, str) or game_id not in _MODULES:
            raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
        cls = _loaded[game_id] = importlib.import_module(_MODULES[game_id]).GAME
    return cls
