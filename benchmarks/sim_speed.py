"""Does ``boneyard simulate`` gain what the compiled engines gain? Both gains, per game, in one run.

For each game (default player count, random bots, one worker) this measures, back to back
and in the same conditions:

- *simulate*: moves per second of a whole ``boneyard.simulate`` run (views where they are
  read, hand tracking, records and the summary included), with the engines as installed
  and with the pure-Python engines (``BONEYARD_PURE_PYTHON=1``, a subprocess);
- *random play*: moves per second of random play through the public API
  (``legal_actions()`` and ``apply()``), the same two ways.

Each gain is compiled ÷ pure within one round; a round alternates which side runs first,
and the report gives each gain's median over the rounds and the ratio of the two medians
(1.00 when simulate passes on the whole gain of the engines). ``benchmarks/peers.py``
(``make bench``) prints this table in ``docs/performance.md``.

Run: ``python benchmarks/sim_speed.py [--rounds R] [--seconds S] [--games rounce,eighty]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import boneyard
from boneyard import compiled

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peers import boneyard_moves  # noqa: E402  (a sibling script, found through HERE)


def simulate_speed(game_id: str, games: int) -> float:
    """Moves per second of one one-worker ``boneyard.simulate`` run of ``games`` random games."""
    started = time.perf_counter()
    result = boneyard.simulate(game_id, games=games, seed=1, workers=1)
    elapsed = time.perf_counter() - started
    return sum(r["decisions"] for r in result.records) / elapsed


def games_for(game_id: str, seconds: float) -> int:
    """How many games make a simulate run of about ``seconds`` here.

    From pilots of growing size, the last taking at least a tenth of ``seconds``: a run's
    fixed cost (checking the options, listing the installed bots: a few milliseconds)
    would make a pilot of a few fast games look slow, and the measured runs too short.
    """
    pilot = 3
    while True:
        started = time.perf_counter()
        boneyard.simulate(game_id, games=pilot, seed=1)
        elapsed = time.perf_counter() - started
        if elapsed >= seconds / 10:
            return max(pilot, round(seconds * pilot / elapsed))
        pilot *= 4


def pure(call: str) -> float:
    """The float printed by ``call`` (a function of this module) in a fresh pure-Python interpreter."""
    code = f"import sys; sys.path.insert(0, {str(HERE)!r}); import sim_speed; print(sim_speed.{call})"
    env = dict(os.environ, BONEYARD_PURE_PYTHON="1")
    env.pop("BONEYARD_REQUIRE_COMPILED", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def warm_simulate_speed(game_id: str, games: int) -> float:
    """``simulate_speed`` after a small warm-up run, as the measuring process is warm."""
    boneyard.simulate(game_id, games=2, seed=2)
    return simulate_speed(game_id, games)


def warm_play_speed(game_id: str, seconds: float) -> float:
    """``boneyard_moves`` after a short warm-up."""
    boneyard_moves(game_id, min(seconds, 0.3))
    return boneyard_moves(game_id, seconds)


def measure(game_id: str, rounds: int, sim_seconds: float, play_seconds: float) -> dict[str, list[float]]:
    """Per round: simulate and random-play moves/s, compiled and pure, each pair back to back."""
    games = games_for(game_id, sim_seconds)
    out: dict[str, list[float]] = {"games": [float(games)], "sim": [], "sim_pure": [], "play": [], "play_pure": []}
    for r in range(rounds):
        print(f"  {game_id}: round {r + 1}/{rounds} ({games} games a simulate run)...", file=sys.stderr)
        pairs = [
            ("sim", lambda: warm_simulate_speed(game_id, games), f"warm_simulate_speed({game_id!r}, {games})"),
            ("play", lambda: warm_play_speed(game_id, play_seconds), f"warm_play_speed({game_id!r}, {play_seconds})"),
        ]
        for key, ours, call in pairs:
            if r % 2:
                out[key + "_pure"].append(pure(call))
                out[key].append(ours())
            else:
                out[key].append(ours())
                out[key + "_pure"].append(pure(call))
    return out


def gains_table(game_ids: list[str], rounds: int, sim_seconds: float, play_seconds: float) -> list[str]:
    """The Markdown table: per game, simulate's gain beside random play's gain, and their ratio."""
    if not compiled.is_compiled():
        return [f"The engines run as pure Python here ({compiled.describe()}): there is no gain to compare."]
    lines = [
        "| game | games a run | simulate moves/s | pure Python | simulate gain | random play moves/s | pure Python "
        "| random play gain | simulate gain ÷ random play gain |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for game_id in game_ids:
        m = measure(game_id, rounds, sim_seconds, play_seconds)
        sim_gain = statistics.median(c / p for c, p in zip(m["sim"], m["sim_pure"], strict=True))
        play_gain = statistics.median(c / p for c, p in zip(m["play"], m["play_pure"], strict=True))
        lines.append(
            f"| {game_id} | {int(m['games'][0])} | {statistics.median(m['sim']):,.0f} | "
            f"{statistics.median(m['sim_pure']):,.0f} | {sim_gain:.2f}× | {statistics.median(m['play']):,.0f} | "
            f"{statistics.median(m['play_pure']):,.0f} | {play_gain:.2f}× | {sim_gain / play_gain:.2f} |"
        )
    return lines


def intro(rounds: int, sim_seconds: float, play_seconds: float) -> list[str]:
    """What the table measures."""
    return [
        f"One worker, random bots, each game's default player count; {rounds} rounds, each a simulate run "
        f"of about {sim_seconds:g} s (records and summary included) and {play_seconds:g} s of random play "
        "through the public API (`legal_actions()` and `apply()`), each run with the engines as installed "
        "and right after (or before: the order alternates) on the pure-Python engines "
        "(`BONEYARD_PURE_PYTHON=1`, a subprocess). A gain is compiled ÷ pure within a round; the medians "
        "are shown. The last column is 1.00 when a simulation passes on the engines' whole gain.",
        "",
    ]


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per game (default 3)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per simulate run (default 3)")
    parser.add_argument("--play-seconds", type=float, default=1.0, help="seconds of random play (default 1)")
    parser.add_argument("--games", default=",".join(boneyard.games()), help="comma-separated game ids")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g]
    unknown = [g for g in games if g not in boneyard.games()]
    if unknown or args.rounds < 1 or args.seconds <= 0 or args.play_seconds <= 0:
        parser.error(f"unknown games: {', '.join(unknown)}" if unknown else "rounds and seconds must be positive")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"engines: {compiled.describe()}; load average {load:.2f} at the start")
    print()
    table = gains_table(games, args.rounds, args.seconds, args.play_seconds)
    print("\n".join([*intro(args.rounds, args.seconds, args.play_seconds), *table]))


if __name__ == "__main__":
    main()
