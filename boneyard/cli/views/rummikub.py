"""Terminal rendering of a Domino Rummikub view: the table's groups, the seats, your hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import default_names, last_hand, seat_label

JOKERS = {"0-0", "6-6"}


def _tile(text: Text, tile: str) -> None:
    """A tile in brackets; a joker is marked with a J (it stands for any tile)."""
    if tile in JOKERS:
        text.append(f"[{tile} J]", style="bold magenta")
    else:
        text.append(f"[{tile}]", style="bold")
    text.append(" ")


def _groups(action: str) -> list[list[str]]:
    return [g.split() for g in action[len("play "):].split("|")]


def describe(view: dict[str, Any], action: str) -> str:
    """A menu line for ``action``: a play names only the tiles it lays and what it changes.

    The action's notation is the whole new table, which would make every menu line as long
    as the table; the player needs to know which of his tiles go down and whether the
    table's groups are rearranged.
    """
    if not action.startswith("play "):
        return action
    groups = _groups(action)
    left = [t for g in view["table"] for t in g]
    laid = []
    for tile in (t for g in groups for t in g):
        if tile in left:
            left.remove(tile)
        else:
            laid.append(tile)
    shown = " ".join(f"{t} (joker)" if t in JOKERS else t for t in laid)
    before = {tuple(sorted(g)) for g in view["table"]}
    kept = sum(tuple(sorted(g)) in before for g in groups)
    changed = len(view["table"]) - kept
    how = f"; changes {changed} table group{'s' if changed != 1 else ''}" if changed else ""
    return f"lay {shown}{how}"


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The table as the viewing seat sees it, its players called by ``names`` (default: Ann, Bob... by seat).

    The last hand's end is told in words.
    """
    names = default_names(view["players"]) if names is None else names
    n = view["players"]
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  dealer: {seat_label(view, view['dealer'], names)}  boneyard: {view['boneyard']}",
        f"  target: {view['target']}",
        (f"  passes in a row: {view['passes']}" if view["passes"] else ""),
    )
    seats = Table(box=None, header_style="bold")
    for col in ("player", "score", "tiles", "opened"):
        seats.add_column(col)
    for s in range(n):
        marker = " <" if view["current_player"] == s else ""
        seats.add_row(
            seat_label(view, s, names) + marker,
            str(view["scores"][s]),
            str(view["hand_sizes"][s]),
            "yes" if view["opened"][s] else "no",
        )
    if any(t in JOKERS for g in view["table"] for t in g) or any(t in JOKERS for t in view["hand"] or []):
        head.append("  (J: a joker, 0-0 or 6-6, stands for any tile)", style="dim")
    board = Table(box=None, show_header=False)
    board.add_column(justify="right", style="dim")
    board.add_column()
    for number, group in enumerate(view["table"], 1):
        line = Text()
        for tile in group:
            _tile(line, tile)
        board.add_row(str(number), line)
    parts: list[RenderableType] = [head, seats, Text("Table:", style="bold")]
    parts.append(board if view["table"] else Text("  (empty)", style="dim"))
    if view["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        for tile in view["hand"]:
            _tile(hand, tile)
        seat = view["seat"]
        if not view["opened"][seat]:
            hand.append("  (not opened: your first play is three of your tiles)", style="dim")
        parts.append(hand)
    ended = last_hand(view, names)
    if ended is not None:
        parts.append(Text(ended, style="dim"))
    return Group(*parts)
