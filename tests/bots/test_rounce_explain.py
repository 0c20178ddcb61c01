"""Rounce's calls and exchanges replayed in the search's sampled worlds (the ``explain`` knob).

``sample_game`` deals every hidden tile at random; the knob rebuilds what the other seats'
calls say about their hands, modelled as the greedy heuristic: a seat that passed kept a
hand greedy would keep, a seat that folded or called dummy threw away one it would not,
and a dummy or a taking dealer kept the best five of what it drew.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.greedy import rounce as greedy_rounce
from boneyard.bots.inference import EXPLAIN_TRIES, Inference
from boneyard.bots.profiles import rounce as rounce_profile
from boneyard.bots.rounce import reading
from boneyard.tiles import Tile

from .profiles import use_profile


def _at_dealers_call(players: int, seed: int, dummy: bool) -> Any:
    """A greedy hand stopped at the dealer's call; with ``dummy``, the first caller calls dummy."""
    greedy = GreedyBot()
    game = boneyard.new_game("rounce", players=players, seed=seed)
    rng = random.Random(seed)
    first = True
    while not (game.current_player == game.dealer and game.view(game.dealer)["phase"] == "call"):
        seat = game.current_player
        legal = game.legal_actions()
        texts = [str(a) for a in legal]
        if dummy and first and "dummy" in texts:
            game.apply("dummy")
        else:
            game.apply(greedy.choose(game.view(seat), legal, rng))
        first = False
    return game


def _locations(world: Any) -> Counter[Tile]:
    counts: Counter[Tile] = Counter()
    for tiles in world.tile_locations().values():
        counts.update(tiles)
    return counts


def test_explained_worlds_keep_every_tile_once_and_the_seats_own_discards() -> None:
    full = Counter(greedy_rounce._FULL)
    for seed in range(12):
        game = _at_dealers_call(4, seed, dummy=True)
        caller = next(s for s, c in enumerate(game.calls) if c == "dummy")
        # the dealer about to call, and the dummy who has thrown two tiles face down
        for seat in (game.dealer, caller):
            view = game.view(seat)
            sampler = Inference(view, 0)
            rng = random.Random(seed)
            own_out = Counter(Tile.parse(t) for t in view["discarded"])
            assert seat == game.dealer or sum(own_out.values()) == 7  # its old hand and two drawn
            for _ in range(20):
                world = sampler.draw(rng)
                assert _locations(world) == full
                for other in range(4):
                    assert len(world.hands[other]) == len(game.hands[other])
                assert world.hands[seat] == game.hands[seat]
                assert not own_out - Counter(world.out)  # its own face-down tiles stay face down


def test_a_seat_that_passed_holds_a_hand_greedy_would_keep() -> None:
    checked = 0
    for seed in range(40):
        game = _at_dealers_call(2, seed, dummy=False)  # two players: the other seat passes or calls dummy
        view = game.view(game.dealer)
        passed = [s for s, c in enumerate(view["calls"]) if c == "pass" and s != game.dealer]
        if not passed:
            continue
        trump, turn_up = view["trump"], Tile.parse(view["turn_up"])
        rng = random.Random(seed)
        for _ in range(30):
            world = boneyard.sample_game(view, rng)
            before = {s: list(world.hands[s]) for s in range(2)}
            explained = reading.explain(view, world, random.Random(0))
            kept = all(reading._kept(world.hands[s], trump, turn_up) for s in passed)
            # with passes only, a world is rejected exactly when a passer's hand is one greedy folds
            assert (explained is None) == (not kept)
            if explained is not None:
                assert {s: list(explained.hands[s]) for s in range(2)} == before  # nothing to rebuild
            checked += 1
    assert checked >= 60


@pytest.mark.parametrize("players", [2, 4])
def test_a_dummys_hand_is_the_best_five_of_what_it_drew(players: int) -> None:
    """The rebuilt worlds find more of a dummy's real tiles than uniform ones (it kept its best five)."""
    right = {False: 0, True: 0}
    for seed in range(30):
        game = _at_dealers_call(players, seed, dummy=True)
        view = game.view(game.dealer)
        caller = next(s for s, c in enumerate(view["calls"]) if c == "dummy")
        real = set(game.hands[caller])
        for explain in (False, True):
            sampler = Inference(view, 0, explain=explain)
            rng = random.Random(seed)
            for _ in range(40):
                world = sampler.draw(rng)
                right[explain] += len(real & set(world.hands[caller]))
    # two players: six drawn, one thrown; four: seven drawn, two thrown, so more to read
    assert right[True] > (1.05 if players == 2 else 1.2) * right[False]


def test_once_a_tile_is_played_the_world_is_returned_as_dealt() -> None:
    greedy = GreedyBot()
    game = boneyard.new_game("rounce", players=4, seed=3)
    rng = random.Random(3)
    while game.view(game.current_player)["phase"] != "play" or not game.view(0)["trick"]:
        game.apply(greedy.choose(game.view(game.current_player), game.legal_actions(), rng))
    view = game.view(game.current_player)
    world = boneyard.sample_game(view, random.Random(1))
    hands = [list(h) for h in world.hands]
    out = list(world.out)
    assert reading.explain(view, world, random.Random(2)) is world
    assert [list(h) for h in world.hands] == hands and world.out == out


def test_switched_off_the_sampler_deals_as_sample_game_does() -> None:
    game = _at_dealers_call(4, 5, dummy=True)
    view = game.view(game.dealer)
    off = Inference(view, 0, explain=False)
    a = [off.draw(random.Random(7)).hands for _ in range(3)]
    b = [boneyard.sample_game(view, random.Random(7)).hands for _ in range(3)]
    assert a == b and off.explained == off.rejected == 0


def test_a_view_the_model_cannot_explain_still_gets_a_world(monkeypatch: pytest.MonkeyPatch) -> None:
    use_profile(monkeypatch, rounce_profile, explain=lambda view, world, rng: None)
    game = _at_dealers_call(4, 5, dummy=True)
    sampler = Inference(game.view(game.dealer), 0)
    world = sampler.draw(random.Random(1))
    assert world is not None and sampler.rejected == EXPLAIN_TRIES and sampler.explained == 0


def test_the_bot_passes_the_switch_and_refuses_a_bad_value(samplers_made: list[Inference]) -> None:
    made = samplers_made
    game = _at_dealers_call(4, 5, dummy=True)
    view, legal = game.view(game.dealer), game.legal_actions()
    for value, on in ((None, True), (1, True), (0, False)):
        boneyard.bot("ismcts", iterations=12, explain=value).choose(view, legal, random.Random(2))
        assert (made[-1].explain is not None) is on
        assert (made[-1].explained > 0) is on
    with pytest.raises(ValueError, match="explain must be 1"):
        boneyard.bot("ismcts", explain=2)


def test_the_calls_benchmark_reads_arena_records(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], benchmark_module: Any
) -> None:
    """benchmarks/rounce_calls.py on a short arena run: it finds the search's decisions, plays
    its choice and greedy's out from the real deal without touching the game, and prints both tables."""
    import subprocess
    import sys

    records = tmp_path / "arena.json"
    subprocess.run(
        [sys.executable, "-m", "boneyard", "arena", "rounce", "--bots", "ismcts:iterations=12,greedy",
         "--games", "2", "--seed", "3", "--workers", "1", "--json", str(records)],
        check=True, capture_output=True,
    )
    bench = benchmark_module("rounce_calls")
    found, games = bench.decisions([str(records)])
    assert games == 2 and found
    game, seat, mine, _ = found[0]
    before = game.view(seat)
    assert bench.margin_after(game, mine, seat) == bench.margin_after(game, mine, seat)  # greedy on: no chance
    assert game.view(seat) == before  # played out on a copy
    bench.calls_table(found, games)
    bench.samplers_table(found, 2, 5)
    printed = capsys.readouterr().out
    assert "2 games" in printed and "| greedy's choice | the bot's |" in printed
    assert "2 dealer's decisions where he may defend" in printed  # seed 3 has two
    assert "| real deal |" in printed and "| calls replayed |" in printed
