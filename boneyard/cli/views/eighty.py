"""Terminal rendering of an Eighty view: the bidding, trumps, the trick, both sides' totals, your hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import default_names, labels, last_hand, seat_label

COUNT_TILES = {"5-5": 10, "6-4": 10, "4-1": 5, "3-2": 5}


def _ends(tile: str) -> tuple[int, int]:
    a, b = tile.split("-")
    return int(a), int(b)


def _tile_style(tile: str, trump: int | None) -> str:
    if trump is not None and trump in _ends(tile):
        return "bold red"
    if tile in COUNT_TILES:
        return "bold yellow"
    return "bold green"


def _bid_text(bid: Any) -> str:
    if bid is None:
        return "-"
    return "Nel-O" if bid == "nel-o" else str(bid)


def _header(view: dict[str, Any], names: Sequence[str]) -> Text:
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  shuffler: {seat_label(view, view['shuffler'], names)}",
    )
    if view["bidder"] is not None:
        head.append(f"  contract: {_bid_text(view['high_bid'])} by {seat_label(view, view['bidder'], names)}")
    if view["nello"]:
        head.append("  Nel-O: no trumps", style="bold magenta")
        out = seat_label(view, view["sitting_out"], names)
        head.append(f", {out} {'sit' if out == 'you' else 'sits'} out")
    elif view["trump"] is not None:
        head.append("  trumps: ")
        head.append(f"{view['trump']}s", style="bold red")
    elif view["phase"] == "trump":
        head.append("  trumps: to be named", style="dim")
    return head


def _sides(view: dict[str, Any], names: Sequence[str]) -> Table:
    marks = view["rules"].get("marks", False)
    table = Table(box=None, header_style="bold", title_justify="left")
    for col in ("side", "marks" if marks else "game points", "tricks", "count", "taken this hand"):
        table.add_column(col)
    for side in view["sides"]:
        name = labels(view, side["seats"], names)
        table.add_row(
            name,
            f"{side['marks']} / {view['rules'].get('marks_target', 10)}"
            if marks
            else f"{side['points']} / {view['rules'].get('target', 250)}",
            str(side["tricks"]),
            str(side["count"]),
            str(side["taken"]),
        )
    return table


def _seats(view: dict[str, Any], names: Sequence[str]) -> Table:
    table = Table(box=None, header_style="bold")
    for col in ("player", "bid", "tiles", "tricks"):
        table.add_column(col)
    for s in range(view["players"]):
        marker = " <" if view["current_player"] == s else ""
        note = " (sits out)" if view["sitting_out"] == s else ""
        bid = view["bids"][s]
        table.add_row(
            seat_label(view, s, names) + marker + note,
            "pass" if bid == "pass" else _bid_text(bid),
            str(view["hand_sizes"][s]),
            str(view["tricks_won"][s]),
        )
    return table


def _trick(view: dict[str, Any], names: Sequence[str]) -> Text:
    trick = Text("Trick: ")
    if view["trick"]:
        for p in view["trick"]:
            trick.append(f"{seat_label(view, p['seat'], names)} ")
            trick.append(f"[{p['tile']}]", style=_tile_style(p["tile"], view["trump"]))
            trick.append("   ")
        led = view["led_suit"]
        trick.append(f"(led: {led if led in ('trump', 'doubles') else led + 's'})", style="dim")
    elif view["tricks"]:
        last = view["tricks"][-1]
        tiles = " ".join(p["tile"] for p in last["plays"])
        trick.append(
            f"(none yet; last trick {tiles} to {seat_label(view, last['winner'], names)}, {last['points']} points)",
            style="dim",
        )
    else:
        trick.append("(none yet)", style="dim")
    return trick


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The table as the viewing seat sees it: bidding, trumps, trick, sides' totals, own hand.

    Players are called by ``names`` (default: Ann, Bob... by seat); while the next hand is bid (and at the end) the last
    hand's end is told in words.
    """
    names = default_names(view["players"]) if names is None else names
    parts: list[RenderableType] = [_header(view, names), _sides(view, names), _seats(view, names), _trick(view, names)]
    if view["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        for t in view["hand"]:
            hand.append(f"[{t}] ", style=_tile_style(t, view["trump"]))
        if view["sitting_out"] is not None and view["sitting_out"] == view["seat"]:
            hand.append(" (face down: your partner plays Nel-O)", style="dim")
        parts.append(hand)
    ended = last_hand(view, names) if view["phase"] in ("bid", "over") else None
    if ended is not None:
        parts.append(Text(ended, style="dim"))
    if view["is_over"]:
        parts.append(Text(f"Game over: {labels(view, view['winners'], names)} win.", style="bold"))
    return Group(*parts)
