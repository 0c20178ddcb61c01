"""Type stub of the compiled Rounce playouts (``_rounce_playout.c``)."""

def play(state: bytes, keep: bytes, /) -> bytes:
    """Greedy's plays as (key, named suit or 255) pairs to the hand's end, or until the stop count of tricks is left."""
