"""What counting a hand's helpful tiles is worth in Montana: ``widest`` against greedy.

Greedy throws the tile whose loss leaves the hand fewest tiles from going out, and breaks
a tie by suit and pips alone. ``boneyard.bots.greedy.montana.widest``, where ``ismcts``
starts its search, breaks it by how many unseen tiles would bring the hand nearer
(``acceptance``). This script plays ``widest`` against greedy, four players, the whole
first hand of seeded deals. Each deal is played twice, ``widest`` in seats 0 and 2 and
then in seats 1 and 3 (duplicate format, so the deal's luck cancels), and it prints
``widest``'s mean chips a hand minus greedy's, with its 95% interval over deals, and how
often ``widest`` chose another discard than greedy. It measures the policies, not the
search: whether the search that starts from ``widest`` is stronger is the arena's question
(``docs/bots-measurements.md``).

Run: ``.venv/bin/python benchmarks/montana_widest.py [--deals N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics

from rich.progress import track

import boneyard
from boneyard.bots.greedy import montana as policy

PLAYERS = 4


def first_hand(seed: int, wide: set[int]) -> tuple[float, int, int]:
    """One deal's first hand: the ``wide`` seats' mean chips minus the others', their choices, and how many differed."""
    game = boneyard.new_game("montana", players=PLAYERS, seed=seed)
    rng = random.Random(seed)
    start = list(game.scores)
    decided = differed = 0
    while not game.is_over and game.hand_number == 1:
        seat = game.current_player
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        view = game.view(seat)
        action = policy.choose(view, legal, rng)
        if seat in wide:
            chosen = policy.widest(view, legal, rng)
            decided += 1
            differed += str(chosen) != str(action)
            action = chosen
        game.apply(action)
    gains = [a - b for a, b in zip(game.scores, start, strict=True)]
    rest = [s for s in range(PLAYERS) if s not in wide]
    return sum(gains[s] for s in wide) / len(wide) - sum(gains[s] for s in rest) / len(rest), decided, differed


def main() -> None:
    """Print ``widest``'s lead over greedy in chips a hand, and how often the two differ."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="seeded deals, each played twice")
    args = parser.parse_args()
    leads: list[float] = []
    decided = differed = 0
    for seed in track(range(args.deals), description="deals", transient=True):
        total = 0.0
        for wide in ({0, 2}, {1, 3}):
            lead, made, changed = first_hand(seed, wide)
            total += lead
            decided += made
            differed += changed
        leads.append(total / 2)
    mean = statistics.mean(leads)
    half = 1.96 * statistics.stdev(leads) / len(leads) ** 0.5 if len(leads) > 1 else 0.0
    print(f"Montana, widest against greedy: {PLAYERS} players, the first hand of {args.deals} deals, each played twice")
    print("| widest against greedy | chips a hand [95% interval] | decisions where it differs |")
    print("| --- | ---: | ---: |")
    share = differed / decided if decided else 0.0
    print(f"| widest | {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] | {share:.3f} of {decided} |")


if __name__ == "__main__":
    main()
