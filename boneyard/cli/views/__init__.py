"""Terminal renderers: ``render(view)`` turns a seat's view into a Rich renderable.

Each game may have a module ``boneyard.cli.views.<id>`` with ``render(view)`` (found by
name: no list of game ids is kept); a game living outside ``boneyard`` gives its renderer
with :func:`register`. Any other game gets :func:`render_generic`: its phase, the seat to
act, its public state and the seat's own tiles (the play loop lists the legal actions
under every view). Only "there is no module for this game" falls back on the generic
renderer: an error inside a game's view module is raised, never hidden.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...plugins import PerGame

SKIP = {"game", "players", "rules", "seat", "history", "hand", "phase", "current_player", "is_over", "winners"}

Renderer = Callable[[dict[str, Any]], RenderableType]


def register(game_id: str, renderer: Renderer) -> None:
    """Give a game (one living outside ``boneyard``, say) its terminal renderer."""
    _RENDERERS.register(game_id, renderer)


def unregister(game_id: str) -> None:
    """Remove what :func:`register` added (tests clean up with this)."""
    _RENDERERS.unregister(game_id)


def renderer(game_id: str) -> Renderer:
    """The game's registered renderer, else its module's ``render``, else the generic one."""
    return _RENDERERS.get(game_id)


def render(view: dict[str, Any]) -> RenderableType:
    """The game's own renderer for ``view``, or the generic one."""
    return renderer(view["game"])(view)


def describe(view: dict[str, Any], action: Any) -> str:
    """A menu line for a legal action: the game's own ``describe(view, action)``, else its notation."""
    if _RENDERERS.is_registered(view["game"]):
        return str(action)  # a game registered from outside boneyard: its notation
    own = _DESCRIBERS.get(view["game"])
    return str(action) if own is None else str(own(view, str(action)))


def render_generic(view: dict[str, Any]) -> RenderableType:
    """A plain table of the view's public fields and the seat's hand, for any game.

    The phase and the seat to act (or the winners) come first, then every public field
    the game puts in its view, then the seat's own tiles.
    """
    if view.get("is_over"):
        winners = " and ".join(seat_label(view, s) for s in view.get("winners", []))
        status = f"game over: {winners or 'nobody'} won"
    else:
        turn = view.get("current_player")
        status = f"phase {view.get('phase')}" + ("" if turn is None else f"; to act: {seat_label(view, turn)}")
    table = Table(show_header=False, box=None)
    table.add_row(Text(str(view.get("game")), style="bold"), Text(status))
    for key, value in view.items():
        if key not in SKIP:
            table.add_row(Text(key, style="bold"), Text(str(value)))
    parts: list[RenderableType] = [table]
    if view.get("hand") is not None:
        parts.append(Text("Your hand: " + "  ".join(view["hand"]), style="bold green"))
    return Group(*parts)


def seat_label(view: dict[str, Any], seat: int) -> str:
    """'seat 2' or 'you' when the view is that seat's."""
    return "you" if view.get("seat") == seat else f"seat {seat}"


_RENDERERS: PerGame[Renderer] = PerGame(__name__, lambda module: module.render, render_generic)
_DESCRIBERS: PerGame[Callable[[dict[str, Any], str], Any] | None] = PerGame(
    __name__, lambda module: getattr(module, "describe", None), None
)
