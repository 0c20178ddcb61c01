"""Are two-box greedy's weights the best of their kind? A sweep, weight by weight, in duplicate self-play.

Greedy two-box values a play by six weights (``Weights`` in
``boneyard/bots/greedy/twobox.py``), and the ``ismcts`` search plays greedy in every
playout, so a better-weighted greedy would be a better search too. This script changes
one weight at a time (by the factors below, the others kept) and plays the changed greedy
in two seats against the default in the other two, four players, on seeded deals each
played twice with the seats swapped, so that the deal's luck cancels. It prints, per
weight and value, the changed seats' share of games won (0.5 is even) and their mean
score lead per game, with 95% intervals over deals. A factor of 0 switches a term off,
so its row says what that term is worth.

Run: ``.venv/bin/python benchmarks/twobox_weights.py [--deals N] [--seed S] [--workers W] [--only WEIGHT ...]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.progress import track

import boneyard
from boneyard.bots.greedy import twobox as greedy

FACTORS = (0.0, 0.5, 0.75, 1.5, 2.0, 3.0)
MAX_ACTIONS = 5000  # a game longer than this is cut (none is, at the default target)


def deal(args: tuple[int, Any, Any]) -> tuple[float, float]:
    """One deal played twice (seats swapped): the changed weights' mean win share and score lead."""
    seed, changed, base = args
    wins = leads = 0.0
    for swap in (False, True):
        game = boneyard.new_game("twobox", players=4, seed=seed)
        weights = [base, changed, base, changed] if swap else [changed, base, changed, base]
        rng = random.Random(seed)
        for _ in range(MAX_ACTIONS):
            if game.is_over:
                break
            seat = game.current_player
            game.apply(greedy.choose(game.view(seat), game.legal_actions(), rng, weights[seat]))
        ours = {1, 3} if swap else {0, 2}
        winners = set(game.winners or [])
        wins += 0.5 if winners & ours and winners - ours else float(bool(winners & ours))
        leads += sum(game.scores[s] if s in ours else -game.scores[s] for s in range(4)) / 2
    return wins / 2, leads / 2


def duel(pool: Any, changed: Any, base: Any, deals: int, seed: int) -> tuple[float, float, float, float]:
    """``changed`` against ``base`` over ``deals`` deals: win share and score lead, each with its 95% half-width.

    ``pool`` is anything with an executor's ``map`` (a process pool here; a test passes one
    that maps in its own process).
    """
    rows = list(pool.map(deal, [(seed + i, changed, base) for i in range(deals)], chunksize=16))
    wins = [w for w, _ in rows]
    leads = [lead for _, lead in rows]
    half = [1.96 * statistics.stdev(x) / len(x) ** 0.5 if len(set(x)) > 1 else 0.0 for x in (wins, leads)]
    return statistics.fmean(wins), half[0], statistics.fmean(leads), half[1]


def main() -> None:
    """Sweep every weight and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per weight and value (each played twice)")
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", nargs="+", choices=greedy.Weights._fields, help="sweep only these weights")
    args = parser.parse_args()
    base = greedy.WEIGHTS
    fields = args.only or base._fields
    trials = [(field, getattr(base, field) * f) for field in fields for f in FACTORS]
    rows = []
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (field, value) in enumerate(track(trials, description="two-box weights")):
            found = duel(pool, base._replace(**{field: value}), base, args.deals, args.seed + i * args.deals)
            rows.append((field, value, found))
    print(f"| weight (default) | value | win share | score lead a game |  ({args.deals} deals, each twice)")
    print("| --- | ---: | ---: | ---: |")
    for field, value, (win, win_half, lead, lead_half) in rows:
        name = f"{field} ({getattr(base, field):g})"
        print(f"| {name} | {value:g} | {win:.3f} ± {win_half:.3f} | {lead:+.2f} ± {lead_half:.2f} |")


if __name__ == "__main__":
    main()
