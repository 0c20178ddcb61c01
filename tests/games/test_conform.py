"""``conform``: the engines' public entry that makes a sampled world fit a bot's inference.

A bot's reading (Montana's claim windows, Rounce's calls) may prove more than the view
holds; the engine moves the tiles by its own rules. Whatever it does, the world must stay
one the engine vouches for: every tile in exactly one place, the viewer's view exactly as
before, and the tiles asked for where they were asked.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import boneyard
from boneyard.tiles import Tile


def _positions(game_id: str, players: int, seeds: range, stop: float) -> list[Any]:
    """Games of seeded random play, each stopped at a random point of its first hand."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        game = boneyard.new_game(game_id, players=players, seed=seed)
        while not game.is_over and rng.random() > stop and game.hand_number == 1:
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over and game.hand_number == 1 and game.current_player is not None:
            out.append(game)
    return out


def _every_tile_once(world: Any) -> None:
    placed = sorted(t for tiles in world.tile_locations().values() for t in tiles)
    assert placed == sorted(world.full_set(world.rules))


def test_montana_conform_gives_a_seat_the_tiles_inference_proved() -> None:
    met = 0
    for game in _positions("montana", 4, range(60), 0.03):
        me = game.current_player
        view = game.view(me)
        rng = random.Random(game.seed)
        world = boneyard.sample_game(view, rng)
        other = (me + 1) % 4
        if world.ready[other]:
            continue
        # ask for a tile the other seat does not hold, hidden somewhere it may come from
        theirs = Counter(world.hands[other])
        hidden = [t for t in world.wood[world.wood_at:] if theirs[t] == 0]
        if not hidden:
            continue
        want: Counter[Tile] = Counter({hidden[0]: 1})
        fitted = world.conform(view, {other: [[want]]}, rng)
        if fitted is None:
            continue  # a proved limit or a ready test refused: the caller draws again
        met += 1
        assert fitted is world
        assert hidden[0] in world.hands[other]
        assert len(world.hands[other]) == len(game.hands[other])
        _every_tile_once(world)
        assert world.view(me) == view
    assert met >= 20


def test_montana_conform_with_no_need_leaves_the_world_alone() -> None:
    game = _positions("montana", 4, range(1), 0.05)[0]
    view = game.view(game.current_player)
    world = boneyard.sample_game(view, random.Random(1))
    before = [list(h) for h in world.hands]
    assert world.conform(view, {}, random.Random(1)) is world
    assert world.hands == before


def test_montana_can_go_out_on_is_the_engines_claim_rule() -> None:
    """``can_go_out_on`` agrees with every claim window's offer to go out, in random play."""
    from boneyard.games.montana.engine import CLAIM_OUT

    checked = offered = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = boneyard.new_game("montana", players=3 if seed % 2 else 4, seed=seed)
        while not game.is_over and game.hand_number <= 2:
            if game.claim_tile is not None:
                for s, options in game.claim_options.items():
                    checked += 1
                    offered += CLAIM_OUT in options
                    assert (CLAIM_OUT in options) == game.can_go_out_on(s, game.claim_tile)
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 100 and offered > 0


def test_rounce_conform_replays_the_calls_by_the_engines_draw() -> None:
    """A seat that called dummy keeps five of its hand and the dummy's tiles, by the model."""
    met = 0
    for seed in range(200):
        rng = random.Random(seed)
        game = boneyard.new_game("rounce", players=4, seed=seed)
        # play the calls only
        while str(game.phase) in ("call", "discard", "defend") and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over or game.hand_number != 1 or "dummy" not in game.calls or game.current_player is None:
            continue
        me = game.current_player
        if game.calls[me] == "dummy":
            continue
        view = game.view(me)
        world = boneyard.sample_game(view, random.Random(seed))
        value = {t: rng.random() for t in world.full_set(world.rules)}
        dummies = [s for s, call in enumerate(world.calls) if s != me and call == "dummy"]
        if len(dummies) != 1 or "take" in world.calls:
            continue
        out_before = Counter(world.out)
        hand_before = list(world.hands[dummies[0]])
        fitted = world.conform(view, lambda hand: False, value.__getitem__, random.Random(seed))
        if fitted is None:
            continue
        met += 1
        _every_tile_once(world)
        assert world.view(me) == view
        kept = world.hands[dummies[0]]
        assert len(kept) == 5
        # what the dummy put back face down is worth no more, by the model, than what it kept
        put_back = Counter(world.out) - out_before
        if put_back:
            assert max(value[t] for t in put_back) <= min(value[t] for t in kept)
        # the best five of a superset of the hand it was dealt: worth at least that hand
        assert sum(value[t] for t in kept) >= sum(value[t] for t in hand_before)
    assert met >= 10


def test_rounce_conform_refuses_a_world_its_calls_contradict() -> None:
    """A model under which nobody keeps a hand contradicts every seat that passed."""
    refused = 0
    for seed in range(200):
        rng = random.Random(seed)
        game = boneyard.new_game("rounce", players=4, seed=seed)
        while str(game.phase) == "call" and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        if game.is_over or game.current_player is None:
            continue
        me = game.current_player
        if not any(c == "pass" for s, c in enumerate(game.calls) if s not in (me, game.dealer)):
            continue
        view = game.view(me)
        world = boneyard.sample_game(view, random.Random(seed))
        assert world.conform(view, lambda hand: False, lambda t: 0.0, random.Random(seed)) is None
        refused += 1
    assert refused >= 10
