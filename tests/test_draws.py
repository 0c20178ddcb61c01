"""``boneyard.draws`` draws exactly as ``random.Random`` does: same numbers, same order, same state after."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boneyard
from boneyard.draws import randbelow, shuffle


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 13, 52, 100, 1000, 2**31 + 5, 3**50])
def test_randbelow_draws_what_randrange_draws(n: int) -> None:
    for seed in range(40):
        a, b = random.Random(seed), random.Random(seed)
        assert [randbelow(a, n) for _ in range(25)] == [b.randrange(n) for _ in range(25)]
        assert a.getstate() == b.getstate()


@pytest.mark.parametrize("size", [0, 1, 2, 3, 28, 55, 112])
def test_shuffle_orders_as_random_shuffle_does(size: int) -> None:
    for seed in range(30):
        a, b = random.Random(seed), random.Random(seed)
        mine, theirs = list(range(size)), list(range(size))
        for _ in range(3):
            shuffle(a, mine)
            b.shuffle(theirs)
            assert mine == theirs
        assert a.getstate() == b.getstate()


def test_other_generators_are_asked_through_their_own_methods() -> None:
    class Fixed(random.Random):
        def randrange(self, *args: Any, **kwargs: Any) -> int:
            return 1

        def shuffle(self, x: Any) -> None:
            x.reverse()

    assert randbelow(Fixed(3), 10) == 1
    items = [1, 2, 3]
    shuffle(Fixed(3), items)
    assert items == [3, 2, 1]
    with pytest.raises(ValueError, match="empty range"):
        randbelow(random.Random(1), 0)


def test_a_seeded_deal_is_the_standard_shuffle_of_the_full_set() -> None:
    """Each game's first hand, undealt: the full set shuffled by ``random.Random(seed).shuffle``."""
    for game_id in boneyard.games():
        game = boneyard.new_game(game_id, seed=77)
        full = type(game).full_set(game.rules)
        twin = random.Random(77)
        game.rng = random.Random(77)  # the generator as it was before the deal
        dealt = game._deck()
        expected = list(full)
        twin.shuffle(expected)
        assert dealt == expected, game_id
