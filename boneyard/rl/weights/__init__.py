"""The learned networks shipped in the package: one ``<game>-<players>.npz`` file per game and player count.

``bot:policy`` with no ``weights=`` file plays the network shipped for its table's game and
player count, and the ``ismcts`` bot's ``favourite=learned`` and ``rollout=learned`` read
the same networks. The files are package data (the wheel and an editable install carry
them), found through :mod:`importlib.resources`, so they work wherever boneyard is
installed. A game and player count with no file here has no learned bot until a network
is trained for it (``boneyard train GAME --players N``) and given as ``weights=FILE``:
:func:`shipped_path` refuses it with a message naming what is shipped.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["NoWeightsError", "describe", "load_shipped", "shipped", "shipped_path"]


class NoWeightsError(ValueError):
    """No learned network is shipped for a game and player count (the message names the ones that are)."""


def shipped() -> dict[tuple[str, int], Path]:
    """Every shipped network by ``(game, players)``, read from the package's files.

    Read from the files themselves, not from a list kept beside them, so that adding a
    trained ``<game>-<players>.npz`` here is all it takes to ship it.
    """
    out: dict[tuple[str, int], Path] = {}
    for entry in resources.files(__name__).iterdir():
        name = entry.name
        if not name.endswith(".npz"):
            continue
        game, _, count = name[: -len(".npz")].rpartition("-")
        if game and count.isdigit():
            out[(game, int(count))] = Path(str(entry))
    return dict(sorted(out.items()))


def describe() -> str:
    """The shipped networks in words, for messages: ``"rounce with 4 players"`` (or ``"none"``)."""
    have = [f"{game} with {players} players" for game, players in shipped()]
    return ", ".join(have) if have else "none"


def shipped_path(game: str, players: int) -> Path:
    """The file of the network shipped for ``game`` with ``players`` players.

    ``NoWeightsError`` (a ``ValueError``) naming the game and player count and listing the
    shipped networks when there is none: the other games still need networks trained.
    """
    path = shipped().get((game, int(players)))
    if path is None:
        raise NoWeightsError(
            f"no learned network is shipped for {game} with {players} players (shipped: {describe()}); "
            f"train one with 'boneyard train {game} --players {players}' and give it as weights=FILE")
    return path


@functools.cache
def load_shipped(game: str, players: int) -> Any:
    """The shipped network for ``game`` and ``players``, loaded once per process (:func:`boneyard.rl.dmc.load`).

    Cached: every bot seated in a game of that size shares one read-only copy instead of
    reading a megabyte per bot. ``NoWeightsError`` where none is shipped.
    """
    from .. import dmc

    return dmc.load(shipped_path(game, players))
