"""The FastAPI application: the HTTP and WebSocket contract (``docs/api.md``) and the pages.

``create_app(db_url, bot_delay)`` builds a self-contained app; ``boneyard serve`` runs it
with uvicorn. The pages are static HTML/JS under ``static/`` that talk to the same API.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

import boneyard
from boneyard.bots import bots

from .db import DEFAULT_DB, Store
from .pages import router as pages_router
from .tables import ServerError, TableService

STATIC = resources.files("boneyard.server").joinpath("static")


class CreateTable(BaseModel):
    """``POST /api/tables``: a game, its player count, rules options and who sits where."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="a game id from GET /api/games")
    players: int | None = Field(default=None, description="number of seats (default: the game's standard)")
    rules: dict[str, Any] = Field(default_factory=dict, description="rules options by name")
    seats: list[str] | None = Field(default=None, description='per seat: "human" or "bot:NAME" (default: all human)')
    seed: int | None = Field(default=None, description="seed for a reproducible deal (default: random)")
    deck: list[str] | None = Field(default=None, description="a fixed first deal (tests, puzzles): the full tile set")
    dealer: int | None = Field(default=None, description="the first hand's dealer, where the game has one")


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``: which human seat to take (null: the first free) and a name."""

    model_config = ConfigDict(extra="forbid")

    seat: int | None = None
    name: str


class PlayAction(BaseModel):
    """``POST /api/tables/{id}/actions``: one action in the action notation."""

    model_config = ConfigDict(extra="forbid")

    action: str


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _static_page(name: str) -> HTMLResponse:
    return HTMLResponse(STATIC.joinpath(name).read_text(encoding="utf-8"))


def _validation_message(err: RequestValidationError) -> str:
    parts = []
    for e in err.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        parts.append(f"{where or 'body'}: {e.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def create_app(db_url: str = DEFAULT_DB, bot_delay: float = 0.6) -> FastAPI:
    """The web app on the database at ``db_url``; bots wait ``bot_delay`` seconds before acting."""
    store = Store(db_url)
    service = TableService(store, bot_delay=bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.load_all()
        service.resume_bots()
        yield
        await service.stop()
        store.close()

    app = FastAPI(
        title="boneyard",
        version="0.1.0",
        summary="Play five domino games in the browser, with friends and bots.",
        lifespan=lifespan,
    )
    app.state.service = service

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, err: ServerError) -> JSONResponse:
        return JSONResponse({"detail": str(err)}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, err: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _validation_message(err)}, status_code=422)

    # ----- the HTTP contract -----------------------------------------------------------

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game with its facts (``boneyard.game_info``)."""
        return [boneyard.game_info(g) for g in boneyard.games()]

    @app.get("/api/games/{game_id}/rules", response_class=PlainTextResponse, tags=["games"])
    async def game_rules(game_id: str) -> str:
        """A game's rules page, in Markdown."""
        return _rules_markdown(game_id)

    @app.get("/api/bots", tags=["games"])
    async def list_bots() -> list[str]:
        """The names of the bots a seat can be given (``"bot:NAME"``)."""
        return bots()

    @app.get("/api/tables", tags=["tables"])
    async def list_tables() -> list[dict[str, Any]]:
        """Every table, newest first: game, seats (who sits where, which are open), whether over."""
        return [service.summary(t) for t in sorted(service.tables.values(), key=lambda t: t.id)]

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create_table(body: CreateTable) -> dict[str, Any]:
        """Open a table. 400 names an unknown game, a bad player count, rules option or seat."""
        table = service.create(body.game, body.players, body.rules, body.seats, body.seed, body.deck, body.dealer)
        return {"id": table.id}

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join_table(table_id: str, body: JoinTable) -> dict[str, Any]:
        """Take a human seat; the token is the seat's secret for every later request."""
        seat, token = await service.join(table_id, body.seat, body.name)
        return {"token": token, "seat": seat}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """The table as the token's seat sees it (no token: as a spectator)."""
        table = service.get(table_id)
        return service.state(table, service.seat_of(table, bearer(authorization), required=False))

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    async def play(table_id: str, body: PlayAction, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Play the token's seat's action: 400 if illegal (the engine's message) or out of turn."""
        return await service.act(table_id, bearer(authorization), body.action)

    @app.get("/api/tables/{table_id}/hint", tags=["tables"])
    async def hint(table_id: str, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """Rummikub: the solver's best play for the token's seat, in the action notation.

        Built only from that seat's view and the public solver. ``action`` is null when no
        hand tile can be played (``why`` says what to do instead). 401 without a token, 403
        for another table's token, 400 at a table of another game, 409 when it is not this
        seat's turn or the game is over.
        """
        return await service.hint(table_id, bearer(authorization))

    @app.get("/api/tables/{table_id}/replay", tags=["tables"])
    async def replay_step(
        table_id: str,
        step: int = Query(ge=0, description="number of actions played"),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """A finished game after ``step`` actions, as the token's seat (or a spectator) saw it."""
        table = service.get(table_id)
        return service.replay_state(table, service.seat_of(table, bearer(authorization), required=False), step)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """Pushes the table's state (same shape as GET) on connect and on every change."""
        try:
            table = service.get(table_id)
            seat = service.seat_of(table, token, required=False)
        except ServerError as err:
            await websocket.close(code=4000 + err.status, reason=str(err))
            return
        await websocket.accept()
        sub = service.subscribe(table, seat, websocket.send_json)
        try:
            await websocket.send_json(service.state(table, seat))
            while True:
                await websocket.receive_text()  # clients only listen; this notices disconnects
        except WebSocketDisconnect:
            pass
        finally:
            service.unsubscribe(table, sub)

    # ----- pages -----------------------------------------------------------------------

    app.include_router(pages_router)  # the front end's pages (rules), ahead of the routes below

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def lobby() -> HTMLResponse:
        return _static_page("index.html")

    @app.get("/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    def table_page(table_id: str) -> HTMLResponse:
        return _static_page("table.html")

    @app.get("/rules/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def rules_html(game_id: str) -> HTMLResponse:
        from markdown_it import MarkdownIt

        body = MarkdownIt().render(_rules_markdown(game_id))
        name = boneyard.game_info(game_id)["name"]
        return HTMLResponse(
            f"<!doctype html><html><head><meta charset=utf-8><meta name=viewport content='width=device-width,"
            f"initial-scale=1'><title>{name} rules</title><link rel=stylesheet href='/static/app.css'></head>"
            f"<body class=rules><nav><a href='/'>&larr; lobby</a></nav><main>{body}</main></body></html>"
        )

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


def _rules_markdown(game_id: str) -> str:
    from boneyard.rulespages import rules_page

    from .tables import NotFound

    if game_id not in boneyard.games():
        raise NotFound(f"unknown game {game_id!r}; known games: {', '.join(boneyard.games())}")
    try:
        return rules_page(game_id)
    except FileNotFoundError:
        return f"# {boneyard.game_info(game_id)['name']}\n\n{boneyard.game_info(game_id)['summary']}\n"
