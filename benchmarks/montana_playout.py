"""What each part of Montana's playout policy is worth: chips a hand, policy against policy.

The ``ismcts`` bot's Montana playouts follow a cheap policy (``boneyard.bots.montana.search.pick``):
go out, make quads, claim quads, triples and runs of single tiles, declare ready, else
discard the loosest tile. This script plays the full policy against the same policy with
one part switched off (``claims=False`` or ``ready=False``, or both: the policy before
either was added), four players, the whole first hand of seeded deals. Each deal is
played twice, the full policy in seats 0 and 2 and then in seats 1 and 3 (duplicate
format, so the deal's luck cancels), and the score is the full policy's mean chips a hand
minus the other's, with its 95% interval over deals. It measures the policies, not the
search: whether better playouts make a stronger ``ismcts`` is the arena's question
(``docs/bots-measurements.md``).

Run: ``.venv/bin/python benchmarks/montana_playout.py [--deals N] [--players P]``.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from rich.progress import track

import boneyard
from boneyard.bots.montana.search import pick

VARIANTS = {"no claims": {"claims": False}, "no ready": {"ready": False}, "neither": {"claims": False, "ready": False}}


def policy_move(game: Any, options: dict[str, bool]) -> Any:
    """The policy's move for the seat to play, with the given parts switched off."""
    actions = game.legal_actions()
    if len(actions) == 1:
        return actions[0]
    hand = game.hands[game.current_player]
    return pick(hand, [(a.kind, a.tile, a.second, a) for a in actions], **options)


def first_hand(seed: int, players: int, full: set[int], options: dict[str, bool]) -> float:
    """The full policy's seats' mean chips minus the others', over one deal's first hand."""
    game = boneyard.new_game("montana", players=players, seed=seed)
    start = list(game.scores)
    while not game.is_over and game.hand_number == 1:
        game.apply(policy_move(game, {} if game.current_player in full else options))
    gains = [a - b for a, b in zip(game.scores, start, strict=True)]
    rest = [s for s in range(players) if s not in full]
    return sum(gains[s] for s in full) / len(full) - sum(gains[s] for s in rest) / len(rest)


def main() -> None:
    """Print, for each part switched off, what the full policy gains over it a hand."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="seeded deals, each played twice")
    parser.add_argument("--players", type=int, default=4, help="players (2 to 4)")
    args = parser.parse_args()
    print(f"Montana playout policy, {args.players} players, {args.deals} deals (each played twice)")
    print("| full policy against | chips a hand [95% interval] |")
    print("| --- | ---: |")
    even = {s for s in range(args.players) if s % 2 == 0}
    odd = set(range(args.players)) - even
    for name, options in VARIANTS.items():
        leads = []
        for seed in track(range(args.deals), description=name, transient=True):
            both = first_hand(seed, args.players, even, options) + first_hand(seed, args.players, odd, options)
            leads.append(both / 2)
        mean = statistics.mean(leads)
        half = 1.96 * statistics.stdev(leads) / len(leads) ** 0.5
        print(f"| {name} | {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] |")


if __name__ == "__main__":
    main()
