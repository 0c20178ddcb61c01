"""Type stub of the compiled two-box playouts (``_twobox_playout.c``)."""

def outcomes(
    state: bytes,
    points: tuple[int, ...],
    target: int,
    steal_points: int,
    candidates: bytes,
    rounds: int,
    seed: int,
    weights: tuple[float, float, float, float, float, float],
    /,
) -> list[int]:
    """Per round and candidate (round-major), greedy played to the hand's end: the scores, then the winner or -1.

    A candidate is (kind, tile, arm): kind 0 a play, 1 a stack, 2 a draw (tile and arm 0).
    """

def trace(
    state: bytes,
    points: tuple[int, ...],
    target: int,
    steal_points: int,
    weights: tuple[float, float, float, float, float, float],
    /,
) -> tuple[list[tuple[int, int, int]], list[int], int, int]:
    """Greedy play to the hand's end: (actions as (kind, tile, arm), scores, game over, winner or -1)."""
