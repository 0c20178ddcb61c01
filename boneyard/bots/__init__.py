"""Bots: players that choose an action from a seat's view and the legal actions.

Every bot follows one interface, :class:`Bot`: ``choose(view, legal_actions, rng)``.
A bot never sees the game itself, only what its seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Bot(Protocol):
    """A player: picks one of ``legal_actions`` from what ``view`` shows."""

    name: str

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Return one of ``legal_actions``."""
        ...


class RandomBot:
    """Plays uniformly at random among the legal actions."""

    name = "random"

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]


_REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
}


def bots() -> list[str]:
    """The names of the available bots."""
    return list(_REGISTRY)


def bot(name: str, **params: Any) -> Bot:
    """Make a bot by name; ``ValueError`` naming the available bots if unknown."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; available bots: {', '.join(_REGISTRY)}") from None
    return factory(**params)


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot to the registry (used by the bot modules)."""
    _REGISTRY[name] = factory


def _register_builtin() -> None:
    """Register the bots that ship with boneyard (imported late: they use the public API)."""
    from .greedy import GreedyBot
    from .ismcts import IsmctsBot

    register("greedy", GreedyBot)
    register("ismcts", IsmctsBot)


_register_builtin()
