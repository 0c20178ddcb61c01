"""The exact endgame solver inside ismcts's playouts (the ``endgame`` knob).

A playout that reaches the last tricks of a trick game hands over to the solver: the hand
then ends exactly where brute-force minimax over the engine says (the seat's engine score
with best play by everyone, the others against it in Rounce). Switched off, the greedy
playout often ends elsewhere, so the tests can tell the two apart.
"""

from __future__ import annotations

import random

import pytest

import boneyard
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.profile import SearchProfile

from .test_endgame import _hand_result, _margin, _minimax, _position


@pytest.mark.parametrize("game_id", ["eighty", "rounce"])
def test_playout_with_the_solver_reaches_the_brute_force_score(game_id: str) -> None:
    rng = random.Random(f"search-endgame-{game_id}")
    bot = IsmctsBot(iterations=10)
    greedy = bot._chooser(SearchProfile())  # no playout policy of the game's: greedy's choose
    differed = 0
    for _ in range(150):
        world = _position(game_id, rng, 2)
        seat = rng.choice([s for s in range(world.players) if world.hands[s]])
        maximising, leaf = _margin(world, seat)
        expected = _minimax(world, maximising, leaf)
        hand = world.hand_number
        solved = world.clone()
        cut = bot._playout(solved, list(solved.scores), hand, random.Random(1), greedy, None, seat, 2)
        assert not cut
        result = _hand_result(solved, hand)
        assert result is not None
        assert leaf(result) == expected, world.record()
        played = world.clone()
        bot._playout(played, list(played.scores), hand, random.Random(1), greedy, None, seat, 0)
        plain = _hand_result(played, hand)
        assert plain is not None
        differed += leaf(plain) != expected
    assert differed > 0  # greedy playouts do not already play these endgames perfectly


def test_endgame_knob_defaults_to_the_games_threshold_and_switches_off() -> None:
    from boneyard.bots.profile import profile

    play = {"phase": "play"}
    # the solver reaches three tricks in both trick games (the coach always uses it), but the
    # search's playouts do not by default (the arena, docs/bots.md); endgame=N switches it on
    for game in ("rounce", "eighty"):
        assert profile(game).endgame_tricks == 3 and not profile(game).search_solves
        assert IsmctsBot()._solve_at(profile(game), play) == 0
    assert IsmctsBot(endgame=3)._solve_at(profile("eighty"), play) == 3
    assert IsmctsBot(endgame=4)._solve_at(profile("rounce"), play) == 4
    assert IsmctsBot(endgame=0)._solve_at(profile("rounce"), play) == 0
    assert IsmctsBot()._solve_at(profile("twobox"), {"phase": "turn"}) == 0
    # bids and calls compare whole hands: the solver's biased values stay out of them
    assert IsmctsBot()._solve_at(profile("eighty"), {"phase": "bid"}) == 0
    assert IsmctsBot(endgame=3)._solve_at(profile("rounce"), {"phase": "call"}) == 0
    assert boneyard.bot("ismcts", endgame=2).endgame == 2


@pytest.mark.parametrize("bad", [-1, True, 1.5, "x"])
def test_ismcts_rejects_a_bad_switch(bad: object) -> None:
    for knob in ("endgame", "infer", "defence"):
        with pytest.raises(ValueError, match=knob):
            IsmctsBot(**{knob: bad})  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", ["eighty", "rounce"])
def test_search_with_the_solver_is_reproducible_and_legal(game_id: str) -> None:
    rng = random.Random(f"repro-{game_id}")
    for _ in range(4):
        game = _position(game_id, rng, 4)
        seat = game.current_player
        view, legal = game.view(seat), game.legal_actions()
        a = IsmctsBot(iterations=40).choose(view, legal, random.Random(3))
        b = IsmctsBot(iterations=40).choose(view, legal, random.Random(3))
        assert str(a) == str(b)
        assert str(a) in {str(x) for x in legal}
