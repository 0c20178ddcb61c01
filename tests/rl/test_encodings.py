"""The per-game encodings: every listed action has its own index and back, observations
are fixed-shape float32 in [0, 1] built from the view only (the swap method)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import boneyard
from boneyard.games import game_class
from boneyard.rl import encoding, facts
from boneyard.rl.core import Table
from boneyard.rl.encodings import rummikub as rummikub_encoding
from boneyard.testing import hidden_swap

GAMES = boneyard.games()


def counts(game_id: str) -> list[int]:
    """Every player count of a game."""
    p = boneyard.game_info(game_id)["players"]
    return list(range(p["min"], p["max"] + 1))


CASES = [(g, n) for g in GAMES for n in counts(g)]


def play_random(game_id: str, players: int, seed: int, limit: int = 300) -> Any:
    """Yield (game, view of the seat to act) along a seeded random game."""
    g = boneyard.new_game(game_id, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_over:
            return
        yield g, g.view(g.current_player)
        g.apply(rng.choice(g.legal_actions()))


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_listed_action_maps_to_one_index_and_back(game_id: str, players: int) -> None:
    enc = encoding(game_id, players)
    seen: set[int] = set()
    for seed in range(2):
        for g, view in play_random(game_id, players, seed):
            legal = g.legal_actions()
            mapping = enc.legal_map(view, legal)
            listed = [i for i, a in mapping.items() if a in legal]
            assert len(listed) == len(legal), "two listed actions share an index"
            if game_id != "rummikub":  # rummikub also indexes valid plays the engine does not list
                assert len(mapping) == len(legal)
            for i, action in mapping.items():
                assert 0 <= i < enc.num_actions
                assert enc.index(str(action), view) == i  # the notation maps to the same index
                if game_id != "rummikub":  # rummikub indices depend on the table; see below
                    assert enc.action_name(i) == str(action)
                    assert g.parse_action(enc.action_name(i)) == action
            mask = enc.mask(mapping)
            assert mask.dtype == np.int8 and mask.shape == (enc.num_actions,) and mask.sum() == len(mapping)
            seen.update(mapping)
    assert len(seen) > 5


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_are_fixed_float32_vectors_in_the_unit_box(game_id: str, players: int) -> None:
    enc = encoding(game_id, players)
    documented = sum(b.size for b in enc.blocks)
    assert documented == enc.obs_size and all(b.doc for b in enc.blocks)
    for g, _ in play_random(game_id, players, 3, limit=150):
        for seat in range(players):
            obs = enc.observe(g.view(seat))
            assert obs.dtype == np.float32 and obs.shape == (enc.obs_size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
    with pytest.raises(ValueError, match="spectator"):
        enc.observe(g.view(None))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_name_of_every_index_is_an_action_of_the_notation(game_id: str) -> None:
    enc = encoding(game_id)
    cls = game_class(game_id)
    for i in range(enc.num_actions):
        name = enc.action_name(i)
        if game_id == "rummikub" and i >= rummikub_encoding.NEW:
            continue  # families of plays, named in words
        action = cls.parse_action(name)
        assert enc.index(action, {"table": []}) == i
    for bad in (-1, enc.num_actions, 1.5, "3", True):
        with pytest.raises(ValueError, match="action index"):
            enc.action_name(bad)


def test_actions_no_position_can_make_legal_lie_outside_the_space() -> None:
    view: dict[str, Any] = {"table": []}
    with pytest.raises(ValueError, match="never be legal"):
        encoding("rounce").index("play 6-6 as 6", view)
    with pytest.raises(ValueError, match="never be legal"):
        encoding("rounce").index("play 6-4 as 3", view)
    with pytest.raises(ValueError, match="never be legal"):
        encoding("eighty").index("bid 90", view)
    with pytest.raises(ValueError, match="never be legal"):
        encoding("twobox").index("play 6-4 to 7", view)
    with pytest.raises(ValueError, match="never be legal"):
        encoding("montana").index("claim pair", view)
    with pytest.raises(boneyard.IllegalAction):
        encoding("rounce").index("xyzzy", view)


def test_rummikub_plays_fall_into_the_documented_families() -> None:
    """New groups, one-tile extensions and the solver's rearrangement all occur, each index once."""
    enc = encoding("rummikub", 2)
    families: dict[str, int] = {"new": 0, "extend": 0, "rearrange": 0}
    for seed in range(6):
        for g, view in play_random("rummikub", 2, seed, limit=120):
            mapping = enc.legal_map(view, g.legal_actions())
            for i, action in mapping.items():
                if i >= rummikub_encoding.REARRANGE:
                    families["rearrange"] += 1
                elif i >= rummikub_encoding.EXTEND:
                    families["extend"] += 1
                    group, _ = divmod(i - rummikub_encoding.EXTEND, 28)
                    assert action.groups[group] != tuple(view["table"][group])
                elif i >= rummikub_encoding.NEW:
                    families["new"] += 1
                    assert len(action.groups) == len(view["table"]) + 1
    assert all(families.values()), families


@pytest.mark.parametrize("game_id", GAMES)
def test_facts_scale_scores_and_sign_rewards(game_id: str) -> None:
    f = facts(game_id, boneyard.game_info(game_id)["players"]["default"], encoding(game_id).rules)
    lo, hi = f.score_bounds
    assert f.scale(lo) == 0.0 and f.scale(hi) == 1.0 and f.scale(hi + 1000) == 1.0
    up = f.rewards([lo, lo], [hi, lo])
    assert up[1] == 0.0 and abs(up[0]) == 1.0
    assert (up[0] < 0) == f.lower_is_better
    assert f.max_game_length > 0


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_observations_do_not_depend_on_hidden_tiles(game_id: str, players: int) -> None:
    enc = encoding(game_id, players)
    compared = 0
    for seed in range(4):
        found = hidden_swap(game_id, players, seed)
        if found is None:
            continue
        deck, swapped, seat = found
        t1 = Table(enc, seed, deck=deck, dealer=0)
        t2 = Table(enc, seed, deck=swapped, dealer=0)
        rng = random.Random(seed)
        for _ in range(150):
            g1, g2 = t1.game, t2.game
            if t1.over or t2.over or g1.view(None) != g2.view(None) or g1.view(seat)["hand"] != g2.view(seat)["hand"]:
                break  # the swapped tiles have come out: no longer hidden
            assert np.array_equal(t1.observe(seat), t2.observe(seat)), "an observation reveals a hidden tile"
            compared += 1
            common = sorted(set(t1.legal()) & set(t2.legal()))
            if not common or t1.seat != t2.seat:
                break
            i = rng.choice(common)
            t1.play(i)
            t2.play(i)
    assert compared > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_swap_method_would_catch_a_visible_difference(game_id: str) -> None:
    """Control: swapping a tile of the seat's own hand does change its observation."""
    cls = game_class(game_id)
    enc = encoding(game_id)
    deck = [str(t) for t in cls.full_set(cls.Rules())]
    random.Random(5).shuffle(deck)
    j = next(j for j in range(cls.hand_size, len(deck)) if deck[j] != deck[0])
    swapped = list(deck)
    swapped[0], swapped[j] = deck[j], deck[0]
    t1 = Table(enc, 1, deck=deck, dealer=0)
    t2 = Table(enc, 1, deck=swapped, dealer=0)
    assert not np.array_equal(t1.observe(0), t2.observe(0))


def test_a_game_without_an_encoding_is_named_and_left_out() -> None:
    from boneyard.games import register, unregister
    from boneyard.rl import encoded_games

    cls = register(type("RounceCopy", (game_class("rounce"),), {"id": "rounce_copy"}))
    try:
        assert "rounce_copy" in boneyard.games() and "rounce_copy" not in encoded_games()
        with pytest.raises(ValueError, match="no RL encoding"):
            encoding("rounce_copy")
    finally:
        unregister(cls.id)
    assert encoded_games() == GAMES


def test_a_bot_may_play_a_rummikub_table_the_engine_does_not_list() -> None:
    """Bots (in the Gymnasium environment) may submit any valid table: the table applies it."""
    enc = encoding("rummikub", 2)
    for seed in range(20):
        table = Table(enc, seed)
        rng = random.Random(seed)
        while not table.over:
            legal = table.legal()
            plays = [a for i, a in legal.items() if i >= rummikub_encoding.EXTEND and len(a.groups) > 1]
            if plays:
                action = plays[0]
                unlisted = type(action)("play", tuple(reversed(action.groups)))  # same groups, other order
                assert unlisted not in legal.values() and table.game.is_legal(unlisted)
                before = table.steps
                assert len(table.play_action(unlisted)) == 2
                assert table.steps == before + 1 and table.game.record()["actions"][-1] == str(unlisted)
                return
            table.play(rng.choice(sorted(legal)))
    pytest.fail("no position with a one-tile extension was reached")
