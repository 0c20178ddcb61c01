"""Worked examples of the rules pages (``docs/rules/<id>.md``) played against the engines.

Each test first checks that the page still says what it checks (a reworded example fails
here and is checked again), then plays a crafted deal through the public API.
"""

from __future__ import annotations

import pytest

import boneyard
from boneyard.rulespages import rules_page


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
