"""Learn to play: short scripted lessons for each game, played through the real engines.

A lesson is data (``boneyard/lessons/data/<game>.toml``, read with :mod:`tomllib`): a title,
an introduction and a few steps. Each step is a position (the players, the dealer, the
tiles each seat holds, the tiles the game takes next), the moves played before the
learner's turn (bots' moves, told in words like any table's), the text that says what to
do and why, the move or moves it accepts, a friendly explanation for any other legal move,
and the line that says why the move worked. The last step of a lesson is a quiz: the same,
with no hint.

Nothing here knows a game's rules: positions are dealt by the engine from a deck this
module builds (which deck position reaches which seat is found by asking the engine, not
written down here), legal moves and their notation are the engine's, and the words of
what happened are :mod:`boneyard.words`'. So a rules change that breaks a lesson breaks
its test (``tests/lessons/``) loudly. The engines never import this package.
"""

from __future__ import annotations

from .model import Lesson, LessonError, Outcome, Step, WrongMove, begin, lessons, load, play_step, start

__all__ = ["Lesson", "LessonError", "Outcome", "Step", "WrongMove", "begin", "lessons", "load", "play_step", "start"]
