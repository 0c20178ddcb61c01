"""PettingZoo: its own api_test and seed_test for every game, rewards, errors, rendering."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import boneyard
from boneyard.rl import encoding, pettingzoo_env

GAMES = boneyard.games()


def min_and_max(game_id: str) -> list[int]:
    """The smallest and largest table of a game."""
    p = boneyard.game_info(game_id)["players"]
    return sorted({p["min"], p["max"]})


CASES = [(g, n) for g in GAMES for n in min_and_max(g)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    env = pettingzoo_env(game_id, players=players)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations draw PettingZoo's generic advice
        api_test(env, num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_seed_test(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: pettingzoo_env(game_id), num_cycles=300)


def play_out(env: object, seed: int) -> tuple[dict[str, float], object]:
    """Masked random play to the end; the total reward of each agent and the finished game."""
    env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in env.possible_agents}  # type: ignore[attr-defined]
    game = env.table.game  # type: ignore[attr-defined]
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] += reward
        if term or trunc:
            env.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
    return totals, game


@pytest.mark.parametrize("game_id", GAMES)
def test_rewards_add_up_to_the_scaled_score_change(game_id: str) -> None:
    env = pettingzoo_env(game_id)
    totals, game = play_out(env, 4)
    assert game.is_over  # type: ignore[attr-defined]
    f = env.enc.facts
    start = boneyard.game_info(game_id)["start_scores"]  # the scores before the first deal
    want = f.rewards(start, game.scores)  # type: ignore[attr-defined]
    got = [totals[a] for a in env.possible_agents]
    assert np.allclose(got, want), (got, want)
    assert any(abs(x) > 0 for x in got)


def test_rewards_come_at_hand_ends_only() -> None:
    env = pettingzoo_env("rounce", players=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while env.agents:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        hand = env.table.game.hand_number
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        ended = env.table.game.hand_number != hand or env.table.game.is_over
        if not ended:
            assert all(r == 0.0 for r in env.rewards.values()), (agent, env.rewards)


def test_only_the_seat_to_act_has_a_mask() -> None:
    env = pettingzoo_env("eighty")
    env.reset(seed=1)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = pettingzoo_env("twobox")
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.table.game.record()
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal now"):
        env.step(illegal)
    with pytest.raises(ValueError, match="action index"):
        env.step(10_000)
    with pytest.raises(ValueError, match="is needed"):
        env.step(None)
    assert env.table.game.record() == before and env.agent_selection == agent


def test_same_seed_same_game_and_a_fixed_first_deal() -> None:
    a, b = pettingzoo_env("rounce"), pettingzoo_env("rounce")
    assert play_out(a, 9)[1].record() == play_out(b, 9)[1].record()  # type: ignore[attr-defined]
    deck = [str(t) for t in boneyard.new_game("rounce", seed=1).full_set(None)]
    a.reset(seed=1, options={"deck": deck, "dealer": 2})
    assert a.table.game.record()["deck"] == deck and a.table.game.record()["dealer"] == 2


def test_render_and_bad_arguments() -> None:
    env = pettingzoo_env("montana", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "scores" in text
    assert pettingzoo_env("montana").render() is None
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env("montana", render_mode="rgb_array")
    with pytest.raises(ValueError, match="players"):
        pettingzoo_env("eighty", players=3)
    with pytest.raises(boneyard.RulesError):
        pettingzoo_env("twobox", rules={"no_such_option": 1})
    with pytest.raises(ValueError, match="unknown game"):
        encoding("chess")


def test_agent_iter_stops_as_pettingzoos_own_does() -> None:
    """The generator agent_iter yields what PettingZoo's iterator would, and stops where it would."""
    from pettingzoo.utils.env import AECIterable

    env = pettingzoo_env("rounce")
    env.reset(seed=11)
    assert list(env.agent_iter(0)) == []
    assert list(env.agent_iter(3)) == [env.agent_selection] * 3  # nothing stepped: the same agent
    ours: list[str] = []
    theirs: list[str] = []
    for seen, iterator in ((ours, lambda: env.agent_iter()), (theirs, lambda: AECIterable(env, 2**63))):
        env.reset(seed=11)
        rng = np.random.default_rng(0)
        for agent in iterator():
            seen.append(agent)
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert env.agents == []  # both stop once every agent has left
    assert ours == theirs and len(ours) > 20
