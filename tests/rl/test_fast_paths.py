"""The adapters' fast paths give exactly what a straightforward encoder and OpenSpiel's C++ path give.

The encodings' declared blocks are run by C (straight into the float32 bytes), which
reads the history rows of plain kinds from the events and caches every event's row by
its identity (the Python writer memoises them likewise), and masks and legal maps are
made in C; the tables
read each position once and the OpenSpiel state answers ``legal_actions``,
``is_chance_node`` and ``observation_tensor`` from Python. Here a plain reference (every
entry written from the view and the game's declared rows, no caches, NumPy's own float32
conversion, the game's own blocks from ``fill_reference``, the writers the declarations
replaced) and OpenSpiel's own C++ ``State`` methods check them on a few hundred
positions per game, for every seat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import boneyard  # noqa: E402
import boneyard.rl.openspiel as bos  # noqa: E402
from boneyard.rl import pettingzoo_env  # noqa: E402
from boneyard.rl.encoding import HISTORY_WINDOW, KINDS, OTHER, Encoding, encoding  # noqa: E402
from boneyard.tiles import Tile  # noqa: E402

from .fill_reference import FILLS, fill_derived  # noqa: E402

GAMES = boneyard.games()
POSITIONS = 300


def reference(enc: Encoding, view: Mapping[str, Any]) -> np.ndarray:
    """The observation written the plain way: every common entry from the view, then the game's blocks."""
    n = enc.players
    me = view["seat"]
    out = np.zeros(enc.obs_size, np.float32)
    o = enc.off
    if view["phase"] in enc.phases:
        out[o["phase"] + enc.phases.index(view["phase"])] = 1.0
    cur = view["current_player"]
    out[o["to_act"] + (n if cur is None else (cur - me) % n)] = 1.0
    lo, hi = enc.facts.score_bounds
    for s, v in enumerate(view["scores"]):
        out[o["scores"] + (s - me) % n] = min(max((v - lo) / (hi - lo), 0.0), 1.0)
    width = n + len(enc.verbs) + 1 + len(KINDS)
    events = view["events"][-HISTORY_WINDOW:]
    for j, event in enumerate(events):
        row = o["history"] + (HISTORY_WINDOW - len(events) + j) * width
        actors, verb, tile = enc.told[event["kind"]](event)  # every kind is declared (test_history)
        for actor in actors:
            out[row + (actor - me) % n] = 1.0
        if verb is not None:
            out[row + n + (len(enc.verbs) if verb == OTHER else enc.verbs.index(verb))] = 1.0
        if tile is not None:
            out[row + n + len(enc.verbs) + 1 + KINDS.index(Tile.parse(tile))] = 1.0
    game_part = [0.0] * enc.obs_size
    FILLS[enc.game_id](enc, game_part, view)
    fill_derived(enc, game_part, view)
    start = o["history"] + HISTORY_WINDOW * width
    out[start:] = np.asarray(game_part, dtype=np.float32)[start:]
    return out


def reference_mask(enc: Encoding, view: Mapping[str, Any], legal: Any) -> np.ndarray:
    """The legal mask written the plain way."""
    m = np.zeros(enc.num_actions, np.int8)
    for i in enc.legal_map(view, legal):
        m[i] = 1
    return m


@pytest.mark.parametrize("game_id", GAMES)
def test_pettingzoo_observations_match_the_reference(game_id: str) -> None:
    env = pettingzoo_env(game_id)
    fresh = encoding(game_id)  # its own, empty caches
    checked = 0
    seed = 0
    while checked < POSITIONS:
        env.reset(seed=seed)
        rng = random.Random(seed)
        seed += 1
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            game = env.table.game
            for other in env.possible_agents:
                seat = int(other.split("_")[1])
                view = game.view(seat)
                got = env.observe(other)
                assert np.array_equal(got["observation"], reference(fresh, view)), (game_id, seat, checked)
                want_mask = (reference_mask(fresh, view, game.legal_actions()) if seat == game.current_player
                             else np.zeros(fresh.num_actions, np.int8))
                assert np.array_equal(got["action_mask"], want_mask)
                checked += 1
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            if checked >= POSITIONS:
                break


def test_a_full_row_memo_is_emptied_without_losing_a_window_row() -> None:
    # The Python writer's memo of a few events is emptied at almost every window: the
    # vectors stay exact (C reads these kinds' rows itself, and caches them by identity).
    enc = encoding("rounce")
    enc.memo_events = 3
    fresh = encoding("rounce")
    game = boneyard.new_game("rounce", seed=5)
    rng = random.Random(5)
    for _ in range(40):
        for seat in range(game.players):
            view = game.view(seat)
            want = reference(fresh, view)
            assert np.array_equal(np.asarray(enc.observe_python(view), np.float32), want)
            assert np.array_equal(enc.observe(view), want)
            assert np.array_equal(np.asarray(enc.observe_list(view), np.float32), want)
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert 0 < len(enc._memo) <= enc.memo_events


def test_the_row_memo_never_answers_for_another_event_with_the_same_id() -> None:
    # The memo is keyed by id(event) and holds the event: a different event that comes to
    # have a stale entry's id (the first one freed) gets its own row, not the stale one.
    enc = encoding("montana")
    game = boneyard.new_game("montana", seed=2)
    view = game.view(0)
    event = view["events"][-1]
    stale = {"kind": "discard", "seat": 1, "tile": "6-6", "ready": False}
    enc._memo[id(event)] = enc._entries(enc.row(stale), stale)
    enc._memo_events[id(event)] = stale
    want = reference(encoding("montana"), view)
    assert np.array_equal(np.asarray(enc.observe_python(view), np.float32), want)
    assert enc._memo_events[id(event)] is event
    assert np.array_equal(enc.observe(view), want)


def test_observations_are_fresh_arrays() -> None:
    env = pettingzoo_env("rounce")
    env.reset(seed=3)
    agent = env.agent_selection
    first = env.observe(agent)
    first["observation"][:] = 7.0
    first["action_mask"][:] = 0
    again = env.observe(agent)
    assert again["observation"].max() <= 1.0
    assert again["action_mask"].sum() > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_openspiel_python_answers_match_the_cpp_path(game_id: str) -> None:
    game = pyspiel.load_game(bos.short_name(game_id))
    fresh = encoding(game_id)
    checked = 0
    seed = 0
    while checked < POSITIONS // 2:
        rng = random.Random(seed)
        seed += 1
        state = game.new_initial_state()
        while not state.is_terminal() and checked < POSITIONS // 2:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for p in range(game.num_players()):
                assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
                fast = state.observation_tensor(p)
                assert type(fast) is list and len(fast) == fresh.obs_size
                # Written as Python floats: the same float32 values as the C++ path's tensor.
                assert np.array_equal(np.asarray(fast, np.float32),
                                      np.asarray(pyspiel.State.observation_tensor(state, p), np.float32))
                if state.table is not None:
                    want = reference(fresh, state.table.game.view(p))
                    assert np.array_equal(np.asarray(fast, np.float32), want)
                checked += 1
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert state.legal_actions() == [a for a, _ in outcomes]
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                assert np.array_equal(np.asarray(state.observation_tensor(), np.float32),
                                      np.asarray(pyspiel.State.observation_tensor(state), np.float32))
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        assert state.legal_actions() == pyspiel.State.legal_actions(state)


def test_openspiel_bad_players_are_refused_like_cpp() -> None:
    game = pyspiel.load_game(bos.short_name("rounce"))
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor()  # a chance node has no observing player
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for bad in (-1, game.num_players()):
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(bad)
    with pytest.raises(pyspiel.SpielError):
        state.legal_actions(-2)
    other = (state.current_player() + 1) % game.num_players()
    assert state.legal_actions(other) == [] == pyspiel.State.legal_actions(state, other)
