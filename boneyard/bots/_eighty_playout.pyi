"""Type stub of the compiled Eighty playouts (``_eighty_playout.c``)."""

def play(state: bytes, tables: bytes, /) -> bytes:
    """Greedy's tiles (their keys, in order) to the hand's end, or until the stop count of tricks is left."""
