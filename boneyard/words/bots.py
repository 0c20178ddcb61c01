"""What each bot is, in a player's words: the lobby's help beside the seats.

A player choosing an opponent needs to know what "greedy" or "ismcts" means at the table:
how strong it is and how long it takes, not how it is built. The sentences live here, with
the other words people read; a bot installed by a plug-in that has none here is described
by the first line of its own docstring.
"""

from __future__ import annotations

import inspect
from typing import Any

# name -> what a player should know before seating it
_ABOUT = {
    "random": "plays any legal move at random: easy to beat, good for learning the rules",
    "greedy": "plays the move that looks best this turn by the game's rules of thumb: a fair opponent, and quick",
    "ismcts": ("thinks ahead: plays each possible move out over many deals of the tiles it cannot see, "
               "up to {cap} a move; the strongest"),
    "policy": ("plays by a neural network trained on games against itself: quick, a little stronger than greedy; "
               "offered only in the games and table sizes it was trained for"),
}


def _seconds(ms: float) -> str:
    """A think time as a player reads it: ``half a second``, ``a second``, ``2 seconds``."""
    if ms < 1000:
        return "half a second" if ms == 500 else f"{ms:.0f} milliseconds"
    if ms == 1000:
        return "a second"
    return f"{ms / 1000:g} seconds"


def about(name: str, cap_ms: float | None = None, maker: Any = None) -> str:
    """One sentence on the bot ``name``: what it plays like and how long it takes.

    ``cap_ms`` is the server's think-time cap for a searching bot (said as "up to a second a
    move"); ``maker`` is the bot's class or factory, read for a plug-in bot's docstring.
    """
    text = _ABOUT.get(name)
    if text is None:
        doc = inspect.getdoc(maker) if maker is not None else None
        first = doc.strip().splitlines()[0].rstrip(".") if doc else ""
        return first[:1].lower() + first[1:] if first else "a bot installed on this server"
    if "{cap}" in text:
        text = text.replace("{cap}", _seconds(cap_ms) if cap_ms is not None else "as long as it needs")
    return text
