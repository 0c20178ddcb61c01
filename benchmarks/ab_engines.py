"""Before and after: random-play speed of two checkouts of boneyard, interleaved.

Run: ``python benchmarks/ab_engines.py --before PATH [--after PATH] [--games a,b]
[--rounds N] [--seconds S]``. ``PATH`` is a source tree of boneyard with its engines
built in place (``python hatch_build.py`` there); ``--after`` defaults to this checkout.
Each round plays every game's random play (``legal_actions()`` and ``apply()``, the
default player count, the loop of ``peers.py``) in a fresh subprocess importing one tree,
then the other, alternating which goes first, and reports moves per CPU second (so that
other work on a shared machine counts less than in wall time), the medians and the
after / before ratio of each round. Each subprocess says which engines it ran (compiled
or pure Python): a comparison is only fair between two builds of the same kind.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Run in the subprocess: the tree under test is first on sys.path (PYTHONPATH).
PROBE = """
import json, random, sys, time
import boneyard
from boneyard import compiled
game_id, seconds = sys.argv[1], float(sys.argv[2])
rng = random.Random(1)
moves = seed = 0
start = time.process_time()
deadline = start + seconds
while time.process_time() < deadline:
    game = boneyard.new_game(game_id, seed=seed)
    seed += 1
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        moves += 1
print(json.dumps({"rate": moves / (time.process_time() - start), "engines": compiled.describe(),
                  "from": boneyard.__file__}))
"""


def measure(tree: Path, game_id: str, seconds: float) -> tuple[float, str]:
    """One subprocess's random play of ``game_id`` from ``tree``: its moves per CPU second and engines."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", PROBE, game_id, str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if not str(result["from"]).startswith(str(tree)):
        raise SystemExit(f"{tree}: the subprocess imported boneyard from {result['from']}, not from this tree")
    return float(result["rate"]), str(result["engines"])


def main() -> None:
    """Measure both trees, round by round, and print one Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="the tree measured as 'before'")
    parser.add_argument("--after", type=Path, default=HERE.parent, help="the tree measured as 'after' (this one)")
    parser.add_argument("--games", default="rounce,twobox", help="comma-separated game ids (default rounce,twobox)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement (default 2)")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for name, tree in trees.items():
        if not (tree / "boneyard" / "__init__.py").exists():
            parser.error(f"--{name} {tree}: not a boneyard source tree")
    games = [g for g in args.games.split(",") if g]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.2f} at the start; {args.rounds} rounds of {args.seconds:g} CPU s per figure")
    rows = []
    for game_id in games:
        rates: dict[str, list[float]] = {"before": [], "after": []}
        engines: dict[str, str] = {}
        for r in range(args.rounds):
            order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
            for name in order:
                print(f"  round {r + 1}/{args.rounds}: {game_id} {name}...", file=sys.stderr)
                rate, engines[name] = measure(trees[name], game_id, args.seconds)
                rates[name].append(rate)
        ratios = [a / b for a, b in zip(rates["after"], rates["before"], strict=True)]
        rows.append(
            f"| {game_id} | {statistics.median(rates['before']):,.0f} | {statistics.median(rates['after']):,.0f} "
            f"| {min(ratios):.2f}× | {statistics.median(ratios):.2f}× | {engines['before']} / {engines['after']} |"
        )
    print()
    print("| game | before moves/CPU s (median) | after moves/CPU s (median) | after ÷ before min | median | engines |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
