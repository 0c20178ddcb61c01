"""Montana's ``widest``: greedy's discard, with ties broken by how many unseen tiles help the hand."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import montana as greedy
from boneyard.bots.ismcts import IsmctsBot
from boneyard.games.montana.engine import MontanaAction
from boneyard.tiles import tile_of


def seat_view(hand: list[str]) -> dict[str, Any]:
    """A seat-0 view at the start of a hand: nothing exposed, nothing discarded."""
    return {"hand": hand, "exposed": [[], [], [], []], "discards": [], "rules": {}, "seat": 0, "ready": [False] * 4}


def test_acceptance_counts_every_unseen_copy_of_each_tile_that_helps() -> None:
    """6-1 6-2 with a pair of 5-5 waits on 6-0 and 6-3; a third 5-5 or a 1-1 does not help."""
    left = [tile_of(t) for t in ("6-1", "6-2", "5-5", "5-5")]
    rest = Counter({tile_of("6-0"): 4, tile_of("6-3"): 2, tile_of("5-5"): 1, tile_of("1-1"): 4})
    assert greedy.acceptance(left, False, rest, list(rest.elements()), 1) == 6


def test_widest_keeps_the_tile_that_more_unseen_tiles_help() -> None:
    """Both discards leave the hand two tiles away; greedy throws the 6-5 by suit and pips.

    Thrown, the 4-4 leaves the singles 2-0, 6-3 and 6-5 beside the run 3-0 3-1 3-2 and the
    pairs 4-1 and 5-1: a copy of any single, a 6-4 for the run 6-3 6-4 6-5, or a third 4-1
    or 5-1 brings it one tile from going out (3 + 3 + 3 + 4 + 2 + 2 = 17 unseen tiles).
    Thrown, the 6-5 leaves the singles 2-0, 4-4 and 6-3, which only their copies help
    (3 + 3 + 3 = 9).
    """
    hand = ["2-0", "3-0", "3-1", "3-2", "4-1", "4-1", "4-4", "5-1", "5-1", "6-3", "6-5"]
    view = seat_view(hand)
    legal = [MontanaAction("discard", tile_of(t)) for t in dict.fromkeys(hand)]
    assert str(greedy.choose(view, legal, random.Random(0))) == "discard 6-5"
    assert str(greedy.widest(view, legal, random.Random(0))) == "discard 4-4"
    rest = greedy.unseen(view)
    live = list(rest.elements())
    tiles = [tile_of(t) for t in hand]
    for thrown, helped in (("6-5", 9), ("4-4", 17)):
        left = list(tiles)
        left.remove(tile_of(thrown))
        assert greedy.acceptance(left, False, rest, live, 2) == helped


def positions(seeds: range) -> list[tuple[Any, dict[str, Any], list[Any]]]:
    """Every decision of the first hand of seeded greedy games, with its view and legal actions."""
    found = []
    for seed in seeds:
        game = boneyard.new_game("montana", players=4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.hand_number == 1:
            legal = game.legal_actions()
            view = game.view(game.current_player)
            if len(legal) > 1:
                found.append((game.clone(), view, legal))
            game.apply(greedy.choose(view, legal, rng))
    return found


def test_widest_on_real_positions_is_legal_and_departs_only_to_a_wider_equally_near_discard() -> None:
    departed = 0
    for _, view, legal in positions(range(4)):
        mine = greedy.widest(view, legal, random.Random(0))
        theirs = greedy.choose(view, legal, random.Random(0))
        assert mine in legal
        if str(mine) == str(theirs):
            continue
        departed += 1
        assert mine.kind == theirs.kind == "discard"
        tiles = [tile_of(t) for t in view["hand"]]
        rest = greedy.unseen(view)
        live = list(rest.elements())
        width = []
        for action in (mine, theirs):
            left = list(tiles)
            left.remove(action.tile)
            away = greedy._away(left, False, live)
            assert away >= 2
            width.append((away, greedy.acceptance(left, False, rest, live, away)))
        assert width[0][0] == width[1][0] and width[0][1] > width[1][1]
    assert departed


@pytest.mark.parametrize("favourite", ["auto", "greedy"])
def test_a_search_too_short_to_compare_plays_its_favourite(favourite: str) -> None:
    """With no round searched, the bot plays ``widest``'s discard, or greedy's with ``favourite=greedy``."""
    for _, view, legal in positions(range(4)):
        mine = greedy.widest(view, legal, random.Random(0))
        theirs = greedy.choose(view, legal, random.Random(0))
        if str(mine) != str(theirs):
            bot = IsmctsBot(iterations=1, defence=0, favourite=favourite)
            played = bot.choose(view, legal, random.Random(0))
            assert str(played) == str(mine if favourite == "auto" else theirs)
            return
    raise AssertionError("no seeded position where widest departs from greedy")
