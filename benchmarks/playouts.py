"""Random play through the public API: decisions per second and games per second per game.

Each decision is ``legal_actions()``, a seeded random choice and ``apply()``, exactly as
any client would drive a game. Run: ``python benchmarks/playouts.py [--seconds S] [GAME ...]``.
"""

from __future__ import annotations

import argparse
import random
import time

import boneyard


def measure(game_id: str, seconds: float, players: int | None = None) -> tuple[float, float, float, int]:
    """Play random games for about ``seconds``; return (decisions/s, per CPU-second, games/s, games).

    The CPU-second figure counts only this process's time, so it stays meaningful on a
    machine shared with other work; the wall-clock figure is what a user would see.
    """
    rng = random.Random(1)
    decisions = games = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    seed = 0
    while time.perf_counter() < deadline:
        g = boneyard.new_game(game_id, players=players, seed=seed)
        seed += 1
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return decisions / elapsed, decisions / cpu, games / elapsed, games


def main() -> None:
    """Print the figures for every game (or the ones named)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="game ids (default: all)")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per game (default 5)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: each game's standard)")
    args = parser.parse_args()
    ids = args.games or boneyard.games()
    print(f"{'game':<10} {'players':>7} {'decisions/s':>12} {'per CPU-s':>10} {'games/s':>9} {'games':>7}")
    for game_id in ids:
        players = args.players or boneyard.game_info(game_id)["players"]["default"]
        dps, cps, gps, n = measure(game_id, args.seconds, players)
        print(f"{game_id:<10} {players:>7} {dps:>12,.0f} {cps:>10,.0f} {gps:>9,.1f} {n:>7}")


if __name__ == "__main__":
    main()
