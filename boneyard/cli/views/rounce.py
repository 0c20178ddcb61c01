"""Terminal rendering of a Rounce view: trump, the trick, tricks won, points, your hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import default_names, last_hand, seat_label


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The table as the viewing seat sees it, its players called by ``names`` (default: Ann, Bob... by seat).

    Between hands (calls made, no trick led yet) the last hand's end is told in words.
    """
    names = default_names(view["players"]) if names is None else names
    n = view["players"]
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  dealer: {seat_label(view, view['dealer'], names)}  turn-up: ",
        (view["turn_up"], "bold yellow"),
        ("  (taken by the dealer)" if view["turn_up_taken"] else ""),
        "  trump: ",
        (str(view["trump"]), "bold red"),
    )
    seats = Table(box=None, header_style="bold")
    for col in ("player", "points", "call", "tiles", "tricks"):
        seats.add_column(col)
    for s in range(n):
        marker = " <" if view["current_player"] == s else ""
        seats.add_row(
            seat_label(view, s, names) + marker,
            str(view["scores"][s]),
            view["calls"][s] or "-",
            str(view["hand_sizes"][s]),
            str(view["tricks_won"][s]),
        )
    trick = Text("Trick: ")
    if view["trick"]:
        for p in view["trick"]:
            if p["suit"] is None:
                suit = ""
            else:
                suit = " (trump)" if p["suit"] == view["trump"] else f" (suit {p['suit']})"
            trick.append(f"{seat_label(view, p['seat'], names)} {p['tile']}{suit}   ")
    else:
        trick.append("(none yet)", style="dim")
    parts: list[RenderableType] = [head, seats, trick]
    if view["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        for t in view["hand"]:
            a, b = (int(x) for x in t.split("-"))
            hand.append(f"[{t}] ", style="bold red" if view["trump"] in (a, b) else "bold green")
        parts.append(hand)
    ended = last_hand(view, names) if view["phase"] == "call" or view["is_over"] else None
    if ended is not None:
        parts.append(Text(ended, style="dim"))
    return Group(*parts)
