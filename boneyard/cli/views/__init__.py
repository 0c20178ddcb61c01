"""Terminal renderers: ``render(view)`` turns a seat's view into a Rich renderable.

Each game may have a module ``boneyard.cli.views.<id>`` with ``render(view)`` (found by
name: no list of game ids is kept); a game living outside ``boneyard`` gives its renderer
with :func:`register`. Any other game gets :func:`render_generic`: its phase, the seat to
act, its public state and the seat's own tiles (the play loop lists the legal actions
under every view). Only "there is no module for this game" falls back on the generic
renderer: an error inside a game's view module is raised, never hidden.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

SKIP = {"game", "players", "rules", "seat", "history", "hand", "phase", "current_player", "is_over", "winners"}

Renderer = Callable[[dict[str, Any]], RenderableType]
_REGISTERED: dict[str, Renderer] = {}
_FOUND: dict[str, Renderer] = {}


def register(game_id: str, renderer: Renderer) -> None:
    """Give a game (one living outside ``boneyard``, say) its terminal renderer."""
    _REGISTERED[game_id] = renderer


def unregister(game_id: str) -> None:
    """Remove what :func:`register` added (tests clean up with this)."""
    _REGISTERED.pop(game_id, None)


def renderer(game_id: str) -> Renderer:
    """The game's registered renderer, else its module's ``render``, else the generic one."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    if game_id not in _FOUND:
        name = f"{__name__}.{game_id}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as err:
            if err.name != name:
                raise  # the game's view module exists but is broken: say so
            _FOUND[game_id] = render_generic
        else:
            _FOUND[game_id] = module.render
    return _FOUND[game_id]


def render(view: dict[str, Any]) -> RenderableType:
    """The game's own renderer for ``view``, or the generic one."""
    return renderer(view["game"])(view)


def describe(view: dict[str, Any], action: Any) -> str:
    """A menu line for a legal action: the game's own ``describe(view, action)``, else its notation."""
    if view["game"] in _REGISTERED:
        return str(action)
    try:
        module = importlib.import_module(f"{__name__}.{view['game']}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{view['game']}":
            raise
        return str(action)
    own = getattr(module, "describe", None)
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
