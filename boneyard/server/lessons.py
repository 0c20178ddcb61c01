"""Learn to play: the lessons' HTTP routes and their page (``/learn/{game}``).

Stateless: every request names a step, and the server deals its position again through the
engine (:mod:`boneyard.lessons`), plays the moves before the learner's turn, and, for a
move, checks it is the one the step teaches before playing it and the moves after it. The
answer is shaped like a table's state (``view``, ``log``, ``legal_actions``, ``seats``...),
so the page draws it with the same game modules as a table, plus a ``lesson`` part with the
step's words. A legal move that is not the one taught answers 422 with the step's friendly
explanation; a move the rules forbid, 400 with the engine's rule;
an unknown game, lesson or step, 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

import boneyard
from boneyard.errors import IllegalAction
from boneyard.lessons import LessonError, WrongMove, begin, load, play_step
from boneyard.lessons.model import LEARNER, Lesson, Step, step_of

from .tables import MAX_ACTION, BadRequest, NotFound, ServerError, quote
from .telling import tell


class LessonMove(BaseModel):
    """``POST /api/lessons/{game}/{lesson}/{step}``: the learner's move at the step's start."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: str = Field(max_length=MAX_ACTION, description="a move in the action notation (docs/api.md)")


class WrongLessonMove(ServerError):
    """A legal move that is not the one the step teaches (422): the message explains why."""

    status = 422


class BrokenLesson(ServerError):
    """A lesson the engine no longer plays as written (410, like a quarantined table).

    A rules change the lesson tests would catch first; should one reach a server, the
    learner reads why the lesson is closed instead of meeting a server error.
    """

    status = 410


def _names(lesson: Lesson, step: Step) -> list[str]:
    others = iter(lesson.names)
    return [LEARNER if s == step.seat else next(others, f"Player {s + 1}") for s in range(step.players)]


def _lesson_of(game: str, lesson_id: str, number: int) -> tuple[Lesson, Step]:
    if game not in boneyard.games():
        raise NotFound(f"unknown game {quote(game)}; known games: {', '.join(boneyard.games())}")
    try:
        return step_of(game, lesson_id, number)
    except KeyError as err:
        raise NotFound(str(err.args[0])) from None


def state(lesson: Lesson, number: int, game: Any, new: int = 0, complete: bool = False) -> dict[str, Any]:
    """The learner's table at a step, as a table's state: what the page draws.

    ``new`` counts the events at the end of the view that the moves before the learner's
    turn produced (at the start), or that the learner's move and the moves after it
    produced (once ``complete``): the page tells them apart from the rest of the log.
    """
    step = lesson.steps[number - 1]
    seat = step.seat
    names = _names(lesson, step)
    view = game.view(seat)
    mine = not complete and game.current_player == seat
    return {
        "lesson": {"game": lesson.game, "id": lesson.id, "title": lesson.title, "intro": lesson.intro, "step": number,
                   "steps": len(lesson.steps), "complete": complete, "new_events": new, **step.public()},
        "game": lesson.game,
        "seat": seat,
        "version": 1 if complete else 0,
        "seats": [{"seat": s, "kind": "human" if s == seat else "bot", "bot": None, "name": names[s], "joined": True}
                  for s in range(step.players)],
        "names": names,
        "view": view,
        "log": tell(lesson.game, names, seat, view["events"]),
        "legal_actions": [str(a) for a in game.legal_actions()] if mine else [],
        "current_player": game.current_player,
        "scores": list(game.scores),
        "is_over": game.is_over,
        "winners": list(game.winners),
        "between_hands": None,
        "practice": True,
        "fixed_deal": True,
    }


def _begin(game_id: str, lesson_id: str, number: int) -> dict[str, Any]:
    lesson, step = _lesson_of(game_id, lesson_id, number)
    try:
        game, told = begin(step)
        return state(lesson, number, game, new=told)
    except LessonError as err:
        raise BrokenLesson(f"this lesson no longer plays with the rules: {err}") from None


def _move(game_id: str, lesson_id: str, number: int, action: str) -> dict[str, Any]:
    lesson, step = _lesson_of(game_id, lesson_id, number)
    try:
        outcome = play_step(step, action)
    except WrongMove as err:
        raise WrongLessonMove(str(err)) from None
    except IllegalAction as err:
        raise BadRequest(str(err)) from None
    except LessonError as err:
        raise BrokenLesson(f"this lesson no longer plays with the rules: {err}") from None
    return state(lesson, number, outcome.game, new=len(outcome.events), complete=True)


def _catalogue(game: str) -> dict[str, Any]:
    if game not in boneyard.games():
        raise NotFound(f"unknown game {quote(game)}; known games: {', '.join(boneyard.games())}")
    info = boneyard.game_info(game)
    return {"game": game, "name": info["name"], "lessons": [x.summary() for x in load(game)]}


def router(hit: Callable[[str, str], None], address: Callable[[Request], str], page: Callable[[str], HTMLResponse]) \
        -> APIRouter:
    """The lessons' routes; ``hit`` counts a request against the per-address limits, ``page``
    serves a static page."""
    api = APIRouter(tags=["lessons"])

    @api.get("/api/lessons")
    async def every_lesson() -> list[dict[str, Any]]:
        """Every game's lessons: ``game``, ``name`` and ``lessons`` (id, title, intro, number of steps)."""
        return [_catalogue(g) for g in boneyard.games() if load(g)]

    @api.get("/api/lessons/{game}")
    async def game_lessons(game: str) -> dict[str, Any]:
        """One game's lessons (404 for an unknown game; a game without lessons has an empty list)."""
        return _catalogue(game)

    @api.get("/api/lessons/{game}/{lesson}/{step}")
    async def lesson_step(game: str, lesson: str, step: int, request: Request) -> dict[str, Any]:
        """A step's start, shaped like a table's state, with ``lesson`` (its words) added (404: no such step)."""
        hit("act", address(request))
        return await run_in_threadpool(_begin, game, lesson, step)

    @api.post("/api/lessons/{game}/{lesson}/{step}")
    async def lesson_move(game: str, lesson: str, step: int, body: LessonMove, request: Request) -> dict[str, Any]:
        """Play the learner's move at a step's start: the move taught answers the table after it
        (and after the moves that follow it); another legal move 422 saying why;
        a move the rules forbid 400 naming the rule; an unknown step 404."""
        hit("act", address(request))
        return await run_in_threadpool(_move, game, lesson, step, body.action)

    @api.get("/learn/{game}", response_class=HTMLResponse, include_in_schema=False)
    def learn_page(game: str) -> HTMLResponse:
        """The lessons' page: every game's path serves it; the page says when a game is unknown."""
        return page("learn/learn.html")

    return api
