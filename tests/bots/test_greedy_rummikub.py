"""Greedy Rummikub against the real engine: openings, the solver's best play, jokers kept back."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import boneyard
from boneyard.bots.greedy import rummikub as greedy
from boneyard.games.rummikub import groups
from boneyard.tiles import Tile


def view(table: list[list[str]], hand: list[str], opened: bool = True) -> dict[str, Any]:
    """A minimal seat-0 view with the fields the heuristic reads."""
    return {
        "game": "rummikub",
        "seat": 0,
        "rules": {"distinct_sums": False},
        "table": table,
        "opened": [opened, True],
        "hand": hand,
    }


def laid(action: Any, table: list[list[str]]) -> Counter[str]:
    """The hand tiles a play adds to the table."""
    text = str(action)
    assert text.startswith("play "), text
    new = Counter(t for g in text[5:].split("|") for t in g.split())
    return new - Counter(t for g in table for t in g)


def test_greedy_spends_no_joker_when_natural_tiles_play_almost_as_well() -> None:
    table = [["5-1", "5-2", "5-3"]]
    action = greedy.choose(view(table, ["5-4", "6-6", "2-0"]), ["draw"], random.Random(0))
    assert laid(action, table) == Counter({"5-4": 1})


def test_greedy_spends_a_joker_to_go_out() -> None:
    table = [["5-1", "5-2", "5-3"]]
    action = greedy.choose(view(table, ["5-4", "6-6"]), ["draw"], random.Random(0))
    assert laid(action, table) == Counter({"5-4": 1, "6-6": 1})


def test_greedy_draws_when_nothing_plays() -> None:
    assert greedy.choose(view([["5-1", "5-2", "5-3"]], ["1-0", "2-0"]), ["draw"], random.Random(0)) == "draw"


def test_greedy_opens_with_the_heaviest_group_and_plays_the_solvers_best_after() -> None:
    """On real engine positions: every greedy choice is accepted by ``apply`` and is the expected play."""
    bot = boneyard.bot("greedy")
    openings = plays = 0
    for seed in range(3):
        g = boneyard.new_game("rummikub", seed=seed)
        while not g.is_over and g.view(None)["hand_number"] == 1:
            seat = g.current_player
            v = g.view(seat)
            legal = g.legal_actions()
            action = bot.choose(v, legal, random.Random(seed))
            assert action in legal or g.is_legal(action)
            hand = [Tile.parse(t) for t in v["hand"]]
            if str(action).startswith("play"):
                added = laid(action, v["table"])
                if not v["opened"][seat]:
                    naturals = [t for t in hand if not groups.is_joker(t)]
                    heaviest = max((sum(t.pips for t in tr) for tr in groups.valid_triples(naturals)), default=0)
                    assert sum(Tile.parse(t).pips for t in added.elements()) >= heaviest
                    openings += 1
                else:
                    plays += 1
            elif not v["opened"][seat]:
                assert not groups.valid_triples(hand)
            g.apply(action)
    assert openings and plays
