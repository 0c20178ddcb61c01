"""Bot choices in two trees of boneyard: do ``greedy`` and ``ismcts`` choose the same?

A change that only moves what the bots read (a view's history lines became typed events)
must leave their choices as they were. This script asks the bots of two trees the same
questions and counts the answers that agree:

1. **Positions.** Seeded random play of every game (random legal actions from fixed
   seeds, so that the positions depend only on the rules) stops at sampled decisions
   with a choice, and keeps each by its *record* (game, players, seed, rules and the
   actions so far): a position any tree can rebuild, whatever its views look like. The
   records are made by the ``--after`` tree.
2. **Choices.** Each tree, in a fresh subprocess whose ``PYTHONPATH`` is that tree,
   replays every record and asks each bot for its choice at the seat to act, from that
   seat's view, with a generator seeded by the position's number (the same in both
   trees). ``ismcts`` runs a fixed number of iterations (``--iterations``), never a time
   budget, so the work is the same in both trees.
3. **Montana's reading.** For Montana the trees are also asked what the claim windows
   proved each other seat holds (``held_requirements`` of the seat to act), and
   ``ismcts`` is asked once more with that reading switched on (``explain=1``; off by
   default, so the plain ``ismcts`` row never reads it).

Printed: per game and bot, how many choices agree out of the positions asked, and the
first few that differ (the position, the seat, each tree's choice). A tree that cannot
replay a record or whose legal actions differ there is reported, not compared.

Run::

    python benchmarks/bots_ab.py --tree /path/to/before [--after PATH] [--games a,b]
                                 [--positions N] [--iterations K] [--seed S] [--show N]

``--tree`` is a built tree (compiled engines in place, e.g. from ``before_after.py
--keep-base``); ``--after`` defaults to this checkout as it is.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GAMES = ("montana", "twobox", "rummikub", "eighty", "rounce")
SHARE = 0.1  # chance that a decision with a choice is kept as a position
PER_GAME = 20  # positions kept from one seeded game at most, so that they come from many deals
READING = "montana reading"  # the row of Montana's held requirements


def bot_specs(game_id: str, iterations: int) -> list[str]:
    """The bots asked in ``game_id``: greedy, ismcts at ``iterations`` and, for Montana, ismcts reading the windows."""
    specs = ["greedy", f"ismcts:iterations={iterations}"]
    if game_id == "montana":
        specs.append(f"ismcts:iterations={iterations}:explain=1")
    return specs


# ----- the probes: run in a subprocess, against the tree on PYTHONPATH -------------------


def make_positions(game_id: str, count: int, seed: int) -> list[dict[str, Any]]:
    """The records of ``count`` decisions with a choice, from seeded random play of ``game_id``.

    Game ``k`` is dealt with seed ``seed + k`` and played by ``random.Random(seed + k)``;
    at most :data:`PER_GAME` positions come from one game.
    """
    import boneyard

    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < count:
        game = boneyard.new_game(game_id, seed=seed + k)
        rng = random.Random(seed + k)
        k += 1
        kept = 0
        while not game.is_over and kept < PER_GAME and len(out) < count:
            legal = list(game.legal_actions())
            if len(legal) > 1 and rng.random() < SHARE:
                out.append(game.record())
                kept += 1
            game.apply(legal[rng.randrange(len(legal))])
    return out


def _requirements(found: Mapping[int, Sequence[Sequence[Mapping[Any, int]]]]) -> dict[str, Any]:
    """Montana's held requirements as plain data: per seat, per requirement, its options' tiles (counts > 0)."""
    return {
        str(seat): [[sorted((str(t), k) for t, k in option.items() if k > 0) for option in req] for req in reqs]
        for seat, reqs in sorted(found.items())
    }


def choose_all(game_id: str, records: list[dict[str, Any]], specs: list[str]) -> dict[str, Any]:
    """Every bot's choice at every record's position, in this process's boneyard.

    Returns where boneyard came from, the engines that ran, each position's legal actions
    (to check that the trees ask the same question) and, per bot, its choices as text (or
    ``error: ...`` when a position cannot be replayed or the bot fails); for Montana, the
    reading row too.
    """
    import boneyard
    from boneyard import compiled
    from boneyard.bots.spec import parse_bot_spec

    bots = {spec: parse_bot_spec(spec).make() for spec in specs}
    out: dict[str, Any] = {"from": boneyard.__file__, "engines": compiled.describe(), "legal": []}
    choices: dict[str, list[str]] = {spec: [] for spec in specs}
    if game_id == "montana":
        choices[READING] = []
    for i, record in enumerate(records):
        try:
            game = boneyard.replay(record)
        except Exception as err:  # a record this tree cannot replay: its rules differ
            out["legal"].append(None)
            for row in choices.values():
                row.append(f"error: {type(err).__name__}: {err}")
            continue
        seat = game.current_player
        legal = list(game.legal_actions())
        out["legal"].append([str(a) for a in legal])
        for spec, bot in bots.items():
            try:
                choices[spec].append(str(bot.choose(game.view(seat), legal, random.Random(i))))
            except Exception as err:  # a bot that fails in one tree is a difference to show
                choices[spec].append(f"error: {type(err).__name__}: {err}")
        if game_id == "montana":
            try:  # the reading's module (in a tree from before the split, the greedy module)
                from boneyard.bots.montana import reading
            except ImportError:
                from boneyard.bots.greedy import montana as reading  # type: ignore[no-redef]
            choices[READING].append(json.dumps(_requirements(reading.held_requirements(game.view(seat)))))
    out["choices"] = choices
    return out


# ----- the comparison --------------------------------------------------------------------


def run_probe(tree: Path, request: dict[str, Any], timeout: float) -> dict[str, Any]:
    """One probe in a fresh interpreter whose ``PYTHONPATH`` is ``tree``; exits naming the tree if it fails.

    ``-P`` keeps this script's folder off ``sys.path``, so that ``import boneyard`` finds
    the tree's; the request goes in on stdin (records are long), the answer comes back as
    the last line of stdout.
    """
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONWARNINGS="ignore")
    command = [sys.executable, "-P", str(Path(__file__).resolve()), "--probe"]
    done = subprocess.run(
        command, input=json.dumps(request), env=env, capture_output=True, text=True, cwd=tree, timeout=timeout
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{tree}: the probe failed (exit {done.returncode}):\n{done.stderr.strip()[-2000:]}")
    answer: dict[str, Any] = json.loads(lines[-1])
    if "from" in answer and not str(answer["from"]).startswith(str(tree)):
        raise SystemExit(f"{tree}: the probe imported boneyard from {answer['from']}, not from this tree")
    return answer


def probe(request: dict[str, Any]) -> dict[str, Any]:
    """What a probe subprocess does with its request: make positions, or ask the bots."""
    if request["do"] == "positions":
        import boneyard

        records = make_positions(request["game"], request["count"], request["seed"])
        return {"from": boneyard.__file__, "records": records}
    return choose_all(request["game"], request["records"], request["specs"])


def compare(
    game_id: str, records: list[dict[str, Any]], before: dict[str, Any], after: dict[str, Any], show: int
) -> list[str]:
    """The report's lines for one game: per bot, choices that agree of those comparable, and the first differences."""
    same_question = [b is not None and b == a for b, a in zip(before["legal"], after["legal"], strict=True)]
    lines = [
        f"{game_id}: {len(records)} positions, legal actions the same in {sum(same_question)}"
        f" ({before['engines']} / {after['engines']})"
    ]
    for row in after["choices"]:
        pairs = [
            (i, b, a)
            for i, (b, a) in enumerate(zip(before["choices"][row], after["choices"][row], strict=True))
            if same_question[i]
        ]
        agree = sum(b == a for _, b, a in pairs)
        share = 100 * agree / len(pairs) if pairs else 0.0
        line = f"  {row:<34} {agree:>5} / {len(pairs):<5} agree ({share:.1f}%)"
        if row == READING:  # how many positions had anything to read: the agreement's weight
            line += f", {sum(a != '{}' for _, _, a in pairs)} with a seat read"
        lines.append(line)
        for i, b, a in [p for p in pairs if p[1] != p[2]][:show]:
            record = records[i]
            lines.append(f"    position {i} (seed {record['seed']}, action {len(record['actions'])}):")
            lines.append(f"      before: {b}")
            lines.append(f"      after:  {a}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, make the positions, ask both trees, print the agreement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--probe", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help="the built tree to compare with (its PYTHONPATH)")
    parser.add_argument("--after", type=Path, default=REPO, help="the other tree (default: this checkout)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--positions", type=int, default=200, help="positions per game")
    parser.add_argument("--iterations", type=int, default=100, help="ismcts iterations per decision")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--show", type=int, default=3, help="differences shown per game and bot")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds one probe may run")
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(json.load(sys.stdin))))
        return 0
    if args.tree is None:
        parser.error("--tree PATH is required: the built tree to compare with")
    trees = [args.tree.resolve(), args.after.resolve()]
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    print(f"before: {trees[0]}\nafter:  {trees[1]}")
    print(f"{args.positions} positions a game from seed {args.seed}; ismcts at {args.iterations} iterations\n")
    failed = False
    with ThreadPoolExecutor(max_workers=2) as pool:
        for game_id in games:
            made = run_probe(
                trees[1],
                {"do": "positions", "game": game_id, "count": args.positions, "seed": args.seed},
                args.timeout,
            )
            request = {
                "do": "choose",
                "game": game_id,
                "records": made["records"],
                "specs": bot_specs(game_id, args.iterations),
            }
            before, after = pool.map(run_probe, trees, [request] * 2, [args.timeout] * 2)
            lines = compare(game_id, made["records"], before, after, args.show)
            failed |= any("agree (100.0%)" not in line for line in lines[1:] if "agree" in line)
            print("\n".join(lines), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
