"""Greedy Rummikub against the real engine: openings, the solver's best play, jokers kept back."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import rummikub as greedy
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.rummikub import playout as hold
from boneyard.games.rummikub import groups
from boneyard.tiles import Tile


def view(
    table: list[list[str]], hand: list[str], opened: bool = True, boneyard: int = 10, other: int = 5
) -> dict[str, Any]:
    """A minimal seat-0 view with the fields the heuristic and the playout policy read."""
    return {
        "game": "rummikub",
        "seat": 0,
        "rules": {"distinct_sums": False},
        "table": table,
        "opened": [opened, True],
        "hand": hand,
        "boneyard": boneyard,
        "hand_sizes": [len(hand), other],
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


TABLE = [["5-1", "5-2", "5-3"]]


def test_playout_holds_a_play_that_does_not_go_out() -> None:
    v = view(TABLE, ["5-4", "1-0", "2-0"])
    assert laid(greedy.choose(v, ["draw"], random.Random(0)), TABLE) == Counter({"5-4": 1})
    assert hold.holds(v, greedy.choose(v, ["draw"], random.Random(0)))
    assert hold.playout(v, ["draw"], random.Random(0)) == "draw"


def test_playout_plays_to_go_out() -> None:
    v = view(TABLE, ["5-4"])
    assert laid(hold.playout(v, ["draw"], random.Random(0)), TABLE) == Counter({"5-4": 1})


def test_playout_plays_once_the_boneyard_is_empty() -> None:
    v = view(TABLE, ["5-4", "1-0", "2-0"], boneyard=0)
    assert laid(hold.playout(v, ["pass"], random.Random(0)), TABLE) == Counter({"5-4": 1})


def test_playout_never_holds_the_opening() -> None:
    v = view([], ["5-4", "5-3", "5-2", "1-0"], opened=False)
    action = hold.playout(v, ["draw"], random.Random(0))
    assert laid(action, []) == Counter({"5-4": 1, "5-3": 1, "5-2": 1})


def test_playout_plays_once_another_seat_is_near_going_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hold, "HOLD_UNTIL", 2)
    assert hold.playout(view(TABLE, ["5-4", "1-0", "2-0"], other=3), ["draw"], random.Random(0)) == "draw"
    near = hold.playout(view(TABLE, ["5-4", "1-0", "2-0"], other=2), ["draw"], random.Random(0))
    assert laid(near, TABLE) == Counter({"5-4": 1})


def held_position() -> Any:
    """A real engine position where greedy plays without going out and the playout policy holds."""
    bot = boneyard.bot("greedy")
    for seed in range(20):
        g = boneyard.new_game("rummikub", seed=seed)
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            legal = g.legal_actions()
            action = bot.choose(v, legal, random.Random(0))
            if hold.holds(v, action):
                return g
            g.apply(action)
    raise AssertionError("no seeded game reached a held play")


def test_playout_on_real_positions_draws_exactly_where_it_holds_and_is_always_legal() -> None:
    held = played = 0
    bot = boneyard.bot("greedy")
    for seed in range(3):
        g = boneyard.new_game("rummikub", seed=seed)
        while not g.is_over and g.view(None)["hand_number"] == 1:
            v = g.view(g.current_player)
            legal = g.legal_actions()
            mine = hold.playout(v, legal, random.Random(seed))
            theirs = bot.choose(v, legal, random.Random(seed))
            assert mine in legal or g.is_legal(mine)
            if hold.holds(v, theirs):
                assert str(mine) == "draw"
                held += 1
            else:
                assert str(mine) == str(theirs)
                played += str(mine).startswith("play")
            g.apply(mine)
    assert held and played


def test_search_starts_from_the_held_choice_and_rollout_greedy_from_greedys() -> None:
    """A budget too small to try every action plays the head start: the policy's draw, or greedy's play."""
    g = held_position()
    v = g.view(g.current_player)
    legal = g.legal_actions()
    assert len(legal) > 2
    assert str(IsmctsBot(iterations=1).choose(v, legal, random.Random(0))) == "draw"
    greedys = IsmctsBot(iterations=1, rollout="greedy").choose(v, legal, random.Random(0))
    assert str(greedys) == str(greedy.choose(v, legal, random.Random(0))) != "draw"
