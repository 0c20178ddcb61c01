"""Rummikub's sentences, from hand-made events: openings and plays, draws, going out, blocked hands, hand ends.

The reader is seat 0 ("you") at a table of three.
"""

from __future__ import annotations

from typing import Any

from .common import say


def tell(event: dict[str, Any], me: int | None = 0) -> str:
    return say("rummikub", event, 3, me)


def _hand_end(**fields: Any) -> dict[str, Any]:
    event = {
        "kind": "hand_end", "hand": 2, "how": "domino", "winner": 2, "table": [["5-5", "5-4", "5-3"]],
        "hands": [["6-2", "1-0"], ["4-4"], []], "pips": [9, 8, 0], "points": [0, 0, 17], "totals": [30, 12, 57],
    }
    event.update(fields)
    return event


def test_plays_and_draws() -> None:
    assert tell({"kind": "play", "seat": 1, "tiles": ["5-5", "5-4", "5-3"], "opening": True}) == (
        "Bob opens with 5-5 5-4 5-3."
    )
    assert tell({"kind": "play", "seat": 0, "tiles": ["6-1", "4-3"], "opening": False}) == (
        "You lay 6-1 and 4-3 on the table."
    )
    assert tell({"kind": "draw", "seat": 0, "tile": "3-2"}) == "You draw 3-2."
    assert tell({"kind": "draw", "seat": 2}) == "Cy draws a tile."
    assert tell({"kind": "pass", "seat": 2}) == "Cy passes."
    assert tell({"kind": "deal", "hand": 2, "dealer": 2, "first": 0}) == "Hand 2: Cy deals and you play first."


def test_going_out_and_blocked() -> None:
    assert tell({"kind": "domino", "seat": 2}) == "Cy has laid every tile and wins the hand."
    assert tell({"kind": "blocked", "seat": 1}) == "Everyone has passed: Bob has the fewest pips and wins the hand."
    assert tell({"kind": "blocked", "seat": None}) == (
        "Everyone has passed and the fewest pips are tied: nobody wins the hand."
    )


def test_hand_ends() -> None:
    assert tell(_hand_end()) == (
        "Hand 2 is over: Cy went out and scores 17 points for the pips left in the other hands. "
        "Totals: you 30, Bob 12, Cy 57."
    )
    mine = _hand_end(how="blocked", winner=0, hands=[["1-0"], ["4-4"], ["6-2", "3-0"]], pips=[1, 8, 11],
                     points=[19, 0, 0], totals=[49, 12, 40])
    assert tell(mine) == (
        "Hand 2 is over, blocked: you held the fewest pips and score 19 points. Totals: you 49, Bob 12, Cy 40."
    )
    tied = _hand_end(how="blocked", winner=None, hands=[["4-0"], ["4-0"], ["6-2"]], pips=[4, 4, 8], points=[0, 0, 0],
                     totals=[30, 12, 40])
    assert tell(tied) == (
        "Hand 2 is over, blocked, with the fewest pips tied: nobody scores. Totals: you 30, Bob 12, Cy 40."
    )
