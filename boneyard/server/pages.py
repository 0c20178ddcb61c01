"""Routes the front end needs beyond its static files: each game's rules page, and the
facts the replay viewer shows once a game is over (who played each step, where each hand
starts, every hand face up).

The rules pages are the Markdown files of ``docs/rules/`` (shipped with the package),
rendered here as HTML with real tables and headings by markdown-it-py (CommonMark plus
the table extension). Raw HTML in the Markdown is not passed through: the pages are text.
"""

from __future__ import annotations

from html import escape
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from starlette.concurrency import run_in_threadpool

import boneyard

router = APIRouter(include_in_schema=False)

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")


def render_rules(game_id: str) -> str:
    """A game's rules page as an HTML fragment; ``KeyError`` names an unknown game."""
    from boneyard.rulespages import rules_page

    if game_id not in boneyard.games():
        raise KeyError(game_id)
    try:
        text = rules_page(game_id)
    except FileNotFoundError:
        info = boneyard.game_info(game_id)
        text = f"# {info['name']}\n\n{info['summary']}\n"
    return _MARKDOWN.render(text)


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    others = " · ".join(
        f"<a href='/rules/{g}'>{escape(boneyard.game_info(g)['name'])}</a>" for g in boneyard.games()
    )
    return HTMLResponse(
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{escape(title)} — boneyard</title><link rel='manifest' href='/manifest.webmanifest'>"
        "<link rel='stylesheet' href='/static/app.css'></head>"
        f"<body class='rules'><nav><a href='/'>&larr; lobby</a> <span class='muted'>rules:</span> {others}</nav>"
        f"<main>{body}</main></body></html>",
        status_code=status,
    )


@router.get("/rules/{game_id}", response_class=HTMLResponse)
def rules_html(game_id: str) -> HTMLResponse:
    """A game's rules page; an unknown game gets a 404 page that links to the lobby."""
    try:
        body = render_rules(game_id)
    except KeyError:
        known = ", ".join(boneyard.games())
        return _page("No such game", f"<h1>No such game</h1><p>There is no game “{escape(game_id)}” here "
                     f"(the games are {escape(known)}).</p><p><a class='button' href='/'>Go to the lobby</a></p>", 404)
    head, cut, rest = body.partition("</h1>")  # the way to the lessons goes under the title
    return _page(f"{boneyard.game_info(game_id)['name']} rules",
                 head + cut + _learn_line(game_id) + rest if cut else _learn_line(game_id) + body)


def _learn_line(game_id: str) -> str:
    """The rules page's way to the game's lessons (``/learn/<id>``), when it has any: a newcomer
    who opens the rules is offered to learn at the table instead."""
    from boneyard.lessons import load

    if not load(game_id):
        return ""
    name = escape(boneyard.game_info(game_id)["name"])
    return (f"<p class='learn-line'><a class='button primary' href='/learn/{escape(game_id)}'>Learn to play {name}</a> "
            "<span class='muted'>short lessons at the table, one rule at a time</span></p>")


# ----- the replay viewer's facts (finished games only) ----------------------------------------

async def _finished_table(request: Request, table_id: str) -> Any:
    """A table whose game is over; the app's handlers turn refusals into 404/409/410."""
    from .tables import Conflict

    table = await request.app.state.service.get(table_id)
    if not table.game.is_over:
        raise Conflict("the replay opens once the game is over")
    return table


def _steps(record: dict[str, Any]) -> tuple[list[dict[str, Any]], list[int]]:
    """Who played each action of a record and in which hand, and the step each hand starts at."""
    actions = record["actions"]
    game = boneyard.replay({**record, "actions": []})
    plays = []
    starts = [0]
    for step, action in enumerate(actions):
        hand = getattr(game, "hand_number", None)
        plays.append({"seat": game.current_player, "action": action, "hand": hand})
        game.apply(action)
        after = getattr(game, "hand_number", None)
        if after is not None and hand is not None and after != hand and not game.is_over:
            starts.append(step + 1)
    return plays, starts


def _hands(record: dict[str, Any], step: int) -> list[Any]:
    game = boneyard.replay({**record, "actions": record["actions"][:step]})
    return [game.view(s).get("hand") for s in range(game.players)]


@router.get("/api/tables/{table_id}/replay/steps")
async def replay_steps(request: Request, table_id: str) -> dict[str, Any]:
    """Every action of a finished game with who played it and in which hand, and where each hand starts.

    ``plays[i]`` is the action that makes step ``i + 1``; ``hand_starts`` lists the step at
    which each hand's first action is about to be played (step 0 for the first hand).
    Everything here is public once the game is over. The replay runs off the event loop.
    """
    table = await _finished_table(request, table_id)
    plays, starts = await run_in_threadpool(_steps, table.record())
    return {"table": table.id, "steps": len(plays), "plays": plays, "hand_starts": starts}


@router.get("/api/tables/{table_id}/replay/hands")
async def replay_hands(request: Request, table_id: str, step: int = Query(ge=0, le=10**7)) -> dict[str, Any]:
    """Every seat's hand after ``step`` actions of a finished game: the replay shows them face up."""
    from .tables import BadRequest

    table = await _finished_table(request, table_id)
    record = table.record()
    if step > len(record["actions"]):
        raise BadRequest(f"step must be from 0 to {len(record['actions'])}")
    return {"table": table.id, "step": step, "hands": await run_in_threadpool(_hands, record, step)}
