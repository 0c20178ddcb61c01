"""Domino tiles and tile sets.

A :class:`Tile` is an immutable value written high end first (``"6-4"``). Tiles are
interned: ``Tile(4, 6) is Tile.parse("6-4")``, so comparing and hashing them is cheap
and a hash never depends on the process (sets of tiles iterate the same way every run).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

MAX_PIP = 6


class Tile:
    """One domino: two ends from 0 to 6, stored high end first.

    >>> t = Tile.parse("4-6"); str(t), t.high, t.low, t.pips
    ('6-4', 6, 4, 10)
    """

    __slots__ = ("high", "key", "low", "text")
    high: int
    low: int
    key: int
    text: str
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    def __new__(cls, a: Any, b: Any) -> Tile:
        """Return the tile with ends ``a`` and ``b`` (in either order)."""
        try:
            return cls._interned[(a, b)]
        except (KeyError, TypeError):
            pass
        if not (isinstance(a, int) and isinstance(b, int)) or isinstance(a, bool) or isinstance(b, bool):
            raise ValueError(f"tile ends must be whole numbers, got {a!r} and {b!r}")
        if not (0 <= a <= MAX_PIP and 0 <= b <= MAX_PIP):
            raise ValueError(f"tile ends must be 0 to {MAX_PIP}, got {a}-{b}")
        high, low = (a, b) if a >= b else (b, a)
        tile = cls._interned.get((high, low))
        if tile is None:
            tile = object.__new__(cls)
            object.__setattr__(tile, "high", high)
            object.__setattr__(tile, "low", low)
            object.__setattr__(tile, "key", high * 8 + low)
            object.__setattr__(tile, "text", f"{high}-{low}")
            cls._interned[(high, low)] = tile
        cls._interned[(a, b)] = tile
        return tile

    @classmethod
    def parse(cls, text: Any) -> Tile:
        """Parse ``"6-4"`` (either end first; surrounding spaces ignored)."""
        if isinstance(text, Tile):
            return text
        parts = str(text).strip().split("-")
        if len(parts) != 2 or not all(p.isdigit() and len(p) == 1 for p in parts):
            raise ValueError(f"not a tile: {text!r} (expected two ends 0-{MAX_PIP} like '6-4')")
        return cls(int(parts[0]), int(parts[1]))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tile is immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __hash__(self) -> int:
        return self.key

    def __lt__(self, other: Tile) -> bool:
        return self.key < other.key

    def __le__(self, other: Tile) -> bool:
        return self.key <= other.key

    def __gt__(self, other: Tile) -> bool:
        return self.key > other.key

    def __ge__(self, other: Tile) -> bool:
        return self.key >= other.key

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self

    @property
    def pips(self) -> int:
        """Total of both ends."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        """Whether both ends are the same number."""
        return self.high == self.low

    @property
    def suit(self) -> int:
        """The tile's default suit: its higher end."""
        return self.high

    @property
    def ends(self) -> tuple[int, int]:
        """Both ends, high first."""
        return (self.high, self.low)

    def has(self, number: int) -> bool:
        """Whether either end shows ``number``."""
        return self.high == number or self.low == number

    def other(self, number: int) -> int:
        """The end opposite ``number`` (``number`` itself for a double)."""
        if self.high == number:
            return self.low
        if self.low == number:
            return self.high
        raise ValueError(f"{self} has no end {number}")


def double_six(copies: int = 1, *, blanks: bool = True) -> list[Tile]:
    """The tiles of ``copies`` double-six sets, sorted; without blanks if asked.

    Engines call this for every new hand (their ``full_set``), so each set is built and
    sorted once and then copied: the tiles are immutable and interned, so a copy of the
    list is as good as a new one.
    """
    made = _SETS.get((copies, blanks))
    if made is None:
        lowest = 0 if blanks else 1
        one = [Tile(h, lo) for h in range(lowest, MAX_PIP + 1) for lo in range(lowest, h + 1)]
        made = _SETS[(copies, blanks)] = sorted(one * copies)
    return list(made)


_SETS: dict[tuple[int, bool], list[Tile]] = {}


def parse_tiles(texts: Iterable[str]) -> list[Tile]:
    """Parse several tile strings."""
    return [Tile.parse(t) for t in texts]


def check_deck(deck: Any, full: Sequence[Tile]) -> list[Tile]:
    """Parse a given deck and check it is a permutation of ``full``; ``ValueError`` if not."""
    if isinstance(deck, str | bytes) or not isinstance(deck, Sequence):
        raise ValueError("deck must be a list of tile strings")
    tiles = [t if isinstance(t, Tile) else Tile.parse(t) for t in deck]
    if len(tiles) != len(full):
        raise ValueError(f"deck must hold all {len(full)} tiles of the game, got {len(tiles)}")
    have, want = Counter(tiles), Counter(full)
    if have != want:
        extra = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        raise ValueError(
            "deck is not the game's tile set: "
            f"too many {', '.join(map(str, extra)) or '-'}; missing {', '.join(map(str, missing)) or '-'}"
        )
    return tiles


_BY_TEXT = {str(t): t for t in double_six()}


def tile_of(text: str) -> Tile:
    """A tile from its notation, fast for the canonical text views use (``"6-4"``, high end first).

    Bots read every tile of a view through this: a table lookup, with :meth:`Tile.parse`
    (and its errors) for any other spelling.
    """
    found = _BY_TEXT.get(text)
    return found if found is not None else Tile.parse(text)

