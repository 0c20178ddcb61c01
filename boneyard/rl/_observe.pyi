"""Type stub of the compiled RL observation writers (``_observe.c``)."""

from typing import Any

def spec(
    game: str,
    players: int,
    size: int,
    phases: dict[str, int],
    verbs: tuple[str, ...],
    at_phase: int,
    at_to_act: int,
    at_scores: int,
    at_history: int,
    width: int,
    window: int,
    lo: float,
    span: float,
    offsets: tuple[int, ...],
    extra: tuple[Any, ...],
    /,
) -> object:
    """One encoding's blocks and constants, packed for :func:`observe`."""

def observe(spec: object, view: dict[str, Any], as_list: bool, /) -> bytearray | list[float] | None:
    """The observation as float32 bytes or a list of floats; ``None``: a view left to the Python writers."""

def mask(size: int, legal: dict[int, Any], /) -> bytearray:
    """``size`` bytes, 1 at each key of ``legal``."""

def observe_legal(
    spec: object, view: dict[str, Any], known: dict[Any, int], legal_actions: tuple[Any, ...], size: int, /
) -> tuple[bytearray, bytearray, dict[int, Any]] | None:
    """The observation, mask and legal map of the seat to act in one call; ``None``: left to Python."""
