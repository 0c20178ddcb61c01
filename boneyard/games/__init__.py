"""The registry of games: id to engine class.

Every sub-package of ``boneyard.games`` that defines ``GAME`` (a :class:`~.base.Game`
subclass) is a game: adding a folder is all it takes, and no generic code lists game ids.
Games living elsewhere (a plug-in, or a small game written for a test) join with
:func:`register`. Listings follow each game's declared ``order``, then its id.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from typing import Any

_registry: dict[str, Any] = {}
_discovered = False
_lock = threading.RLock()  # re-entrant: a game package may itself ask the registry while importing


def _discover() -> None:
    """Import every game package under ``boneyard.games`` once and register its ``GAME``.

    Thread-safe: the server's worker threads may ask for games at the same time, and none
    may see the registry before it is filled.
    """
    global _discovered
    if _discovered:
        return
    with _lock:
        if _discovered:
            return
        for module in pkgutil.iter_modules(__path__):
            if not module.ispkg:
                continue
            game = getattr(importlib.import_module(f"{__name__}.{module.name}"), "GAME", None)
            if game is not None and game.id not in _registry:
                _registry[game.id] = game
        _discovered = True


def register(cls: Any) -> Any:
    """Add a game class to the registry (usable as a decorator); returns the class.

    Plug-ins and tests call this for games that live outside ``boneyard.games``. The
    class must declare an ``id`` that no other game uses; anything else is a
    ``ValueError`` naming the problem, and the registry is left as it was.
    """
    from .base import Game

    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise ValueError(f"only a boneyard Game subclass can be registered, got {cls!r}")
    game_id = getattr(cls, "id", None)
    if not isinstance(game_id, str) or not game_id.isidentifier():
        raise ValueError(f"a game needs an id made of letters, digits and _, got {game_id!r}")
    _discover()
    if _registry.get(game_id, cls) is not cls:
        raise ValueError(f"a game with id {game_id!r} is already registered")
    _registry[game_id] = cls
    return cls


def unregister(game_id: str) -> None:
    """Remove a game added with :func:`register` (tests clean up with this)."""
    _discover()
    _registry.pop(game_id, None)


def game_ids() -> list[str]:
    """The ids of every game boneyard plays, in their declared order."""
    _discover()
    return sorted(_registry, key=lambda g: (_registry[g].order, g))


def game_class(game_id: str) -> Any:
    """The engine class of a game; ``ValueError`` naming the known games if unknown."""
    _discover()
    cls = _registry.get(game_id) if isinstance(game_id, str) else None
    if cls is None:
        raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    return cls
