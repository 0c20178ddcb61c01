"""Seeded draws as the standard library makes them, compiled with the engines.

``random.Random.randrange`` and ``random.Random.shuffle`` are written in Python inside the
standard library: every deal's shuffle and every random bot's move paid the interpreter
even where the engines run compiled. These functions draw exactly as they do (the same
numbers, the same order, the same generator state after), so seeded games, records and
simulations do not change; ``tests/test_draws.py`` holds them to the standard library's
own results. A generator of another class (a subclass of ``random.Random`` may draw
differently, and callers may hand over look-alikes) is asked through its own method.
"""

from __future__ import annotations

import random
from typing import Any


def randbelow(rng: Any, n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``: ``getrandbits`` of ``n``'s bit length, redrawn until below ``n``."""
    if type(rng) is not random.Random:
        return int(rng.randrange(n))
    if n <= 0:
        raise ValueError(f"empty range for randbelow ({n})")
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: Any, items: list[Any]) -> None:
    """``rng.shuffle(items)``: from the last place down, swap each with a random place at or before it."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        items[i], items[j] = items[j], items[i]
