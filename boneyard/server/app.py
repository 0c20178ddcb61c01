"""The FastAPI application: the HTTP and WebSocket contract (``docs/api.md``) and the pages.

``create_app(db_url, bot_delay)`` builds a self-contained app; ``boneyard serve`` runs it
with uvicorn. The pages are static HTML/JS under ``static/`` that talk to the same API.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

import boneyard
from boneyard.bots import maker
from boneyard.words.bots import about as bot_about

from . import lessons
from .bodylimit import BodyLimit
from .botapi import HEARTBEAT, Bots
from .botapi import router as bots_router
from .clients import CLOSE_FORBIDDEN, CLOSE_GONE, CLOSE_NOT_FOUND, Subscriber
from .clock import Clock, SlowClock, TestClock, testing_router
from .coaching import Coach
from .coaching import router as coach_router
from .commits import ShuttingDown
from .compute import BOT_MS_CAP, searches
from .db import DEFAULT_DB, Store
from .hotpath import HotPath, bearer
from .limitgate import LimitGate
from .mail import MailSettings
from .notices import Notices
from .notices_api import router as notices_router
from .pages import router as pages_router
from .ratelimit import LimitSettings, RateLimits, SocketCap
from .social import Social, clock_option
from .social import router as social_router
from .tables import MAX_ACTION, ServerError, TableService, encode, seat_bots, seat_tables
from .tourney import Tourney
from .tourney import router as events_router

STATIC = resources.files("boneyard.server").joinpath("static")
log = logging.getLogger("boneyard.server")

# Bounds of request fields that have no rules of their own (beyond them: 422 naming the field).
MAX_SEED = 2**63
Tile = Annotated[str, StringConstraints(max_length=8)]


class SafeJSONResponse(JSONResponse):
    """JSON with non-ASCII escaped, so any text (even a lone surrogate echoed back) can be sent."""

    def render(self, content: Any) -> bytes:
        """Serialize compactly; ``ensure_ascii`` never fails on characters UTF-8 cannot encode."""
        return json.dumps(content, separators=(",", ":")).encode("ascii")


class CreateTable(BaseModel):
    """``POST /api/tables``: a game, its player count, rules options and who sits where."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat

    game: str = Field(max_length=40, description="a game id from GET /api/games")
    players: int | None = Field(default=None, ge=0, le=64, description="number of seats (default: the game's standard)")
    rules: dict[str, Any] = Field(default_factory=dict, description="rules options by name (ranges: GET /api/games)")
    seats: list[Annotated[str, StringConstraints(max_length=64)]] | None = Field(
        default=None, max_length=64, description='per seat: "human" or "bot:NAME" (default: all human)')
    practice: bool = Field(default=False, description="a practice table: seed and deck may be chosen (fixed deal)")
    seed: int | None = Field(default=None, ge=0, lt=MAX_SEED,
                             description="practice tables only: seed of a reproducible deal (default: secret, random)")
    deck: list[Tile] | None = Field(default=None, max_length=256,
                                    description="practice tables only: a fixed first deal, the full tile set")
    dealer: int | None = Field(default=None, ge=0, le=64, description="the first hand's dealer, where the game has one")
    next_timeout: float | None = Field(
        default=None, ge=0, le=600,
        description='seconds the table waits between hands for every human to press "Next hand" (0: no wait; '
                    "default 20)")
    clock: Annotated[float, Field(ge=1, le=3600)] | SlowClock | None = Field(
        default=None, description='seconds per decision before a bot plays it (default: no clock); a turn-based '
                                  'table: {"per_move": seconds} or {"per_game": seconds} (docs/api.md, "Move clock")')


class NextHand(BaseModel):
    """``POST /api/tables/{id}/next``: the hand whose end the player has seen (null: whatever hand just ended)."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat

    hand: int | None = Field(default=None, ge=1, le=10**6)


class JoinTable(BaseModel):
    """``POST /api/tables/{id}/join``: which human seat to take (null: the first free) and a name."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat

    seat: int | None = Field(default=None, ge=0, le=64)
    name: str = Field(max_length=400, description="1 to 40 printable characters")


class PlayAction(BaseModel):
    """``POST /api/tables/{id}/actions``: one action in the action notation, and the version it was chosen at."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "0" is not 0, nor 1.0 a seat

    action: str = Field(max_length=MAX_ACTION)
    expected_version: int | None = Field(
        default=None, ge=0, description="the version of the state the action was chosen from (exactly-once play)")


# The collector's thresholds in a long-running server (see ``quiet_collector``): young
# generations as Python sets them, a full pass only after a thousand middle passes.
SERVER_GC_THRESHOLDS = (700, 10, 1000)


@asynccontextmanager
async def quiet_collector() -> AsyncIterator[None]:
    """Keep the garbage collector's full passes rare and short while a server runs.

    Why: a full pass walks every tracked object, and a server holding many tables and
    sockets has a large heap, so each pass stops the event loop (every table, every
    client) for a long time. By default CPython starts one whenever the objects that
    survived two young passes since the last one reach a quarter of the old ones, and a
    table's state lives just long enough to survive them: with many busy tables that is
    every few seconds, and these pauses were what set the slowest answers. So: everything
    loaded before serving (modules, the app) is frozen (``gc.freeze``: never walked again),
    and a full pass waits for a thousand middle passes (minutes at full load). Little
    cyclic garbage waits meanwhile: what the server drops is freed by reference counting.
    On exit the defaults come back (tests start many apps in one process).
    """
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


# Headers on every HTTP answer. The pages load only their own scripts and styles; the API
# docs page (/docs, /redoc) loads FastAPI's documentation bundle from its CDN.
_BASE_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
_CSP = (b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
_DOCS_CSP = (b"default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
             b"style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
             b"worker-src 'self' blob:; object-src 'none'; frame-ancestors 'none'")


class SecurityHeaders:
    """ASGI middleware adding CSP (with frame-ancestors), Referrer-Policy and nosniff to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on; add the headers to the answer's start message."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = _DOCS_CSP if scope["path"] in ("/docs", "/redoc") else _CSP

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_BASE_HEADERS,
                                      (b"content-security-policy", csp)]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def client_address(request: Request | WebSocket) -> str:
    """The address limits are counted against (the proxy's client when uvicorn trusts its headers)."""
    return request.client.host if request.client else "unknown"


def store_error_response(err: Exception) -> Response:
    """The answer to a request the database could not serve, wherever it was raised: never a 500.

    Why: a read or write may meet the database away (stopped, restarting, unreachable)
    anywhere, not only where a route expects it. Whatever the route, the client learns
    that nothing was stored and to try again (503 with ``Retry-After``), or, for a write
    that lost a race with another request, that it changed meanwhile (409).
    """
    if isinstance(err, IntegrityError):
        return SafeJSONResponse({"detail": "this changed at the same moment through another request, so nothing "
                                           "was stored: look again and retry"}, status_code=409)
    log.warning("a request met the database away (%s)", type(err).__name__)
    detail = ("the server is restarting, so nothing was stored: try again in a moment"
              if isinstance(err, ShuttingDown) else
              "the database cannot be reached right now, so nothing was read or stored: try again in a moment")
    return SafeJSONResponse({"detail": detail}, status_code=503, headers={"Retry-After": "2"})


def _static_page(name: str) -> HTMLResponse:
    return HTMLResponse(STATIC.joinpath(name).read_text(encoding="utf-8"))


def _validation_message(err: RequestValidationError) -> str:
    parts = []
    for e in err.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        parts.append(f"{where or 'body'}: {e.get('msg', 'invalid')}")
    return "; ".join(parts)[:1000] or "invalid request"


def _close_reason(message: str) -> str:
    """A close frame's reason: at most 123 bytes of UTF-8."""
    return message.encode("utf-8", "replace")[:120].decode("utf-8", "ignore")


def _text_sender(websocket: WebSocket) -> Callable[[str], Awaitable[None]]:
    """How a table's pushes are sent: straight to the server's protocol when it offers its ``send``
    (``wsprotocol.py``), else through Starlette (the test client)."""
    raw = websocket.scope.get("boneyard.send")
    if raw is None:
        return websocket.send_text

    async def send_text(text: str) -> None:
        await raw({"type": "websocket.send", "text": text})

    return send_text


async def _drain(websocket: WebSocket) -> None:
    """Read and ignore whatever the client sends (text, binary, junk) until it disconnects."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


def create_app(
    db_url: str = DEFAULT_DB,
    bot_delay: float = 0.6,
    *,
    limits: LimitSettings | None = None,
    idle_timeout: float = 6 * 3600,
    finished_linger: float = 120.0,
    public_url: str = "",
    tune_gc: bool = False,
    redis_url: str | None = None,
    bot_ms_cap: float | None = BOT_MS_CAP,
    compute_workers: int | None = None,
    bot_heartbeat: float = HEARTBEAT,
    ladder: float | None = None,
    ladder_rules: dict[str, Any] | None = None,
    clock: Clock | None = None,
    mail: MailSettings | None = None,
    push_loopback: bool = False,
) -> FastAPI:
    """The web app on the database at ``db_url``; bots wait ``bot_delay`` seconds before acting.

    ``limits`` sets the per-address rate limits and table cap (default
    :class:`LimitSettings`); a table with no action for ``idle_timeout`` seconds expires; a
    finished table leaves memory ``finished_linger`` seconds after its last action.
    ``public_url`` is the address the copy-link buttons give out (``--public-url``).
    ``tune_gc`` (``boneyard serve``) sets the collector for a long-running server while the
    app runs (:func:`quiet_collector`); tests leave it alone. ``redis_url`` (``--redis``)
    shares the limits and caps with every process that names the same Redis (``sharedlimits.py``).
    ``bot_ms_cap`` (``--bot-ms-cap``) is the most a search bot thinks per move, in
    milliseconds; ``compute_workers`` (``--compute-workers``) the worker processes that run
    the searches and the coach (``compute.py``; default: half the cores).
    ``bot_heartbeat`` is the seconds between the empty lines of a quiet bot stream (``botapi.py``);
    ``ladder`` (``--ladder``) the seconds between the ladder's pairings of online bots, its games
    played with the rules options ``ladder_rules`` where a game has them (``--ladder-rules``).
    ``clock`` is the move clocks' time (default: real time); a :class:`~.clock.TestClock`
    (``--test-clock``, tests only) also mounts ``POST /api/test/clock``, which advances it.
    ``mail`` is the SMTP server notices go through by e-mail (``--smtp-host``; None: no e-mail);
    ``push_loopback`` lets a push subscription name a plain-http endpoint on this machine (tests only).
    """
    store = Store(db_url)
    rate = RateLimits(limits, redis_url, table_lease=idle_timeout)
    service = TableService(store, bot_delay=bot_delay, idle_timeout=idle_timeout, finished_linger=finished_linger,
                           compute_workers=compute_workers, bot_ms_cap=bot_ms_cap,
                           search_seats=rate.settings.search)
    if rate.caps is not None:
        service.hooks.append(rate)  # the shared cap on open tables follows their changes
    clock = clock or Clock()
    social = Social(service, public_url, limiter=rate.window, clock=clock)
    coach = Coach(service)  # hints and reviews (coaching.py)
    bots = Bots(service, social, rate, heartbeat=bot_heartbeat)  # bot accounts and their streams (botapi.py)
    notices = Notices(service, social, mail, public_url, push_loopback)  # push and e-mail (notices.py)
    tourney = Tourney(service, social, limiter=rate.window)  # club events: rounds of tables, standings (tourney.py)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        social.start_clock()
        await notices.start()
        service._spawn(tourney.resume())  # running events go on where they were
        bots.started()
        if ladder:
            bots.start_ladder(ladder, ladder_rules)
        async with quiet_collector() if tune_gc else contextlib.nullcontext():
            yield
        await bots.stop()
        await notices.stop()
        await social.stop_clock()
        await service.stop()
        coach.close()
        await rate.close()
        store.close()

    app = FastAPI(
        title="boneyard",
        version="0.1.0",
        summary="Play five domino games in the browser, with friends and bots.",
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
    )
    app.state.service = service
    app.state.rate = rate
    app.state.social = social
    app.state.coach = coach
    app.state.bots = bots
    app.state.notices = notices
    app.state.tourney = tourney
    app.add_middleware(SecurityHeaders)
    app.add_middleware(SocketCap, cap=rate.settings.sockets, shared=rate.caps)
    # a move's posts skip the framework (hotpath.py), with the same headers
    app.add_middleware(HotPath, service=service, headers=[*_BASE_HEADERS, (b"content-security-policy", _CSP)])
    # outermost of all: a body over its size limit is refused before anything reads it
    app.add_middleware(BodyLimit, headers=[*_BASE_HEADERS, (b"content-security-policy", _CSP)])
    # before even that: a limited route's request is counted (and refused past the limit) unread
    app.add_middleware(LimitGate, rate=rate, headers=[*_BASE_HEADERS, (b"content-security-policy", _CSP)])

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, err: ServerError) -> Response:
        content: dict[str, Any] = {"detail": str(err)}
        if err.state is not None:
            content["state"] = err.state
        return SafeJSONResponse(content, status_code=err.status, headers=err.headers)

    @app.exception_handler(SQLAlchemyError)
    async def _database_error(_request: Request, err: SQLAlchemyError) -> Response:
        return store_error_response(err)

    @app.exception_handler(ShuttingDown)
    async def _shutting_down(_request: Request, err: ShuttingDown) -> Response:
        return store_error_response(err)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, err: RequestValidationError) -> Response:
        return SafeJSONResponse({"detail": _validation_message(err)}, status_code=422)

    def pushed(text: str) -> Response:
        return Response(content=text, media_type="application/json")

    # ----- the HTTP contract -----------------------------------------------------------

    @app.get("/healthz", tags=["service"])
    async def healthz() -> Response:
        """200 ``{"database": "ok", ...}`` when the database answers, else 503 with the error."""
        health = await service.health()
        return SafeJSONResponse(health, status_code=200 if health["database"] == "ok" else 503)

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Every game with its facts (``boneyard.game_info``), rules options with their ranges."""
        return [boneyard.game_info(g) for g in boneyard.games()]

    @app.get("/api/games/{game_id}/rules", response_class=PlainTextResponse, tags=["games"])
    async def game_rules(game_id: str) -> str:
        """A game's rules page, in Markdown."""
        return _rules_markdown(game_id)

    @app.get("/api/bots/about", tags=["games"])
    async def about_bots() -> list[dict[str, Any]]:
        """Each bot of ``GET /api/bots`` with a sentence on what it plays like: the lobby's "Which bot?".

        ``{name, about, searches, plays}``: ``about`` in a player's words (how strong, how long it
        takes, the server's think-time cap for a searching bot); ``searches``: its moves run
        in the compute pool and count against the ``search`` limit; ``plays``: ``null`` for a
        bot that plays every game, else the ``{game, players}`` tables it can sit at (the
        policy bot: where a learned network is shipped), so that the lobby offers it only there.
        """
        out = []
        for name in service.bot_names:
            thinks = searches(name)
            out.append({"name": name, "about": bot_about(name, service.bot_ms_cap if thinks else None, maker(name)),
                        "searches": thinks, "plays": seat_tables(name)})
        return out

    @app.get("/api/bots", tags=["games"])
    async def list_bots() -> list[str]:
        """The names of the bots a seat can be given here (``"bot:NAME"``): those this server can make.

        An installed bot that cannot be made with no settings (an extra that is not
        installed) is left out. A bot that plays only some games and player counts (the
        policy bot: where a learned network is shipped) is listed; ``GET /api/bots/about``
        says where (``plays``), and a seat elsewhere is refused in words.
        """
        return seat_bots()

    @app.get("/api/tables", tags=["tables"])
    async def list_tables() -> list[dict[str, Any]]:
        """Live and recently finished tables, newest first: game, seats, whether over, whether a fixed deal."""
        return service.lobby()

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Open a table. 400 names an unknown game, a bad player count, rules option or seat; 429 past the limits."""
        address = client_address(request)  # counted against the "create" limit at the door (limitgate.py)
        if isinstance(body.seats, list):  # the search bots it seats count against the address's budget
            service.check_search_seats(address, [k[4:] for k in body.seats if isinstance(k, str) and k[:4] == "bot:"])
        table = await rate.opening_table(
            address, service.open_tables_of(address),
            lambda: service.create(body.game, body.players, body.rules, body.seats, body.seed, body.deck,
                                   body.dealer, practice=body.practice, creator=address,
                                   next_timeout=body.next_timeout),
            lambda made: made.id)
        per_move, per_game = clock_option(body.clock)
        return {"id": table.id, "host_token": await social.created(table, per_move, per_game)}

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join_table(table_id: str, body: JoinTable) -> dict[str, Any]:
        """Take a human seat; the token is the seat's secret for every later request."""
        seat, token = await service.join(table_id, body.seat, body.name)
        return {"token": token, "seat": seat}

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str, authorization: str | None = Header(default=None)) -> Response:
        """The table as the token's seat sees it (no token: as a spectator): its view and the words of its events."""
        table = await service.get(table_id)
        seat = await service.seat_for(table, bearer(authorization), required=False)
        return pushed(encode(service.state(table, seat)))

    @app.post("/api/tables/{table_id}/actions", tags=["tables"])
    async def play(table_id: str, body: PlayAction,
                   authorization: str | None = Header(default=None)) -> Response:
        """Play the token's seat's action: 400 if illegal or out of turn, 409 if stale, 503 if not stored."""
        table, seat = await service.act(table_id, bearer(authorization), body.action, body.expected_version)
        return pushed(service.push(table, seat))

    @app.post("/api/tables/{table_id}/next", tags=["tables"])
    async def next_hand(table_id: str, body: NextHand | None = None,
                        authorization: str | None = Header(default=None)) -> Response:
        """Press "Next hand": the table deals on once every human has (or its timeout passed). Idempotent."""
        table, seat = await service.next_hand(table_id, bearer(authorization), body.hand if body else None)
        return pushed(service.push(table, seat))

    @app.get("/api/tables/{table_id}/replay", tags=["tables"])
    async def replay_step(
        table_id: str,
        step: int = Query(ge=0, le=10**7, description="number of actions played"),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """A finished game after ``step`` actions, as the token's seat (or a spectator) saw it."""
        table = await service.get(table_id)
        seat = await service.seat_for(table, bearer(authorization), required=False)
        return await service.replay_state(table, seat, step)

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
        """Pushes the table's state on connect and on every change; closes 4403/4404/4410 or 4008 (too slow)."""
        await websocket.accept()
        try:
            table = await service.get(table_id)
            seat = await service.seat_for(table, token, required=False)
        except ServerError as err:
            code = {403: CLOSE_FORBIDDEN, 404: CLOSE_NOT_FOUND, 410: CLOSE_GONE}.get(err.status, 4000 + err.status)
            await websocket.close(code=code, reason=_close_reason(str(err)))
            return
        sub = Subscriber(seat, _text_sender(websocket))
        sub_id = service.subscribe(table, sub)
        tasks = [asyncio.ensure_future(sub.run()), asyncio.ensure_future(_drain(websocket)),
                 asyncio.ensure_future(sub.too_slow.wait())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            service.unsubscribe(table, sub_id)
            for task in tasks:
                task.cancel()
        if sub.too_slow.is_set():
            reason = "too slow: reconnect to get the current state" if sub.close_code != CLOSE_GONE \
                else "the table expired"
            try:
                await asyncio.wait_for(websocket.close(code=sub.close_code, reason=reason), 2.0)
            except Exception:
                # it reads nothing, so no close frame can reach it: reset the connection
                abort = websocket.scope.get("boneyard.abort")
                if abort is not None:
                    abort()

    # ----- pages -----------------------------------------------------------------------

    # Included after the play routes, whose paths they do not share: a request is matched
    # against the routes in order, and play (actions, states, sockets) is most of them.
    app.include_router(social_router(social))
    if isinstance(clock, TestClock):  # --test-clock: tests only, never a production route
        app.include_router(testing_router(clock, social.sweep_clocks, social.push_clocks))
    app.include_router(bots_router(bots))
    app.include_router(notices_router(notices, bearer))  # notices, the manifest and the service worker
    app.include_router(events_router(tourney))  # club events (tourney.py)
    app.include_router(coach_router(coach, rate.hit, client_address, bearer))
    app.include_router(pages_router)  # the front end's pages (rules), ahead of the routes below
    app.include_router(lessons.router(rate.hit, client_address, _static_page))  # learn to play (lessons.py)

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
            f"initial-scale=1'><title>{name} rules</title><link rel=manifest href='/manifest.webmanifest'>"
            f"<link rel=stylesheet href='/static/app.css'></head>"
            f"<body class=rules><nav><a href='/'>&larr; lobby</a></nav><main>{body}</main></body></html>"
        )

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    return app


ENV_PREFIX = "BONEYARD_"


def app_from_env() -> FastAPI:
    """The app as ``boneyard serve --workers N`` starts it in each worker process.

    uvicorn's workers import the app by name, so the options travel as environment
    variables: ``BONEYARD_DB``, ``BONEYARD_BOT_DELAY``, ``BONEYARD_LIMITS``, ``BONEYARD_IDLE_TIMEOUT``,
    ``BONEYARD_REDIS``, ``BONEYARD_BOT_MS_CAP``, ``BONEYARD_COMPUTE_WORKERS``, ``BONEYARD_SMTP``
    (``smtp://HOST:PORT?from=ADDRESS``), ``BONEYARD_PUSH_LOOPBACK`` (non-empty: ``--push-loopback``).
    """
    import os

    env = os.environ
    limits = env.get(ENV_PREFIX + "LIMITS", "")
    return create_app(
        env.get(ENV_PREFIX + "DB", DEFAULT_DB),
        bot_delay=float(env.get(ENV_PREFIX + "BOT_DELAY", "0.6")),
        limits=LimitSettings.parse(limits) if limits else None,
        idle_timeout=float(env.get(ENV_PREFIX + "IDLE_TIMEOUT", str(6 * 3600))),
        public_url=env.get(ENV_PREFIX + "PUBLIC_URL", ""),
        tune_gc=True,
        redis_url=env.get(ENV_PREFIX + "REDIS") or None,
        bot_ms_cap=float(env.get(ENV_PREFIX + "BOT_MS_CAP", str(BOT_MS_CAP))),
        compute_workers=int(env[ENV_PREFIX + "COMPUTE_WORKERS"]) if env.get(ENV_PREFIX + "COMPUTE_WORKERS") else None,
        mail=MailSettings.parse_url(env[ENV_PREFIX + "SMTP"]) if env.get(ENV_PREFIX + "SMTP") else None,
        push_loopback=bool(env.get(ENV_PREFIX + "PUSH_LOOPBACK")),
    )


def _rules_markdown(game_id: str) -> str:
    from boneyard.rulespages import rules_page

    from .tables import NotFound, quote

    if game_id not in boneyard.games():
        raise NotFound(f"unknown game {quote(game_id)}; known games: {', '.join(boneyard.games())}")
    try:
        return rules_page(game_id)
    except FileNotFoundError:
        return f"# {boneyard.game_info(game_id)['name']}\n\n{boneyard.game_info(game_id)['summary']}\n"
