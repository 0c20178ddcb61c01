"""Which of a search's Rounce calls gain or lose points against greedy's, read from arena records.

``boneyard arena rounce --bots ismcts:ms=200,greedy --json FILE`` keeps every game's record.
This script replays them. At each call, discard and defend decision of a seat that greedy
did not play, where the bot chose otherwise than greedy would have, both choices are
played out from the *real* deal (every hidden tile as it was), greedy deciding for every
seat from there to the hand's end. The difference in the seat's margin (points off its
score less the mean of the other seats') is the value of the bot's choice over greedy's,
with the later play held equal. It prints, per pair of choices, how often it happened,
the mean difference with a 95% interval, and the total per game.

With ``--samplers K`` it also judges the search's sampled worlds where the choice matters
most, the dealer's call when the dealer may defend: the value of playing on (``pass``)
less defending, on the real deal and averaged over K worlds drawn from the view by the
uniform sampler (``sample_game``) and by the sampler with the other seats' calls
replayed (the profile's ``explain``): the closer a sampler's mean lies to the real deal's, the
better the search's judgement of that call can be. The real deals are read here, and only
here, to judge: no bot ever sees them.

Run: ``.venv/bin/python benchmarks/rounce_calls.py FILE.json [FILE.json ...] [--samplers K]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from collections import defaultdict
from typing import Any

from rich.progress import track

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.inference import Inference

PHASES = ("call", "discard", "defend")
_GREEDY = GreedyBot()


def margin_after(game: Any, action: str, seat: int) -> float:
    """The seat's margin over the rest of the hand after ``action``, greedy playing every seat on."""
    copy = game.clone()
    before = list(copy.scores)
    copy.apply(action)
    hand = game.hand_number
    while not copy.is_over and copy.hand_number == hand:
        mover = copy.current_player
        copy.apply(_GREEDY.choose(copy.view(mover), copy.legal_actions(), random.Random(0)))
    gains = [after - was for after, was in zip(copy.scores, before, strict=True)]
    others = statistics.fmean(g for s, g in enumerate(gains) if s != seat)
    return -(gains[seat] - others)  # points off are good in Rounce


def decisions(paths: list[str]) -> tuple[list[tuple[Any, int, str, str]], int]:
    """Every searched call-phase decision as (game before it, seat, greedy's choice, the bot's), and the games read."""
    found: list[tuple[Any, int, str, str]] = []
    games = 0
    for path in paths:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
        if data["game"] != "rounce":
            raise SystemExit(f"{path}: a {data['game']} arena; this script reads Rounce records")
        for result in data["results"]:
            games += 1
            record, seats = result["record"], result["seats"]
            game = boneyard.new_game("rounce", players=record["players"], seed=record["seed"], rules=record["rules"])
            for action in record["actions"]:
                seat = game.current_player
                view = game.view(seat)
                legal = game.legal_actions()
                if seats[seat] != "greedy" and view["phase"] in PHASES and len(legal) > 1:
                    mine = str(_GREEDY.choose(view, legal, random.Random(0)))
                    found.append((game.clone(), seat, mine, action))
                game.apply(action)
    return found, games


def calls_table(found: list[tuple[Any, int, str, str]], games: int) -> None:
    """Print the value of each kind of departure from greedy's choice."""
    diffs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for game, seat, mine, theirs in track(found, description="calls played out"):
        if mine != theirs:
            kind = ("discard", "another discard") if mine.startswith("discard") else (mine, theirs)
            diffs[kind].append(margin_after(game, theirs, seat) - margin_after(game, mine, seat))
    print(f"\n{games} games, {len(found)} searched decisions, {sum(map(len, diffs.values()))} unlike greedy's")
    print("| greedy's choice | the bot's | times | bot less greedy, points a time | total a game |")
    print("| --- | --- | ---: | ---: | ---: |")
    for (mine, theirs), values in sorted(diffs.items(), key=lambda kv: -len(kv[1])):
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
        print(f"| {mine} | {theirs} | {len(values)} | {mean:+.2f} ± {half:.2f} | {sum(values) / games:+.2f} |")


def samplers_table(found: list[tuple[Any, int, str, str]], worlds: int, seed: int) -> None:
    """Print the value of playing on over defending: real deal against each sampler's mean."""
    rows: dict[str, list[float]] = {"real deal": [], "uniform": [], "calls replayed": []}
    spots = [(g, s) for g, s, _, _ in found if {"pass", "defend"} <= {str(a) for a in g.legal_actions()}]
    for game, seat in track(spots, description="defend decisions judged"):
        view = game.view(seat)
        rows["real deal"].append(margin_after(game, "pass", seat) - margin_after(game, "defend", seat))
        for name, explain in (("uniform", False), ("calls replayed", True)):
            sampler = Inference(view, 0, explain=explain)
            rng = random.Random(seed)
            values = []
            for _ in range(worlds):
                world = sampler.draw(rng)
                values.append(margin_after(world, "pass", seat) - margin_after(world, "defend", seat))
            rows[name].append(statistics.fmean(values))
    if not spots:
        print("\nno decision where the dealer may defend")
        return
    truth = rows["real deal"]
    print(f"\n{len(spots)} dealer's decisions where he may defend; playing on less defending, points", end="")
    print(f" ({worlds} worlds each)")
    print("| worlds from | mean | correlation with the real deal's |")
    print("| --- | ---: | ---: |")
    for name, values in rows.items():
        corr = "-" if name == "real deal" else f"{statistics.correlation(values, truth):.2f}"
        print(f"| {name} | {statistics.fmean(values):+.2f} | {corr} |")


def main() -> None:
    """Read the records named on the command line and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="arena --json files of Rounce games")
    parser.add_argument("--samplers", type=int, default=0, metavar="K", help="also judge the samplers on K worlds")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    found, games = decisions(args.files)
    calls_table(found, games)
    if args.samplers:
        samplers_table(found, args.samplers, args.seed)


if __name__ == "__main__":
    main()
