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

``--before PATH`` (a tree built in place, such as the commit before a change) or
``--base REV`` (a revision of this repository, exported and built as
``benchmarks/before_after.py`` does) measures that tree beside this checkout in the same
run: for every game, ``--rounds`` rounds, each tree in a fresh subprocess importing it
(``PYTHONPATH``), alternating which goes first, so that the machine's load weighs on both
alike. It prints each tree's median iterations in a 200 ms decision and greedy's ms a
decision, and the median of the per-round ratios after ÷ before with their range.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boneyard
from boneyard import compiled
from boneyard.bots.greedy import policy
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.profile import profile_module

ITERATIONS = 20
HERE = Path(__file__).resolve().parent


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


def probe(games: list[str], decisions: int) -> dict[str, Any]:
    """This process's figures for ``games``, against the boneyard that ``import boneyard`` finds (a tree's)."""
    figures: dict[str, Any] = {}
    for game_id in games:
        try:
            figures[game_id] = list(measure(game_id, decisions))
        except Exception as err:  # an API that tree lacks: reported in its cell
            figures[game_id] = f"{type(err).__name__}: {err}"
    return {"engines": compiled.describe(), "figures": figures}


def run_probe(tree: Path, game_id: str, decisions: int) -> list[float] | str:
    """One game's figures measured in a fresh subprocess importing ``tree`` (a failure as its message)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(Path(__file__).resolve()), "--probe", "--games", game_id,
               "--decisions", str(decisions)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tree, timeout=1800)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return f"exit {done.returncode}: {tail[0]}"
    figure: list[float] | str = json.loads(done.stdout)["figures"][game_id]
    return figure


def ratio_cell(after: list[float], before: list[float]) -> str:
    """The median of the per-round ratios after ÷ before, with their range."""
    ratios = [a / b for a, b in zip(after, before, strict=True) if b > 0]
    if not ratios:
        return "-"
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


def sibling(name: str) -> Any:
    """Another script of ``benchmarks/`` (not a package), imported by name: before_after.py's tree helpers."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return __import__(name)


def compare(before: Path, label: str, games: list[str], decisions: int, rounds: int) -> None:
    """Print iterations in a 200 ms decision and greedy's speed, this checkout beside ``before``, interleaved."""
    tree_label = sibling("before_after").tree_label
    after = HERE.parent
    print(f"before: {label}")
    print(f"after:  {tree_label(after)}")
    print(f"{rounds} rounds a game, each tree in a fresh subprocess, alternating which goes first; medians shown")
    print(f"{'game':10} {'iterations in 200 ms, before':>29} {'after':>8} {'after / before':>20} "
          f"{'greedy ms, before':>18} {'after':>7} {'before / after':>20}")
    for game_id in games:
        iters: dict[str, list[float]] = {"before": [], "after": []}
        greedy: dict[str, list[float]] = {"before": [], "after": []}
        failed: dict[str, str] = {}
        for r in range(rounds):
            order = (("before", before), ("after", after)) if r % 2 == 0 else (("after", after), ("before", before))
            for side, tree in order:
                got = run_probe(tree, game_id, decisions)
                if isinstance(got, str):
                    failed[side] = got
                    continue
                iters[side].append(200 / got[2])
                greedy[side].append(got[0])
        if failed:
            print(f"{game_id:10} not measured: " + "; ".join(f"{side}: {why}" for side, why in failed.items()))
            continue
        print(f"{game_id:10} {statistics.median(iters['before']):>29,.0f} {statistics.median(iters['after']):>8,.0f} "
              f"{ratio_cell(iters['after'], iters['before']):>20} {statistics.median(greedy['before']):>18.2f} "
              f"{statistics.median(greedy['after']):>7.2f} {ratio_cell(greedy['before'], greedy['after']):>20}")


def main() -> None:
    """Print the figures for every registered game, or this checkout's beside another tree's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=30, help="positions measured per game")
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    side = parser.add_mutually_exclusive_group()
    side.add_argument("--before", type=Path, help="a tree built in place, measured beside this checkout")
    side.add_argument("--base", metavar="REV", help="a revision of this repository: exported, built, measured")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per game with --before or --base (default 3)")
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)  # one tree's figures, as JSON
    args = parser.parse_args()
    chosen = [g for g in args.games.split(",") if g] or list(boneyard.games())
    unknown = sorted(set(chosen) - set(boneyard.games()))
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}; choose from {', '.join(boneyard.games())}")
    if args.rounds < 1 or args.decisions < 1:
        parser.error("--rounds and --decisions must be at least 1")
    if args.probe:
        print(json.dumps(probe(chosen, args.decisions)))
        return
    if args.before is not None or args.base is not None:
        helpers = sibling("before_after")
        if args.before is not None:
            if not (args.before / "boneyard").is_dir():
                parser.error(f"--before {args.before}: no boneyard package there")
            tree = args.before.resolve()
            compare(tree, helpers.tree_label(tree), chosen, args.decisions, args.rounds)
        else:
            with helpers.base_tree(args.base, keep=False) as (tree, label):
                compare(tree, label, chosen, args.decisions, args.rounds)
        return
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
