"""Montana hand analysis speed: win checks, waits, best splits and distances per second.

A *win check* is ``goes_out(codes, tile)``: does a coded concealed hand plus one tile split
into sets. Hands are random 10-tile hands drawn from the 112 tiles (plus a share of
hands one tile from going out, so both answers are exercised). Run:
``python benchmarks/montana_analysis.py [--seconds S]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from boneyard.games.montana import analysis as an
from boneyard.tiles import Tile, double_six


def hands(count: int, rng: random.Random) -> list[list[Tile]]:
    """Random 10-tile hands; every third one is a waiting hand (a complete 11 less one tile)."""
    full = double_six(4)
    out = []
    while len(out) < count:
        if len(out) % 3 == 2:
            suits = rng.sample(range(7), 2)
            pool = [t for t in full if t.high in suits]
            hand = rng.sample(pool, 11)
            if an.complete(an.encode(hand)):
                hand.pop(rng.randrange(11))
                out.append(hand)
            continue
        out.append(rng.sample(full, 10))
    return out


def rate(label: str, work: Callable[[], int], seconds: float) -> None:
    """Run ``work`` (returns how many operations it did) for about ``seconds`` and print the rate."""
    done = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += work()
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu
    print(f"{label:<34} {done / wall:>12,.0f} /s   {done / cpu:>12,.0f} per CPU-s")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    args = parser.parse_args()
    rng = random.Random(1)
    sample = hands(3000, rng)
    codes = [an.encode(h) for h in sample]
    tiles = [rng.choice(an.TILES) for _ in sample]
    pairs = list(zip(codes, tiles, strict=True))
    goes_out = an.goes_out

    def win_checks() -> int:
        for c, t in pairs:
            goes_out(c, t)
        return len(pairs)

    def waiting() -> int:
        for c in codes:
            an.is_waiting(c)
        return len(codes)

    def wait_lists() -> int:
        for c in codes:
            an.waits(c)
        return len(codes)

    winners = [[*h, an.waits(c)[0]] for h, c in zip(sample, codes, strict=True) if an.is_waiting(c)]

    def splits() -> int:
        for h in winners:
            an.best_split(h)
        return len(winners)

    def distances() -> int:
        for h in sample[:300]:
            an.tiles_away(h)
        return 300

    print(f"{len(sample)} hands, {len(winners)} of them one tile from going out")
    rate("win checks (goes_out)", win_checks, args.seconds)
    rate("waiting checks (is_waiting)", waiting, args.seconds)
    rate("wait lists (waits)", wait_lists, args.seconds)
    rate("best splits (best_split)", splits, args.seconds)
    rate("distances (tiles_away)", distances, args.seconds)


if __name__ == "__main__":
    main()
