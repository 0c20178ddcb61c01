"""Type stub of the game-independent C helpers of the RL adapters (``_observe.c``)."""

from typing import Any

def mask(size: int, legal: dict[int, Any], /) -> bytearray:
    """``size`` bytes, 1 at each key of ``legal``."""

def legal_mask(
    known: dict[Any, int], legal_actions: tuple[Any, ...], size: int, /
) -> tuple[dict[int, Any], bytearray] | None:
    """(index -> action, mask bytes) of a position whose actions all have a known index; ``None``: left to Python."""
