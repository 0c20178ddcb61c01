"""Terminal rendering of a Montana view: balances, exposed sets, discards, the claim window, your hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import default_names, labels, last_hand, seat_label

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


def render(view: dict[str, Any], names: Sequence[str] | None = None) -> RenderableType:
    """The table as the viewing seat sees it, its players called by ``names`` (default: Ann, Bob... by seat)."""
    names = default_names(view["players"]) if names is None else names
    n = view["players"]
    dealer_game = view["mode"] == "dealer"
    head = Text.assemble(
        (f"Hand {view['hand_number']}", "bold"),
        f"  dealer: {seat_label(view, view['dealer'], names)}",
        f"  woodpile: {view['woodpile']}",
        f"  dead hands: {view['dead_hands']}" if view["dead_hands"] else "",
        f"  deal passes: {view['deal_passes']}/{n}",
        f"  mode: {view['mode']}" + ("  one pair" if view["rules"].get("one_pair") else ""),
    )
    seats = Table(box=None, header_style="bold")
    for col in ("player", "chips" if dealer_game else "outs", "tiles", "ready", "exposed sets"):
        seats.add_column(col)
    for s in range(n):
        marker = " <" if view["current_player"] == s else ""
        ready = ""
        if view["ready"][s]:
            ready = f"ready ({view['stakes'][s]})" if dealer_game else "ready"
        seats.add_row(
            seat_label(view, s, names) + (" (D)" if s == view["dealer"] else "") + marker,
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
        discards.append(f"{seat_label(view, seat, names)} ")
        discards.append_text(_tile(tile))
        discards.append(" ")
    parts: list[RenderableType] = [head, seats, discards]
    claim = view.get("claim")
    if claim:
        line = Text.assemble(
            ("Claim window: ", "bold yellow"),
            f"{seat_label(view, claim['from'], names)} discarded ",
            _tile(claim["tile"]),
            f"; asking {seat_label(view, view['current_player'], names)}",
        )
        if claim["answered"]:
            line.append(f"; answered (hidden): {labels(view, claim['answered'], names)}")
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
    result = _result(view, names)
    if result is not None:
        parts.append(result)
    return Group(*parts)


def _result(view: dict[str, Any], names: Sequence[str]) -> RenderableType | None:
    """The last hand's end: told in words, with the winner's sets and what his hand was worth."""
    end: Mapping[str, Any] | None = next(
        (e for e in reversed(view.get("events") or []) if e.get("kind") == "hand_end"), None
    )
    said = last_hand(view, names)
    if end is None or said is None:
        return None
    lines: list[RenderableType] = [Text(said, style="dim")]
    if end["winner"] is not None:
        lines.append(Text.assemble("  sets: ", _sets(end["sets"])))
        if end["breakdown"]:
            worth = ", ".join(f"{label} {points}" for label, points in end["breakdown"])
            lines.append(Text(f"  value {end['value']}: {worth}", style="dim"))
    return Group(*lines)
