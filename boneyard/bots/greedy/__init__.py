"""The ``greedy`` bot: one documented heuristic per game, chosen by the view's game id.

Each game's heuristic lives in ``boneyard/bots/greedy/<id>.py`` (found by name: no list
of game ids is kept) and exposes ``choose(view, legal_actions, rng) -> action``, plus
optionally ``PROFILE``, the :class:`~boneyard.bots.profile.SearchProfile` that the
``ismcts`` search, the coach and inference read (see ``docs/bots.md``), unless the game
declares it in ``boneyard/bots/profiles/<id>.py`` beside the search's own parts, which
keeps the module the heuristic alone. It reads only the
seat's view and the legal actions, and returns one of the legal actions. A game living
outside ``boneyard`` gives its heuristic with :func:`register`.

A game with no heuristic is not refused: greedy then plays a uniformly random legal
action (the documented generic choice; :meth:`GreedyBot.has_policy` tells), so every bot
(and ``ismcts``, whose playouts and prior use greedy) plays any game that has an engine.
Refusing would make a new game unplayable by every bot until its heuristic is written;
a random choice is what any heuristic-free player can honestly do from a view alone.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...plugins import PerGame


def _found(module: Any) -> Any:
    """A game's heuristic module, found by name: its ``PROFILE`` checked once, as it is first used."""
    _check_profile(module.__name__.rsplit(".", 1)[-1], module)
    return module


_POLICIES: PerGame[Any] = PerGame(__name__, _found, None)


def register(game_id: str, heuristic: Any) -> None:
    """Give a game (one living outside ``boneyard``, say) its heuristic: anything with ``choose``.

    ``heuristic`` is a module or object with ``choose(view, legal_actions, rng)`` and,
    optionally, a ``PROFILE`` (:class:`~boneyard.bots.profile.SearchProfile`). ``ValueError``
    if it has no ``choose`` or its ``PROFILE`` is not a search profile: checked here, once,
    rather than found wrong in the middle of a search.
    """
    if not callable(getattr(heuristic, "choose", None)):
        raise ValueError(f"a greedy heuristic needs choose(view, legal_actions, rng), got {heuristic!r}")
    _check_profile(game_id, heuristic)
    _POLICIES.register(game_id, heuristic)


def _check_profile(game_id: str, heuristic: Any) -> None:
    """``ValueError`` unless ``heuristic`` has no ``PROFILE`` or a :class:`SearchProfile` one."""
    from ..profile import SearchProfile

    found = getattr(heuristic, "PROFILE", None)
    if found is not None and not isinstance(found, SearchProfile):
        raise ValueError(f"{game_id}: a greedy heuristic's PROFILE must be a SearchProfile, got {found!r}")


def unregister(game_id: str) -> None:
    """Remove what :func:`register` added (tests clean up with this)."""
    _POLICIES.unregister(game_id)


def policy(game_id: str) -> Any:
    """The heuristic of a game (its module, or what was registered), or ``None`` when it has none.

    Only "no module for this game" counts as none: an error inside a game's module (an
    import it lacks, say) is raised, never hidden behind the random fallback.
    """
    return _POLICIES.get(game_id)


def play_phase_view(game: Any, built: bool) -> dict[str, Any] | None:
    """The view of the seat to play when ``game`` is in its play phase, else ``None``.

    Where a game's compiled trick playout (its profile's ``finish``) starts: never while the
    module is not ``built`` or the game is over, and never in the bids or calls, which
    stay with the heuristic's Python.
    """
    if not built or game.is_over:
        return None
    view: dict[str, Any] = game.view(game.current_player)
    return view if view["phase"] == "play" else None


class GreedyBot:
    """Plays each game's documented heuristic (see ``docs/bots.md``)."""

    name = "greedy"

    def choose(self, view: dict[str, Any], legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The heuristic's action for this view; always one of ``legal_actions``."""
        if not legal_actions:
            raise ValueError("greedy bot asked to choose with no legal actions")
        if len(legal_actions) == 1:
            return legal_actions[0]
        module = policy(view["game"])
        if module is None:
            return legal_actions[rng.randrange(len(legal_actions))]
        action = module.choose(view, legal_actions, rng)
        return action

    @staticmethod
    def has_policy(game_id: str) -> bool:
        """Whether ``game_id`` has its own heuristic (otherwise greedy plays at random)."""
        return policy(game_id) is not None
