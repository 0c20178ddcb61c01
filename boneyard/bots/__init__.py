"""Bots: players that choose an action from a seat's view and the legal actions.

Every bot follows one interface, :class:`Bot`: ``choose(view, legal_actions, rng)``.
A bot never sees the game itself, only what its seat may know. A bot may say it never
reads its view with a ``needs_view = False`` attribute (the random bot does): callers that
build views only for the bots (the simulator) then hand it an empty dict instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .basic import RandomBot


class Bot(Protocol):
    """A player: picks one of ``legal_actions`` from what ``view`` shows."""

    name: str

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """Return one of ``legal_actions``."""
        ...


_REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
}


def _plugins() -> dict[str, Any]:
    """Bots declared by installed packages under the entry-point group ``boneyard.bots``.

    That is how an optional extra adds a bot without the core importing it (the ``rl``
    extra's ``policy`` bot); each is loaded only when it is made.
    """
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group="boneyard.bots") if ep.name not in _REGISTRY}


def bots() -> list[str]:
    """The names of the available bots."""
    return [*_REGISTRY, *_plugins()]


def maker(name: str) -> Callable[..., Bot]:
    """The class or factory that makes bot ``name`` (a plug-in's is loaded); ``ValueError`` if unknown.

    What a caller reads to learn about a bot without making one: its parameters (the
    server tells a searching bot by its ``ms`` budget), its docstring.
    """
    factory = _REGISTRY.get(name)
    if factory is None:
        plugin = _plugins().get(name)
        if plugin is None:
            raise ValueError(f"unknown bot {name!r}; available bots: {', '.join(bots())}")
        try:
            factory = plugin.load()
        except ImportError as err:
            raise ValueError(f"bot {name!r} needs an optional extra that is not installed ({err})") from None
    return factory


def bot(name: str, **params: Any) -> Bot:
    """Make a bot by name; ``ValueError`` naming the available bots if unknown."""
    return maker(name)(**params)


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
