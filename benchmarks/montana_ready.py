"""How much play tells about a Montana ready seat's waits, against what the sampler deals.

A ready seat's hand is fixed and one tile from going out, so the tiles it waits on decide
which discards another seat may safely throw. ``benchmarks/hidden_info.py --knows ready``
measures what the ready hands are worth to the search; this script measures how much of
them public play can tell. It plays greedy self-play games (four players, seeded deals)
and, at a share of the turns where another seat is ready, compares that seat's real waits
with the waits of ready hands the sampler deals it from the turn's view. It prints:

- how many of the seats not ready at the same turns were one tile from going out all the
  same (a discard could let them out without warning);
- how often a ready hand waits on a tile the seat itself discarded this hand (the tile it
  threw as it declared ready is one only if it chose not to go out: with that tile the
  hand was complete);
- how many kinds of tile a ready hand waits on;
- three traits of a wait: near a tile the seat discarded (same suit, within two pips),
  copies of it already public, and in a lower suit, each as a share of the waits;
- how well the dealt worlds place the waits, in three forms: as dealt; keeping only
  hands that wait on none of the seat's own discards; and those hands weighted by a
  model (each hand by how much more often real play gives a hand its number of waits,
  and its waits their traits, than the sampler does) fitted on the first half of the
  games and judged on the second. *p(wait)* is the share of the worlds' weight on the
  hands that hold each real wait; *top* the share of views whose likeliest wait kind is a
  real one; *worlds* the effective number of worlds left by the weights (of those drawn).

The real hands are read from the game here, and only here, as a measuring rod.

Run: ``.venv/bin/python benchmarks/montana_ready.py [--games N] [--worlds K] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.progress import track

import boneyard
from boneyard.bots.greedy import GreedyBot
from boneyard.bots.montana import reading as montana_reading
from boneyard.games.montana import analysis
from boneyard.tiles import Tile

SHARE = 0.33  # of the turns with another seat ready a comparison is made at
SMOOTHING = 0.005  # added to every share before a ratio is taken
WAITS_TOLD = 4  # wait kinds told apart (1 to 3, then 4 or more)
Trait = tuple[bool, int, bool]  # near an own discard, copies public (up to 3), lower suit
Model = tuple[dict[int, float], dict[Trait, float]]  # weights by number of wait kinds, by a wait's traits


@dataclass
class Seen:
    """One ready seat at one compared turn: its real waits, the dealt hands' waits, their traits."""

    real: list[Tile]
    dealt: list[list[Tile]]  # the waits of each dealt hand, as dealt
    traits: dict[Tile, Trait]
    own: set[Tile]  # the tiles the seat discarded this hand


def own_discards(view: dict[str, Any]) -> dict[int, set[Tile]]:
    """The tiles each seat chose to discard this hand (not the pulls a ready hand throws)."""
    out: dict[int, set[Tile]] = {}
    for event in montana_reading.hand_events(view):
        if event["kind"] == "discard":
            out.setdefault(int(event["seat"]), set()).add(Tile.parse(event["tile"]))
    return out


def trait(t: Tile, own: set[Tile], public: Counter[str]) -> Trait:
    """A wait's traits: near one of the seat's own discards, its public copies, a lower suit."""
    near = any(d.high == t.high and d != t and abs(d.low - t.low) <= 2 for d in own)
    return near, min(public[str(t)], 3), t.high <= 3


def measure(games: int, worlds: int, seed: int) -> tuple[list[Seen], list[int]]:
    """Play the games and gather every compared ready seat (see the module docstring).

    Also counts, at the same turns, the other seats not ready and how many of those were
    one tile from going out anyway: the seats a discard could let out without a warning.
    """
    greedy = GreedyBot()
    rng = random.Random(seed)
    found: list[Seen] = []
    undeclared = [0, 0]  # seats not ready one tile from going out, seats not ready
    for g_i in track(range(games), description="montana ready hands"):
        game = boneyard.new_game("montana", players=4, seed=seed * 1000 + g_i, rules={"max_hands": 2})
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            legal = game.legal_actions()
            ready = [s for s in range(4) if s != seat and view["ready"][s]]
            if view["phase"] == "turn" and ready and rng.random() < SHARE:
                own = own_discards(view)
                public: Counter[str] = Counter(t for _, t in view["discards"])
                for sets in view["exposed"]:
                    for meld in sets:
                        public.update(meld["tiles"])
                for s in range(4):
                    if s != seat and not view["ready"][s]:
                        undeclared[0] += analysis.is_waiting(game.codes[s])
                        undeclared[1] += 1
                dealt = [boneyard.sample_game(view, rng) for _ in range(worlds)]
                for s in ready:
                    waits = [analysis.waits(w.codes[s]) for w in dealt]
                    real = analysis.waits(game.codes[s])
                    kinds = {t for w in waits for t in w} | set(real)
                    mine = own.get(s, set())
                    found.append(Seen(real, waits, {t: trait(t, mine, public) for t in kinds}, mine))
            game.apply(greedy.choose(view, legal, rng))
    return found, undeclared


def _ratio(real: Mapping[Any, float], dealt: Mapping[Any, float]) -> dict[Any, float]:
    """Per value, its share among the real counts over its share among the dealt ones, smoothed."""
    r_total = sum(real.values()) or 1.0
    d_total = sum(dealt.values()) or 1.0
    return {
        k: (real.get(k, 0.0) / r_total + SMOOTHING) / (dealt.get(k, 0.0) / d_total + SMOOTHING)
        for k in real.keys() | dealt.keys()
    }


def _kept(seen: Seen) -> list[list[Tile]]:
    """The dealt hands that wait on none of the seat's own discards."""
    return [w for w in seen.dealt if not set(w) & seen.own]


def fit(rows: list[Seen]) -> Model:
    """The model's two tables: by number of wait kinds, and by a wait's traits (see the docstring)."""
    real_n: defaultdict[int, float] = defaultdict(float)
    dealt_n: defaultdict[int, float] = defaultdict(float)
    real_t: defaultdict[Trait, float] = defaultdict(float)
    dealt_t: defaultdict[Trait, float] = defaultdict(float)
    for seen in rows:
        kept = _kept(seen)
        if not kept:
            continue
        real_n[min(len(seen.real), WAITS_TOLD)] += 1
        for t in seen.real:
            real_t[seen.traits[t]] += 1 / len(seen.real)
        for w in kept:
            dealt_n[min(len(w), WAITS_TOLD)] += 1 / len(kept)
            for t in w:
                dealt_t[seen.traits[t]] += 1 / len(w) / len(kept)
    return _ratio(real_n, dealt_n), _ratio(real_t, dealt_t)


def judge(rows: list[Seen], form: str, model: Model | None = None) -> dict[str, float]:
    """How well one form of the worlds places the real waits: p(wait), top and worlds."""
    p_true: list[float] = []
    top = 0
    effective = 0.0
    judged = 0
    for seen in rows:
        hands = seen.dealt if form == "dealt" else _kept(seen)
        if not hands:
            continue
        weights = [1.0] * len(hands)
        if model is not None:
            by_count, by_trait = model
            weights = [
                by_count.get(min(len(w), WAITS_TOLD), SMOOTHING)
                * (sum(by_trait.get(seen.traits[t], SMOOTHING) for t in w) / len(w) if w else 1.0)
                for w in hands
            ]
        total = sum(weights)
        share: defaultdict[Tile, float] = defaultdict(float)
        for w, weight in zip(hands, weights, strict=True):
            for t in w:
                share[t] += weight / total
        p_true.extend(share.get(t, 0.0) for t in seen.real)
        top += bool(share) and max(share, key=lambda t: share[t]) in seen.real
        effective += total * total / sum(x * x for x in weights)
        judged += 1
    return {
        "p_wait": sum(p_true) / max(1, len(p_true)),
        "top": top / max(1, judged),
        "worlds": effective / max(1, judged),
        "judged": judged,
    }


def main() -> None:
    """Measure, then print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160, help="greedy self-play games (two hands each)")
    parser.add_argument("--worlds", type=int, default=32, help="worlds dealt per compared turn")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rows, undeclared = measure(args.games, args.worlds, args.seed)
    half = len(rows) // 2
    print(f"ready seats compared: {len(rows)}, {args.worlds} worlds each")
    print(f"seats not ready at the same turns: {undeclared[1]}, one tile from going out: {undeclared[0]}")
    print()
    print("| | real hands | dealt hands |")
    print("| --- | ---: | ---: |")
    on_own = sum(bool(set(s.real) & s.own) for s in rows) / max(1, len(rows))
    dealt_own = sum(sum(bool(set(w) & s.own) for w in s.dealt) / len(s.dealt) for s in rows) / max(1, len(rows))
    print(f"| waits on a tile it discarded itself | {on_own:.3f} | {dealt_own:.3f} |")
    real_n: Counter[int] = Counter(min(len(s.real), WAITS_TOLD) for s in rows)
    dealt_n: defaultdict[int, float] = defaultdict(float)
    traits: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for s in rows:
        for w in s.dealt:
            dealt_n[min(len(w), WAITS_TOLD)] += 1 / len(s.dealt)
        for i, hands in enumerate(([s.real], s.dealt)):
            for w in hands:
                for t in w:
                    near, public, lower = s.traits[t]
                    part = 1 / len(w) / len(hands)
                    traits["near one of its own discards"][i] += part * near
                    traits["with no copy public"][i] += part * (public == 0)
                    traits["in a lower suit"][i] += part * lower
    for k in range(1, WAITS_TOLD + 1):
        label = f"{k} kind{'s' if k > 1 else ''} of wait" + (" or more" if k == WAITS_TOLD else "")
        print(f"| {label} | {real_n[k] / len(rows):.3f} | {dealt_n[k] / len(rows):.3f} |")
    for name, (real, dealt) in traits.items():
        print(f"| a wait {name} | {real / len(rows):.3f} | {dealt / len(rows):.3f} |")
    print()
    test = rows[half:]
    print(f"judged on the second half ({len(test)} ready seats); the model fitted on the first")
    print()
    print("| worlds | p(wait) | top | worlds left |")
    print("| --- | ---: | ---: | ---: |")
    for label, form, model in (
        ("as dealt", "dealt", None),
        ("none waiting on its own discards", "kept", None),
        ("... weighted by the model", "kept", fit(rows[:half])),
    ):
        got = judge(test, form, model)
        print(f"| {label} | {got['p_wait']:.3f} | {got['top']:.3f} | {got['worlds']:.1f} |")


if __name__ == "__main__":
    main()
