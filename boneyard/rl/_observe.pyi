"""Type stub of the RL adapters' game-independent C (``_observe.c``): the blocks' interpreter, masks, legal maps."""

from collections.abc import Callable
from typing import Any

def program(
    flat: tuple[tuple[Any, ...], ...], size: int, players: int, seat_key: str, slots: int,
    error: type[ValueError], direct: bool, /,
) -> object:
    """The flat form of declared blocks (``layout.flatten``) compiled once, with a window cache of ``slots`` rows."""

def run(
    program: object, view: Any, as_list: bool, rows_of: Callable[[Any], tuple[tuple[int, ...], tuple[int, ...]]], /
) -> Any:
    """The observation of the view's seat: float32 bytes (a bytearray), or a list of floats with ``as_list``."""

def cached(program: object, /) -> int:
    """How many events the program's window cache holds."""

def mask(size: int, legal: dict[int, Any], /) -> bytearray:
    """``size`` bytes, 1 at each key of ``legal``."""

def run_legal(
    program: object, view: Any, rows_of: Callable[[Any], tuple[tuple[int, ...], tuple[int, ...]]],
    known: dict[Any, int], legal_actions: tuple[Any, ...], size: int, /,
) -> tuple[bytearray, bytearray, dict[int, Any]] | None:
    """(observation bytes, mask bytes, index -> action) of the seat to act; ``None``: as ``legal_mask`` gives it."""

def legal_mask(
    known: dict[Any, int], legal_actions: tuple[Any, ...], size: int, /
) -> tuple[dict[int, Any], bytearray] | None:
    """(index -> action, mask bytes) of a position whose actions all have a known index; ``None``: left to Python."""
