"""Terminal renderers: ``render(view, names)`` turns a seat's view into a Rich renderable.

Each game may have a module ``boneyard.cli.views.<id>`` with ``render(view, names)``
(found by name: no list of game ids is kept); a game living outside ``boneyard`` gives
its renderer with :func:`register`. Any other game gets :func:`render_generic`: its
phase, the player to act, its public state and the seat's own tiles (the play loop lists
the legal actions under every view). Only "there is no module for this game" falls back
on the generic renderer: an error inside a game's view module is raised, never hidden.

``names`` are the players' names as the reader knows them, one per seat (the viewing
seat is always "you"): a renderer names players with :func:`seat_label` and tells what
happened with :func:`last_hand` (the words package's sentence of the last hand's end),
never with seat numbers or raw lists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...plugins import PerGame
from ...words import words

# The view's fields the generic renderer shows in its own way (or not at all: the events
# are told by the play loop, one sentence each, as they happen).
SKIP = {
    "game", "players", "rules", "seat", "events", "events_from", "hand", "phase", "current_player",
    "is_over", "winners", "scores", "partners", "last_result",
}

# The players' names when the caller gives none: short, distinct and in seat order.
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal")

Renderer = Callable[[dict[str, Any], Sequence[str]], RenderableType]


def default_names(players: int) -> list[str]:
    """A name per seat for a table whose players have none ("Ann", "Bob", ... then "Player 9").

    Seat-ordered, so that a seat keeps its name whoever reads the table.
    """
    return [NAMES[s] if s < len(NAMES) else f"Player {s + 1}" for s in range(players)]


def register(game_id: str, renderer: Renderer) -> None:
    """Give a game (one living outside ``boneyard``, say) its terminal renderer, ``renderer(view, names)``."""
    _RENDERERS.register(game_id, renderer)


def unregister(game_id: str) -> None:
    """Remove what :func:`register` added (tests clean up with this)."""
    _RENDERERS.unregister(game_id)


def renderer(game_id: str) -> Renderer:
    """The game's registered renderer, else its module's ``render``, else the generic one."""
    return _RENDERERS.get(game_id)


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The game's own renderer for ``view``, or the generic one.

    ``names``: each seat's name as the reader knows it; without them the seats get
    :func:`default_names` (the viewing seat is "you" either way).
    """
    named = list(names) if names is not None else default_names(int(view["players"]))
    return renderer(view["game"])(view, named)


def describe(view: dict[str, Any], action: Any) -> str:
    """A menu line for a legal action: the game's own ``describe(view, action)``, else its notation."""
    if _RENDERERS.is_registered(view["game"]):
        return str(action)  # a game registered from outside boneyard: its notation
    own = _DESCRIBERS.get(view["game"])
    return str(action) if own is None else str(own(view, str(action)))


def seat_label(view: Mapping[str, Any], seat: int, names: Sequence[str]) -> str:
    """The seat's name for the reader of ``view``: "you" for the viewing seat, else its name."""
    if view.get("seat") == seat:
        return "you"
    return names[seat] if 0 <= seat < len(names) else "a player"


def labels(view: Mapping[str, Any], seats: Sequence[int], names: Sequence[str]) -> str:
    """Several seats in a phrase: "Bob", "you and Cy", "Ann, Bob and you"."""
    named = [seat_label(view, s, names) for s in seats]
    if len(named) <= 1:
        return "".join(named) or "nobody"
    return f"{', '.join(named[:-1])} and {named[-1]}"


def last_hand(view: Mapping[str, Any], names: Sequence[str]) -> str | None:
    """The latest hand's end in the view's events, in words as the viewing seat reads it (None: none yet).

    A view keeps the previous hand's end among its events, so the result of the hand just
    played is still there while the next one is dealt and bid.
    """
    end = next((e for e in reversed(view.get("events") or []) if e.get("kind") == "hand_end"), None)
    if end is None:
        return None
    return words(str(view["game"]), names, view.get("seat")).tell(end)


def plain(value: Any) -> str:
    """A field of a view as plain text, for the generic renderer (no brackets, quotes or braces).

    Tiles and words are listed with spaces, numbers with commas, nested lists in groups
    separated by "|", mappings as "key: value" pairs.
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {plain(v)}" for k, v in value.items()) or "-"
    if isinstance(value, (list, tuple)):
        if not value:
            return "-"
        if any(isinstance(v, (list, tuple, Mapping)) for v in value):
            return " | ".join(plain(v) for v in value)
        sep = " " if all(isinstance(v, str) for v in value) else ", "
        return sep.join(plain(v) for v in value)
    return str(value)


def render_generic(view: dict[str, Any], names: Sequence[str]) -> RenderableType:
    """A plain table of the view's public fields and the seat's hand, for any game.

    The phase and the player to act (or the winners) come first, then each player's
    score, every other public field the game puts in its view, the last hand's end in
    words, and the seat's own tiles.
    """
    if view.get("is_over"):
        winners = labels(view, view.get("winners") or [], names)
        status = f"game over: {winners} won"
    else:
        turn = view.get("current_player")
        status = f"phase {view.get('phase')}" + ("" if turn is None else f"; to act: {seat_label(view, turn, names)}")
    table = Table(show_header=False, box=None)
    table.add_row(Text(str(view.get("game")), style="bold"), Text(status))
    scores = view.get("scores") or []
    table.add_row(
        Text("scores", style="bold"),
        Text(", ".join(f"{seat_label(view, s, names)} {v}" for s, v in enumerate(scores)) or "-"),
    )
    for key, value in view.items():
        if key not in SKIP:
            table.add_row(Text(key, style="bold"), Text(plain(value)))
    parts: list[RenderableType] = [table]
    ended = last_hand(view, names)
    if ended is not None:
        parts.append(Text(ended, style="dim"))
    if view.get("hand") is not None:
        parts.append(Text("Your hand: " + "  ".join(view["hand"]), style="bold green"))
    return Group(*parts)


_RENDERERS: PerGame[Renderer] = PerGame(__name__, lambda module: module.render, render_generic)
_DESCRIBERS: PerGame[Callable[[dict[str, Any], str], Any] | None] = PerGame(
    __name__, lambda module: getattr(module, "describe", None), None
)
