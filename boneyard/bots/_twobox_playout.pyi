"""Type stub of the compiled two-box playouts (``_twobox_playout.c``)."""

def rewards(
    state: bytes,
    points: tuple[int, ...],
    target: int,
    steal_points: int,
    candidates: bytes,
    rounds: int,
    seed: int,
    weights: tuple[float, float, float, float, float],
    scale: float,
    /,
) -> list[float]:
    """The observer's reward per round and candidate (round-major), greedy playouts to the hand's end."""

def trace(
    state: bytes,
    points: tuple[int, ...],
    target: int,
    steal_points: int,
    weights: tuple[float, float, float, float, float],
    /,
) -> tuple[list[tuple[int, int, int]], list[int], int, int]:
    """Greedy play to the hand's end: (actions as (kind, tile, arm), scores, game over, winner or -1)."""
