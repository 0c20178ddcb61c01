"""Eighty's sentences, from hand-made events: bids, trumps, tricks, Nel-O and hand ends with points or marks.

Sides are named by both partners (seats 0 and 2 against 1 and 3). Unless a test says
otherwise the reader is Dee, seat 3 ("you"), Bob's partner.
"""

from __future__ import annotations

from typing import Any

import pytest

from .common import say


def tell(event: dict[str, Any], me: int | None = 3) -> str:
    return say("eighty", event, 4, me)


def _hand_end(**fields: Any) -> dict[str, Any]:
    """Ann and Cy bid 55 and take 62 points in seven tricks; Bob and Dee take 18 in three."""
    event = {
        "kind": "hand_end", "hand": 1, "bidder": 0, "bid": 55, "trump": 4, "sitting_out": None, "made": True,
        "tricks": [7, 3],
        "taken": [62, 18], "gains": [62, 18], "marks": [1, 0], "played": [], "points": [62, 18, 62, 18],
        "totals": [62, 18, 62, 18], "scoring": "points",
    }
    event.update(fields)
    return event


def test_the_bidding() -> None:
    assert tell({"kind": "bid", "seat": 1, "bid": 60}) == "Bob bids 60."
    assert tell({"kind": "bid", "seat": 3, "bid": "nel-o"}) == "You bid Nel-O."
    assert tell({"kind": "pass", "seat": 2}) == "Cy passes."
    assert tell({"kind": "bid_won", "seat": 2, "bid": 65, "early": False}) == (
        "Cy wins the bidding with 65: Ann and Cy must take 65 points."
    )
    assert tell({"kind": "bid_won", "seat": 1, "bid": 80, "early": True}) == (
        "Bob wins the bidding with 80 (no higher bid is possible): Bob and you must take 80 points."
    )
    assert tell({"kind": "bid_won", "seat": 0, "bid": "nel-o", "early": True}, me=0) == (
        "You win the bidding with Nel-O and must take no trick."
    )
    assert tell({"kind": "thrown_in", "hand": 3, "dealer": 3}) == (
        "All four passed: hand 3 is thrown in and you shuffle next."
    )


def test_trumps_and_nel_o() -> None:
    assert tell({"kind": "trump", "seat": 3, "suit": 4}) == "You name fours trumps."
    assert tell({"kind": "nel_o", "seat": 2}) == "Nel-O: Cy sits out, tiles face down, and there are no trumps."
    assert tell({"kind": "nel_o", "seat": 2}, me=2) == "Nel-O: you sit out, tiles face down, and there are no trumps."
    assert tell({"kind": "nel_o_set", "seat": 0}) == "Ann took a trick: Nel-O is set."


def test_a_trick_says_the_points_it_brings_a_side() -> None:
    plays = [{"seat": s, "tile": t} for s, t in ((3, "5-5"), (0, "5-2"), (1, "5-1"), (2, "5-3"))]
    trick = {"kind": "trick", "seat": 3, "number": 4, "points": 12, "plays": plays}
    assert tell(trick) == "You win trick 4 with 5-5: 12 points for Bob and you."
    assert tell(trick, me=None) == "Dee wins trick 4 with 5-5: 12 points for Bob and Dee."


def test_a_bid_made() -> None:
    assert tell(_hand_end()) == (
        "Hand 1 is over: Ann and Cy made their bid of 55 with 62 points in seven tricks; Bob and you score 18. "
        "Scores: Ann and Cy 62, Bob and you 18."
    )
    assert tell(_hand_end(), me=2).startswith("Hand 1 is over: Ann and you made your bid of 55 with 62 points")


def test_a_bid_set() -> None:
    set_ = _hand_end(
        hand=2, bidder=1, bid=60, trump=6, made=False, tricks=[5, 5], taken=[34, 46], gains=[94, 0], marks=[1, 1],
        points=[94, 0, 94, 0], totals=[156, 18, 156, 18],
    )
    assert tell(set_) == (
        "Hand 2 is over: Bob and you are set, taking 46 points against your bid of 60; "
        "Ann and Cy score 94 (the bid and 34 taken). Scores: Bob and you 18, Ann and Cy 156."
    )


def test_with_marks_the_hand_end_says_the_marks() -> None:
    marks = _hand_end(points=[1, 0, 1, 0], totals=[1, 0, 1, 0], scoring="marks")
    assert tell(marks) == (
        "Hand 1 is over: Ann and Cy made their bid of 55 with 62 points in seven tricks; Bob and you score 18. "
        "Ann and Cy win the hand and a mark; marks: Ann and Cy 1, Bob and you 0."
    )


@pytest.mark.parametrize(
    ("made", "tricks", "gains", "said"),
    [
        (True, [0, 10], [80, 0], "Hand 3 is over: Cy made Nel-O, taking no trick; you and Cy score 80. "
                                 "Scores: you and Cy 80, Bob and Dee 0."),
        (False, [1, 2], [0, 80], "Hand 3 is over: Cy took a trick and Nel-O is set; Bob and Dee score 80. "
                                 "Scores: you and Cy 0, Bob and Dee 80."),
    ],
)
def test_nel_o_hands(made: bool, tricks: list[int], gains: list[int], said: str) -> None:
    nel_o = _hand_end(
        hand=3, bidder=2, bid="nel-o", trump=None, sitting_out=0, made=made, tricks=tricks,
        taken=[2 * tricks[0], 2 * tricks[1]],
        gains=gains, marks=[int(made), int(not made)], points=[gains[0], gains[1]] * 2, totals=[gains[0], gains[1]] * 2,
    )
    assert tell(nel_o, me=0) == said
