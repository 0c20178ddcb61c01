"""One game played out by its bots: the simulator's inner loop, compiled with the engines.

A simulation spends its time here, move after move, so this module joins the engines in
the mypyc build (``hatch_build.py``); as pure Python it plays the same games. It goes
through the public contract only: ``current_player``, ``hand_number``, ``view(seat)``,
``legal_actions()`` and ``apply()``.

A view is the costliest call of a move (several times the cost of the move itself), so one
is built only when something reads it: for a bot that reads views (every bot but one that
says ``needs_view = False``, such as the random bot), for a per-move watcher, and at the
first decision of each hand, where the previous hand's result (``last_result``) shows.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any

from ..games.base import Game

# (a view, the decisions made before it) -> None: the hand tracker's ``see``.
Seer = Callable[[dict[str, Any], int], None]


def play_out(game: Game, bots: Sequence[Any], rngs: Sequence[random.Random], see: Seer, every_move: bool) -> int:
    """Play ``game`` to its end, the bot in each seat choosing; the number of decisions made.

    ``see(view, decisions)`` is given every view built: the seat's view at the first
    decision of each hand, and at every decision where the seat's bot reads its view, or
    everywhere when ``every_move`` (a per-move watcher). A hand's result changes only when
    the hand number moves on (or the game ends, which the caller's final view covers),
    so the views at hands' first decisions see every result, at the same decision count
    as a view at every move would (``tests/sim`` checks this for every game).
    """
    wants = [every_move or bool(getattr(bot, "needs_view", True)) for bot in bots]
    decisions = 0
    hand = -1  # no hand seen yet: the first decision always builds a view
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        number = game.hand_number
        if wants[seat] or number != hand:
            view = game.view(seat)
            hand = number
            see(view, decisions)
        else:
            view = {}
        game.apply(bots[seat].choose(view, game.legal_actions(), rngs[seat]))
        decisions += 1
    return decisions


def json_copy(value: Any) -> Any:
    """A deep copy of JSON-ready data (dicts, lists, tuples, strings, numbers, ``None``).

    The same as ``copy.deepcopy`` for such data, types kept (a tuple stays a tuple), at a
    fraction of its cost: the hand tracker copies every hand's result. Anything else inside
    is handed to ``copy.deepcopy``.
    """
    if value is None or isinstance(value, str | int | float):  # bool is an int
        return value
    if type(value) is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) for v in value]
    if type(value) is tuple:
        return tuple([json_copy(v) for v in value])
    return copy.deepcopy(value)
