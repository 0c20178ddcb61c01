"""Rounce's sentences, from hand-made events: the turn-up, leads and plays, tricks, rounces, walkovers, hand ends.

The reader is seat 0 ("you").
"""

from __future__ import annotations

from typing import Any

from .common import say


def tell(event: dict[str, Any], me: int | None = 0, players: int = 3) -> str:
    return say("rounce", event, players, me)


def _trick(number: int, winner: int, *plays: tuple[int, str]) -> dict[str, Any]:
    return {"kind": "trick", "seat": winner, "number": number, "plays": [{"seat": s, "tile": t} for s, t in plays]}


# Five tricks of a three-player hand: you take three, Bob two, Cy folded.
PLAYED = [
    _trick(1, 0, (1, "4-2"), (0, "5-4")),
    _trick(2, 0, (0, "5-5"), (1, "3-1")),
    _trick(3, 1, (0, "6-1"), (1, "5-1")),
    _trick(4, 1, (1, "5-0"), (0, "2-0")),
    _trick(5, 0, (1, "3-3"), (0, "5-3")),
]


def _hand_end(**fields: Any) -> dict[str, Any]:
    event = {
        "kind": "hand_end", "hand": 2, "dealer": 1, "trump": 5, "calls": ["pass", "pass", "fold"], "tricks": [3, 2, 0],
        "rounced": [], "walkover": None, "played": PLAYED, "points": [-3, -2, 0], "totals": [12, 13, 15],
    }
    event.update(fields)
    return event


def test_the_deal_names_the_trump() -> None:
    deal = {"kind": "deal", "hand": 2, "dealer": 1, "turn_up": "5-3", "trump": 5}
    assert tell(deal) == "Hand 2: Bob deals; the turn-up 5-3 makes fives trumps."


def test_a_lead_names_its_suit() -> None:
    assert tell({"kind": "play", "seat": 1, "tile": "6-4", "suit": 4}) == "Bob leads 6-4 as a four."
    assert tell({"kind": "play", "seat": 1, "tile": "2-0", "suit": 0}) == "Bob leads 2-0 as a blank."
    assert tell({"kind": "play", "seat": 0, "tile": "5-5", "suit": None}) == "You play 5-5."


def test_a_trick_says_its_winner_and_the_winning_tile() -> None:
    trick = {"kind": "trick", "seat": 1, "number": 2, "plays": [{"seat": 0, "tile": "4-2"}, {"seat": 1, "tile": "6-4"}]}
    assert tell(trick) == "Bob wins trick 2 with 6-4."


def test_rounced_and_walkover() -> None:
    assert tell({"kind": "rounced", "seat": 2}) == "Cy took no trick: rounced, 5 points back on."
    assert tell({"kind": "rounced", "seat": 0}) == "You took no trick: rounced, 5 points back on."
    assert tell({"kind": "walkover", "seat": 2}) == "Cy is the only one left in."
    assert tell({"kind": "walkover", "seat": 0}) == "You are the only one left in."


def test_the_calls() -> None:
    assert tell({"kind": "pass", "seat": 0}) == "You pass and play the hand."
    assert tell({"kind": "fold", "seat": 2}) == "Cy folds."
    assert tell({"kind": "dummy", "seat": 2, "count": 6}) == "Cy calls dummy and takes six tiles from the boneyard."
    dummy = {"kind": "dummy_tiles", "seat": 0, "tiles": ["6-6", "6-1", "4-3", "2-2", "1-0", "0-0"]}
    assert tell(dummy) == "Your dummy hand: 6-6, 6-1, 4-3, 2-2, 1-0 and 0-0."
    assert tell({"kind": "take", "seat": 1, "tile": "5-3"}) == "Bob takes the turn-up 5-3."
    assert tell({"kind": "discard", "seat": 0, "tile": "6-1"}) == "You discard 6-1 face down."
    assert tell({"kind": "discard", "seat": 1}) == "Bob discards a tile face down."
    assert tell({"kind": "defend", "seat": 3}, players=4) == (
        "Dee defends against the dummy, with nothing to win or lose."
    )


def test_a_hand_end_says_tricks_points_off_and_points_left() -> None:
    assert tell(_hand_end()) == (
        "Hand 2 is over: you took three tricks (3 off), Bob two (2 off), Cy folded; points left: you 12, Bob 13, Cy 15."
    )
    rounced = _hand_end(
        hand=3, calls=["pass", "dummy", "pass"], tricks=[4, 1, 0], rounced=[2], points=[-4, -1, 5], totals=[8, 12, 20]
    )
    assert tell(rounced, me=None) == (
        "Hand 3 is over: Ann took four tricks (4 off), Bob one (1 off), Cy took no trick (rounced: 5 back on); "
        "points left: Ann 8, Bob 12, Cy 20."
    )


def test_a_walkover_hand_and_a_defended_one() -> None:
    walkover = _hand_end(
        hand=1, calls=["fold", "fold", "pass"], tricks=[0, 0, 5], walkover=2, played=[], points=[0, 0, -5],
        totals=[15, 15, 10],
    )
    assert tell(walkover) == (
        "Hand 1 is over: everyone else folded and Cy takes all five tricks without play (5 off); "
        "points left: you 15, Bob 15, Cy 10."
    )
    defended = _hand_end(
        hand=4, dealer=3, calls=["fold", "dummy", "fold", "defend"], tricks=[0, 3, 0, 2], points=[0, -3, 0, 0],
        totals=[9, 7, 12, 10], played=[_trick(n, 1, (0, "6-6"), (1, "6-5")) for n in range(1, 6)],
    )
    assert tell(defended, players=4) == (
        "Hand 4 is over: you folded, Bob took three tricks (3 off), Cy folded, Dee defended (two tricks, no change); "
        "points left: you 9, Bob 7, Cy 12, Dee 10."
    )


def test_a_walkover_says_the_five_tricks_once() -> None:
    """Issue 38, defect 7: when all others fold, the log says "took all five tricks" once (in
    the hand's end), not once for the walkover and again for the hand_end after it."""
    walkover = _hand_end(
        hand=1, calls=["fold", "fold", "pass"], tricks=[0, 0, 5], walkover=2, played=[], points=[0, 0, -5],
        totals=[15, 15, 10])
    told = [tell({"kind": "walkover", "seat": 2}), tell(walkover)]
    assert sum(line.count("five tricks") for line in told) == 1
