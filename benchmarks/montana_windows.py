"""What Montana's claim windows prove the other seats hold, and whether reading it helps.

A seat is asked about a discard only when it has a claim on it, and everyone sees who was
asked and the answers. So a seat that passed held a pair of the tile (or, the seat after
the discarder, the other two tiles of a run), and one that lost a claim held its tiles,
less what it has shown since (``held_requirements`` in ``boneyard/bots/montana/reading.py``).
The sampler deals the hidden tiles without it; the profile's ``explain`` (``ismcts:explain=1``)
gives each seat what it was proved to hold. This script plays greedy self-play games
(four players, seeded deals) and, at a share of the discard decisions where another seat
has such a requirement, prints:

- how often a view holds a requirement, and how often the real hands keep them (all of
  them should: a greedy player never passes a claim that would take it out);
- two things a search judges by, from worlds dealt uniformly and from explained worlds,
  against the real deal: each candidate discard's *danger* (other seats that would go out
  on it) and the copies of each tile kind the other hands hold: mean absolute error and
  correlation with the real deal;
- the cost of a draw, uniform and explained (rejections redrawn included).

The real hands are read from the game here, and only here, as a measuring rod.

Run: ``.venv/bin/python benchmarks/montana_windows.py [--games N] [--worlds K] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from typing import Any

from rich.progress import track

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.inference import Inference
from boneyard.bots.montana import defence as montana_defence
from boneyard.bots.montana import reading as montana_reading
from boneyard.tiles import Tile

SHARE = 0.33  # of the discard decisions a comparison is made at


def _holds(hand: list[Tile], reqs: list[montana_reading.Requirement]) -> bool:
    have = Counter(hand)
    return all(any(all(have[t] >= k for t, k in o.items()) for o in req) for req in reqs)


def _held_by_others(world: Any, seat: int) -> Counter[Tile]:
    out: Counter[Tile] = Counter()
    for other in range(world.players):
        if other != seat:
            out.update(world.hands[other])
    return out


def measure(games: int, worlds: int, seed: int) -> dict[str, Any]:
    """Play the games and gather the comparisons (see the module docstring)."""
    greedy = GreedyBot()
    rng = random.Random(seed)
    views = with_need = kept = broken = 0
    danger: list[tuple[float, float, float]] = []
    copies: list[tuple[float, float, float]] = []
    cost = {"uniform": 0.0, "explained": 0.0}
    draws = 0
    for g_i in track(range(games), description="montana windows"):
        game = boneyard.new_game("montana", players=4, seed=seed * 1000 + g_i, rules={"max_hands": 2})
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            legal = game.legal_actions()
            discards = sorted({Tile.parse(str(a).split()[1]) for a in legal if str(a).startswith("discard")})
            if len(discards) > 1 and rng.random() < SHARE:
                views += 1
                need = montana_reading.held_requirements(view)
                if need:
                    with_need += 1
                    for other, reqs in need.items():
                        if _holds(game.hands[other], reqs):
                            kept += 1
                        else:
                            broken += 1
                    started = time.perf_counter()
                    uniform = [boneyard.sample_game(view, rng) for _ in range(worlds)]
                    cost["uniform"] += time.perf_counter() - started
                    started = time.perf_counter()
                    sampler = Inference(view, 0, explain=True)
                    explained = [sampler.draw(rng) for _ in range(worlds)]
                    cost["explained"] += time.perf_counter() - started
                    draws += worlds
                    real = montana_defence.danger([game], seat, discards)
                    by_uniform = montana_defence.danger(uniform, seat, discards)
                    by_explained = montana_defence.danger(explained, seat, discards)
                    danger.extend((real[t], by_uniform[t], by_explained[t]) for t in discards)
                    held = _held_by_others(game, seat)
                    u = [_held_by_others(w, seat) for w in uniform]
                    e = [_held_by_others(w, seat) for w in explained]
                    kinds = set(held).union(*u, *e)
                    copies.extend(
                        (held[k], sum(c[k] for c in u) / worlds, sum(c[k] for c in e) / worlds) for k in kinds
                    )
            game.apply(greedy.choose(view, legal, rng))
    return {"views": views, "with_need": with_need, "kept": kept, "broken": broken,
            "danger": danger, "copies": copies, "cost": cost, "draws": draws}


def _compare(name: str, rows: list[tuple[float, float, float]]) -> None:
    real = [r for r, _, _ in rows]
    print(f"| {name} | {len(rows)} | " + " | ".join(
        f"{statistics.fmean(abs(a - b) for a, b in zip(real, col, strict=True)):.3f} / "
        f"{statistics.correlation(real, col):.3f}"
        for col in ([u for _, u, _ in rows], [e for _, _, e in rows])
    ) + " |")


def main() -> None:
    """Run the measurement and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="greedy self-play games (two hands each)")
    parser.add_argument("--worlds", type=int, default=16, help="worlds drawn each way per compared decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    found = measure(args.games, args.worlds, args.seed)
    print(f"compared decisions: {found['views']}, with a requirement on another seat: {found['with_need']}")
    print(f"seats with requirements: real hands keep them {found['kept']}, break them {found['broken']}")
    print()
    print("| judged | rows | uniform worlds: error / correlation | explained worlds: error / correlation |")
    print("| --- | ---: | ---: | ---: |")
    _compare("danger of a discard", found["danger"])
    _compare("copies of a kind in the other hands", found["copies"])
    draws = max(1, found["draws"])
    print()
    print(f"a draw: uniform {found['cost']['uniform'] / draws * 1e3:.2f} ms, "
          f"explained {found['cost']['explained'] / draws * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
