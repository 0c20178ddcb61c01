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
GAMES_PER_ADAPTER = range(200)
ONE_HAND = {"max_hands": 1}  # short games: many first deals for the time


def expected(game_id: str, players: int, rules: dict[str, Any], final: list[int],
             reward: str = "normalized") -> list[float]:
    """Each seat's return by the engine's account: the change from the start scores to ``final``."""
    info = boneyard.game_info(game_id, players, rules)
    return encoding(game_id, players, rules).facts.rewards(info["start_scores"], final, reward)


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


def counts(game_id: str) -> list[int]:
    """The smallest and largest player count of a game (one, for Eighty)."""
    p = boneyard.game_info(game_id)["players"]
    return sorted({p["min"], p["max"]})


def setting(game_id: str, seed: int) -> tuple[int, str]:
    """The player count and reward scale of seeded game ``seed``: each count and scale in turn."""
    players = counts(game_id)
    return players[seed % len(players)], ("normalized", "score")[(seed // len(players)) % 2]


def random_pettingzoo_game(game_id: str, seed: int, players: int, reward: str, hands: int | None = 1,
                           play_seed: int | None = None) -> tuple[list[float], list[int]]:
    """One PettingZoo game of random legal play: each agent's summed rewards and the final scores.

    ``seed`` deals the game; ``play_seed`` (default: ``seed``) picks the random moves.
    """
    env = pettingzoo_env(game_id, players=players, hands=hands, reward=reward)
    env.reset(seed=seed)
    deal = env.table.game.view(None)["events"] if env.table is not None else []
    assert deal  # the first deal's events, read before any move
    rng = np.random.default_rng(seed if play_seed is None else play_seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward_now, term, trunc, _ = env.last()
        totals[agent] += reward_now
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.table is not None
    return [totals[a] for a in env.possible_agents], list(env.table.game.scores)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_returns_are_the_score_change(game_id: str) -> None:
    """200 seeded one-hand games, every player count and both reward scales, from the first deal."""
    for seed in GAMES_PER_ADAPTER:
        players, reward = setting(game_id, seed)
        got, final = random_pettingzoo_game(game_id, seed, players, reward)
        assert np.allclose(got, expected(game_id, players, ONE_HAND, final, reward)), (seed, players, reward, got)


def test_pettingzoo_pays_twobox_points_scored_at_the_deal() -> None:
    """Two-box, seed 33, the whole game: the opening 5-5 scores 10 at the deal, and it is paid."""
    env = pettingzoo_env("twobox")
    env.reset(seed=33)
    assert env.table is not None and list(env.table.game.scores) == [0, 0, 0, 10]  # scored as the 5-5 is set
    got, final = random_pettingzoo_game("twobox", 33, 4, "score", hands=None, play_seed=0)
    assert final == [110, 156, 81, 40]
    assert got == [110.0, 156.0, 81.0, 40.0]


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_returns_are_the_score_change(game_id: str) -> None:
    games = {(n, r): pyspiel.load_game(f"python_boneyard_{game_id}", {"players": n, "max_hands": 1, "reward": r})
             for n in counts(game_id) for r in ("normalized", "score")}
    for seed in GAMES_PER_ADAPTER:
        players, reward = setting(game_id, seed)
        rng = np.random.default_rng(seed)
        state = games[players, reward].new_initial_state()
        summed = np.zeros(players)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
            summed += np.asarray(state.rewards())
        want = expected(game_id, players, ONE_HAND, state.table.game.scores, reward)
        assert np.allclose(state.returns(), want), (seed, state.returns(), want)
        assert np.allclose(summed, want), (seed, summed, want)


@pytest.mark.parametrize("game_id", GAMES)
def test_gymnasium_returns_are_the_score_change(game_id: str) -> None:
    """Hands the bots finish before the learner's first turn are paid with its first step."""
    for seed in GAMES_PER_ADAPTER:
        players, reward = setting(game_id, seed)
        env = BoneyardEnv(game_id, players=players, opponents="random", hands=1, reward=reward, seat="random")
        _obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total, done = 0.0, False
        while not done:
            _obs, reward_now, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            total += float(reward_now)
            done = term or trunc
        assert env.table is not None
        want = expected(game_id, players, ONE_HAND, env.table.game.scores, reward)[env.seat]
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


def test_gymnasium_deals_again_when_the_bots_end_the_game_before_the_learner_decides() -> None:
    """One-hand Rounce, seed 106: every other seat folds to the learner's deal; reset deals another game."""
    env = BoneyardEnv("rounce", players=4, opponents="random", hands=1, seat="random")
    _obs, info = env.reset(seed=106)
    assert info["skipped_games"] == 1
    assert env.table is not None and not env.table.over and env.table.seat == env.seat
    _obs, info = env.reset(seed=0)
    assert info["skipped_games"] == 0


def test_hands_and_reward_options_are_checked() -> None:
    """``hands`` becomes the rules' ``max_hands``; a bad value or scale is refused by name."""
    env = pettingzoo_env("montana", hands=1)
    assert env.enc.rules["max_hands"] == 1
    assert BoneyardEnv("eighty", hands=2).enc.rules["max_hands"] == 2
    with pytest.raises(ValueError, match="reward must be one of"):
        pettingzoo_env("rounce", reward="points")
    with pytest.raises(ValueError, match="reward must be one of"):
        BoneyardEnv("rounce", reward="points")
    with pytest.raises(ValueError, match="reward must be one of"):
        pyspiel.load_game("python_boneyard_rounce", {"reward": "points"})
    with pytest.raises(ValueError, match="hands must be"):
        BoneyardEnv("rounce", hands=0)
    with pytest.raises(ValueError, match="disagree"):
        pettingzoo_env("rounce", hands=1, rules={"max_hands": 3})
    score = pyspiel.load_game("python_boneyard_rounce", {"reward": "score", "max_hands": 1, "players": 2})
    assert (score.min_utility(), score.max_utility()) == (-24.0, 24.0)  # the bounds [-4, 20] in points
