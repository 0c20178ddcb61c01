"""How far from going out real Montana hands are, against the hands the sampler deals.

The search's sampler deals the other seats' hidden tiles uniformly within what the rules
prove. Real players keep what fits and throw the rest, so their hands are nearer to going
out than a uniform deal. This script measures by how much: it plays greedy self-play
hands (four players, seeded deals) and, at a share of the turns, compares each other
(not ready) seat's real concealed hand with the hands the sampler deals it from the
turn's view, both as tiles away from going out (``hidden_away``), by stage of the hand
(``reading_stage``). It prints both distributions and the ratio real / sampled per stage,
smoothed, as the ``AWAY_WEIGHTS`` table that ``boneyard/bots/montana/reading.py`` holds
(``seat_weight`` reads it; ``ismcts:infer=N`` switches that inference on). The real hands
are read from the game here, and only here, to build the table: no bot ever sees them.

Run: ``.venv/bin/python benchmarks/montana_reading.py [--games N] [--samples K] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from rich.progress import track

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.montana.reading import READING_AWAY, READING_STAGES, hidden_away, reading_stage

SHARE = 0.2  # of the turns a comparison is made at
SMOOTHING = 0.5  # added to every count before the shares are taken
MIN_COUNT = 100  # sampled hands below which a cell is too rare to judge: weight 1
CLIP = (0.02, 20.0)  # the weights' range: no hand impossible, none overwhelming


def measure(games: int, samples: int, seed: int) -> tuple[list[Counter[int]], list[Counter[int]]]:
    """Counts of tiles away, per stage: the real hands' and the sampled hands'."""
    real = [Counter[int]() for _ in range(READING_STAGES)]
    dealt = [Counter[int]() for _ in range(READING_STAGES)]
    greedy = GreedyBot()
    rng = random.Random(seed)
    for g_index in track(range(games), description="montana hands"):
        game = boneyard.new_game("montana", players=4, seed=seed * 100_000 + g_index)
        hand = game.hand_number
        while not game.is_over and game.hand_number == hand:
            legal = game.legal_actions()
            mover = game.current_player
            view = game.view(mover)
            if view["phase"] == "turn" and len(legal) > 1 and rng.random() < SHARE:
                stage = reading_stage(view)
                others = [s for s in range(4) if s != mover and not view["ready"][s]]
                for s in others:
                    real[stage][hidden_away(game.hands[s])] += 1
                for _ in range(samples):
                    world = boneyard.sample_game(view, rng)
                    for s in others:
                        dealt[stage][hidden_away(world.hands[s])] += 1
            game.apply(greedy.choose(view, legal, rng))
    return real, dealt


def weights(real: list[Counter[int]], dealt: list[Counter[int]]) -> list[list[float]]:
    """Per stage and tiles away: the real share over the sampled share, smoothed and clipped."""
    table = []
    for r, d in zip(real, dealt, strict=True):
        r_total = sum(r.values()) + SMOOTHING * READING_AWAY
        d_total = sum(d.values()) + SMOOTHING * READING_AWAY
        row = []
        for a in range(READING_AWAY):
            if d[a] < MIN_COUNT:
                row.append(1.0)
                continue
            ratio = ((r[a] + SMOOTHING) / r_total) / ((d[a] + SMOOTHING) / d_total)
            row.append(round(min(max(ratio, CLIP[0]), CLIP[1]), 3))
        table.append(row)
    return table


def main() -> None:
    """Measure, print the distributions and the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="greedy self-play hands")
    parser.add_argument("--samples", type=int, default=8, help="sampled worlds per compared turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    real, dealt = measure(args.games, args.samples, args.seed)
    print(f"montana, {args.games} greedy hands, {args.samples} sampled worlds a compared turn")
    print("| stage (pulls) | hands | " + " | ".join(f"{a} away real / dealt" for a in range(READING_AWAY)) + " |")
    print("| --- | ---: |" + " ---: |" * READING_AWAY)
    for stage, (r, d) in enumerate(zip(real, dealt, strict=True)):
        rn, dn = sum(r.values()) or 1, sum(d.values()) or 1
        cells = " | ".join(f"{r[a] / rn:.2f} / {d[a] / dn:.2f}" for a in range(READING_AWAY))
        print(f"| {stage} | {sum(r.values())} | {cells} |")
    table = weights(real, dealt)
    print("AWAY_WEIGHTS = (")
    for row in table:
        print("    (" + ", ".join(f"{w}" for w in row) + "),")
    print(")")


if __name__ == "__main__":
    main()
