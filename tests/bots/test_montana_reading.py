"""Montana's reading of the other hands: how far from going out real play leaves them."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import boneyard
from boneyard.bots import inference as inference_module
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.inference import Inference, candidates_for
from boneyard.bots.ismcts import IsmctsBot, _paired_lead
from boneyard.bots.montana import reading as montana_reading
from boneyard.games.montana import analysis
from boneyard.tiles import Tile


def _turn(seed: int, pulls: int) -> tuple[Any, dict[str, Any], tuple[Any, ...]]:
    """A Montana game at a discard turn after at least ``pulls`` pulls, by greedy play."""
    g = boneyard.new_game("montana", players=4, seed=seed)
    greedy = GreedyBot()
    rng = random.Random(seed)
    while True:
        view = g.view(g.current_player)
        legal = g.legal_actions()
        if view["phase"] == "turn" and len(legal) > 2 and 72 - view["woodpile"] >= pulls:
            return g, view, legal
        g.apply(greedy.choose(view, legal, rng))


def _tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def test_stages_count_pulls_from_the_woodpile() -> None:
    stage = montana_reading.reading_stage
    step = montana_reading.READING_STEP
    assert stage({"woodpile": 72}) == 0
    assert stage({"woodpile": 72 - step + 1}) == 0
    assert stage({"woodpile": 72 - step}) == 1
    assert stage({"woodpile": 0}) == montana_reading.READING_STAGES - 1


def test_hidden_away_is_the_analysis_figure_capped() -> None:
    near = _tiles("6-6 6-6 6-6 5-5 5-5 5-5 4-4 4-4 4-4 3-1")  # three triples and a single
    assert montana_reading.hidden_away(near) == analysis.tiles_away(near) == 1
    far = _tiles("6-0 5-1 4-2 3-0 2-1 1-0 6-3 5-0 4-0 0-0")
    assert montana_reading.hidden_away(far) == min(analysis.tiles_away(far) or 99, montana_reading.READING_AWAY - 1)


def test_a_nearer_hand_weighs_more_in_mid_hand_and_a_ready_seat_counts_one() -> None:
    _, view, _ = _turn(3, 20)
    other = (view["seat"] + 1) % 4
    world = boneyard.sample_game(view, random.Random(1))
    table = montana_reading.AWAY_WEIGHTS[montana_reading.reading_stage(view)]
    assert table[2] > 1 > table[4]  # the measured table says: two away is real play's, four a deal's
    weight = montana_reading.seat_weight(view, world, other)
    assert weight == table[montana_reading.hidden_away(world.hands[other])]
    ready = dict(view, ready=[True] * 4)
    assert montana_reading.seat_weight(ready, world, other) == 1.0


def test_importance_weights_are_the_product_over_the_other_seats() -> None:
    _, view, _ = _turn(5, 16)
    sampler = Inference(view, 1)
    world, weight = sampler.sample_weighted(random.Random(2))
    expected = math.prod(montana_reading.seat_weight(view, world, s) for s in range(4) if s != view["seat"])
    assert weight == pytest.approx(expected)
    # a game without a reading knob: every world weighs 1
    eighty = boneyard.new_game("eighty", seed=1)
    assert Inference(eighty.view(eighty.current_player), 1).sample_weighted(random.Random(2))[1] == 1.0


def test_montana_reading_is_off_by_default_and_switched_on_by_infer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert candidates_for("montana") == 0
    _, view, legal = _turn(7, 16)
    seen: list[float] = []
    real = Inference.sample_weighted

    def spy(self: Inference, rng: random.Random) -> tuple[Any, float]:
        world, weight = real(self, rng)
        seen.append(weight)
        return world, weight

    monkeypatch.setattr(inference_module.Inference, "sample_weighted", spy)
    IsmctsBot(iterations=60).choose(view, legal, random.Random(1))
    assert seen and set(seen) == {1.0}
    seen.clear()
    first = IsmctsBot(iterations=60, infer=1).choose(view, legal, random.Random(1))
    assert seen and any(w != 1.0 for w in seen)
    again = IsmctsBot(iterations=60, infer=1).choose(view, legal, random.Random(1))
    assert str(first) == str(again) and first in legal


def test_weighted_paired_lead() -> None:
    # weights all 1: the plain paired lead
    assert _paired_lead([0.7, 0.5], [0.5, 0.5], [1.0, 1.0]) == _paired_lead([0.7, 0.5], [0.5, 0.5])
    # differences 0.2 (weight 3) and 0.0 (weight 1): mean 0.15; spread
    # sqrt((3 * 0.05)^2 + (1 * 0.15)^2) / 4 = 0.0530..., so 2.83 standard errors
    assert _paired_lead([0.7, 0.5], [0.5, 0.5], [3.0, 1.0]) == pytest.approx(0.15 / (math.sqrt(0.0225 + 0.0225) / 4))
    assert _paired_lead([0.5, 0.5], [0.7, 0.5], [3.0, 1.0]) == -math.inf


def test_the_benchmark_measures_what_the_table_says(benchmark_module: Any) -> None:
    """A short run of benchmarks/montana_reading.py finds the table's shape: from the second
    stage on, real play leaves more hands two tiles away, and fewer four away, than dealt."""
    bench = benchmark_module("montana_reading")
    real, dealt = bench.measure(40, 2, 3)
    for stage in (1, 2):
        r_total, d_total = sum(real[stage].values()), sum(dealt[stage].values())
        assert real[stage][2] / r_total > 2 * dealt[stage][2] / d_total
        assert real[stage][4] / r_total < dealt[stage][4] / d_total
        assert montana_reading.AWAY_WEIGHTS[stage][2] > 2 > 1 > montana_reading.AWAY_WEIGHTS[stage][4]
    table = bench.weights(real, dealt)
    assert len(table) == montana_reading.READING_STAGES
    assert all(len(row) == montana_reading.READING_AWAY for row in table)
