"""What the web app's coach gets done in its time budgets: sampled deals per hint and per reviewed decision.

Run: ``.venv/bin/python benchmarks/coach_web.py [--positions N] [--hint-ms 1500] [--review-ms 400]``.
Positions: decisions with a choice from seeded greedy games of each game (the game's
default player count), taken every few actions. For each, the hint's question
(``coaching.judge`` on the seat's view and legal actions) is asked with the hint budget
and the review budget. Prints per game the legal actions judged, the median and lowest
number of sampled deals (rounds), the median standard error of the best action's value,
and the longest wall-clock time (a budget is checked between rounds, so one round can
overrun it: at least one round is always played).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import boneyard
from boneyard.server.coaching import judge


def positions(game_id: str, count: int, seed: int = 1) -> list[tuple[dict[str, Any], list[str]]]:
    """``count`` decisions with more than one legal action: (the seat's view, its legal actions)."""
    greedy = boneyard.bot("greedy")
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], list[str]]] = []
    while len(out) < count:
        seed += 1
        game = boneyard.new_game(game_id, seed=seed)
        step = 0
        while not game.is_over and len(out) < count:
            seat = game.current_player
            legal = game.legal_actions()
            if len(legal) > 1 and step % 7 == 3:
                out.append((game.view(seat), [str(a) for a in legal]))
            game.apply(greedy.choose(game.view(seat), legal, rng))
            step += 1
    return out


def measure(game_id: str, count: int, ms: float) -> dict[str, float]:
    """Rounds, error and wall time of ``judge`` at ``ms`` over ``count`` positions of ``game_id``."""
    rounds: list[int] = []
    errors: list[float] = []
    walls: list[float] = []
    sizes: list[int] = []
    for view, legal in positions(game_id, count):
        start = time.perf_counter()
        found, done = judge(view, legal, [], ms)
        ranking = found.ranking
        walls.append((time.perf_counter() - start) * 1000)
        rounds.append(done)
        sizes.append(len(legal))
        if done > 1:
            errors.append(ranking[0].error)
    return {
        "actions": statistics.median(sizes),
        "rounds_median": statistics.median(rounds),
        "rounds_min": min(rounds),
        "error_median": statistics.median(errors) if errors else float("nan"),
        "wall_max_ms": max(walls),
    }


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--hint-ms", type=float, default=1500.0)
    parser.add_argument("--review-ms", type=float, default=400.0)
    args = parser.parse_args()
    print("| game | budget ms | legal actions (median) | rounds median | rounds min | best's error median "
          "| wall max ms |")
    print("|---|---|---|---|---|---|---|")
    for game_id in boneyard.games():
        for ms in (args.hint_ms, args.review_ms):
            r = measure(game_id, args.positions, ms)
            print(f"| {game_id} | {ms:g} | {r['actions']:g} | {r['rounds_median']:g} | {r['rounds_min']} | "
                  f"{r['error_median']:.2f} | {r['wall_max_ms']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
