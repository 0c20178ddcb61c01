"""Terminal renderers: ``render(view)`` turns a seat's view into a Rich renderable.

Each game may have a module ``boneyard.cli.views.<id>`` with ``render(view)``; a generic
table is used otherwise.
"""

from __future__ import annotations

import importlib
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

SKIP = {"game", "players", "rules", "seat", "history", "hand", "phase", "current_player", "is_over", "winners"}


def render(view: dict[str, Any]) -> RenderableType:
    """The game's own renderer for ``view``, or the generic one."""
    try:
        module = importlib.import_module(f"{__name__}.{view['game']}")
    except ModuleNotFoundError:
        return render_generic(view)
    out: RenderableType = module.render(view)
    return out


def describe(view: dict[str, Any], action: Any) -> str:
    """A menu line for a legal action: the game's own ``describe(view, action)``, else its notation."""
    try:
        module = importlib.import_module(f"{__name__}.{view['game']}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{view['game']}":
            raise
        return str(action)
    own = getattr(module, "describe", None)
    return str(action) if own is None else str(own(view, str(action)))


def render_generic(view: dict[str, Any]) -> RenderableType:
    """A plain table of the view's public fields and the seat's hand."""
    table = Table(show_header=False, box=None)
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
