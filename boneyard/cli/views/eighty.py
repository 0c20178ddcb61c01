"""Terminal rendering of an Eighty view: the bidding, trumps, the trick, both sides' totals, your hand."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import seat_label

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


def _header(view: dict[str, Any]) -> Text:
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  shuffler: {seat_label(view, view['shuffler'])}",
    )
    if view["bidder"] is not None:
        head.append(f"  contract: {_bid_text(view['high_bid'])} by {seat_label(view, view['bidder'])}")
    if view["nello"]:
        head.append("  Nel-O: no trumps", style="bold magenta")
        out = seat_label(view, view["sitting_out"])
        head.append(f", {out} {'sit' if out == 'you' else 'sits'} out")
    elif view["trump"] is not None:
        head.append("  trumps: ")
        head.append(f"{view['trump']}s", style="bold red")
    elif view["phase"] == "trump":
        head.append("  trumps: to be named", style="dim")
    return head


def _sides(view: dict[str, Any]) -> Table:
    marks = view["rules"].get("marks", False)
    table = Table(box=None, header_style="bold", title_justify="left")
    for col in ("side", "marks" if marks else "game points", "tricks", "count", "taken this hand"):
        table.add_column(col)
    for side in view["sides"]:
        a, b = side["seats"]
        name = f"{seat_label(view, a)} + {seat_label(view, b)}"
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


def _seats(view: dict[str, Any]) -> Table:
    table = Table(box=None, header_style="bold")
    for col in ("seat", "bid", "tiles", "tricks"):
        table.add_column(col)
    for s in range(view["players"]):
        marker = " <" if view["current_player"] == s else ""
        note = " (sits out)" if view["sitting_out"] == s else ""
        bid = view["bids"][s]
        table.add_row(
            seat_label(view, s) + marker + note,
            "pass" if bid == "pass" else _bid_text(bid),
            str(view["hand_sizes"][s]),
            str(view["tricks_won"][s]),
        )
    return table


def _trick(view: dict[str, Any]) -> Text:
    trick = Text("Trick: ")
    if view["trick"]:
        for p in view["trick"]:
            trick.append(f"{seat_label(view, p['seat'])} ")
            trick.append(f"[{p['tile']}]", style=_tile_style(p["tile"], view["trump"]))
            trick.append("   ")
        led = view["led_suit"]
        trick.append(f"(led: {led if led in ('trump', 'doubles') else led + 's'})", style="dim")
    elif view["tricks"]:
        last = view["tricks"][-1]
        tiles = " ".join(p["tile"] for p in last["plays"])
        trick.append(
            f"(none yet; last trick {tiles} to {seat_label(view, last['winner'])}, {last['points']} points)",
            style="dim",
        )
    else:
        trick.append("(none yet)", style="dim")
    return trick


def _last_result(view: dict[str, Any]) -> Text | None:
    r = view.get("last_result")
    if not r:
        return None
    word = "made" if r["made"] else "set"
    return Text(
        f"Last hand ({r['hand']}): {seat_label(view, r['bidder'])} bid {_bid_text(r['bid'])}, {word}; "
        f"taken {r['taken'][0]} to {r['taken'][1]}; seats 0+2 scored {r['gains'][0]}, "
        f"seats 1+3 scored {r['gains'][1]}",
        style="dim",
    )


def render(view: dict[str, Any]) -> RenderableType:
    """The table as the viewing seat sees it: bidding, trumps, trick, sides' totals, own hand."""
    parts: list[RenderableType] = [_header(view), _sides(view), _seats(view), _trick(view)]
    if view["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        for t in view["hand"]:
            hand.append(f"[{t}] ", style=_tile_style(t, view["trump"]))
        if view["sitting_out"] is not None and view["sitting_out"] == view["seat"]:
            hand.append(" (face down: your partner plays Nel-O)", style="dim")
        parts.append(hand)
    result = _last_result(view)
    if result is not None and view["phase"] in ("bid", "over"):
        parts.append(result)
    if view["is_over"]:
        winners = " and ".join(seat_label(view, s) for s in view["winners"])
        parts.append(Text(f"Game over: {winners} win.", style="bold"))
    return Group(*parts)
