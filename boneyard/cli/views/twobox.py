"""Terminal rendering of a twobox view: the cross-shaped layout, scores, the count and your hand.

The spinner sits in the middle; arm 1 runs left, arm 2 right, tip 3 up and tip 4 down.
Each tile is drawn with its inner end towards the spinner; a stacked tile is marked ``x2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import default_names, last_hand, seat_label

# Long arms show the tile next to the spinner, an elision, and the outermost tiles.
SHOWN = 4


def _ends(tile: str) -> tuple[int, int]:
    a, b = tile.split("-")
    return int(a), int(b)


def _tile_text(entry: dict[str, Any], flip: bool) -> Text:
    """One laid tile, inner end first (``flip``: outer end first, for arms running left or up)."""
    high, low = _ends(entry["tile"])
    outer = entry["outer"]
    inner = high if outer == low else low
    double = high == low
    sep = "‖" if double else "|"
    body = f"[{outer}{sep}{inner}]" if flip else f"[{inner}{sep}{outer}]"
    text = Text(body, style="bold magenta" if double else "bold")
    if entry["stacked_by"] is not None:
        text.append("x2", style="bold yellow")
    return text


def _open_end(view: dict[str, Any], arm: int) -> Text:
    end = view["open_ends"][arm]
    if end is None:
        return Text("(locked)", style="dim")
    return Text(f"({end})", style="bold cyan")


def _arm_tiles(view: dict[str, Any], arm: int, flip: bool) -> list[Text]:
    """The arm's tiles from the spinner outwards, the middle elided when the arm is long."""
    entries = view["arms"][arm]["tiles"]
    if len(entries) <= SHOWN:
        return [_tile_text(e, flip) for e in entries]
    hidden = len(entries) - SHOWN + 1
    return [
        _tile_text(entries[0], flip),
        Text(f"..{hidden}..", style="dim"),
        *(_tile_text(e, flip) for e in entries[-(SHOWN - 1) :]),
    ]


def _horizontal(view: dict[str, Any], arm: int, leftwards: bool) -> Text:
    tiles = _arm_tiles(view, arm, leftwards)
    end = _open_end(view, arm)
    parts = [end, *reversed(tiles)] if leftwards else [*tiles, end]
    return Text(" ").join(parts)


def _vertical(view: dict[str, Any], arm: int, upwards: bool) -> Text:
    tiles = _arm_tiles(view, arm, upwards)
    end = _open_end(view, arm)
    parts = [end, *reversed(tiles)] if upwards else [*tiles, end]
    return Text("\n").join(parts)


def render_layout(view: dict[str, Any]) -> RenderableType:
    """The four-armed layout as a cross around the spinner."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(justify="right", no_wrap=True)
    grid.add_column(justify="center", no_wrap=True, min_width=9)
    grid.add_column(justify="left", no_wrap=True)
    high, _ = _ends(view["spinner"])
    spinner = Text(f"[{high}‖{high}]", style="bold red")
    if view["spinner_stacked_by"] is not None:
        spinner.append("x2", style="bold yellow")
    grid.add_row("", _vertical(view, 2, upwards=True), "")
    grid.add_row(_horizontal(view, 0, leftwards=True), spinner, _horizontal(view, 1, leftwards=False))
    grid.add_row("", _vertical(view, 3, upwards=False), "")
    return grid


def _count_line(view: dict[str, Any], names: Sequence[str]) -> Text:
    count = view["count"]
    scores = count > 0 and count % 5 == 0
    line = Text("Count: ")
    line.append(str(count), style="bold green" if scores else "bold")
    ends = ", ".join(f"{i + 1}:{'-' if e is None else e}" for i, e in enumerate(view["open_ends"]))
    setter = seat_label(view, view["spinner_seat"], names)
    line.append(f"   open ends {ends}   spinner {view['spinner']} set by {setter}")
    return line


def _seats(view: dict[str, Any], names: Sequence[str]) -> Table:
    table = Table(box=None, header_style="bold")
    for col in ("player", "points", "tiles", "drawn", "passed on"):
        table.add_column(col)
    for s in range(view["players"]):
        marker = " <" if view["current_player"] == s else ""
        passed = " ".join(map(str, view["passed_on"][s])) or "-"
        table.add_row(
            seat_label(view, s, names) + marker,
            str(view["scores"][s]),
            str(view["hand_sizes"][s]),
            str(view["drawn"][s]),
            passed,
        )
    return table


def _hand(view: dict[str, Any]) -> Text:
    open_numbers = {e for e in view["open_ends"] if e is not None}
    hand = Text("Your hand: ", style="bold")
    for t in view["hand"]:
        a, b = _ends(t)
        playable = a in open_numbers or b in open_numbers
        hand.append(f"[{t}] ", style="bold green" if playable else "white")
    return hand


def _last(view: dict[str, Any], names: Sequence[str]) -> list[RenderableType]:
    """The last play (its notation, the count it made and what it scored) and the last hand's end in words."""
    out: list[RenderableType] = []
    lp = view.get("last_play")
    if lp:
        who = seat_label(view, lp["seat"], names)
        if lp["stolen_from"] is not None:
            victim = seat_label(view, lp["stolen_from"], names)
            text = f"Last play: {who}: {lp['action']}, steals {lp['scored']} from {victim}"
        else:
            text = f"Last play: {who}: {lp['action']} (count {lp['count']}, scored {lp['scored']})"
        out.append(Text(text, style="dim"))
    ended = last_hand(view, names)
    if ended is not None:
        out.append(Text(ended, style="dim"))
    return out


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The table as the viewing seat sees it, its players called by ``names`` (default: Ann, Bob... by seat)."""
    names = default_names(view["players"]) if names is None else names
    rules = view["rules"]
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  target {view['target']}",
        ("  cutthroat" if rules.get("cutthroat") else ""),
        f"  boneyard: {view['boneyard']} tiles",
    )
    parts: list[RenderableType] = [
        head, _seats(view, names), Text(""), render_layout(view), Text(""), _count_line(view, names)
    ]
    steal = view.get("steal")
    if steal and rules.get("cutthroat"):
        victim = seat_label(view, steal["seat"], names)
        parts.append(Text(f"A stack now steals {steal['points']} from {victim}", style="yellow"))
    if view["hand"] is not None:
        parts.append(_hand(view))
    parts.extend(_last(view, names))
    return Group(*parts)
