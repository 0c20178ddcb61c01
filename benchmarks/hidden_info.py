"""What the hidden tiles are worth to the search: an oracle search against the real one.

Inference (``docs/bots.md``; its runs in ``docs/bots-measurements.md``) can only make
the search's sampled worlds nearer the real deal. How much that could ever gain is
measured here, in the arena's duplicate format: the *oracle* is ``ismcts`` whose every
sampled world is the real game (the other hands as they are, the boneyard or woodpile
reshuffled, so the order of future draws stays unknown), playing the same ``ismcts`` as
it is. A large gain says hidden information limits the search and better inference could
pay; a gain near nothing says no inference can help in that game, whatever it reads.

``--phases call,discard`` gives the oracle its real worlds only in those phases (it searches
from the view like the other bot elsewhere): in Rounce, which decisions the hidden tiles
matter to, the calls or the tricks.

``--knows playable`` (Rummikub only) gives the oracle less: for each other seat only
whether its real hand could play on the table now (opened seats) or open (the others),
each sampled hand redealt until it agrees. That is the most a reading of the other
seats' draws could tell.

``--knows ready`` (Montana only) gives the oracle the ready seats' hands alone: the real
game with every other hidden tile (the other seats' hands, the dead hands and the
woodpile not yet pulled) redealt at random, keeping the copy limits the claim windows
proved. A ready hand is fixed and decides which discards another seat goes out on, so
this says how much of the hidden tiles' worth lies in the ready hands.

The oracle reads the real game, which no bot may do: it exists only in this script, as a
measuring rod, and is never registered as a bot.

Run: ``.venv/bin/python benchmarks/hidden_info.py GAME [--games N] [--seed S] [--ms MS]
[--workers K] [--knows hands|playable|ready] [--phases P,Q]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from rich.progress import Progress

from boneyard import api
from boneyard.bots import arena
from boneyard.bots import ismcts as search
from boneyard.bots.ismcts import IsmctsBot
from boneyard.bots.spec import BotSpec, parse_bot_spec
from boneyard.games.montana import analysis as montana_hands
from boneyard.games.montana.sampling import _sample_fits
from boneyard.games.rummikub import solver
from boneyard.games.rummikub.groups import best_opening, valid_triples

ORACLE = "oracle"
_TRUTH: dict[str, Any] = {}  # the game being played, for the oracle's sampler (this process only)


def _reshuffled(game: Any, rng: random.Random) -> Any:
    """A copy of the real game whose undrawn tiles are in a fresh order, with a fresh rng."""
    world = game.clone()
    world.rng = random.Random(rng.getrandbits(63))
    if hasattr(world, "boneyard"):
        rng.shuffle(world.boneyard)
    if hasattr(world, "wood"):  # Montana's woodpile: only the part not yet pulled
        rest = world.wood[world.wood_at :]
        rng.shuffle(rest)
        world.wood[world.wood_at :] = rest
    return world


def could_play(hand: list[Any], opened: bool, table: Counter[Any], distinct: bool) -> bool:
    """Whether a Rummikub hand could open (not opened yet) or lay a tile on ``table`` (opened)."""
    if valid_triples(hand, distinct):
        return True
    if not opened:
        return best_opening(hand, distinct) is not None
    return solver.best_play(list(table.elements()), hand, distinct) is not None


class HandsOracle:
    """Sampled worlds that are the real game (stands in for :class:`~boneyard.bots.inference.Inference`)."""

    def __init__(
        self, view: dict[str, Any], candidates: int = 0, epsilon: float | None = None, explain: bool | None = None
    ) -> None:
        self.view = view

    def sample(self, rng: random.Random) -> Any:
        """The real game, its undrawn tiles reshuffled."""
        return _reshuffled(_TRUTH["game"], rng)

    def sample_weighted(self, rng: random.Random) -> tuple[Any, float]:
        """A world and its weight, as the flat search asks: every world here weighs the same."""
        return self.sample(rng), 1.0


class PlayableOracle(HandsOracle):
    """Uniform Rummikub worlds, each other hand redealt until its 'could play' agrees with the real one."""

    def __init__(
        self, view: dict[str, Any], candidates: int = 0, epsilon: float | None = None, explain: bool | None = None
    ) -> None:
        super().__init__(view)
        truth = _TRUTH["game"]
        self.distinct = bool(view["rules"].get("distinct_sums", False))
        self.table: Counter[Any] = Counter(t for g in truth.table for t in g)
        self.want = {
            s: could_play(list(truth.hands[s]), truth.opened[s], self.table, self.distinct)
            for s in range(truth.players)
            if s != view["seat"]
        }

    def sample(self, rng: random.Random) -> Any:
        """A uniform world with each other hand redealt (up to 60 tries) to match the real 'could play'."""
        world = api.sample_game(self.view, rng)
        others = list(self.want)
        pool = [t for s in others for t in world.hands[s]] + list(world.boneyard)
        for s in others:
            size = len(world.hands[s])
            for _ in range(60):
                rng.shuffle(pool)
                if could_play(pool[:size], world.opened[s], self.table, self.distinct) == self.want[s]:
                    break
            world.hands[s] = sorted(pool[:size], reverse=True)
            pool = pool[size:]
        world.boneyard = pool
        return world


class ReadyOracle(HandsOracle):
    """Montana worlds that know the ready seats' real hands, every other hidden tile redealt."""

    def sample(self, rng: random.Random) -> Any:
        """The real game with the hidden tiles of seats not ready (and the dead hands and woodpile) redealt.

        Redealt up to 60 times until the proved copy limits hold, and in an open claim
        window until the same seats would be asked and every answer given is still
        allowed; if none fits, the real game itself (a rare decision where the oracle
        knows every hand).
        """
        truth = _TRUTH["game"]
        world = _reshuffled(truth, rng)
        me = self.view["seat"]
        others = [s for s in range(len(world.hands)) if s != me and not world.ready[s]]
        sizes = [len(world.hands[s]) for s in others]
        dead = len(world.dead)
        pool = [t for s in others for t in world.hands[s]] + list(world.dead) + list(world.wood[world.wood_at :])
        for _ in range(60):
            rng.shuffle(pool)
            at = 0
            for s, n in zip(others, sizes, strict=True):
                world.hands[s] = sorted(pool[at : at + n], reverse=True)
                world.codes[s] = montana_hands.encode(world.hands[s])
                at += n
            world.dead = pool[at : at + dead]
            world.wood[world.wood_at :] = pool[at + dead :]
            if not _sample_fits(world, others, []):
                continue
            if world.claim_tile is not None:
                queue, options = world._window(world.claim_from, world.claim_tile)
                if world.claim_queue and queue != [*world.answers, *world.claim_queue]:
                    continue
                if any(a not in options.get(s, ()) for s, a in world.answers.items() if s != me):
                    continue
                world.claim_options = options
            return world
        return _reshuffled(truth, rng)


class OracleSearch(IsmctsBot):
    """``ismcts`` sampling from an oracle instead of the view (this script's measuring rod only)."""

    name = ORACLE

    def __init__(self, knows: str = "hands", phases: tuple[str, ...] = (), **params: Any) -> None:
        super().__init__(**params)
        self.sampler = {"playable": PlayableOracle, "ready": ReadyOracle}.get(knows, HandsOracle)
        self.phases = phases

    def choose(self, view: dict[str, Any], legal_actions: Any, rng: random.Random) -> Any:
        """The search's choice with the oracle's worlds swapped in for the length of the decision.

        Outside ``phases`` (when given) the search samples from the view as usual.
        """
        if self.phases and view.get("phase") not in self.phases:
            return super().choose(view, legal_actions, rng)
        saved = search.Inference
        search.Inference = self.sampler  # type: ignore[misc,assignment]
        try:
            return super().choose(view, legal_actions, rng)
        finally:
            search.Inference = saved  # type: ignore[misc]


def play(task: arena.Task, ms: float, knows: str, phases: tuple[str, ...]) -> dict[str, Any]:
    """One arena game; the oracle's seats decide with the real game at hand."""
    game = api.new_game(task.game, players=task.players, seed=task.deal_seed, rules=dict(task.rules))
    made = [OracleSearch(knows, phases, ms=ms) if s.name == ORACLE else s.make() for s in task.specs]
    rngs = [random.Random(f"{task.deal_seed}:{task.rotation}:{s}") for s in range(task.players)]
    times: list[list[float]] = [[] for _ in task.specs]
    while not game.is_over:
        seat = game.current_player
        index = task.seats[seat]
        legal = game.legal_actions()
        _TRUTH["game"] = game
        start = time.perf_counter()
        action = made[index].choose(game.view(seat), legal, rngs[seat])
        if len(legal) > 1:
            times[index].append((time.perf_counter() - start) * 1000)
        game.apply(action)
    return arena.task_result(task, game, times)


def main() -> None:
    """Play the oracle against the search and print both rows of the arena's summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=40, help="games (rounded up to whole duplicate sets)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ms", type=float, default=200.0, help="each search's time a decision")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--knows", choices=("hands", "playable", "ready"), default="hands")
    parser.add_argument("--phases", default="", help="comma-separated phases the oracle knows in (default: all)")
    args = parser.parse_args()
    phases = tuple(p for p in args.phases.split(",") if p)
    if args.knows == "playable" and args.game != "rummikub":
        parser.error("--knows playable is defined for rummikub only")
    if args.knows == "ready" and args.game != "montana":
        parser.error("--knows ready is defined for montana only")
    ms = int(args.ms) if float(args.ms).is_integer() else args.ms
    specs = [BotSpec(ORACLE, (("ms", ms),)), parse_bot_spec(f"ismcts:ms={ms}")]
    tasks = arena.Arena(args.game, specs, games=args.games, seed=args.seed, workers=args.workers).tasks()
    results: list[dict[str, Any]] = []
    with Progress() as progress, ProcessPoolExecutor(args.workers) as pool:
        bar = progress.add_task(f"{args.game}: oracle ({args.knows}) against ismcts", total=len(tasks))
        for future in as_completed([pool.submit(play, t, args.ms, args.knows, phases) for t in tasks]):
            results.append(future.result())
            progress.advance(bar)
    where = ", in phases " + "+".join(phases) if phases else ""
    print(f"{args.game}, {len(results)} games, {args.ms:g} ms a decision, the oracle knows: {args.knows}{where}")
    print("| bot | win rate [95%] | margin [95%] | ms a decision |")
    print("| --- | ---: | ---: | ---: |")
    for row in arena.summarize(args.game, specs, results):
        lo, hi = row["win_rate_ci"]
        mlo, mhi = row["margin_ci"]
        print(
            f"| {row['bot']} | {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] "
            f"| {row['margin']:+.2f} [{mlo:+.2f}, {mhi:+.2f}] | {row['mean_decision_ms']:.0f} |"
        )


if __name__ == "__main__":
    main()
