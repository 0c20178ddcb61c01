"""What holding plays back is worth in Rummikub: the search's playout policy against greedy.

The ``ismcts`` bot's Rummikub playouts follow ``boneyard.bots.rummikub.playout.playout``:
greedy's play, but held back (a draw instead) after opening until it goes out, while the
boneyard lasts and every other seat holds more than ``HOLD_UNTIL`` tiles. This script
plays that policy against greedy, four players, whole games of seeded deals. Each deal is
played twice, the policy in seats 0 and 2 and then in seats 1 and 3 (duplicate format, so
the deal's luck cancels). It prints, for each ``HOLD_UNTIL`` asked for, the policy's share
of the wins (ties shared) and its seats' mean final score minus greedy's, each with a 95%
interval over deals. It measures the policies, not the search: whether the search that
plays them is stronger is the arena's question (``docs/bots-measurements.md``).

Run: ``.venv/bin/python benchmarks/rummikub_hold.py [--deals N] [--hold-until 0,2,4]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence

from rich.progress import track

import boneyard
from boneyard.bots.greedy import rummikub as greedy
from boneyard.bots.rummikub import playout as policy

PLAYERS = 4


def game_lead(seed: int, holders: set[int]) -> tuple[float, float]:
    """One whole game of a deal: the holders' share of the wins and their mean score minus the others'."""
    game = boneyard.new_game("rummikub", players=PLAYERS, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.current_player
        view = game.view(seat)
        legal = game.legal_actions()
        choose = policy.playout if seat in holders else greedy.choose
        game.apply(choose(view, legal, rng))
    rest = [s for s in range(PLAYERS) if s not in holders]
    winners = list(game.winners)
    share = sum(1 for w in winners if w in holders) / len(winners) if winners else 0.5
    lead = sum(game.scores[s] for s in holders) / len(holders) - sum(game.scores[s] for s in rest) / len(rest)
    return share, lead


def interval(values: Sequence[float], sign: str = "+", digits: int = 2) -> str:
    """A mean and its 95% interval over deals, as the report prints it (``sign=""``: no plus sign)."""
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{mean:{sign}.{digits}f} [{mean - half:{sign}.{digits}f}, {mean + half:{sign}.{digits}f}]"


def main() -> None:
    """Print, for each ``HOLD_UNTIL``, the holding policy's wins and lead over greedy a game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="seeded deals, each played twice")
    parser.add_argument("--hold-until", default="0,2,4", help="comma-separated HOLD_UNTIL values to measure")
    args = parser.parse_args()
    values = [int(v) for v in args.hold_until.split(",") if v]
    rows: list[str] = []  # printed once every progress bar is gone, so the table stays whole
    saved = policy.HOLD_UNTIL
    try:
        for value in values:
            policy.HOLD_UNTIL = value
            shares: list[float] = []
            leads: list[float] = []
            for seed in track(range(args.deals), description=f"HOLD_UNTIL={value}", transient=True):
                even = game_lead(seed, {0, 2})
                odd = game_lead(seed, {1, 3})
                shares.append((even[0] + odd[0]) / 2)
                leads.append((even[1] + odd[1]) / 2)
            rows.append(f"| {value} | {interval(shares, sign='', digits=3)} | {interval(leads)} |")
    finally:
        policy.HOLD_UNTIL = saved
    print(f"Rummikub, the holding playout policy against greedy, {PLAYERS} players, {args.deals} deals (each twice)")
    print("| HOLD_UNTIL | win share [95% interval] | points a game [95% interval] |")
    print("| ---: | ---: | ---: |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
