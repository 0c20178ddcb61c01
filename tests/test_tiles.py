"""Tiles and tile sets."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boneyard import Tile
from boneyard.tiles import check_deck, double_six

ends = st.integers(min_value=0, max_value=6)


@given(ends, ends)
def test_tile_is_interned_normalised_and_round_trips(a: int, b: int) -> None:
    t = Tile(a, b)
    assert t is Tile(b, a) is Tile.parse(f"{a}-{b}") is Tile.parse(f" {b}-{a} ")
    assert (t.high, t.low) == (max(a, b), min(a, b))
    assert str(t) == f"{t.high}-{t.low}"
    assert eval(repr(t), {"Tile": Tile}) is t
    assert t.pips == a + b and t.is_double == (a == b) and t.suit == t.high
    assert t.has(a) and t.has(b) and t.other(a) == b
    assert copy.deepcopy(t) is t and pickle.loads(pickle.dumps(t)) is t
    assert hash(t) == t.high * 8 + t.low


def test_tile_rejects_bad_input_and_mutation() -> None:
    for text in ("7-1", "6", "6-4-2", "a-b", "", "66"):
        with pytest.raises(ValueError):
            Tile.parse(text)
    with pytest.raises(ValueError):
        Tile(7, 1)
    with pytest.raises(AttributeError):
        Tile(6, 4).high = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="no end 5"):
        Tile(6, 4).other(5)


def test_tiles_order_high_end_first() -> None:
    assert sorted([Tile(6, 6), Tile(0, 0), Tile(6, 0), Tile(5, 5)]) == [Tile(0, 0), Tile(5, 5), Tile(6, 0), Tile(6, 6)]


def test_sets() -> None:
    assert len(double_six()) == 28 and len(set(double_six())) == 28
    assert len(double_six(4)) == 112
    blank_free = double_six(2, blanks=False)
    assert len(blank_free) == 42 and not any(t.has(0) for t in blank_free)


def test_check_deck_names_the_problem() -> None:
    full = double_six()
    deck = [str(t) for t in full]
    assert check_deck(deck, full) == full
    with pytest.raises(ValueError, match="all 28 tiles"):
        check_deck(deck[1:], full)
    with pytest.raises(ValueError, match=r"too many 6-6; missing 0-0"):
        check_deck(["6-6", *deck[1:]], full)
    with pytest.raises(ValueError, match="list of tile strings"):
        check_deck("6-6", full)


def test_double_six_gives_a_new_list_each_time() -> None:
    # The sets are built once and copied: a caller shuffling or emptying its deck (every
    # engine does, every hand) must never change the next caller's.
    first = double_six(2)
    first.reverse()
    first.pop()
    again = double_six(2)
    assert len(again) == 56 and again == sorted(again)
    assert again is not double_six(2)
    assert double_six(2, blanks=False) == sorted(t for t in double_six(2) if t.low > 0)
