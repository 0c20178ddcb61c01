"""Seeded A/B of the RL observations of two trees: what changed when history lines became events.

Run::

    python benchmarks/rl_observations_ab.py --before /path/to/built/old/tree [--after PATH]
                                            [--games a,b] [--seeds N] [--steps N] [--players N]
                                            [--rules '{"nello": true}']

Both trees play the same seeded games: at each step the action is chosen by index
(``legal[rng.randrange(len(legal))]``, ``rng = random.Random(seed)``) from the engine's
list, which both engines order alike; the actions played are compared step by step, so a
game that diverges is reported, not compared. At every step every seat's observation
(``boneyard.rl.encoding(game).observe(view)``) is taken in each tree, and the two are
compared byte for byte. Each tree runs in its own subprocess (this script with
``--probe``), with ``PYTHONPATH`` set to it; ``--after`` defaults to this checkout.

A tree whose views carry ``history`` (lines of English) is read the old way: its
encoding's rows of every line the seat saw. A tree whose views carry ``events`` is read
the new way: every event the seat saw (collected step by step through ``events_from``,
so past the views' bound) and the row of each. The report then checks, per game:

- **the rows**: the seat's whole sequence of new rows against the old, event by line.
  Every kind that has an old line must give exactly that line's row; the only
  differences allowed are the ``hand_end`` events of hands that had no closing line (a
  zero row: Montana's won hands, and a two-box hand ended by the target, where the old
  engine wrote only the game-over line) and Montana's ``answers`` (the claim window's
  result: the old combined line gave a row of no meaning). Anything else is a row
  mismatch.
- **the observations**: identical, or different for a cause, the first that applies:

  - *window bounded at a hand start*: the view's events are this hand's and the
    previous hand's end, so the window holds fewer rows than the old window over the
    whole history (the rows it holds are the same);
  - *a new hand_end row*: the ``hand_end`` row of a hand that had no closing line is in
    the window (Montana's won hands, two-box's target);
  - *a Montana claim row*: an ``answers`` row is in the window;
  - *other*: anything else (a block besides the history, or rows the causes above do
    not explain). It must be zero.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
GAMES = ("montana", "twobox", "rummikub", "eighty", "rounce")
WINDOW = 8
BOUNDED = "window bounded at a hand start"
HAND_END = "a new hand_end row"
CLAIM = "a Montana claim row"
OTHER = "other"
CAUSES = (BOUNDED, HAND_END, CLAIM, OTHER)

# ----- the probe: runs in a subprocess, against the tree on PYTHONPATH -------------------


def old_rows(enc: Any, lines: list[str], seat: int) -> list[tuple[int, ...]]:
    """The rows of history lines as an old encoding writes them for ``seat`` (its own reader)."""
    enc._add_lines(lines)
    return [tuple(enc._entries[seat][line]) for line in lines]


def unlined(game_id: str, event: Any) -> bool:
    """Whether an event ends a hand that the old engines closed with no line of its own."""
    if event["kind"] != "hand_end":
        return False
    return (game_id == "montana" and event["winner"] is not None) or (game_id == "twobox" and event["how"] == "target")


def new_row(enc: Any, event: Any, seat: int) -> tuple[int, ...]:
    """The entries an event's row sets for ``seat``, from the encoding's declared row (``Encoding.row``)."""
    from boneyard.rl.encoding import OTHER as OTHER_VERB
    from boneyard.rl.encoding import TEXT_INDEX

    actors, verb, tile = enc.row(event)
    n, verbs = enc.players, enc.verbs
    entries = sorted({(a - seat) % n for a in actors})
    if verb is not None:
        entries.append(n + (len(verbs) if verb == OTHER_VERB else verbs.index(verb)))
    if tile is not None:
        entries.append(n + len(verbs) + 1 + TEXT_INDEX[tile])
    return tuple(entries)


def probe(game_id: str, players: int | None, seeds: int, steps: int, rules: dict[str, Any]) -> dict[str, Any]:
    """Play the seeded games in this tree; every seat's observation at every step, and its rows."""
    import boneyard
    from boneyard.rl import encoding

    enc = encoding(game_id, players, rules)
    n = enc.players
    games = []
    for seed in range(seeds):
        game = boneyard.new_game(game_id, players=n, seed=seed, rules=rules)
        rng = random.Random(seed)
        new = "events" in game.view(0)
        # New trees: every event each seat saw, in order, gathered past the views' bound.
        seen: list[list[Any]] = [[] for _ in range(n)]
        obs: list[list[bytes]] = []
        counts: list[list[tuple[int, int]]] = []  # per step and seat: (events or lines so far, in the view)
        actions: list[str] = []
        for _ in range(steps + 1):
            step_obs, step_counts = [], []
            for seat in range(n):
                view = game.view(seat)
                step_obs.append(enc.observe(view).tobytes())
                if new:
                    events, start = view["events"], view["events_from"]
                    total = start + len(events)
                    seen[seat].extend(events[len(events) - (total - len(seen[seat])) :])
                    step_counts.append((total, len(events)))
                else:
                    step_counts.append((len(view["history"]), len(view["history"])))
            obs.append(step_obs)
            counts.append(step_counts)
            if game.is_over or len(actions) == steps:
                break
            legal = game.legal_actions()
            action = legal[rng.randrange(len(legal))]
            actions.append(str(action))
            game.apply(action)
        if new:
            rows = [[new_row(enc, e, seat) for e in seen[seat]] for seat in range(n)]
            kinds = [[(e["kind"], unlined(game_id, e)) for e in seen[seat]] for seat in range(n)]
        else:
            rows = [old_rows(enc, game.view(seat)["history"], seat) for seat in range(n)]
            kinds = None
        games.append({"seed": seed, "actions": actions, "obs": obs, "counts": counts, "rows": rows, "kinds": kinds})
    return {
        "game": game_id,
        "players": n,
        "history": (enc.off["history"], enc.off["history"] + next(b.size for b in enc.blocks if b.name == "history")),
        "engines": __import__("boneyard.compiled", fromlist=["describe"]).describe(),
        "file": boneyard.__file__,
        "games": games,
    }


# ----- the comparison --------------------------------------------------------------------


def align(new_rows: list[tuple[int, ...]], kinds: list[tuple[str, bool]], old: list[tuple[int, ...]], game_id: str
          ) -> tuple[list[int | None], list[str]]:
    """Match each new event with the old line it replaces (``None``: a hand end that had no line).

    Returns the old index of each event, and the mismatches found (event kind, rows).
    """
    where: list[int | None] = []
    problems: list[str] = []
    j = 0
    for row, (kind, no_line) in zip(new_rows, kinds, strict=True):
        if no_line:
            where.append(None)
            continue
        if j >= len(old):
            problems.append(f"{kind}: no old line left")
            where.append(None)
            continue
        if row != old[j] and not (game_id == "montana" and kind == "answers"):
            problems.append(f"{kind}: row {row} where the old line gave {old[j]}")
        where.append(j)
        j += 1
    if j != len(old):
        problems.append(f"{len(old) - j} old lines have no event")
    return where, problems


def explain(kinds: list[tuple[str, bool]], where: list[int | None], old: list[tuple[int, ...]], old_count: int,
            new_count: int, in_view: int, span: tuple[int, int], a: bytes, b: bytes) -> str:
    """Why two observations differ: the first cause that applies (see the module docstring).

    ``where`` matches the seat's events with the old lines (see :func:`align`, whose
    mismatches are reported apart): with none, the new events read as the old lines
    they replace give the old window exactly, and a new window differs from the old
    one only where it is bounded, holds a won hand's end, or holds a claim result.
    """
    lo, hi = 4 * span[0], 4 * span[1]
    if a[:lo] != b[:lo] or a[hi:] != b[hi:]:
        return OTHER  # a block besides the history window
    as_old = [old[w] for w in where[:new_count] if w is not None]
    if as_old[-WINDOW:] != old[:old_count][-WINDOW:]:
        return OTHER  # the events so far are not the lines so far
    if in_view < min(WINDOW, new_count):
        return BOUNDED
    window = range(max(0, new_count - WINDOW), new_count)
    if any(where[i] is None for i in window):
        return HAND_END
    if any(kinds[i][0] == "answers" for i in window):
        return CLAIM
    return OTHER


def compare(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """Per game: observations compared, identical, differences by cause, row mismatches."""
    game_id, n = after["game"], after["players"]
    causes: Counter[str] = Counter()
    problems: list[str] = []
    compared = identical = diverged = events = 0
    for gb, ga in zip(before["games"], after["games"], strict=True):
        if gb["actions"] != ga["actions"]:
            diverged += 1
            continue
        wheres = []
        for seat in range(n):
            where, found = align(ga["rows"][seat], ga["kinds"][seat], gb["rows"][seat], game_id)
            events += len(where)
            problems += [f"seed {ga['seed']} seat {seat}: {p}" for p in found]
            wheres.append(where)
        for step, (ob, oa) in enumerate(zip(gb["obs"], ga["obs"], strict=True)):
            for seat in range(n):
                compared += 1
                if ob[seat] == oa[seat]:
                    identical += 1
                    continue
                old_count = gb["counts"][step][seat][0]
                new_count, in_view = ga["counts"][step][seat]
                causes[explain(ga["kinds"][seat], wheres[seat], gb["rows"][seat], old_count, new_count,
                               in_view, after["history"], ob[seat], oa[seat])] += 1
    return {"compared": compared, "identical": identical, "causes": causes, "problems": problems,
            "events": events, "diverged": diverged}


def run_probe(tree: Path, game_id: str, args: argparse.Namespace) -> dict[str, Any]:
    """This script as a probe in ``tree``: its pickled result."""
    with tempfile.TemporaryDirectory(prefix="rl-ab-") as tmp:
        out = Path(tmp) / "probe.pickle"
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONWARNINGS": "ignore"}
        cmd = [sys.executable, str(Path(__file__).resolve()), "--probe", game_id, "--seeds", str(args.seeds),
               "--steps", str(args.steps), "--out", str(out)]
        if args.players:
            cmd += ["--players", str(args.players)]
        if args.rules:
            cmd += ["--rules", args.rules]
        subprocess.run(cmd, check=True, cwd=tmp, env=env)
        with out.open("rb") as f:
            result: dict[str, Any] = pickle.load(f)
        return result


def main() -> int:
    """Parse the arguments; run as a probe, or run both trees' probes and print the report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="a built tree of the old observations")
    ap.add_argument("--after", type=Path, default=REPO, help="a built tree of the new ones (default: this checkout)")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--players", type=int, default=0, help="player count (default: each game's standard)")
    ap.add_argument("--seeds", type=int, default=6, help="games per game (seeds 0 to N-1)")
    ap.add_argument("--steps", type=int, default=400, help="actions per game at most")
    ap.add_argument("--rules", default="", help="rules options as JSON (default: each game's defaults)")
    ap.add_argument("--probe", help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.probe:
        result = probe(args.probe, args.players or None, args.seeds, args.steps, json.loads(args.rules or "{}"))
        with args.out.open("wb") as f:
            pickle.dump(result, f)
        return 0
    if args.before is None:
        ap.error("--before PATH (a built tree of the old observations) is required")
    failed = False
    print(f"before: {args.before}\nafter:  {args.after}\nrules:  {args.rules or 'defaults'}\n")
    print(f"{'game':9} {'players':>7} {'compared':>9} {'identical':>10}  " + "  ".join(f"{c:>30}" for c in CAUSES)
          + f"  {'events':>7} {'row mismatches':>15}")
    for game_id in args.games.split(","):
        before = run_probe(args.before, game_id, args)
        after = run_probe(args.after, game_id, args)
        if (before["games"] and before["games"][0]["kinds"] is not None) or after["games"][0]["kinds"] is None:
            ap.error("--before must be a tree with history lines, --after one with events")
        r = compare(before, after)
        print(f"{game_id:9} {after['players']:>7} {r['compared']:>9,} {r['identical']:>10,}  "
              + "  ".join(f"{r['causes'][c]:>30,}" for c in CAUSES)
              + f"  {r['events']:>7,} {len(r['problems']):>15,}")
        for p in r["problems"][:10]:
            print(f"    row mismatch: {p}")
        if r["diverged"]:
            print(f"    {r['diverged']} game(s) diverged (different actions): not compared")
        failed |= bool(r["causes"][OTHER] or r["problems"] or r["diverged"])
    print("\nengines: before", before["engines"], "| after", after["engines"])
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
