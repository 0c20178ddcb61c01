"""The oracle's samplers in benchmarks/hidden_info.py: what each one knows, and nothing more."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.games.montana.sampling import _sample_fits


def _hidden(game: Any, me: int) -> Counter[Any]:
    """The tiles the seat ``me`` cannot see in a Montana game: the other hands and the woodpile left."""
    out: Counter[Any] = Counter(game.wood[game.wood_at :])
    for s, hand in enumerate(game.hands):
        if s != me:
            out.update(hand)
    return out


def test_the_ready_oracle_knows_the_ready_hands_and_redeals_the_rest(benchmark_module: Any) -> None:
    """Montana's ready oracle: ready and own hands real, every other hidden tile redealt within the proofs."""
    bench = benchmark_module("hidden_info")
    greedy = GreedyBot()
    rng = random.Random(3)
    checked = claims = 0
    redealt = False
    for seed in range(60):
        game = boneyard.new_game("montana", players=4, seed=seed, rules={"max_hands": 1})
        while not game.is_over and claims < 12:
            seat = game.current_player
            view = game.view(seat)
            ready = [s for s in range(4) if s != seat and view["ready"][s]]
            answered = view["phase"] == "claim" and any(s != seat for s in game.answers)
            if ready or answered:
                bench._TRUTH["game"] = game
                world = bench.ReadyOracle(view).sample(rng)
                checked += 1
                claims += answered
                assert world.hands[seat] == game.hands[seat]
                for s in ready:
                    assert world.hands[s] == game.hands[s]
                others = [s for s in range(4) if s != seat and not view["ready"][s]]
                assert [len(world.hands[s]) for s in others] == [len(game.hands[s]) for s in others]
                assert _hidden(world, seat) == _hidden(game, seat)
                assert _sample_fits(world, others, [])
                redealt |= any(world.hands[s] != game.hands[s] for s in others)
                assert world.legal_actions() == game.legal_actions()
                for action in world.legal_actions():  # every answer and play resolves in the world
                    copy = world.clone()
                    copy.apply(action)
                    while copy.phase == "claim" and not copy.is_over:
                        copy.apply(copy.legal_actions()[-1])
            game.apply(greedy.choose(view, game.legal_actions(), rng))
    assert checked >= 60 and claims >= 10 and redealt


def test_the_ready_oracle_is_for_montana_only(benchmark_module: Any, monkeypatch: Any, capsys: Any) -> None:
    """Asking another game for ``--knows ready`` is refused with a message naming the option."""
    bench = benchmark_module("hidden_info")
    monkeypatch.setattr("sys.argv", ["hidden_info.py", "rummikub", "--knows", "ready"])
    with pytest.raises(SystemExit) as stop:
        bench.main()
    assert stop.value.code == 2
    assert "--knows ready is defined for montana only" in capsys.readouterr().err


def test_the_oracle_search_decides_with_each_sampler(benchmark_module: Any) -> None:
    """The oracle's search plays a legal action from its worlds, and hands the search its own sampler back."""
    from boneyard.bots import ismcts

    bench = benchmark_module("hidden_info")
    own = ismcts.Inference
    for game_id, knows in (("montana", "hands"), ("montana", "ready"), ("rummikub", "playable")):
        game = boneyard.new_game(game_id, players=4, seed=2, rules={"max_hands": 1})
        bench._TRUTH["game"] = game
        bot = bench.OracleSearch(knows, iterations=8)
        legal = game.legal_actions()
        assert bot.choose(game.view(game.current_player), legal, random.Random(1)) in legal
        assert ismcts.Inference is own


def test_the_ready_oracle_redeals_the_dead_hands_too(benchmark_module: Any) -> None:
    """At a table of two, the dead hands are hidden tiles like the woodpile: redealt, none lost."""
    bench = benchmark_module("hidden_info")
    game = boneyard.new_game("montana", players=2, seed=4, rules={"max_hands": 1})
    seat = game.current_player
    view = game.view(seat)
    bench._TRUTH["game"] = game
    rng = random.Random(5)
    worlds = [bench.ReadyOracle(view).sample(rng) for _ in range(5)]
    real = Counter(game.dead) + _hidden(game, seat)
    for world in worlds:
        assert Counter(world.dead) + _hidden(world, seat) == real
        assert len(world.dead) == len(game.dead) == 20
    assert any(world.dead != game.dead for world in worlds)
