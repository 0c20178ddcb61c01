"""Playing many seeded games: the plan of a run, one game's record, batches, validation.

Everything here goes through the public contract: a game is made with
``boneyard.new_game``, bots choose from ``view(seat)`` and ``legal_actions()``, and the
per-hand data is read from the views as the game is played (each view's ``hand_number``
and ``last_result``), never from a game's internals. The moves themselves are played by
:func:`boneyard.sim.loop.play_out`, compiled with the engines, which builds a view only
where a bot, a watcher or a new hand's result needs one.

Seeds depend only on the master seed and the game's index, so the same plan gives the same
records whatever the batching, the number of workers or the backend.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import api
from ..bots import bots as bot_names
from ..bots.spec import BotSpec, parse_bot_spec, refusal
from .figures import watcher_for
from .loop import json_copy, play_out

BACKENDS = ("local", "ray")


class SimulationError(ValueError):
    """A bad simulation option (game, bot, rules, players, counts): raised before any work starts."""


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from the given parts, stable across Python runs and machines."""
    text = ":".join(str(p) for p in ("boneyard-sim", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def game_seed(master: int, index: int) -> int:
    """The seed of game ``index`` of a run with master seed ``master``."""
    return derive_seed(master, "game", index)


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the random generator handed to the bot in ``seat`` of a game."""
    return derive_seed(seed_of_game, "bot", seat)


def parse_bot(text: str) -> BotSpec:
    """``"ismcts:iterations=100"`` to a :class:`BotSpec`; ``SimulationError`` naming the problem."""
    try:
        return parse_bot_spec(text)
    except ValueError as err:
        raise SimulationError(str(err)) from None


def parse_bots(given: str | Sequence[str | BotSpec]) -> tuple[BotSpec, ...]:
    """A comma-separated string or a sequence of specs to bot specs (at least one)."""
    items: list[str | BotSpec] = [p for p in given.split(",") if p.strip()] if isinstance(given, str) else list(given)
    specs = tuple(p if isinstance(p, BotSpec) else parse_bot(p) for p in items)
    if not specs:
        raise SimulationError(f"at least one bot is needed; available bots: {', '.join(bot_names())}")
    return specs


@dataclass(frozen=True)
class Plan:
    """Everything that decides a run's records: game, seats, rules, bots, seed, seating."""

    game: str
    players: int
    rules: Mapping[str, Any]
    bots: tuple[BotSpec, ...]
    seed: int
    games: int
    rotate: bool = True

    def seating(self, index: int) -> list[int]:
        """The index into ``bots`` of the bot in each seat of game ``index``.

        Bots are dealt round the seats in order (cycled when there are fewer bots than
        seats); with ``rotate`` the deal starts one bot later in each game, so every bot
        sits in every seat equally often over a run.
        """
        k = len(self.bots)
        shift = index % k if self.rotate else 0
        return [(s + shift) % k for s in range(self.players)]

    def labels(self) -> list[str]:
        """The bot labels, in the order given."""
        return [b.label for b in self.bots]


def make_plan(
    game: str,
    *,
    players: int | None = None,
    rules: Mapping[str, Any] | None = None,
    bots: str | Sequence[str | BotSpec] = ("random",),
    games: int = 100,
    seed: int = 0,
    rotate: bool = True,
) -> Plan:
    """Check every option by making one game and every bot; ``SimulationError`` says what is wrong.

    Nothing is played and nothing is written: a bad game, player count, rules option or
    bot fails here, before any work starts.
    """
    if game not in api.games():
        raise SimulationError(f"unknown game {game!r}; known games: {', '.join(api.games())}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"the number of games must be a positive int, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"the seed must be an int, got {seed!r}")
    specs = parse_bots(bots)
    try:
        first = api.new_game(game, players=players, seed=game_seed(seed, 0), rules=rules)
    except ValueError as err:
        raise SimulationError(f"bad option for {game}: {err}") from None
    for spec in specs:
        if spec.name not in bot_names():
            raise SimulationError(f"unknown bot {spec.name!r}; available bots: {', '.join(bot_names())}")
        try:
            made = spec.make()
        except (TypeError, ValueError) as err:
            raise SimulationError(f"bad parameters for bot {spec.label!r}: {err}") from None
        why = refusal(made, game, first.players)  # a learned bot with no network for this game and size
        if why is not None:
            raise SimulationError(f"{spec.label} cannot play {game} with {first.players} players: {why}")
    return Plan(game, first.players, dict(first.rules.to_dict()), specs, seed, games, rotate)


class HandTracker:
    """Splits a game's decisions into hands by watching the views' ``last_result``.

    A hand ends when a view shows a ``last_result`` different from the one seen before;
    its length is the number of decisions since the previous hand ended. The game's
    watcher (in :mod:`boneyard.sim.figures`), if any and if it watches games with these
    ``rules``, tallies per-move facts into the hand; then it must see every move's view
    (``every_move``).
    """

    def __init__(self, game: str = "", rules: Mapping[str, Any] | None = None) -> None:
        self.hands: list[dict[str, Any]] = []
        self._watch = watcher_for(game, rules) if game else None
        self.every_move = self._watch is not None
        self._memory: dict[str, Any] = {}
        self._watched: dict[str, Any] = {}
        self._seen: Any = None
        self._last: Any = None
        self._start = 0

    def see(self, view: Mapping[str, Any], decisions: int) -> None:
        """Look at a view taken after ``decisions`` decisions."""
        if self._watch is not None:
            self._watch(view, self._memory, self._watched)
        result = view.get("last_result")
        if result is None or result is self._last:
            return
        self._last = result
        if result != self._seen:
            self._seen = json_copy(result)
            hand = result.get("hand") if isinstance(result, Mapping) else None
            number = hand if isinstance(hand, int) else len(self.hands) + 1
            self._close({"hand": number, "length": decisions - self._start, "outcome": self._seen}, decisions)

    def _close(self, hand: dict[str, Any], decisions: int) -> None:
        if self._watched:
            hand["watched"] = self._watched
            self._watched = {}
        self.hands.append(hand)
        self._start = decisions

    def finish(self, final: Mapping[str, Any], decisions: int) -> list[dict[str, Any]]:
        """The hands, with any trailing decisions that no hand result covered as a last hand."""
        self.see(final, decisions)
        if decisions > self._start or not self.hands:
            number = final.get("hand_number")
            self._close(
                {
                    "hand": number if isinstance(number, int) else len(self.hands) + 1,
                    "length": decisions - self._start,
                    "outcome": None,
                },
                decisions,
            )
        return self.hands


def play_game(plan: Plan, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``plan`` to the end and return its record (JSON-ready)."""
    seed = game_seed(plan.seed, index)
    game = api.new_game(plan.game, players=plan.players, seed=seed, rules=plan.rules)
    seating = plan.seating(index)
    seats = [plan.bots[b].make() for b in seating]
    rngs = [random.Random(bot_seed(seed, s)) for s in range(plan.players)]
    tracker = HandTracker(plan.game, plan.rules)
    decisions = play_out(game, seats, rngs, tracker.see, tracker.every_move)
    final = game.view(None)
    hands = tracker.finish(final, decisions)
    record: dict[str, Any] = {
        "index": index,
        "seed": seed,
        "game": plan.game,
        "players": plan.players,
        "rules": dict(plan.rules),
        "bots": [plan.bots[b].label for b in seating],
        "scores": list(game.scores),
        "winners": list(game.winners),
        "hands_played": len(hands),
        "decisions": decisions,
        "hands": hands,
    }
    if "hand_sizes" in final:
        record["tiles_left"] = list(final["hand_sizes"])
    return record


def play_batch(plan: Plan, start: int, stop: int) -> list[dict[str, Any]]:
    """The records of games ``start`` to ``stop - 1``, in order (the unit of work of a backend)."""
    return [play_game(plan, i) for i in range(start, stop)]


def batches(games: int, workers: int, batch_size: int | None = None) -> list[tuple[int, int]]:
    """Split ``games`` into ``(start, stop)`` batches: small enough to balance, large enough to amortise."""
    if batch_size is None:
        batch_size = max(1, min(200, games // (8 * max(1, workers))))
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise SimulationError(f"the batch size must be a positive int, got {batch_size!r}")
    return [(s, min(s + batch_size, games)) for s in range(0, games, batch_size)]
