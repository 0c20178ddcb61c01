"""The simulator's move loop: views only where they are read, and the same games as a view per move.

``boneyard.sim.loop.play_out`` skips the view of a move when nothing reads it (a random
bot, no watcher, no new hand); these tests hold it to the records a loop building a view
at every move gives, and check the facts it relies on, for every game.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

import boneyard
from boneyard.bots import bot
from boneyard.bots.basic import RandomBot
from boneyard.sim import figures, game_seed, make_plan, play_game
from boneyard.sim.loop import json_copy, play_out
from boneyard.sim.runner import HandTracker, Plan, bot_seed

GAMES = boneyard.games()


def games_for(game: str) -> int:
    """Games per check: Rummikub's moves cost far more than the others'."""
    return 1 if game == "rummikub" else 4


def play_with_a_view_every_move(plan: Plan, index: int) -> dict[str, Any]:
    """``play_game`` as it was before views were skipped: every decision builds and shows one."""
    seed = game_seed(plan.seed, index)
    game = boneyard.new_game(plan.game, players=plan.players, seed=seed, rules=plan.rules)
    seating = plan.seating(index)
    seats = [plan.bots[b].make() for b in seating]
    rngs = [random.Random(bot_seed(seed, s)) for s in range(plan.players)]
    tracker = HandTracker(plan.game, plan.rules)
    decisions = 0
    while not game.is_over:
        seat = game.current_player
        view = game.view(seat)
        tracker.see(view, decisions)
        game.apply(seats[seat].choose(view, game.legal_actions(), rngs[seat]))
        decisions += 1
    final = game.view(None)
    hands = tracker.finish(final, decisions)
    return {"scores": list(game.scores), "decisions": decisions, "hands": hands}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bots", ["random", "random,greedy"])
def test_the_records_equal_those_of_a_view_at_every_move(game: str, bots: str) -> None:
    plan = make_plan(game, bots=bots, games=games_for(game), seed=21)
    for index in range(plan.games):
        record = play_game(plan, index)
        reference = play_with_a_view_every_move(plan, index)
        assert {k: record[k] for k in reference} == reference


def test_cutthroat_two_box_is_watched_at_every_move() -> None:
    plan = make_plan("twobox", games=6, seed=7, rules={"cutthroat": True})
    records = [play_game(plan, i) for i in range(plan.games)]
    assert any("watched" in h for r in records for h in r["hands"])
    for index, record in enumerate(records):
        reference = play_with_a_view_every_move(plan, index)
        assert record["hands"] == reference["hands"]


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_result_shows_only_when_the_hand_number_moves_on(game: str) -> None:
    """What ``play_out`` relies on: ``last_result`` changes only with ``hand_number`` or the game's end."""
    changes = 0
    for index in range(games_for(game) * 2):
        g = boneyard.new_game(game, seed=game_seed(3, index))
        rng = random.Random(index)
        result, number = g.view(None)["last_result"], g.hand_number
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            now = g.view(None)["last_result"]
            moved_on = g.hand_number != number or g.is_over
            assert (now != result) <= moved_on, f"{game}: a hand result appeared within hand {number}"
            changes += now != result
            result, number = now, g.hand_number
    assert changes > 0


def count_views(game: str, bots: str) -> tuple[int, int, int]:
    """(views shown to the tracker, decisions, hands) of one seeded game played by ``play_out``."""
    plan = make_plan(game, bots=bots, games=1, seed=5)
    g = boneyard.new_game(game, seed=game_seed(5, 0))
    seats = [plan.bots[b].make() for b in plan.seating(0)]
    rngs = [random.Random(s) for s in range(plan.players)]
    seen: list[int] = []
    decisions = play_out(g, seats, rngs, lambda view, done: seen.append(done), False)
    return len(seen), decisions, g.hand_number


def test_random_bots_get_no_view_but_each_hand_start_does() -> None:
    views, decisions, hands = count_views("rounce", "random")
    assert 1 < views <= hands < decisions
    views, decisions, _ = count_views("rounce", "greedy")
    assert views == decisions


def test_a_watcher_is_run_only_under_rules_it_can_see_something_in() -> None:
    assert figures.watcher_for("twobox", {"cutthroat": False}) is None
    assert figures.watcher_for("twobox", {"cutthroat": True}) is not None
    assert figures.watcher_for("twobox") is not None  # no rules given: the watcher itself
    assert figures.watcher_for("rounce", {}) is None
    seen: list[dict[str, Any]] = []
    figures.register("rounce", figures.GenericFigures, lambda v, m, h: seen.append(dict(v)), lambda r: r["start"] > 5)
    try:
        assert figures.watcher_for("rounce", {"start": 3}) is None
        assert figures.watcher_for("rounce", {"start": 15}) is not None
        assert not HandTracker("rounce", {"start": 3}).every_move
        assert HandTracker("rounce", {"start": 15}).every_move
    finally:
        figures.unregister("rounce")


def test_json_copy_is_a_deep_copy_of_json_data() -> None:
    from collections import Counter

    data = {"a": [1, 2.5, True, None, "x", (3, [4])], "b": {"c": [{"d": 1}]}, "e": Counter(x=1)}
    copied = json_copy(data)
    assert copied == data == copy.deepcopy(data)
    assert type(copied["a"][5]) is tuple and type(copied["e"]) is Counter
    copied["a"][5][1].append(5)
    copied["b"]["c"][0]["d"] = 2
    copied["e"]["x"] = 7
    assert data == {"a": [1, 2.5, True, None, "x", (3, [4])], "b": {"c": [{"d": 1}]}, "e": Counter(x=1)}


def test_the_random_bot_is_the_registered_one_and_needs_no_view() -> None:
    made = bot("random")
    assert isinstance(made, RandomBot) and made.name == "random" and RandomBot.needs_view is False
    legal = ["a", "b", "c", "d", "e"]
    rng, twin = random.Random(9), random.Random(9)
    assert [made.choose({}, legal, rng) for _ in range(30)] == [legal[twin.randrange(5)] for _ in range(30)]
