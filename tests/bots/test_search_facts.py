"""The search and the arena read each game's declared facts, not lists of game ids."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

import boneyard
from boneyard.bots import arena
from boneyard.bots.ismcts import DEFAULT_MARGIN_SCALE, IsmctsBot, margin_scale, seat_reward
from boneyard.games import game_class, register, unregister


def _blocked_hand_with_no_score() -> Any:
    """A two-player two-box game one pass from a blocked hand whose lowest hands tie: nobody scores.

    Found by seeded random play (seed 1340, the 101st action ends hand 1).
    """
    game = boneyard.new_game("twobox", players=2, seed=1340)
    rng = random.Random(1340)
    for _ in range(100):
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    return game


def test_the_blocked_hand_position_is_what_it_claims() -> None:
    game = _blocked_hand_with_no_score()
    assert [str(a) for a in game.legal_actions()] == ["pass"]
    after = game.clone()
    after.apply("pass")
    assert after.view(None)["hand_number"] == game.view(None)["hand_number"] + 1
    assert after.last_result["how"] == "blocked" and after.last_result["winner"] is None
    assert after.scores == game.scores


@pytest.mark.parametrize("rollout", [None, "greedy"])
def test_a_playout_stops_at_a_hand_that_ends_with_nobody_scoring(rollout: str | None) -> None:
    """The hand's end is read from ``hand_number``: no action of the next hand is played."""
    game = _blocked_hand_with_no_score()
    view = game.view(game.current_player)
    bot = IsmctsBot(iterations=1)
    chooser = None if rollout is None else bot._greedy.choose
    played = len(game.record()["actions"])
    world = game.clone()
    start = list(world.scores)
    cut = bot._playout(world, start, view["hand_number"], random.Random(0), chooser, None)
    assert not cut
    assert len(world.record()["actions"]) == played + 1  # the last pass, nothing of hand 2
    assert world.hand_number == view["hand_number"] + 1
    assert IsmctsBot._reward("twobox", world, start) == [0.5, 0.5]


def _scored(scores: list[int], winners: list[int] | None = None) -> Any:
    return SimpleNamespace(scores=scores, players=len(scores), is_over=winners is not None, winners=winners or [])


def test_lower_is_better_is_read_from_the_game_class() -> None:
    """Rounce declares lower scores better: the seat that lost fewest points is rewarded most."""
    assert game_class("rounce").lower_is_better and not game_class("twobox").lower_is_better
    start = [10, 10, 10]
    rounce = IsmctsBot._reward("rounce", _scored([12, 10, 15]), start)
    twobox = IsmctsBot._reward("twobox", _scored([12, 10, 15]), start)
    assert max(range(3), key=lambda s: rounce[s]) == 1
    assert max(range(3), key=lambda s: twobox[s]) == 2


def test_a_newly_registered_game_is_ranked_by_its_own_declaration() -> None:
    """A game no list knows: its declared fact decides, and the margin scale falls back on the default."""
    flipped = type("Flipped", (game_class("rounce"),), {"id": "rounce_flipped", "lower_is_better": False})
    register(flipped)
    try:
        assert margin_scale("rounce_flipped") == DEFAULT_MARGIN_SCALE
        reward = IsmctsBot._reward("rounce_flipped", _scored([12, 10, 15]), [10, 10, 10])
        assert max(range(3), key=lambda s: reward[s]) == 2
        specs = arena.parse_bots("random,greedy")
        result = {
            "deal": 0,
            "seats": ["random", "greedy"],
            "winners": [1],
            "scores": [3, 9],
            "decisions": {k: {"count": 1, "total_ms": 1.0, "max_ms": 1.0} for k in ("random", "greedy")},
        }
        margins = {row["bot"]: row["margin"] for row in arena.summarize("rounce_flipped", specs, [result])}
        assert margins["greedy"] > 0 > margins["random"]  # higher is better, as declared
        margins = {row["bot"]: row["margin"] for row in arena.summarize("rounce", specs, [result])}
        assert margins["greedy"] < 0 < margins["random"]  # rounce: points left, lower is better
    finally:
        unregister("rounce_flipped")


def test_seat_reward_is_the_one_formula() -> None:
    """Margins over the mean gain squashed by tanh; a finished game averages in the win share."""
    assert seat_reward([0.0, 0.0], 0, None, False, 20.0) == 0.5
    high = seat_reward([10.0, 0.0], 0, None, False, 20.0)
    assert high > 0.5 and seat_reward([10.0, 0.0], 0, None, True, 20.0) == pytest.approx(1 - high)
    assert seat_reward([10.0, 0.0], 0, [0], False, 20.0) == pytest.approx(0.5 * high + 0.5)
    assert seat_reward([10.0, 0.0, 0.0], 1, [1, 2], False, 20.0) < 0.5 * 0.5 + 0.25


def test_the_bots_own_margin_scale_overrides_the_games() -> None:
    """``ismcts:scale=N`` squashes a margin by N points instead of the game's MARGIN_SCALE."""
    start = [10, 10, 10]
    played = _scored([30, 10, 20])
    default = IsmctsBot._reward("twobox", played, start)
    assert IsmctsBot._reward("twobox", played, start, None, margin_scale("twobox")) == default
    wide = IsmctsBot._reward("twobox", played, start, None, 4 * margin_scale("twobox"))
    assert 0.5 < wide[0] < default[0]  # a wider scale: the same lead, nearer an even reward
    assert IsmctsBot(iterations=5, scale=50).scale == 50.0
    for bad in (0, -3, True):
        with pytest.raises(ValueError, match="scale"):
            IsmctsBot(iterations=5, scale=bad)
