"""Type stub of the compiled Rummikub arrangement search (``_rummikub_dp.c``)."""

def solve(
    table: bytes,
    hand: bytes,
    table_jokers: int,
    hand_00: int,
    hand_66: int,
    distinct: bool,
    floor: int,
    limit: int,
    /,
) -> tuple[int, int, int, list[tuple[int, ...]]] | int | None:
    """The best arrangement's (score, hand jokers played, jokers used, path); None or -1 (over ``limit``)."""
