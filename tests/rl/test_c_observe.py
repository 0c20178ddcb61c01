"""The masks and legal maps of ``boneyard/rl/_observe.c`` against the Python path.

Besides the interpreter of the declared observation blocks (``tests/rl/test_layout.py``),
C makes the legal-action masks and legal maps (``mask``, ``legal_mask``) from the indices
the encoding gave each action. Each is compared with what the Python path gives (a mask
written byte by byte, ``Encoding.legal_map``), and each must refuse what it refuses.

Skipped where the C module is not built, unless ``BONEYARD_REQUIRE_COMPILED`` is set (as
``make test`` and CI set it): then a missing C module fails.
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

import boneyard
from boneyard.rl.encoding import C_OBSERVE, encoding

if not C_OBSERVE:
    if os.environ.get("BONEYARD_REQUIRE_COMPILED", "") not in ("", "0"):
        pytest.fail(
            "BONEYARD_REQUIRE_COMPILED is set but boneyard/rl/_observe.c was not compiled "
            "(boneyard.rl.encoding.C_OBSERVE is False): rebuild with a C compiler",
            pytrace=False,
        )
    pytest.skip("boneyard/rl/_observe.c is not compiled here: only the Python path runs", allow_module_level=True)

from boneyard.rl import _observe

GAMES = boneyard.games()


def test_mask_sets_each_legal_index() -> None:
    rng = random.Random(2)
    for size in (1, 7, 60, 914):
        legal: dict[Any, Any] = {i: f"a{i}" for i in rng.sample(range(size), min(size, 9))}
        want = bytearray(size)
        for i in legal:
            want[i] = 1
        assert _observe.mask(size, legal) == want
        legal_np: dict[Any, Any] = {np.int64(i): a for i, a in legal.items()}  # NumPy ints are indices too
        assert _observe.mask(size, legal_np) == want
    assert _observe.mask(5, {}) == bytearray(5)


def test_mask_refuses_indices_outside_the_space() -> None:
    with pytest.raises(ValueError, match="outside 0 to 4"):
        _observe.mask(5, {5: "x"})
    with pytest.raises(ValueError, match="outside 0 to 4"):
        _observe.mask(5, {-1: "x"})
    with pytest.raises(TypeError, match="ints"):
        _observe.mask(5, {"1": "x"})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        _observe.mask(5, [1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="negative"):
        _observe.mask(-1, {})


@pytest.mark.parametrize("game_id", [g for g in GAMES if encoding(g).position_independent])
def test_legal_mask_gives_the_legal_map_and_its_mask(game_id: str) -> None:
    enc = encoding(game_id)
    game = boneyard.new_game(game_id, seed=4)
    rng = random.Random(4)
    checked = 0
    while not game.is_over and checked < 200:
        view = game.view(game.current_player)
        legal_actions = game.legal_actions()
        want = enc.legal_map(view, legal_actions)  # indexes every action it lists
        found = _observe.legal_mask(enc._index_cache, legal_actions, enc.num_actions)
        assert found is not None
        legal, mask = found
        assert legal == want and list(legal) == list(want)  # the same map, in the listed order
        assert np.array_equal(np.frombuffer(mask, np.int8), enc.mask(want))
        checked += 1
        game.apply(legal_actions[rng.randrange(len(legal_actions))])
    assert checked > 20


def test_legal_mask_leaves_to_python_what_it_cannot_answer() -> None:
    known: dict[Any, int] = {"a": 0, "b": 1, "c": 1}
    assert _observe.legal_mask(known, ("a", "b"), 3) == ({0: "a", 1: "b"}, bytearray(b"\x01\x01\x00"))
    assert _observe.legal_mask(known, ("a", "x"), 3) is None  # an action with no index yet
    assert _observe.legal_mask(known, ("b", "c"), 3) is None  # two actions on one index
    assert _observe.legal_mask({"a": 7}, ("a",), 3) is None  # an index outside the space
    with pytest.raises(TypeError, match="legal_mask"):
        _observe.legal_mask(known, ["a"], 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        _observe.legal_mask(known, ([1],), 3)  # an unhashable action


def test_observation_and_legal_is_the_same_with_or_without_the_c_call() -> None:
    enc = encoding("rounce")
    game = boneyard.new_game("rounce", seed=8)
    rng = random.Random(8)
    for _ in range(60):
        if game.is_over:
            break
        view = game.view(game.current_player)
        legal_actions = game.legal_actions()
        obs, legal = enc.observation_and_legal(view, legal_actions)
        assert legal == enc.legal_map(view, legal_actions)
        assert np.array_equal(obs["action_mask"], enc.mask(legal))
        assert np.array_equal(obs["observation"], enc.observe(view))
        obs_list, legal_list = enc.observation_and_legal(view, list(legal_actions))  # not a tuple: Python's way
        assert legal_list == legal and np.array_equal(obs_list["action_mask"], obs["action_mask"])
        game.apply(legal_actions[rng.randrange(len(legal_actions))])
