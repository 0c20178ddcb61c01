"""Inference: sampled worlds weighted by how well they explain the other seats' play.

Every seat plays greedy here, so the real deal explains every past decision: the model
gives it the largest likelihood a world can have, ``(1 - epsilon)`` per decision with a
choice. Sampled worlds where a seat would have chosen otherwise weigh less, and resampling
by weight puts more of the others' real tiles in their hands than uniform sampling does.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.bots.endgame import supports, tricks_left
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.inference import Inference, candidates_for


def _positions(game_id: str, count: int, seed: int) -> list[Any]:
    """Greedy games stopped in the play phase with a few tricks played."""
    out = []
    greedy = GreedyBot()
    while len(out) < count:
        seed += 1
        game = boneyard.new_game(game_id, players=4, seed=seed)
        rng = random.Random(seed)
        stop = rng.choice([2, 3, 4, 5, 6] if game_id == "eighty" else [2, 3])
        while not game.is_over:
            if supports(game) and tricks_left(game) == stop:
                out.append(game)
                break
            game.apply(greedy.choose(game.view(game.current_player), game.legal_actions(), rng))
    return out


def _choices(inference: Inference, world: Any, seat: int) -> int:
    assert inference.decisions is not None
    return sum(1 for _, legal, _ in inference.decisions(inference.view, world, seat) if len(legal) > 1)


@pytest.mark.parametrize("game_id", ["eighty", "rounce"])
def test_the_real_deal_explains_every_greedy_decision(game_id: str) -> None:
    lower = 0
    for game in _positions(game_id, 12, 10):
        seat = game.current_player
        inference = Inference(game.view(seat), 4)
        eps = inference.epsilon
        rng = random.Random(1)
        for other in range(4):
            if other == seat:
                continue
            n = _choices(inference, game, other)
            best = (1 - eps) ** min(n, 16)
            assert inference.seat_likelihood(game, other) == pytest.approx(best)
        for _ in range(10):
            world = boneyard.sample_game(game.view(seat), rng)
            for other in range(4):
                if other != seat:
                    bound = (1 - eps) ** min(_choices(inference, world, other), 16)
                    got = inference.seat_likelihood(world, other)
                    assert got <= bound + 1e-12
                    lower += got < bound
    assert lower > 0  # in some sampled worlds a seat would have played otherwise


@pytest.mark.parametrize("game_id", ["eighty", "rounce"])
def test_weighted_sampling_finds_more_of_the_real_tiles(game_id: str) -> None:
    right = {0: 0, 4: 0}
    for n, game in enumerate(_positions(game_id, 16, 500)):
        seat = game.current_player
        view = game.view(seat)
        for k in right:
            inference = Inference(view, k)
            rng = random.Random(n)
            for _ in range(20):
                world = inference.sample(rng)
                for other in range(4):
                    if other != seat:
                        truth = [str(t) for t in game.hands[other]]
                        right[k] += sum(1 for t in world.hands[other] if str(t) in truth)
    assert right[4] > right[0] * 1.03


def test_a_world_where_a_seat_would_have_played_otherwise_weighs_less() -> None:
    """A sampled hand for the seat after the searcher often explains its play worse than its real one."""
    found = 0
    for game in _positions("eighty", 20, 900):
        seat = game.current_player
        inference = Inference(game.view(seat), 4)
        other = (seat + 1) % 4
        top = inference.seat_likelihood(game, other)
        world = boneyard.sample_game(game.view(seat), random.Random(2))
        if inference.seat_likelihood(world, other) < top:
            found += 1
    assert found >= 10


def test_inference_knobs_and_switch() -> None:
    # off by default in both trick games (the arena, docs/bots.md); infer=N switches it on
    assert candidates_for("rounce") == 0
    assert candidates_for("eighty") == 0
    assert candidates_for("twobox") == 0  # no past_decisions knob: nothing to weigh
    game = _positions("rounce", 1, 3)[0]
    view = game.view(game.current_player)
    off = Inference(view, 0)
    off.sample(random.Random(1))
    assert off.weighed == 0
    on = Inference(view, 4)
    on.sample(random.Random(1))
    assert on.weighed == 4
    with pytest.raises(ValueError, match="epsilon"):
        Inference(view, 4, epsilon=0.0)
    bot = boneyard.bot("ismcts", iterations=8, infer=0)
    assert str(bot.choose(view, game.legal_actions(), random.Random(1))) in {str(a) for a in game.legal_actions()}


def test_a_view_with_no_choices_yet_samples_uniformly() -> None:
    game = boneyard.new_game("rounce", players=4, seed=2)
    inference = Inference(game.view(game.current_player), 4)
    for _ in range(5):
        inference.sample(random.Random(3))
    assert inference.weighed == 1 and inference.candidates == 1


@pytest.mark.parametrize("infer", [0, 3])
def test_the_search_samples_through_inference_as_switched(infer: int, samplers_made: list[Inference]) -> None:
    made = samplers_made
    game = next(g for g in _positions("rounce", 8, 40) if len(g.legal_actions()) > 1)
    view, legal = game.view(game.current_player), game.legal_actions()
    bot = boneyard.bot("ismcts", iterations=10, infer=infer, endgame=0)
    bot.choose(view, legal, random.Random(2))
    assert len(made) == 1
    # on: every iteration weighed ``infer`` worlds; off: none was weighed
    assert made[0].weighed == (10 * infer if infer else 0)
