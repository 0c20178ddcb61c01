"""OpenSpiel: registration, truthful facts, random_sim_test for every game, resampling, ISMCTS."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import boneyard
import boneyard.rl.openspiel as bos
from boneyard.rl import encoding

GAMES = boneyard.games()


def dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """A state after the seed's chance nodes."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == bos.CHANCE_OUTCOMES and sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(int(rng.integers(bos.CHANCE_OUTCOMES)))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_random_sim_test_passes(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_random_sim_test_passes_with_parameters() -> None:
    pyspiel.random_sim_test(pyspiel.load_game("python_boneyard_rounce", {"players": 2}), num_sims=3,
                            serialize=False, verbose=False)
    pyspiel.random_sim_test(pyspiel.load_game("python_boneyard_twobox", {"players": 6, "cutthroat": True}),
                            num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_declared_facts(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    kind = game.get_type()
    info = boneyard.game_info(game_id)
    enc = encoding(game_id)
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (kind.min_num_players, kind.max_num_players) == (info["players"]["min"], info["players"]["max"])
    assert game.num_players() == info["players"]["default"]
    assert game.num_distinct_actions() == enc.num_actions
    assert game.max_chance_outcomes() == 256
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() == enc.facts.max_game_length
    assert game.observation_tensor_shape() == [enc.obs_size]
    with pytest.raises(Exception, match=r"(?i)unknown parameter"):
        pyspiel.load_game(bos.short_name(game_id), {"no_such_option": 1})


@pytest.mark.parametrize("game_id", GAMES)
def test_states_follow_the_engine(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    state = dealt(game, 1)
    table = state.table
    seed = int.from_bytes(bytes(state.seed_bytes), "big")
    assert table.game.record()["seed"] == seed
    rng = np.random.default_rng(1)
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        assert player == table.game.current_player
        obs = np.asarray(state.observation_tensor(player), np.float32)
        assert np.array_equal(obs, table.observe(player))
        legal = state.legal_actions()
        assert legal == sorted(table.legal())
        action = int(rng.choice(legal))
        assert state.action_to_string(player, action) == str(table.legal()[action])
        state.apply_action(action)
    again = boneyard.replay(table.game.record())
    assert again.view(None) == table.game.view(None)


@pytest.mark.parametrize("game_id", GAMES)
def test_resample_from_infostate_keeps_the_information_state(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    state = dealt(game, 2)
    rng = np.random.default_rng(2)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
        if state.is_terminal():
            pytest.skip("game over before the check")
    player = state.current_player()
    key = state.information_state_string(player)
    worlds = set()
    for k in range(5):
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(player) == key
        assert world.legal_actions() == state.legal_actions()
        assert world.returns() == state.returns()
        others = [p for p in range(game.num_players()) if p != player]
        worlds.add(tuple(str(world.table.game.view(p)["hand"]) for p in others))
        world.apply_action(world.legal_actions()[k % len(world.legal_actions())])
    assert state.information_state_string(player) == key  # the original is untouched
    assert len(worlds) > 1  # the hidden tiles really are dealt anew


def test_ismcts_plays_a_whole_game_of_rounce() -> None:
    game = pyspiel.load_game("python_boneyard_rounce", {"players": 2})
    rs = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    state = dealt(game, 7)
    decisions = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
            decisions += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    engine = state.table.game
    assert engine.is_over and decisions > 5
    f = encoding("rounce", 2).facts
    assert state.returns() == pytest.approx(f.rewards([15, 15], engine.scores))


def test_observers_refuse_what_they_cannot_show() -> None:
    game = pyspiel.load_game("python_boneyard_eighty")
    with pytest.raises(ValueError, match="one player's view"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=False,
                                                         private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    state = game.new_initial_state()
    assert state.is_chance_node() and "seed" in str(state)
    with pytest.raises(Exception, match="seed byte"):
        state.apply_action(300)
