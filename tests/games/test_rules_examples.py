"""Worked examples of the rules pages (``docs/rules/<id>.md``) played against the engines.

Each test first checks that the page still says what it checks (a reworded example fails
here and is checked again), then plays a crafted deal through the public API.
"""

from __future__ import annotations

import pytest

import boneyard
from boneyard.rulespages import rules_page

from . import test_montana as montana


def page_says(game_id: str, sentence: str) -> None:
    """The rules page holds ``sentence`` (whitespace and line breaks aside)."""
    flat = " ".join(rules_page(game_id).split())
    assert " ".join(sentence.split()) in flat, f"the {game_id} rules page no longer says: {sentence!r}"


# Eighty: seat 1 bids, 5s are trump; the two tiles lying out (the deck's last two) hold no
# count, so all 80 points are taken: bidders (1+3) 8 tricks and 40 in count tiles = 56,
# defenders (0+2) 2 tricks and 20 in count tiles = 24.
EIGHTY_DECK = [
    "5-3", "2-2", "4-1", "2-1", "6-5", "6-3", "3-1", "3-3", "4-4", "6-1", "6-4", "5-2", "6-6", "5-2",
    "5-5", "5-3", "4-1", "6-3", "5-1", "6-4", "6-6", "4-3", "5-5", "5-1", "4-2", "4-2", "1-1", "4-3",
    "2-2", "3-2", "5-4", "5-4", "6-2", "6-1", "6-2", "3-2", "4-4", "3-1", "6-5", "3-3", "1-1", "2-1",
]
EIGHTY_PLAY = [  # the tiles played, in order
    "5-5", "5-1", "6-5", "6-5", "4-1", "4-2", "4-4", "4-4", "3-3", "3-1", "6-3", "4-3", "5-4", "5-3", "5-1",
    "5-5", "1-1", "3-1", "2-1", "6-4", "4-2", "5-4", "4-1", "6-4", "3-2", "6-3", "5-3", "4-3", "5-2", "3-2",
    "6-2", "3-3", "5-2", "6-6", "6-1", "6-1", "6-6", "2-2", "6-2", "2-2",
]


@pytest.mark.parametrize(("bid", "made", "scores"), [(55, True, [24, 56]), (60, False, [84, 0])])
def test_eighty_scoring_example(bid: int, made: bool, scores: list[int]) -> None:
    page_says("eighty", "Example: 5s trump, the bidders (seats 1+3) took 56 and the defenders 24. With a bid of 55 "
                        "the bidders score 56 and the defenders 24. With a bid of 60 the bidders score 0 and the "
                        "defenders 60 + 24 = 84.")
    game = boneyard.new_game("eighty", players=4, seed=1, deck=EIGHTY_DECK, dealer=0)
    for action in [f"bid {bid}", "pass", "pass", "pass", "trump 5", *(f"play {t}" for t in EIGHTY_PLAY)]:
        game.apply(action)
    result = game.view(0)["last_result"]
    assert game.hand_number == 2 and result["hand"] == 1
    assert result["taken"] == [24, 56] and result["made"] is made and result["trump"] == 5
    assert game.scores == [scores[0], scores[1], scores[0], scores[1]]


# Montana: the payment examples, on the deals of tests/games/test_montana.py (A is seat 0,
# B seat 1, C seat 2, D seat 3); each asserts the page's own numbers.

def test_montana_36_on_a_pull_with_b_dealing() -> None:
    page_says("montana", "A wins a 36-point hand on a pull and B is the dealer: B pays 72, C and D pay 36 each; "
                         "A collects 144. The deal passes from B to C.")
    g = montana.game({0: ["3-3"] * 4 + ["2-2"] * 4 + ["6-1", "6-2"]},
                     ["1-0", "1-0", "1-0", "6-3", "5-5", "5-5"], dealer=1)
    montana.play(g, "discard 1-0", "discard 1-0", "discard 1-0", "quad 3-3", "quad 2-2", "out")
    r = g.view(0)["last_result"]
    assert (r["value"], r["how"], r["changes"]) == (36, "pull", [144, -72, -36, -36])
    assert g.view(0)["dealer"] == 2


def test_montana_26_with_ready_collects_104() -> None:
    page_says("montana", "A has 2 exposed upper triples (2), a concealed lower quad (16), a pair (0), went out (4) "
                         "and was ready (4): 26 points. With B dealing, A collects 52 + 26 + 26 = 104.")
    g = montana.game({0: ["6-6", "6-6", "5-5", "5-5", "3-3", "3-3", "3-3", "0-0", "1-1", "1-1"]},
                     ["6-6", "5-5", "1-0", "1-0", "1-0", "3-3", "1-1", "1-0", "2-0", "2-0", "0-0"], dealer=1)
    montana.play(g, "discard 6-6", "claim triple", "discard 1-1", "discard 5-5", "claim triple", "discard 1-1",
                 "discard 1-0", "discard 1-0", "discard 1-0", "quad 3-3", "discard 1-1 ready", "discard 1-0",
                 "discard 2-0", "discard 2-0", "out")
    r = g.view(0)["last_result"]
    assert r["value"] == 26 and r["changes"] == [104 + 4, -52, -26, -26]  # and his own ready stake back


def test_montana_dealer_wins_36_on_cs_discard() -> None:
    page_says("montana", "A, now the dealer, wins 36 points on C's discard: C pays 36 × 3 × 2 = 216; A deals again.")
    g = montana.game({0: ["3-3"] * 4 + ["2-2"] * 4 + ["0-0", "6-1"]}, ["6-2", "6-3", "1-1", "1-0", "0-0"], dealer=0)
    montana.play(g, "quad 3-3", "quad 2-2", "discard 1-1", "discard 1-0", "discard 0-0", "claim out")
    r = g.view(0)["last_result"]
    assert (r["value"], r["how"], r["from"], r["changes"]) == (36, "claim", 2, [216, 0, -216, 0])
    assert g.view(0)["dealer"] == 0


def test_montana_ready_16_is_worth_20() -> None:
    page_says("montana", "A ready hand of 16 points won on a pull is worth 20 from each player (40 from the dealer); "
                         "won on C's discard, C pays 60.")
    ready16 = ["3-3"] * 3 + ["2-2"] * 3 + ["1-1"] * 3 + ["0-0"]
    d_ready = ["6-6"] * 3 + ["5-5"] * 3 + ["6-2"] * 3 + ["4-0"]  # D is ready too, and loses his stake to A
    g = montana.game({0: ready16, 3: d_ready}, ["1-0", "1-0", "1-0", "6-0", "2-0", "2-0", "2-0", "0-0"], dealer=1)
    montana.play(g, "discard 1-0", "discard 1-0", "discard 1-0 ready", "discard 6-0 ready", "discard 2-0",
                 "discard 2-0", "out")
    r = g.view(0)["last_result"]
    assert r["value"] == 20 and r["how"] == "pull" and r["changes"] == [40 + 20 + 20 + 4 + 4, -40, -20, -20]
    g = montana.game({0: ready16}, ["1-0", "1-0", "1-0", "6-0", "2-0", "0-0"], dealer=1)
    montana.play(g, "discard 1-0", "discard 1-0", "discard 1-0", "discard 6-0 ready", "discard 2-0", "discard 0-0",
                 "claim out")
    r = g.view(0)["last_result"]
    assert r["value"] == 20 and r["how"] == "claim" and r["changes"] == [60 + 4, 0, -60, 0]
