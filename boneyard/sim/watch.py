"""Per-move watchers: game-specific facts gathered from the views while a game is played.

Most figures come from each hand's result (``last_result``). A few happen move by move
and are not in the result; a watcher reads them from every view the players are shown
(and the final spectator view) and adds them to the current hand's record under
``"watched"``. Watchers read only views.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

# (view, memory kept across the whole game, the current hand's tallies) -> None
Watcher = Callable[[Mapping[str, Any], dict[str, Any], dict[str, Any]], None]


def twobox(view: Mapping[str, Any], memory: dict[str, Any], hand: dict[str, Any]) -> None:
    """Cutthroat steals: how many, and the points they moved."""
    play = view.get("last_play")
    if not isinstance(play, Mapping) or play == memory.get("play"):
        return
    memory["play"] = dict(play)
    if play.get("stolen_from") is not None:
        hand["steals"] = hand.get("steals", 0) + 1
        hand["stolen_points"] = hand.get("stolen_points", 0) + (play.get("scored") or 0)


WATCHERS: dict[str, Watcher] = {"twobox": twobox}
