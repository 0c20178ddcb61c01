"""Montana's sentences, from hand-made events: answers, the claim window's result, claims, going out, hand ends.

The reader is seat 0 ("you"); Ann is seat 0's name, so it never appears in her own view.
"""

from __future__ import annotations

from typing import Any

import pytest

from .common import say


def tell(event: dict[str, Any], me: int | None = 0, players: int = 4) -> str:
    return say("montana", event, players, me)


def test_an_answer_is_told_to_its_seat_and_only_announced_to_the_others() -> None:
    asked = {"kind": "answer", "seat": 0, "tile": "6-4"}
    assert tell({**asked, "claim": "triple"}) == "You claim the 6-4 for a triple."
    assert tell({**asked, "claim": "pass"}) == "You pass on the 6-4."
    assert tell({**asked, "claim": "out"}) == "You claim the 6-4 to go out."
    run = {**asked, "claim": "run", "tiles": ["6-3", "6-2"]}
    assert tell(run) == "You claim the 6-4 for a run with 6-3 and 6-2."
    assert tell({**asked, "seat": 1}) == "Bob has answered about the 6-4."
    assert tell(asked, me=1) == "Ann has answered about the 6-4."


def _answers(discarder: int, answers: list[dict[str, Any]], winner: int | None, tile: str = "6-4") -> dict[str, Any]:
    return {"kind": "answers", "tile": tile, "discarder": discarder, "answers": answers, "winner": winner}


RUN_AND_TRIPLE = _answers(
    3,
    [
        {"seat": 0, "claim": "run", "tiles": ["6-3", "6-2"]},
        {"seat": 1, "claim": "triple"},
        {"seat": 2, "claim": "pass"},
    ],
    1,
)


def test_the_answers_say_who_takes_the_tile_and_why() -> None:
    assert tell(RUN_AND_TRIPLE, me=2) == (
        "Ann claims Dee's 6-4 for a run and Bob claims it for a triple: Bob takes it (a triple comes before a run)."
    )
    assert tell(RUN_AND_TRIPLE, me=None) == tell(RUN_AND_TRIPLE, me=2)
    assert tell(RUN_AND_TRIPLE, me=1) == (
        "Ann claims Dee's 6-4 for a run and you claim it for a triple: you take it (a triple comes before a run)."
    )


def test_the_reader_hears_that_his_claim_lost() -> None:
    assert tell(RUN_AND_TRIPLE) == (
        "You claim Dee's 6-4 for a run and Bob claims it for a triple: your run loses to Bob's triple "
        "(a triple comes before a run)."
    )
    quad = _answers(2, [{"seat": 3, "claim": "quad"}, {"seat": 0, "claim": "out", "completes": "pair"}], 3, tile="3-3")
    assert tell(quad) == (
        "Dee claims Cy's 3-3 for a quad and you claim it to go out: your claim to go out loses to Dee's quad "
        "(a quad comes before a pair)."
    )
    out = _answers(2, [{"seat": 3, "claim": "run", "tiles": ["4-2", "4-4"]}, {"seat": 0, "claim": "out",
                                                                              "completes": "triple"}], 0, tile="4-3")
    assert tell(out, me=3) == (
        "You claim Cy's 4-3 for a run and Ann claims it to go out: your run loses to Ann's claim to go out "
        "(a triple comes before a run)."
    )
    tie = _answers(2, [{"seat": 3, "claim": "out", "completes": "triple"}, {"seat": 0, "claim": "triple"}], 3, "5-5")
    assert tell(tie).endswith("(they rank alike, and the first in turn after the discarder wins).")


def test_passes_and_a_lone_claim() -> None:
    assert tell(_answers(2, [{"seat": 3, "claim": "pass"}, {"seat": 0, "claim": "pass"}], None)) == (
        "Everyone passes on Cy's 6-4."
    )
    assert tell(_answers(2, [{"seat": 3, "claim": "pass"}], None)) == "Dee passes on Cy's 6-4."
    assert tell(_answers(0, [{"seat": 1, "claim": "triple"}, {"seat": 2, "claim": "pass"}], 1)) == (
        "Bob claims your 6-4 for a triple."
    )


def test_a_claimed_discard_is_laid_in_its_set() -> None:
    triple = {"kind": "claimed", "seat": 1, "tile": "6-4", "discarder": 0, "set": "triple", "tiles": ["6-4"] * 3}
    assert tell(triple) == "Bob takes your 6-4 and lays the triple 6-4 6-4 6-4."
    run = {"kind": "claimed", "seat": 0, "tile": "6-4", "discarder": 3, "set": "run", "tiles": ["6-2", "6-3", "6-4"]}
    assert tell(run) == "You take Dee's 6-4 and lay the run 6-2 6-3 6-4."
    out = {"kind": "claimed", "seat": 1, "tile": "6-4", "discarder": 0, "set": "out", "tiles": []}
    assert tell(out) == "Bob takes your 6-4 to go out."


def test_going_out() -> None:
    pulled = {"kind": "out", "seat": 2, "how": "pull", "tile": "5-1", "discarder": None, "value": 6}
    assert tell(pulled) == "Cy goes out on a pull, the 5-1: 6 points."
    claimed = {"kind": "out", "seat": 0, "how": "claim", "tile": "5-1", "discarder": 1, "value": 10}
    assert tell(claimed) == "You go out on Bob's 5-1: 10 points."
    shootout = {"kind": "out", "seat": 2, "how": "pull", "tile": "5-1", "discarder": None, "value": 0}
    assert tell(shootout) == "Cy goes out on a pull, the 5-1."


def _hand_end(**fields: Any) -> dict[str, Any]:
    """A hand end whose final position is a plain one: the winner's triple and a run, three discards."""
    sets = [
        {"kind": "triple", "tiles": ["6-4"] * 3, "concealed": True, "points": 2},
        {"kind": "run", "tiles": ["5-1", "5-2", "5-3"], "concealed": True, "points": 0},
    ]
    event = {
        "kind": "hand_end", "hand": 3, "dealer": 1, "winner": 2, "how": "pull", "tile": "5-1", "discarder": None,
        "sets": sets, "breakdown": [["going out", 4], ["concealed triple 6-4", 2]], "value": 6, "stakes": [0, 0, 0, 0],
        "exposed": [[], [], sets, []], "discards": [[0, "3-1"], [1, "2-0"], [3, "6-6"]],
        "points": [-6, -12, 24, -6], "totals": [214, 208, 244, 214],
    }
    event.update(fields)
    return event


def test_a_won_hand_says_who_how_the_value_and_each_seats_chips() -> None:
    assert tell(_hand_end()) == (
        "Hand 3 is over: Cy went out on a pull for 6 points. Chips this hand: Cy +24, you −6, Bob −12, Dee −6."
    )
    staked = _hand_end(stakes=[0, 0, 0, 4], points=[-6, -12, 28, -6])
    assert tell(staked) == (
        "Hand 3 is over: Cy went out on a pull for 6 points; Cy takes Dee's ready stake. "
        "Chips this hand: Cy +28, you −6, Bob −12, Dee −6."
    )
    claimed = _hand_end(hand=2, winner=0, how="claim", tile="6-4", discarder=1, value=10, points=[60, -60, 0, 0])
    assert tell(claimed) == (
        "Hand 2 is over: you went out on Bob's 6-4 for 10 points (Bob pays alone, three times). "
        "Chips this hand: you +60, Bob −60, Cy 0, Dee 0."
    )


def test_a_shootout_hand_counts_outs() -> None:
    shootout = _hand_end(value=0, points=[0, 0, 1, 0], totals=[1, 0, 2, 0])
    assert tell(shootout) == "Hand 3 is over: Cy went out on a pull. Outs: you 1, Bob 0, Cy 2, Dee 0."


@pytest.mark.parametrize(
    ("stakes", "said"),
    [
        ([0, 0, 0, 0], "Hand 4 is drawn: the woodpile ran out."),
        ([4, 0, 4, 0], "Hand 4 is drawn: the woodpile ran out; ready stakes go back to you and Cy."),
    ],
)
def test_a_drawn_hand(stakes: list[int], said: str) -> None:
    drawn = _hand_end(
        hand=4, winner=None, how=None, tile=None, sets=[], breakdown=[], value=0, stakes=stakes, exposed=[[]] * 4,
        points=stakes,
    )
    assert tell(drawn) == said


def test_the_turn_and_the_deal() -> None:
    rolled = {"kind": "first_dealer", "seat": 2, "roller": 0, "roll": 3}
    assert tell(rolled) == "You roll a 3 and count round: Cy deals first."
    assert tell({"kind": "first_dealer", "seat": 0}) == "You deal first."
    assert tell({"kind": "deal", "hand": 2, "dealer": 0}) == "Hand 2: you deal."
    assert tell({"kind": "pull", "seat": 0, "tile": "4-2"}) == "You pull 4-2."
    assert tell({"kind": "pull", "seat": 3}) == "Dee pulls a tile."
    assert tell({"kind": "discard", "seat": 1, "tile": "3-2", "ready": True}) == "Bob discards 3-2 and declares ready."
    assert tell({"kind": "ready_discard", "seat": 0, "tile": "6-1"}) == "You are ready, so the pulled 6-1 is discarded."
    assert tell({"kind": "woodpile_empty", "seat": 3}) == "Dee must pull, but the woodpile is empty."
    assert tell({"kind": "quad", "seat": 1, "tile": "2-2"}) == "Bob lays down a concealed quad: 2-2 2-2 2-2 2-2."
    assert tell({"kind": "deals_again", "seat": 0}) == "You win as dealer and deal again."
