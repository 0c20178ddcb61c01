"""Type stub of the game-independent C helpers of the RL adapters (``_observe.c``)."""

from collections.abc import Sequence
from typing import Any

def pack(values: list[float], /) -> bytearray:
    """The float32 bytes of each value (rounded as a float32 store rounds it)."""

def counts(
    buf: list[float], base: int, items: Sequence[Any], copies: int, index: dict[str, int], key: Any, /
) -> None:
    """At base + index[tile] of each item's tile (item[key]; the item if key is None): 1.0, or + 1 / copies."""

def mask(size: int, legal: dict[int, Any], /) -> bytearray:
    """``size`` bytes, 1 at each key of ``legal``."""

def legal_mask(
    known: dict[Any, int], legal_actions: tuple[Any, ...], size: int, /
) -> tuple[dict[int, Any], bytearray] | None:
    """(index -> action, mask bytes) of a position whose actions all have a known index; ``None``: left to Python."""
