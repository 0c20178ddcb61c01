"""Finding a game's part in a layer (its greedy heuristic, terminal view, simulation figures).

Each layer keeps one module per game, named by the game id, beside a generic fallback;
no layer lists game ids. :func:`per_game_module` is the one lookup they share, and
:class:`PerGame` the registry each layer keeps on top of it, so that all of them tell
"this game has no module here" (use the fallback) from "the game's module is broken"
(raise, never hide it behind the fallback).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Generic, TypeVar

T = TypeVar("T")


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


class PerGame(Generic[T]):
    """One layer's per-game parts: a registered part first, else the game's module, else the fallback.

    ``package`` is where the layer keeps one module per game; ``from_module`` takes the
    part out of such a module; ``fallback`` serves any game with neither. Lookups are
    cached per game id; :meth:`register` (for games living outside ``boneyard``) wins
    over a module.
    """

    def __init__(self, package: str, from_module: Callable[[ModuleType], T], fallback: T) -> None:
        self.package = package
        self.from_module = from_module
        self.fallback = fallback
        self._registered: dict[str, T] = {}
        self._found: dict[str, T] = {}

    def register(self, game_id: str, part: T) -> None:
        """Give ``game_id`` its part (it takes precedence over any module)."""
        self._registered[game_id] = part

    def unregister(self, game_id: str) -> None:
        """Remove what :meth:`register` added (tests clean up with this)."""
        self._registered.pop(game_id, None)

    def is_registered(self, game_id: str) -> bool:
        """Whether ``game_id``'s part was given with :meth:`register`."""
        return game_id in self._registered

    def get(self, game_id: str) -> T:
        """The game's part: registered, else from its module, else the fallback."""
        if game_id in self._registered:
            return self._registered[game_id]
        if game_id not in self._found:
            module = per_game_module(self.package, game_id)
            self._found[game_id] = self.fallback if module is None else self.from_module(module)
        return self._found[game_id]
