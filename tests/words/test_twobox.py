"""Two-box's sentences, from hand-made events: plays on the arms, stacks, counts, steals, draws, hand ends.

The reader is seat 0 ("you") at a table of three.
"""

from __future__ import annotations

from typing import Any

from .common import say


def tell(event: dict[str, Any], me: int | None = 0) -> str:
    return say("twobox", event, 3, me)


def _arms() -> list[dict[str, Any]]:
    """A small layout: 6-3 on side 1, 6-2 on side 2 (stacked by Cy), the tips empty."""
    return [
        {"arm": 1, "tiles": [{"tile": "6-3", "outer": 3, "seat": 1, "stacked_by": None}]},
        {"arm": 2, "tiles": [{"tile": "6-2", "outer": 2, "seat": 2, "stacked_by": 2}]},
        {"arm": 3, "tiles": []},
        {"arm": 4, "tiles": []},
    ]


def _hand_end(**fields: Any) -> dict[str, Any]:
    event = {
        "kind": "hand_end", "hand": 2, "how": "domino", "winner": 1, "award": 23, "spinner": "6-6", "spinner_seat": 0,
        "spinner_stacked_by": None, "arms": _arms(), "hands": [["6-5", "4-4"], [], ["3-2", "1-0"]], "pips": [19, 0, 6],
        "points": [10, 48, 0], "totals": [85, 120, 60],
    }
    event.update(fields)
    return event


def test_plays_stacks_and_the_count() -> None:
    assert tell({"kind": "spinner", "seat": 0, "tile": "6-6"}) == "You set the spinner, 6-6."
    assert tell({"kind": "play", "seat": 1, "tile": "6-3", "arm": 1}) == "Bob plays 6-3 on arm 1, a side."
    assert tell({"kind": "play", "seat": 0, "tile": "6-5", "arm": 4}) == "You play 6-5 on arm 4, a tip."
    assert tell({"kind": "stack", "seat": 2, "tile": "6-5", "on": 3}) == "Cy stacks 6-5 on the 6-5 ending arm 3."
    assert tell({"kind": "stack", "seat": 0, "tile": "6-6", "on": 0}) == "You stack 6-6 on the spinner."
    assert tell({"kind": "score", "seat": 1, "points": 15, "count": 15}) == "Bob scores 15 (the count is 15)."
    assert tell({"kind": "steal", "seat": 2, "victim": 0, "points": 20}) == "Cy steals 20 from you (cutthroat)."
    assert tell({"kind": "pass", "seat": 0}) == "You cannot play and pass."


def test_a_draw_shows_its_tile_only_to_the_drawer() -> None:
    assert tell({"kind": "draw", "seat": 0, "tile": "4-2"}) == "You draw 4-2."
    assert tell({"kind": "draw", "seat": 1}) == "Bob draws a tile."


def test_going_out_and_blocked() -> None:
    assert tell({"kind": "domino", "seat": 1, "points": 23}) == (
        "Bob goes out and scores 23 for the pips left in the other hands."
    )
    assert tell({"kind": "blocked", "seat": 2, "points": 12}) == (
        "The hand is blocked: Cy has the fewest pips and scores 12."
    )
    assert tell({"kind": "blocked", "seat": None, "points": 0}) == (
        "Blocked: the lightest hands tie even on their lowest tile, so nobody scores."
    )


def test_hand_ends_say_how_the_points_this_hand_and_the_totals() -> None:
    assert tell(_hand_end()) == (
        "Hand 2 is over: Bob went out (+23 for the pips left). Points this hand: you +10, Bob +48, Cy 0. "
        "Totals: you 85, Bob 120, Cy 60."
    )
    tie = _hand_end(how="blocked", winner=None, award=0, hands=[["6-5"], ["5-5"], ["4-1"]], pips=[11, 10, 5],
                    points=[5, 0, 10], totals=[80, 72, 70])
    assert tell(tie) == (
        "Hand 2 is blocked and the lightest hands tie: nobody scores the block. "
        "Points this hand: you +5, Bob 0, Cy +10. Totals: you 80, Bob 72, Cy 70."
    )
    blocked = _hand_end(how="blocked", winner=2, award=12, points=[0, 0, 12], totals=[75, 72, 72])
    assert tell(blocked).startswith("Hand 2 is blocked: Cy had the fewest pips (+12). Points this hand:")
    target = _hand_end(hand=4, how="target", winner=2, award=0, hands=None, pips=None, points=[0, 5, 40],
                       totals=[90, 125, 155])
    assert tell(target) == (
        "Hand 4 stops: Cy reaches the target with 155 points. Points this hand: you 0, Bob +5, Cy +40. "
        "Totals: you 90, Bob 125, Cy 155."
    )
