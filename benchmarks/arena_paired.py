"""Two arena runs on the same deals, compared deal by deal: is a bot now stronger or weaker?

Run: ``.venv/bin/python benchmarks/arena_paired.py BEFORE.json AFTER.json [BEFORE2.json
AFTER2.json ...] [--bot LABEL]``, where each pair of files is ``boneyard arena ... --json
FILE`` of the same game, players, rules, bots and seed, made by two trees (the commit
before a change and after it) side by side. The arena deals its games from the seed, so
the two runs of a pair meet the same deals; a deal's seat orders are averaged first, then
each deal gives one difference (after less before) of the bot's win share and score
margin. Several pairs, each with a seed of its own, are pooled deal by deal: a long arena
can be played in pieces (two runs of 200 games with seeds 2501 and 2502 count as one of
400), so a piece that finished is kept when a later one is cut short. A report may be
gzipped (``.json.gz``) and may leave out the games' records, which the pairing does not
read (``benchmarks/arenas/`` keeps such pieces). The table prints both runs' means over the
deals they share and the mean difference with its 95% Student-t interval
(``boneyard.bots.arena.mean_interval``, as the arena's own tables). Pairing by deal
takes out the luck of the tiles, which two runs' separate intervals each still carry.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from boneyard.api import game_class
from boneyard.bots.arena import game_outcome, mean_interval

SAME = ("game", "players", "rules", "bots", "seed")  # what both runs must share to meet the same deals


def load(path: str) -> dict[str, Any]:
    """An arena report, or a clear exit naming the file and what is wrong with it."""
    try:
        raw = Path(path).read_bytes()
        report = json.loads(gzip.decompress(raw) if path.endswith(".gz") else raw)
    except (OSError, ValueError) as err:
        raise SystemExit(f"{path}: not an arena report ({err})") from None
    if not isinstance(report, dict) or not isinstance(report.get("results"), list):
        raise SystemExit(f"{path}: not an arena report (no 'results' list; made by boneyard arena --json?)")
    return report


def per_deal(report: Mapping[str, Any], label: str) -> dict[int, tuple[float, float]]:
    """The bot's mean (win share, margin) per deal, over the deal's seat orders."""
    lower = bool(game_class(report["game"]).lower_is_better)
    found: dict[int, list[tuple[float, float]]] = {}
    for result in report["results"]:
        if label in result["seats"]:
            win, margin, _ = game_outcome(result, label, lower)
            found.setdefault(int(result["deal"]), []).append((win, margin))
    return {
        deal: (statistics.fmean(w for w, _ in rows), statistics.fmean(m for _, m in rows))
        for deal, rows in found.items()
    }


def compare(before: Mapping[str, Any], after: Mapping[str, Any], label: str | None = None) -> dict[str, Any]:
    """Both runs' means over their common deals and the paired difference, for win share and margin.

    ``label``: the bot compared (default: the first bot of the runs). ``ValueError``
    naming the difference when the runs did not play the same deals or share no deal.
    """
    return compare_pairs([(before, after)], label)


def compare_pairs(pairs: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]],
                  label: str | None = None) -> dict[str, Any]:
    """``compare`` over several pairs of runs pooled deal by deal, each pair with a seed of its own.

    A deal is known by its pair's seed and its number, so pieces of one long arena add up
    to it. ``ValueError`` naming the difference when a pair's runs did not play the same
    deals, when the pairs are of different games, players, rules or bots, or when two
    pairs share a seed (their deals would count twice).
    """
    if not pairs:
        raise ValueError("no runs to compare")
    first = pairs[0][0]
    seeds: set[Any] = set()
    for before, after in pairs:
        for key in SAME:
            if before.get(key) != after.get(key):
                raise ValueError(f"the runs differ in {key}: {before.get(key)!r} and {after.get(key)!r}")
        for key in (key for key in SAME if key != "seed"):
            if before.get(key) != first.get(key):
                raise ValueError(f"the pairs differ in {key}: {first.get(key)!r} and {before.get(key)!r}")
        if before.get("seed") in seeds:
            raise ValueError(f"two pairs share seed {before.get('seed')!r}: their deals would count twice")
        seeds.add(before.get("seed"))
    bots = list(first["bots"])
    label = label if label is not None else bots[0]
    if label not in bots:
        raise ValueError(f"no bot {label!r} in these runs (bots: {', '.join(bots)})")
    a: dict[tuple[Any, int], tuple[float, float]] = {}
    b: dict[tuple[Any, int], tuple[float, float]] = {}
    for before, after in pairs:
        seed = before.get("seed")
        a.update({(seed, deal): found for deal, found in per_deal(before, label).items()})
        b.update({(seed, deal): found for deal, found in per_deal(after, label).items()})
    deals = sorted(set(a) & set(b))
    if not deals:
        raise ValueError("the runs share no finished deal")
    rows = {}
    for i, name in ((0, "win_rate"), (1, "margin")):
        diff = mean_interval([b[d][i] - a[d][i] for d in deals])
        rows[name] = {
            "before": statistics.fmean(a[d][i] for d in deals),
            "after": statistics.fmean(b[d][i] for d in deals),
            "difference": diff[0],
            "interval": [diff[1], diff[2]],
        }
    return {"bot": label, "game": first["game"], "deals": len(deals), "seeds": len(pairs), **rows}


def main() -> None:
    """Print the paired comparison of one or more pairs of arena reports, pooled deal by deal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", metavar="BEFORE AFTER",
                        help="pairs of arena reports (--json): the tree before the change, then the tree "
                             "after it, same game, bots and seed; more pairs, each with its own seed, are pooled")
    parser.add_argument("--bot", default=None, help="the bot compared (default: the runs' first bot)")
    args = parser.parse_args()
    if len(args.runs) % 2:
        parser.error(f"give the reports in pairs, before then after: {len(args.runs)} is an odd count")
    reports = [load(path) for path in args.runs]
    try:
        found = compare_pairs(list(zip(reports[::2], reports[1::2], strict=True)), args.bot)
    except ValueError as err:
        raise SystemExit(f"cannot pair these runs: {err}") from None
    pieces = f" ({found['seeds']} seeds pooled)" if found["seeds"] > 1 else ""
    print(f"{found['game']}: {found['bot']} against the same opponents, {found['deals']} deals in both runs{pieces}")
    print(f"{'':10} {'before':>8} {'after':>8} {'after less before, paired by deal':>36}")
    for name, digits in (("win_rate", 3), ("margin", 2)):
        row = found[name]
        low, high = row["interval"]
        print(f"{name:10} {row['before']:>8.{digits}f} {row['after']:>8.{digits}f} "
              f"{row['difference']:>+19.{digits}f} [{low:+.{digits}f}, {high:+.{digits}f}]")


if __name__ == "__main__":
    main()
