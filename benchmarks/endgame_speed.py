"""How fast the trick-game endgame solvers are, by tricks remaining.

Run: ``.venv/bin/python benchmarks/endgame_speed.py [--positions N] [--max-eighty 6] [--max-rounce 5] [--search]``.
Positions: seeded greedy games (Rounce with 4, 3 and 2 players in turn), stopped at the
start of a trick with ``k`` tricks left; the seat to move samples a world from its view
(``boneyard.sample_game``) as the coach does, and the solver values that world from a
fresh transposition table (the cost of a first solve; later solves of the same hand reuse
the table and cost less). Prints per game and ``k`` the median, mean and 90th percentile
CPU time of one solve (``time.process_time``, so that figures on a loaded machine still
mean something) and the mean number of plays searched.

``--search`` prints instead what the solver costs inside ``ismcts``: the CPU ms of one
search iteration from play positions of seeded greedy games (a few tricks in, 4 players),
with the solver taking over the playouts at each number of tricks left (0: off) and with
inference on (the profile's ``infer_candidates``) or off. The profiles' ``endgame_tricks``
thresholds are the most tricks at which an iteration costs at most about one and a half
times a plain one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import boneyard
from boneyard.bots.endgame import solver, supports, tricks_left


def worlds(game_id: str, left: int, count: int, seed: int = 1) -> list[tuple[Any, int]]:
    """Sampled worlds at a trick's start with ``left`` tricks to play, and the seat to move."""
    greedy = boneyard.bot("greedy")
    rng = random.Random(seed)
    out: list[tuple[Any, int]] = []
    players = [4, 3, 2] if game_id == "rounce" else [4]
    while len(out) < count:
        seed += 1
        game = boneyard.new_game(game_id, players=players[seed % len(players)], seed=seed)
        while not game.is_over and len(out) < count:
            if supports(game) and not game.trick and tricks_left(game) == left:
                seat = game.current_player
                out.append((boneyard.sample_game(game.view(seat), rng), seat))
                break
            seat = game.current_player
            game.apply(greedy.choose(game.view(seat), game.legal_actions(), rng))
    return out


def measure(game_id: str, left: int, count: int) -> tuple[list[float], float]:
    """CPU seconds of each solve, and the mean plays searched."""
    times: list[float] = []
    nodes = 0
    for world, seat in worlds(game_id, left, count):
        start = time.process_time()
        s = solver(world, seat)
        s.value()
        times.append(time.process_time() - start)
        nodes += s.nodes
    return times, nodes / max(1, len(times))


def search_costs(game_id: str, count: int, most: int) -> None:
    """Print ms per ismcts iteration by solver threshold, inference off and on."""
    greedy = boneyard.bot("greedy")
    views: list[tuple[dict[str, Any], list[Any]]] = []
    seed = 100
    lefts = list(range(2, 10)) if game_id == "eighty" else [2, 3, 4, 5]
    while len(views) < count:
        seed += 1
        game = boneyard.new_game(game_id, players=4, seed=seed)
        rng = random.Random(seed)
        target = rng.choice(lefts)
        while not game.is_over:
            if supports(game) and tricks_left(game) == target and len(game.legal_actions()) > 1:
                views.append((game.view(game.current_player), game.legal_actions()))
                break
            game.apply(greedy.choose(game.view(game.current_player), game.legal_actions(), rng))
    iterations = 40
    for infer in (0, None):
        for k in range(most + 1):
            bot = boneyard.bot("ismcts", iterations=iterations, endgame=k, infer=infer)
            start = time.process_time()
            for view, legal in views:
                bot.choose(view, legal, random.Random(1))
            ms = (time.process_time() - start) * 1000 / (iterations * len(views))
            label = "off" if infer == 0 else "on"
            print(f"{game_id:8} {k:>8} {label:>9} {ms:>12.3f}")


def main() -> None:
    """Print the solve-time table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per game and tricks left")
    parser.add_argument("--max-eighty", type=int, default=6, help="most tricks left measured in Eighty")
    parser.add_argument("--max-rounce", type=int, default=5, help="most tricks left measured in Rounce")
    parser.add_argument("--search", action="store_true", help="cost of an ismcts iteration by solver threshold")
    args = parser.parse_args()
    if args.search:
        print(f"{'game':8} {'endgame':>8} {'inference':>9} {'ms/iteration':>12}")
        for game_id, most in (("eighty", min(args.max_eighty, 5)), ("rounce", args.max_rounce)):
            search_costs(game_id, max(4, args.positions // 2), most)
        return
    print(f"{'game':8} {'tricks':>6} {'median ms':>10} {'mean ms':>9} {'p90 ms':>8} {'plays':>9}")
    for game_id, most in (("eighty", args.max_eighty), ("rounce", args.max_rounce)):
        for left in range(1, most + 1):
            times, nodes = measure(game_id, left, args.positions)
            ms = sorted(t * 1000 for t in times)
            p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
            print(
                f"{game_id:8} {left:>6} {statistics.median(ms):>10.3f} {statistics.fmean(ms):>9.3f} "
                f"{p90:>8.3f} {nodes:>9.0f}"
            )


if __name__ == "__main__":
    main()
