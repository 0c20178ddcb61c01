"""The swap helper every hidden-information test relies on swaps only what the seat cannot see."""

from __future__ import annotations

from collections import Counter

import pytest

import boneyard
from boneyard.games import game_class
from boneyard.testing import hidden_swap, shuffled_deck


@pytest.mark.parametrize("game_id", boneyard.games())
def test_the_swap_touches_two_tiles_outside_the_seats_hand(game_id: str) -> None:
    h = game_class(game_id).hand_size
    info = boneyard.game_info(game_id)["players"]
    found_any = False
    for players in range(info["min"], info["max"] + 1):
        for seed in range(6):
            found = hidden_swap(game_id, players, seed)
            if found is None:
                continue
            found_any = True
            assert found.deck == shuffled_deck(game_id, seed)
            assert Counter(found.deck) == Counter(found.swapped)
            changed = [i for i, (x, y) in enumerate(zip(found.deck, found.swapped, strict=True)) if x != y]
            assert len(changed) == 2
            own = range(found.seat * h, found.seat * h + h)
            assert not any(i in own for i in changed), "the swap touched the seat's own hand"
            assert 0 <= found.seat < players
    assert found_any


def test_a_chosen_seat_is_kept_and_the_same_seed_gives_the_same_swap() -> None:
    a = hidden_swap("rounce", 4, 3, seat=2)
    b = hidden_swap("rounce", 4, 3, seat=2)
    assert a is not None and a == b and a.seat == 2
