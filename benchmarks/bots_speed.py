"""How fast the bots think: greedy decisions and ismcts iterations per second, per game.

Run: ``.venv/bin/python benchmarks/bots_speed.py [--decisions N] [--games a,b]``. Prints,
for every registered game (or those named), the CPU time of a greedy decision and of one
ismcts iteration with the game's own search profile (tree games: a sampled deal, a walk
down the tree and a playout; flat games: one candidate's playout on a sampled world, the
world's sampling shared by the round; two-box: one whole-hand playout on the engine's
fast path, a world giving 16 rounds), measured on positions from seeded greedy games; decisions where the
search had nothing to compare (no iterations) are left out of the per-iteration figure.
CPU time (``time.process_time``) is reported so that figures on a loaded, shared machine
still mean something; wall time is shown beside it.

The last column is the number of ismcts playouts a 200 ms decision affords through the
engine itself (compiled with mypyc when the install could, see ``boneyard.compiled``):
the same search with a game's own fast playouts (two-box's profile's ``outcomes``,
``bots/playouts/twobox.py`` over the engine's ``FastHand``; the profile's ``finish`` in Eighty and Rounce,
``bots/tricks/<id>.py``, greedy's play compiled with the engines, and of Montana, which
reads the sampled world's state) switched off, so every playout goes through ``legal_actions()``
and ``apply()`` with one call of the playout policy a move, on a view: the figure to hold
against the iterations column.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import random
import time
from collections.abc import Iterator
from typing import Any

import boneyard
from boneyard import compiled
from boneyard.bots.greedy import policy
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.profile import profile_module

ITERATIONS = 20


def positions(game_id: str, count: int, seed: int = 1) -> list[tuple[dict[str, Any], tuple[Any, ...]]]:
    """Views and legal actions of real decisions (more than one choice) from greedy play."""
    greedy = boneyard.bot("greedy")
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], tuple[Any, ...]]] = []
    game = boneyard.new_game(game_id, seed=seed)
    while len(out) < count:
        if game.is_over:
            seed += 1
            game = boneyard.new_game(game_id, seed=seed)
        seat = game.current_player
        legal = game.legal_actions()
        view = game.view(seat)
        if len(legal) > 1 and rng.random() < 0.3:
            out.append((view, legal))
        game.apply(greedy.choose(view, legal, rng))
    return out


@contextlib.contextmanager
def engine_playouts(game_id: str) -> Iterator[bool]:
    """Switch off a game's own compiled playouts for a while; yields whether it had any.

    The profile's fast paths (``outcomes``, ``finish``) go, wherever the profile lives
    (``bots/profiles/<id>.py``, else the greedy module), and the greedy module's compiled
    handles too, so that greedy's own moves run through the engine as well.
    """
    module = policy(game_id)
    home = profile_module(game_id)
    prof = getattr(home, "PROFILE", None)
    names = ("COMPILED", "_compiled")
    saved = {name: getattr(module, name) for name in names if hasattr(module, name)}
    own = prof is not None and (prof.outcomes is not None or prof.finish is not None)
    had = own and bool(saved.get("COMPILED", True))
    try:
        if prof is not None:
            home.PROFILE = dataclasses.replace(prof, outcomes=None, finish=None)
        for name, off in (("COMPILED", False), ("_compiled", None)):
            if name in saved:
                setattr(module, name, off)
        yield had
    finally:
        if prof is not None:
            home.PROFILE = prof
        for name, value in saved.items():
            setattr(module, name, value)


def iteration_ms(spots: list[tuple[dict[str, Any], tuple[Any, ...]]]) -> tuple[float, float]:
    """(CPU ms, wall ms) per ismcts iteration over these positions."""
    rng = random.Random(0)
    search = IsmctsBot(iterations=ITERATIONS)
    cpu_total = wall_total = 0.0
    runs = 0
    for view, legal in spots:
        cpu, wall = time.process_time(), time.perf_counter()
        search.choose(view, legal, rng)
        if search.last_iterations:
            cpu_total += time.process_time() - cpu
            wall_total += time.perf_counter() - wall
            runs += search.last_iterations
    runs = max(runs, 1)
    return cpu_total * 1000 / runs, wall_total * 1000 / runs


def measure(game_id: str, decisions: int) -> tuple[float, float, float, float, float]:
    """Greedy (CPU ms, wall ms) per decision, ismcts (CPU ms, wall ms) per iteration, and the
    CPU ms of an iteration whose playout goes through the engine."""
    spots = positions(game_id, decisions)
    greedy = boneyard.bot("greedy")
    rng = random.Random(0)
    cpu, wall = time.process_time(), time.perf_counter()
    for view, legal in spots:
        greedy.choose(view, legal, rng)
    g_cpu = (time.process_time() - cpu) * 1000 / len(spots)
    g_wall = (time.perf_counter() - wall) * 1000 / len(spots)
    i_cpu, i_wall = iteration_ms(spots)
    with engine_playouts(game_id) as had:
        e_cpu = iteration_ms(spots)[0] if had else i_cpu
    return g_cpu, g_wall, i_cpu, i_wall, e_cpu


def main() -> None:
    """Print the figures for every registered game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=30, help="positions measured per game")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    args = parser.parse_args()
    chosen = [g for g in args.games.split(",") if g] or list(boneyard.games())
    unknown = sorted(set(chosen) - set(boneyard.games()))
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}; choose from {', '.join(boneyard.games())}")
    print(f"engines: {compiled.describe()}")
    print(f"{'game':10} {'greedy ms/decision':>20} {'ismcts ms/iteration':>20} {'iterations in 200 ms':>21} "
          f"{'engine playouts in 200 ms':>26}")
    print(f"{'':10} {'cpu (wall)':>20} {'cpu (wall)':>20} {'(by cpu)':>21} {'(by cpu)':>26}")
    for game_id in chosen:
        g_cpu, g_wall, i_cpu, i_wall, e_cpu = measure(game_id, args.decisions)
        print(f"{game_id:10} {f'{g_cpu:.2f} ({g_wall:.2f})':>20} {f'{i_cpu:.2f} ({i_wall:.2f})':>20} "
              f"{200 / i_cpu:>21,.0f} {200 / e_cpu:>26,.0f}")


if __name__ == "__main__":
    main()
