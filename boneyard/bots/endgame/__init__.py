"""Exact endgames for the trick games (Eighty, Rounce) on fully dealt games.

A sampled world (``boneyard.sample_game(view, rng)``) is a whole game with every hand
known, so its last tricks can be solved exactly. :func:`solver` builds the game's solver
(:class:`~boneyard.bots.endgame.eighty.EightySolver`: two sides, exact minimax of the
points the side takes; :class:`~boneyard.bots.endgame.rounce.RounceSolver`: one seat
against the rest, paranoid, the seat's tricks). :func:`finish_hand` plays the rest of a
hand through the engine with the solver's moves, so the score is the engine's own.

These read the hidden hands of the game they are given: call them only on sampled worlds
(as the coach does), never on the real game a bot is playing.
"""

from __future__ import annotations

from typing import Any

from ...games.eighty.engine import TRICKS as EIGHTY_TRICKS
from ...games.rounce.engine import TRICKS as ROUNCE_TRICKS
from .eighty import EightySolver
from .rounce import RounceSolver

GAMES = ("eighty", "rounce")
_SOLVERS: dict[str, Any] = {"eighty": EightySolver, "rounce": RounceSolver}
_TRICKS: dict[str, int] = {"eighty": EIGHTY_TRICKS, "rounce": ROUNCE_TRICKS}  # the engines' own counts


def supports(game: Any) -> bool:
    """Whether ``game`` is a trick game in its play phase, which the solvers can take over."""
    return getattr(game, "id", None) in _SOLVERS and not game.is_over and str(game.phase) == "play"


def tricks_left(game: Any) -> int:
    """Tricks of the hand not yet finished (the one being played counts), for a game in play."""
    return _TRICKS[game.id] - len(game.tricks)


def solver(game: Any, seat: int, table: dict[Any, Any] | None = None) -> EightySolver | RounceSolver:
    """The endgame solver of ``game`` (a trick game in play, every hand dealt) valued for ``seat``.

    ``ValueError`` if the game is not Eighty or Rounce in its play phase.
    """
    if not supports(game):
        raise ValueError(f"the endgame solver plays Eighty and Rounce in the play phase, not {game!r}")
    solver_class = _SOLVERS[game.id]
    made: EightySolver | RounceSolver = solver_class(game, seat, table)
    return made


def finish_hand(game: Any, seat: int) -> None:
    """Play ``game`` (a dealt world) to the end of its hand, every seat by the solver's best move.

    The values are ``seat``'s (in Rounce the others play to minimise its tricks); one
    transposition table serves the whole hand, so each move after the first costs little.
    """
    hand = game.hand_number
    table: dict[Any, Any] = {}
    while not game.is_over and game.hand_number == hand:
        legal = game.legal_actions()
        if len(legal) == 1:
            game.apply(legal[0])
            continue
        game.apply(solver(game, seat, table).best())
