"""The public functions of the contract (``docs/api.md``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import IllegalAction
from .games import game_class, game_ids
from .games.base import Game
from .tiles import Tile


def games() -> list[str]:
    """The ids of the games boneyard plays."""
    return game_ids()


def game_info(game_id: str, players: int | None = None, rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A game's facts, declared by the game so that generic code never lists game ids.

    Name, player counts, teams, rules options (label, help, default, valid values), a
    summary, and what bots, arenas, simulations and RL adapters need: ``lower_is_better``,
    ``score_bounds`` and ``max_game_length``. The last two depend on the player count and
    rules, given here or else the standard count and default rules.
    """
    cls = game_class(game_id)
    if players is not None and (
        isinstance(players, bool) or not isinstance(players, int) or not cls.min_players <= players <= cls.max_players
    ):
        raise ValueError(f"{game_id} is played by {cls.min_players} to {cls.max_players} players, got {players!r}")
    info: dict[str, Any] = cls.info(players, rules)
    return info


def new_game(
    game_id: str,
    players: int | None = None,
    seed: int | None = None,
    rules: Mapping[str, Any] | None = None,
    deck: Sequence[str | Tile] | None = None,
    dealer: int | None = None,
) -> Any:
    """Start a game. Bad player counts, decks or dealers raise ``ValueError``; bad rules ``RulesError``."""
    cls = game_class(game_id)
    if players is None:
        players = cls.default_players
    if isinstance(players, bool) or not isinstance(players, int) or not cls.min_players <= players <= cls.max_players:
        raise ValueError(
            f"{game_id} is played by {cls.min_players} to {cls.max_players} players, got {players!r}"
        )
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, got {seed!r}")
    parsed = cls.Rules.from_dict(rules)
    return cls(players, seed, parsed, deck=deck, dealer=dealer)


def replay(record: Mapping[str, Any]) -> Any:
    """Rebuild a game from its record; ``ValueError``/``IllegalAction`` name what is wrong."""
    return _replayed(record, None)


def story(record: Mapping[str, Any], seat: int | None = None) -> list[tuple[int, Mapping[str, Any]]]:
    """Every event of a recorded game as ``seat`` saw it (``None``: a spectator), from the first deal on.

    A view lists only this hand's events and the previous hand's end; the whole game's
    are had by replaying its record, which this does. Each event comes with the number
    of actions played when it happened (0: at the deal, before any action). A broken
    record raises as :func:`replay` does.
    """
    told: list[tuple[int, Mapping[str, Any]]] = []
    count = 0  # how many of the seat's events are told

    def take(game: Any, step: int) -> None:
        nonlocal count
        # A view's events end with the newest; those past ``count`` are new (a deal cuts
        # only events already told, so they are all still listed).
        events = game.events(seat)
        total = game.events_from(seat) + len(events)
        if total > count:
            told.extend((step, e) for e in events[len(events) - (total - count) :])
            count = total

    _replayed(record, take)
    return told


def _replayed(record: Mapping[str, Any], watch: Any) -> Any:
    """The game a record rebuilds, with ``watch(game, step)`` called at the start and after each action."""
    if not isinstance(record, Mapping):
        raise ValueError("a record must be a JSON object (dict)")
    missing = [k for k in ("game", "players", "seed", "actions") if k not in record]
    if missing:
        raise ValueError(f"record is missing {', '.join(missing)}")
    actions = record["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ValueError("record 'actions' must be a list of action strings")
    game = new_game(
        record["game"],
        players=record["players"],
        seed=record["seed"],
        rules=record.get("rules"),
        deck=record.get("deck"),
        dealer=record.get("dealer"),
    )
    if watch is not None:
        watch(game, 0)
    for number, text in enumerate(actions, 1):
        try:
            game.apply(text)
        except IllegalAction as err:
            raise IllegalAction(f"record action {number} {text!r} cannot be replayed: {err}") from None
        if watch is not None:
            watch(game, number)
    return game


def sample_game(view: Mapping[str, Any], rng: random.Random | int | None = None) -> Any:
    """A full game consistent with a seat's view, every hidden tile dealt at random."""
    if not isinstance(view, Mapping) or "game" not in view:
        raise ValueError("sample_game needs a view returned by game.view(seat)")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    return game_class(view["game"]).sample(dict(view), rng)


__all__ = ["Game", "game_info", "games", "new_game", "replay", "sample_game", "story"]
