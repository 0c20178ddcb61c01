"""OpenSpiel: registration, truthful facts, random_sim_test for every game, resampling, ISMCTS."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import boneyard
import boneyard.rl.openspiel as bos
from boneyard.rl import encoding
from boneyard.rl.encoding import KIND_INDEX, KINDS
from boneyard.tiles import Tile

GAMES = boneyard.games()


def chance_step(state: pyspiel.State, rng: np.random.Generator) -> None:
    """Apply one chance outcome drawn with the probabilities the state declares."""
    outcomes = state.chance_outcomes()
    actions, probs = zip(*outcomes, strict=True)
    assert sum(probs) == pytest.approx(1.0) and list(actions) == state.legal_actions()
    state.apply_action(int(rng.choice(actions, p=np.asarray(probs) / sum(probs))))


def dealt(game: pyspiel.Game, seed: int) -> pyspiel.State:
    """A state after the chance nodes before the first decision (the first hand and the next one drawn)."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        chance_step(state, rng)
    return state


def play(state: pyspiel.State, rng: np.random.Generator) -> None:
    """One step: a chance outcome as declared, or a uniformly random legal action."""
    if state.is_chance_node():
        chance_step(state, rng)
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))


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
    assert game.max_chance_outcomes() == 28  # a tile kind (or a seat, for the first dealer)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.max_game_length() == enc.facts.max_game_length
    assert game.observation_tensor_shape() == [enc.obs_size]
    assert kind.provides_information_state_tensor
    assert game.information_state_tensor_shape() == [enc.obs_size + enc.num_actions]
    with pytest.raises(Exception, match=r"(?i)unknown parameter"):
        pyspiel.load_game(bos.short_name(game_id), {"no_such_option": 1})


@pytest.mark.parametrize("game_id", GAMES)
def test_states_follow_the_engine(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    state = dealt(game, 1)
    table = state.table
    record = table.game.record()
    assert record["seed"] == 0 and record.get("dealer") == state.dealer
    assert (state.dealer is None) == (game_id == "twobox")  # two-box has no dealer to draw
    assert state.pending is not None  # the next hand's tiles are drawn before the first decision
    rng = np.random.default_rng(1)
    decisions = 0
    while not state.is_terminal() and (decisions < 40 or not state.later_decks):
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        player = state.current_player()
        assert player == table.game.current_player
        obs = np.asarray(state.observation_tensor(player), np.float32)
        assert np.array_equal(obs, table.observe(player))
        legal = state.legal_actions()
        assert legal == sorted(table.legal())
        action = int(rng.choice(legal))
        assert state.action_to_string(player, action) == str(table.legal()[action])
        state.apply_action(action)
        decisions += 1
    assert table.game.deck_source is None  # attached only while the state applies a move
    # The engine dealt every later hand from the tiles chance drew: the record's actions,
    # replayed with those decks, give the same game; with the seed's own shuffles they do not.
    decks = list(state.later_decks)
    again = boneyard.new_game(game_id, seed=0, deck=record["deck"], dealer=record.get("dealer"))
    again.deck_source = lambda full: decks.pop(0)
    for text in table.game.record()["actions"]:
        again.apply(text)
    seats = range(game.num_players())
    assert [again.view(p) for p in seats] == [table.game.view(p) for p in seats] and not decks
    if state.later_decks:
        try:
            plain = boneyard.replay(table.game.record())
        except boneyard.IllegalAction:
            return  # the seed's own deal does not even allow the moves played
        assert [plain.view(p) for p in seats] != [table.game.view(p) for p in seats]


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_draws_every_unseen_tile_alike(game_id: str) -> None:
    """Each tile node's probabilities are copies left / tiles left, and the engine deals in that order."""
    game = pyspiel.load_game(bos.short_name(game_id))
    enc = encoding(game_id)
    state = game.new_initial_state()
    rng = np.random.default_rng(4)
    if enc.random_first_dealer:
        assert state.chance_outcomes() == [(s, pytest.approx(1 / enc.players)) for s in range(enc.players)]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "seat 1 deals first"
        chance_step(state, rng)
    full = Counter(enc.full_set)
    drawn: list[Tile] = []
    while state.table is None:
        left = full - Counter(drawn)
        want = {KIND_INDEX[t]: c / left.total() for t, c in left.items()}
        got = dict(state.chance_outcomes())
        assert got == pytest.approx(want)
        k = int(rng.choice(list(got), p=np.asarray(list(got.values())) / sum(got.values())))
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, k) == f"tile {KINDS[k]}"
        state.apply_action(k)
        drawn.append(KINDS[k])
    assert state.table.game.record()["deck"] == [str(t) for t in drawn]
    # The next hand's tiles are being drawn: a kind with no unseen copy left is refused.
    k, _ = state.chance_outcomes()[0]
    for _ in range(full[KINDS[k]]):
        state.apply_action(k)
    assert k not in state.legal_actions()
    before = str(state)
    with pytest.raises(Exception, match="not an unseen tile"):
        state.apply_action(k)
    assert str(state) == before


@pytest.mark.parametrize("game_id", GAMES)
def test_resample_from_infostate_keeps_the_information_state(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    state = dealt(game, 2)
    rng = np.random.default_rng(2)
    for _ in range(12):
        play(state, rng)
        if state.is_terminal():
            pytest.skip("game over before the check")
    player = state.current_player()
    key = state.information_state_string(player)
    worlds = set()
    pendings = {tuple(state.pending)}
    for k in range(5):
        world = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert world.information_state_string(player) == key
        assert world.legal_actions() == state.legal_actions()
        assert world.returns() == state.returns()
        others = [p for p in range(game.num_players()) if p != player]
        worlds.add(tuple(str(world.table.game.view(p)["hand"]) for p in others))
        # The next hand's tiles, drawn by chance and seen by nobody, are drawn anew too.
        assert world.pending is not None and sorted(world.pending) == sorted(state.pending)
        pendings.add(tuple(world.pending))
        world.apply_action(world.legal_actions()[k % len(world.legal_actions())])
    assert state.information_state_string(player) == key  # the original is untouched
    assert len(worlds) > 1  # the hidden tiles really are dealt anew
    assert len(pendings) == 6


@pytest.mark.parametrize("game_id", GAMES)
def test_the_information_state_recalls_every_event_since_the_game_began(game_id: str) -> None:
    # Views list only this hand's events and the last hand's end: the perfect-recall string
    # adds the earlier ones, whether the state kept them from its first string on or
    # rebuilds them from its history when first asked, late in the game.
    game = pyspiel.load_game(bos.short_name(game_id))
    n = game.num_players()
    early, late = dealt(game, 5), dealt(game, 5)
    assert str(early) == str(late)
    early.information_state_string(0)  # keeps the events from here on
    seen: list[list[Any]] = [[] for _ in range(n)]  # each seat's events, gathered step by step
    rng = np.random.default_rng(5)
    while not early.is_terminal() and early.table.game.hand_number < 4:
        for p in range(n):
            view = early.table.game.view(p)
            total = view["events_from"] + len(view["events"])
            seen[p] += view["events"][len(view["events"]) - (total - len(seen[p])) :]
        if early.is_chance_node():
            outcomes = early.chance_outcomes()
            action = outcomes[int(rng.integers(len(outcomes)))][0]
        else:
            action = int(rng.choice(early.legal_actions()))
        early.apply_action(action)
        late.apply_action(action)
    assert early.table.game.hand_number >= 3 or early.is_terminal()
    for p in range(n):
        view = early.table.game.view(p)
        total = view["events_from"] + len(view["events"])
        seen[p] += view["events"][len(view["events"]) - (total - len(seen[p])) :]
        assert view["events_from"] > 0  # the view alone has forgotten the first hands
        for state in (early, late):
            info = json.loads(state.information_state_string(p))
            assert info["events_from"] == 0 and info["events"] == json.loads(json.dumps(seen[p]))
        recent = json.loads(early.observation_string(p))  # the view's last 8 events
        assert recent["events"] == json.loads(json.dumps(view["events"][-8:]))
        assert recent["events_from"] + len(recent["events"]) == len(seen[p])


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_is_independent_of_its_state(game_id: str) -> None:
    # Clones share the lists whose items never change: playing a clone on, through
    # draws and hand ends, must leave the state it came from as it was.
    game = pyspiel.load_game(bos.short_name(game_id))
    state = game.new_initial_state()
    rng = np.random.default_rng(6)

    def seen(s: pyspiel.State) -> tuple[Any, ...]:
        return str(s), s.returns(), s.rewards(), s.history(), list(s._left), list(s.later_decks)

    for step in range(150 if game_id != "rummikub" else 70):
        if state.is_terminal():
            break
        before = seen(state)
        clone = state.clone()
        assert seen(clone) == before
        for _ in range(40):
            if clone.is_terminal():
                break
            play(clone, rng)
        assert seen(state) == before, step
        play(state, rng)


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
    assert state.is_chance_node() and state.table is None
    assert state.observation_string(0) == "player 0: the first hand is being drawn"
    with pytest.raises(Exception, match="first dealer is a seat"):
        state.apply_action(300)


@pytest.mark.parametrize("game_id", GAMES)
def test_terminal_rewards_let_mcts_bot_play(game_id: str) -> None:
    """``rewards="end"``: the whole return at the last step, so OpenSpiel's MCTSBot takes the games."""
    game = pyspiel.load_game(f"python_boneyard_{game_id}", {"rewards": "end", "max_hands": 1})
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    with pytest.raises(ValueError, match="terminal rewards"):
        mcts.MCTSBot(pyspiel.load_game(f"python_boneyard_{game_id}", {"max_hands": 1}), 2.0, 4,
                     mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    rs = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    rng = np.random.default_rng(1)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
        elif state.current_player() == 0 and decisions < 3:
            state.apply_action(int(bot.step(state)))
            decisions += 1
        else:
            assert state.returns() == [0.0] * game.num_players() and not any(state.rewards())
            state.apply_action(int(rng.choice(state.legal_actions())))
    hands = pyspiel.load_game(f"python_boneyard_{game_id}", {"max_hands": 1})
    engine = state.table.game
    want = encoding(game_id, game.num_players(), {"max_hands": 1}).facts.rewards(
        boneyard.game_info(game_id, game.num_players())["start_scores"], engine.scores)
    assert decisions >= 1 and np.allclose(state.returns(), want) and np.allclose(state.rewards(), want)
    with pytest.raises(ValueError, match="rewards must be"):
        pyspiel.load_game(f"python_boneyard_{game_id}", {"rewards": "sometimes"})
    assert hands.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS


@pytest.mark.parametrize("game_id", GAMES)
def test_the_information_state_tensor_is_the_observation_and_the_players_moves_this_hand(game_id: str) -> None:
    """The Python answer equals OpenSpiel's C++ path (through the observer); the moves block empties at a new hand."""
    game = pyspiel.load_game(bos.short_name(game_id), {"max_hands": 2})
    enc = encoding(game_id, rules={"max_hands": 2})
    state = dealt(game, 4)
    rng = np.random.default_rng(4)
    mine: dict[int, set[int]] = {p: set() for p in range(game.num_players())}
    hands_seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            chance_step(state, rng)
            continue
        player = state.current_player()
        hands_seen.add(state.table.game.hand_number)
        tensor = state.information_state_tensor(player)
        assert np.allclose(tensor, pyspiel.State.information_state_tensor(state, player))
        assert tensor[: enc.obs_size] == state.observation_tensor(player)
        assert {i for i, x in enumerate(tensor[enc.obs_size :]) if x} == mine[player]
        hand = state.table.game.hand_number
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        if not state.is_terminal() and state.table.game.hand_number != hand:
            mine = {p: set() for p in mine}
        else:
            mine[player].add(action)
    assert len(hands_seen) >= 1
