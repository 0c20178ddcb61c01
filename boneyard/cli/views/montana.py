"""Terminal rendering of a Montana view: balances, exposed sets, discards, the claim window, your hand."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import seat_label

UPPER = ("4", "5", "6")


def _tile(t: str) -> Text:
    """One tile, coloured by its suit class (upper suits cyan, lower suits magenta)."""
    return Text(f"[{t}]", style="bold cyan" if t[0] in UPPER else "bold magenta")


def _sets(sets: list[dict[str, Any]]) -> Text:
    out = Text()
    for m in sets:
        kind = m["kind"] + (" (concealed)" if m["concealed"] and m["kind"] == "quad" else "")
        out.append(f"{kind}: ", style="dim")
        out.append(" ".join(m["tiles"]))
        if m["points"]:
            out.append(f" +{m['points']}", style="green")
        out.append("   ")
    return out if sets else Text("-", style="dim")


def render(view: dict[str, Any]) -> RenderableType:
    """The table as the viewing seat sees it."""
    n = view["players"]
    dealer_game = view["mode"] == "dealer"
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  dealer: {seat_label(view, view['dealer'])}",
        f"  woodpile: {view['woodpile']}",
        f"  dead hands: {view['dead_hands']}" if view["dead_hands"] else "",
        f"  deal passes: {view['deal_passes']}/{n}",
        f"  mode: {view['mode']}" + ("  one pair" if view["rules"].get("one_pair") else ""),
    )
    seats = Table(box=None, header_style="bold")
    for col in ("seat", "chips" if dealer_game else "outs", "tiles", "ready", "exposed sets"):
        seats.add_column(col)
    for s in range(n):
        marker = " <" if view["current_player"] == s else ""
        ready = ""
        if view["ready"][s]:
            ready = f"ready ({view['stakes'][s]})" if dealer_game else "ready"
        seats.add_row(
            seat_label(view, s) + (" (D)" if s == view["dealer"] else "") + marker,
            str(view["scores"][s]),
            str(view["hand_sizes"][s]),
            ready,
            _sets(view["exposed"][s]),
        )
    discards = Text("Discards: ")
    recent = view["discards"][-16:]
    if not recent:
        discards.append("(none yet)", style="dim")
    for seat, tile in recent:
        discards.append(f"{seat}:")
        discards.append_text(_tile(tile))
        discards.append(" ")
    parts: list[RenderableType] = [head, seats, discards]
    claim = view.get("claim")
    if claim:
        line = Text.assemble(
            ("Claim window: ", "bold yellow"),
            f"{seat_label(view, claim['from'])} discarded ",
            _tile(claim["tile"]),
            f"; asking {seat_label(view, view['current_player'])}",
        )
        if claim["answered"]:
            line.append(f"; answered (hidden): {', '.join(seat_label(view, s) for s in claim['answered'])}")
        if view.get("my_answer"):
            line.append(f"; your answer: {view['my_answer']}", style="italic")
        parts.append(line)
    if view["hand"] is not None:
        hand = Text("Your hand: ", style="bold")
        for t in view["hand"]:
            hand.append_text(_tile(t))
            hand.append(" ")
        if view.get("pulled"):
            hand.append(f"  (pulled {' '.join(view['pulled'])})", style="dim")
        parts.append(hand)
    result = view.get("last_result")
    if result:
        parts.append(_result(view, result))
    return Group(*parts)


def _result(view: dict[str, Any], r: dict[str, Any]) -> RenderableType:
    """The last hand's outcome: the winner's sets and score breakdown, and the payments."""
    if r["drawn"]:
        return Text(f"Hand {r['hand']} was drawn (the woodpile ran out).", style="dim")
    how = "on a pull" if r["how"] == "pull" else f"on {seat_label(view, r['from'])}'s discard"
    lines: list[RenderableType] = [
        Text.assemble(
            (f"Hand {r['hand']}: ", "bold"),
            f"{seat_label(view, r['winner'])} went out {how} with ",
            _tile(r["tile"]),
        ),
        Text.assemble("  sets: ", _sets(r["sets"])),
    ]
    if view["mode"] == "dealer":
        breakdown = ", ".join(f"{label} {points}" for label, points in r["breakdown"])
        lines.append(Text(f"  value {r['value']} ({breakdown})"))
        changes = "  ".join(f"{seat_label(view, s)} {c:+d}" for s, c in enumerate(r["changes"]))
        lines.append(Text(f"  chips: {changes}"))
    return Group(*lines)
