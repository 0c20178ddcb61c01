"""HTML pages the front end needs beyond its static files: each game's rules page.

The rules pages are the Markdown files of ``docs/rules/`` (shipped with the package),
rendered here as HTML with real tables and headings by markdown-it-py (CommonMark plus
the table extension). Raw HTML in the Markdown is not passed through: the pages are text.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt

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
        f"<title>{escape(title)} — boneyard</title><link rel='stylesheet' href='/static/app.css'></head>"
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
    return _page(f"{boneyard.game_info(game_id)['name']} rules", body)
