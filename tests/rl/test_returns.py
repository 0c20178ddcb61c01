"""Exact returns: in every adapter, a whole game's rewards add up to its score change from the very first deal.

The reference is the engine's own account, not the adapter's: ``game_info``'s
``start_scores`` (each seat's score before the first deal) and the final scores. Points a
deal scores (two-box's spinner count) and hands the bots finish before the learner's
first turn are part of the game, so they are part of the return.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pyspiel
import pytest

import boneyard
import boneyard.rl.openspiel  # registers the OpenSpiel games
from boneyard.rl import encoding, pettingzoo_env
from boneyard.rl.gym_env import BoneyardEnv

GAMES = boneyard.games()
CASES = [(g, n) for g in GAMES for n in sorted({boneyard.game_info(g)["players"]["min"],
                                               boneyard.game_info(g)["players"]["max"]})]
SEEDS = range(12)
ONE_HAND = {"max_hands": 1}  # short games: many first deals for the time


def expected(game_id: str, players: int, rules: dict[str, Any], final: list[int]) -> list[float]:
    """Each seat's return by the engine's account: the scaled change from the start scores to ``final``."""
    info = boneyard.game_info(game_id, players, rules)
    return encoding(game_id, players, rules).facts.rewards(info["start_scores"], final)


def test_the_start_scores_are_the_scores_before_any_hand_points() -> None:
    """Each hand's ``points`` added to the start scores give the totals (two-box's deal points included)."""
    deal_points = 0
    for game_id in GAMES:
        if game_id == "montana":
            continue  # Montana's ready stakes move chips outside the hands' points
        for seed in range(30):
            game = boneyard.new_game(game_id, seed=seed, rules=ONE_HAND)
            start = list(boneyard.game_info(game_id, game.players, ONE_HAND)["start_scores"])
            deal_points += start != list(game.scores)
            rng = np.random.default_rng(seed)
            while not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[int(rng.integers(len(legal)))])
            [end] = [e for e in game.view(None)["events"] if e["kind"] == "hand_end"]
            assert [a + b for a, b in zip(start, end["points"], strict=True)] == list(game.scores), (game_id, seed)
    assert deal_points > 0  # some two-box deals score at once: the case the adapters missed


def test_each_game_starts_from_its_start_scores() -> None:
    """Montana's chips (or no outs), Rounce's fifteen, else zero; a new game holds them plus what its deal scored."""
    assert boneyard.game_info("montana", 4)["start_scores"] == [220] * 4
    assert boneyard.game_info("montana", 4, {"mode": "shootout"})["start_scores"] == [0] * 4
    assert boneyard.game_info("rounce", 3)["start_scores"] == [15] * 3
    assert boneyard.game_info("twobox", 4)["start_scores"] == [0] * 4
    scored_at_deal = 0
    for game_id in GAMES:
        for seed in range(20):
            game = boneyard.new_game(game_id, seed=seed)
            want = list(boneyard.game_info(game_id, game.players)["start_scores"])
            for e in game.view(None)["events"]:
                if e["kind"] == "score":  # two-box: the spinner's count, scored as it is set
                    want[e["seat"]] += e["points"]
                    scored_at_deal += 1
            assert list(game.scores) == want, (game_id, seed)
    assert scored_at_deal > 0


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pettingzoo_returns_are_the_score_change(game_id: str, players: int) -> None:
    for seed in SEEDS:
        env = pettingzoo_env(game_id, players=players, rules=ONE_HAND)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            totals[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        game = env.table.game
        got = [totals[a] for a in env.possible_agents]
        assert np.allclose(got, expected(game_id, players, ONE_HAND, game.scores)), (seed, got)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_openspiel_returns_are_the_score_change(game_id: str, players: int) -> None:
    game = pyspiel.load_game(f"python_boneyard_{game_id}", {"players": players, "max_hands": 1})
    for seed in SEEDS:
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        summed = np.zeros(players)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            summed += np.asarray(state.rewards())
        want = expected(game_id, players, ONE_HAND, state.table.game.scores)
        assert np.allclose(state.returns(), want), (seed, state.returns(), want)
        assert np.allclose(summed, want), (seed, summed, want)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_gymnasium_returns_are_the_score_change(game_id: str, players: int) -> None:
    """Hands the bots finish before the learner's first turn are paid with its first step."""
    import gymnasium

    from boneyard.rl import gym_id

    for seed in SEEDS:
        env = gymnasium.make(gym_id(game_id), players=players, opponents="random", rules=ONE_HAND, seat="random")
        _obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            _obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += float(reward)
            done = term or trunc
        inner = cast(BoneyardEnv, env.unwrapped)
        assert inner.table is not None
        want = expected(game_id, players, ONE_HAND, inner.table.game.scores)[inner.seat]
        assert total == pytest.approx(want), (seed, total, want)


def test_gymnasium_pays_the_hands_played_before_the_learners_first_turn() -> None:
    """Rounce, seed 106: the bots play all of hand 1 (the learner has no decision in it)."""
    import gymnasium

    from boneyard.rl import gym_id

    env = gymnasium.make(gym_id("rounce"), opponents="random", seat="random")
    _obs, info = env.reset(seed=106)
    assert info["hand_number"] == 2  # hand 1 is over before the learner acts
    inner = cast(BoneyardEnv, env.unwrapped)
    assert inner.table is not None
    before = expected("rounce", inner.enc.players, {}, list(inner.table.game.scores))[inner.seat]
    assert before != 0.0
    rng = np.random.default_rng(106)
    _obs, first, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    total, done = float(first), term or trunc
    while not done:
        _obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += float(reward)
        done = term or trunc
    assert total == pytest.approx(expected("rounce", inner.enc.players, {}, inner.table.game.scores)[inner.seat])
