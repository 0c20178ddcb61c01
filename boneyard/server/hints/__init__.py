"""Hints at the table, one module per game (``hints/<id>.py`` with a ``hint(view)`` function).

The server offers a hint only for a game that has a module here (or one given with
``HINTS.register``); no server code names a game.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from boneyard.plugins import PerGame

Hint = Callable[[dict[str, Any]], dict[str, Any]]


def _from_module(module: ModuleType) -> Hint | None:
    found: Hint | None = getattr(module, "hint", None)
    return found


HINTS: PerGame[Hint | None] = PerGame(__name__, _from_module, None)
