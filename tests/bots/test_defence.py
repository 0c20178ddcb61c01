"""Montana defence: discards judged by the chance another seat goes out on them."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.montana import defence as montana_defence
from boneyard.bots.profiles import montana as montana_profile
from boneyard.games.montana import analysis as an
from boneyard.tiles import Tile

from .profiles import use_profile


def _turn(seed: int) -> Any:
    """A Montana game at a discard decision with several discards (greedy play before it)."""
    game = boneyard.new_game("montana", seed=seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    for _ in range(rng.randrange(0, 12)):
        game.apply(greedy.choose(game.view(game.current_player), game.legal_actions(), rng))
        if game.is_over:
            break
    while not game.is_over and not (
        sum(1 for a in game.legal_actions() if str(a).startswith("discard") and not str(a).endswith("ready")) >= 3
    ):
        game.apply(greedy.choose(game.view(game.current_player), game.legal_actions(), rng))
    return game


def _waiting_on(world: Any, seat: int, wanted: Tile) -> None:
    """Give ``seat`` in ``world`` a concealed hand of its size that goes out on ``wanted`` only."""
    size = len(world.hands[seat])
    pool = [t for t in (Tile(6, 6), Tile(5, 5), Tile(4, 4), Tile(2, 2), Tile(1, 1)) if t != wanted]
    hand: list[Tile] = [wanted]
    for t in pool:
        if len(hand) + 3 > size:
            break
        hand += [t] * 3
    while len(hand) < size:  # sizes not of the form 3k + 1: fill with a pair
        hand.append(hand[-1])
    world.hands[seat] = sorted(hand, key=lambda t: t.key, reverse=True)
    world.codes[seat] = an.encode(world.hands[seat])


def test_danger_is_the_engines_claim_out_rule() -> None:
    """A tile is dangerous in a world exactly when the engine offers another seat 'claim out' on it."""
    checked = 0
    for seed in range(6):
        game = _turn(seed)
        seat = game.current_player
        world = boneyard.sample_game(game.view(seat), random.Random(seed))
        other = (seat + 1) % world.players
        greedy_tile = Tile.parse(
            str(GreedyBot().choose(game.view(seat), game.legal_actions(), random.Random(0))).split()[1]
        )
        _waiting_on(world, other, greedy_tile)
        discards = [a for a in world.legal_actions() if str(a).startswith("discard") and not str(a).endswith("ready")]
        tiles = [a.tile for a in discards]
        risk = montana_defence.danger([world], seat, tiles)
        for action in discards:
            after = world.clone()
            after.apply(action)
            outs = 0
            while not after.is_over and str(after.phase) == "claim":
                legal = after.legal_actions()
                outs += any(str(a) == "claim out" for a in legal)
                after.apply(next(a for a in legal if str(a) == "pass"))
            assert risk[action.tile] == outs, (seed, str(action))
            checked += outs
    assert checked > 0  # some discard really was one another seat goes out on


def test_defence_avoids_a_discard_another_seat_goes_out_on() -> None:
    changed = 0
    for seed in range(8):
        game = _turn(seed)
        seat = game.current_player
        view, legal = game.view(seat), game.legal_actions()
        greedy_action = GreedyBot().choose(view, legal, random.Random(0))
        mine = Tile.parse(str(greedy_action).split()[1])
        world = boneyard.sample_game(view, random.Random(seed))
        _waiting_on(world, (seat + 2) % world.players, mine)
        chosen = montana_defence.defend(view, legal, greedy_action, lambda w=world: w, 4)
        assert str(chosen) in {str(a) for a in legal}
        picked = Tile.parse(str(chosen).split()[1])
        assert picked != mine
        assert montana_defence.danger([world], seat, [picked])[picked] == 0
        changed += 1
        # a world where nobody waits on greedy's tile: greedy's discard stands
        safe = boneyard.sample_game(view, random.Random(seed))
        if montana_defence.danger([safe], seat, [mine])[mine] == 0:
            assert montana_defence.defend(view, legal, greedy_action, lambda w=safe: w, 4) == greedy_action
    assert changed == 8


def test_search_reads_the_defence_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = montana_defence.defend

    def spy(view: dict[str, Any], legal: Any, action: Any, sample: Any, worlds: int) -> Any:
        calls.append(worlds)
        return real(view, legal, action, sample, worlds)

    use_profile(monkeypatch, montana_profile, defend=spy)
    game = _turn(3)
    view, legal = game.view(game.current_player), game.legal_actions()
    IsmctsBot(iterations=12, defence=0).choose(view, legal, random.Random(1))
    assert calls == []
    IsmctsBot(iterations=12).choose(view, legal, random.Random(1))
    assert calls == [montana_profile.PROFILE.defence_worlds]
    IsmctsBot(iterations=12, defence=5).choose(view, legal, random.Random(1))
    assert calls[-1] == 5


def test_the_defence_draws_worlds_only_within_its_share_of_the_budget() -> None:
    import time

    from boneyard.bots.inference import Inference

    game = _turn(4)
    view = game.view(game.current_player)
    bot = IsmctsBot(ms=200)
    sampler = Inference(view, 0)
    now = time.perf_counter()
    assert bot._drawer(sampler, random.Random(1), now)().players == game.players
    late = bot._drawer(sampler, random.Random(1), now - 0.2 * 0.25 - 0.01)
    with pytest.raises(ValueError, match="share"):
        late()
    # a defence handed a drawer that is out of time keeps greedy's discard
    legal = game.legal_actions()
    greedy_action = GreedyBot().choose(view, legal, random.Random(0))
    assert montana_defence.defend(view, legal, greedy_action, late, 24) == greedy_action
    # an iteration budget alone puts no limit on the drawer
    assert IsmctsBot(iterations=5)._drawer(sampler, random.Random(1), now - 100)().players == game.players
