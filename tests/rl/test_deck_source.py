"""The engines' ``deck_source`` hook: a caller that draws the tiles itself deals every later hand.

The OpenSpiel game's chance nodes rely on it; here each game is checked directly: the
source decides the next hand's tiles, ``None`` leaves the seeded shuffle in charge, a
wrong deck is refused, and a clone never asks its original's source.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import boneyard
from boneyard.tiles import Tile

GAMES = boneyard.games()


def to_hand_two(game_id: str, source: Callable[[list[Tile]], Any] | None, seed: int = 3) -> Any:
    """A game (seed 3) played at random until the second hand is dealt, ``source`` set after the first deal."""
    game = boneyard.new_game(game_id, seed=seed)
    game.deck_source = source
    rng = random.Random(seed)
    while game.hand_number < 2 and not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert game.hand_number == 2, "the first hand ended the game: pick another seed"
    return game


def shuffled(full: list[Tile], seed: int) -> list[Tile]:
    """The full set in an order of its own."""
    deck = list(full)
    random.Random(seed).shuffle(deck)
    return deck


def views(game: Any) -> list[dict[str, Any]]:
    return [game.view(p) for p in range(game.players)]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_source_deals_the_next_hand(game_id: str) -> None:
    asked: list[int] = []

    def source(seed: int) -> Callable[[list[Tile]], list[Tile]]:
        def give(full: list[Tile]) -> list[Tile]:
            asked.append(len(full))
            assert full == sorted(full)
            return shuffled(full, seed)
        return give

    a = to_hand_two(game_id, source(1))
    b = to_hand_two(game_id, source(1))
    c = to_hand_two(game_id, source(2))
    plain = to_hand_two(game_id, None)
    assert asked and set(asked) == {len(a.full_set(a.rules))}
    assert views(a) == views(b)  # the same tiles from the source: the same hand
    assert views(a) != views(c)  # other tiles: another hand
    assert views(a) != views(plain)
    assert views(to_hand_two(game_id, lambda full: None)) == views(plain)  # None: the seeded shuffle deals


@pytest.mark.parametrize("game_id", ["rounce", "eighty"])
def test_a_deck_that_is_not_the_set_is_refused(game_id: str) -> None:
    with pytest.raises(ValueError, match="deck"):
        to_hand_two(game_id, lambda full: full[:-1])


def test_a_clone_deals_from_its_own_shuffle() -> None:
    calls: list[int] = []
    game = boneyard.new_game("rounce", seed=3)

    def source(full: list[Tile]) -> list[Tile]:
        calls.append(1)
        return shuffled(full, 5)

    game.deck_source = source
    copy = game.clone()
    assert copy.deck_source is None
    rng = random.Random(3)
    while copy.hand_number < 2:
        legal = copy.legal_actions()
        copy.apply(legal[rng.randrange(len(legal))])
    assert calls == []
