"""The notices' routes (``docs/api.md``, "Notices"): the push key, a player's subscriptions and
settings, a table page's visibility, the confirm and unsubscribe links, and the installable
app's manifest and service worker (served from the root, so that it controls the lobby)."""

from __future__ import annotations

import html
from importlib import resources
from typing import Any

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import HTMLResponse, Response
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field

from ..words.notices import KINDS
from . import push
from .mail import clean_address
from .notices import MAX_ADDRESS, Notices
from .push import MAX_ENDPOINT
from .tables import BadRequest, NotFound, TooManyRequests, Unavailable, quote

PLAYER_RATE = "30/minute"  # requests with a player code one address may make here


def page(title: str, text: str) -> str:
    """A small page in words (the confirm and unsubscribe links), in the app's style."""
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
            f"content='width=device-width,initial-scale=1'><title>{html.escape(title)}</title>"
            f"<link rel=manifest href='/manifest.webmanifest'><link rel=stylesheet href='/static/app.css'></head>"
            f"<body class=rules><nav><a href='/'>&larr; lobby</a></nav><main><h1>{html.escape(title)}</h1>"
            f"<p>{html.escape(text)}</p></main></body></html>")


def static_text(*parts: str) -> str:
    """A file of the pages (``static/``), read as text."""
    path = resources.files("boneyard.server").joinpath("static")
    for part in parts:
        path = path.joinpath(part)
    return path.read_text(encoding="utf-8")


class PushKeys(BaseModel):
    """The keys of a subscription (``PushSubscription.toJSON().keys``)."""

    p256dh: str = Field(min_length=1, max_length=200)
    auth: str = Field(min_length=1, max_length=100)


class Subscription(BaseModel):
    """``POST /api/players/me/push``: a ``PushSubscription`` as the page's ``toJSON()`` gives it."""

    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT)
    keys: PushKeys
    expirationTime: float | None = None  # the Push API's own name


class Unsubscription(BaseModel):
    """``DELETE /api/players/me/push``: the endpoint of the subscription to forget."""

    endpoint: str = Field(min_length=1, max_length=MAX_ENDPOINT)


class SettingsBody(BaseModel):
    """``PUT /api/players/me/notices``: which kinds, by which ways, and the e-mail address (null: none)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kinds: list[str] = Field(max_length=len(KINDS))
    push: bool
    email: bool
    address: str | None = Field(default=None, max_length=MAX_ADDRESS)


class Looking(BaseModel):
    """``POST /api/tables/{id}/looking``: whether the table page is visible now."""

    model_config = ConfigDict(extra="forbid", strict=True)

    visible: bool


def router(notices: Notices, bearer: Any) -> APIRouter:
    """The notices' routes (``docs/api.md``, "Notices"), the manifest and the service worker."""
    r = APIRouter(tags=["notices"])
    limiter = MovingWindowRateLimiter(MemoryStorage())
    rate = parse(PLAYER_RATE)
    social = notices.social

    async def player(request: Request, code: str | None) -> str:
        address = request.client.host if request.client else "unknown"
        if not limiter.hit(rate, "notices", address):
            raise TooManyRequests(f"too many requests with a player code (at most {PLAYER_RATE}): wait a minute", 60)
        pid, _name = await notices._run(social.player, code)
        return str(pid)

    @r.get("/api/push/key")
    async def push_key() -> dict[str, Any]:
        """The server's VAPID public key (the ``applicationServerKey`` a page subscribes with) and
        whether this server sends e-mail; 503 while the keys cannot be read from the database."""
        if not notices.public_key:
            raise Unavailable("the database cannot be reached right now, so the push key is not known yet: "
                              "try again in a moment")
        return {"key": notices.public_key, "email_available": notices.email_available}

    @r.post("/api/players/me/push", status_code=201)
    async def subscribe(body: Subscription, request: Request,
                        x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """Keep this device's push subscription for the player (X-Player: their code)."""
        pid = await player(request, x_player)
        why = (push.check_endpoint(body.endpoint, notices.push_loopback)
               or push.check_keys(body.keys.p256dh, body.keys.auth))
        if why:
            raise BadRequest(why)
        await notices._run(push.subscribe, notices.store, pid, body.endpoint, body.keys.p256dh, body.keys.auth)
        return {"subscribed": True}

    @r.delete("/api/players/me/push")
    async def unsubscribe(body: Unsubscription, request: Request,
                          x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """Forget this device's subscription: no more pushes to it."""
        pid = await player(request, x_player)
        if not await notices._run(push.unsubscribe, notices.store, pid, body.endpoint):
            raise NotFound("this player has no push subscription at that endpoint")
        return {"subscribed": False}

    @r.get("/api/players/me/notices")
    async def get_settings(request: Request, x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """The player's notice settings, how many devices have push, and whether this server sends e-mail."""
        pid = await player(request, x_player)
        out: dict[str, Any] = await notices._run(notices.settings_of, pid)
        return out

    @r.put("/api/players/me/notices")
    async def put_settings(body: SettingsBody, request: Request,
                           x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """Change the player's notice settings; a new address is sent a confirmation link (in the background)."""
        pid = await player(request, x_player)
        unknown = [k for k in body.kinds if k not in KINDS]
        if unknown:
            raise BadRequest(f"unknown kind of notice {quote(unknown[0])}; the kinds are {', '.join(KINDS)}")
        address = clean_address(body.address)
        origin = str(request.base_url).rstrip("/")
        out, pending = await notices._run(notices.save_settings, pid, body.kinds, body.push, body.email, address,
                                          origin)
        if pending is not None:
            notices.confirm_later(*pending)
        settings: dict[str, Any] = out
        return settings

    @r.post("/api/tables/{table_id}/looking")
    async def looking(table_id: str, body: Looking, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """The table page tells whether it is visible: no notice while the player looks at the table."""
        table = await notices.service.get(table_id)
        seat = notices.service.seat_of(table, bearer(authorization), required=True)
        notices.looking(table.id, seat, body.visible)
        return {"visible": body.visible}

    @r.get("/notices/confirm/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def confirm(token: str = Path(max_length=64)) -> HTMLResponse:
        address = await notices._run(notices.confirm, token)
        if address is None:
            return HTMLResponse(page("Link not known", "This confirmation link is not known here: it may be old "
                                     "(a newer address was saved since). Save your address again in the lobby's "
                                     "Notices to get a new one."), status_code=404)
        return HTMLResponse(page("E-mail notices confirmed",
                                 f"Notices of your games will now reach {address} when no device of yours "
                                 "gets them as pushes. Every e-mail has a link to stop them."))

    async def stop(token: str) -> HTMLResponse:
        address = await notices._run(notices.stop_email, token)
        if address is None:
            return HTMLResponse(page("Link not known", "This unsubscribe link is not known here, so nothing "
                                     "changed."), status_code=404)
        return HTMLResponse(page("No more e-mail",
                                 f"boneyard will send no more e-mail to {address}. To get e-mail again, tick "
                                 "\"By e-mail\" under Notices in the lobby."))

    @r.get("/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe_page(token: str = Path(max_length=64)) -> HTMLResponse:
        return await stop(token)

    @r.post("/unsubscribe/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def unsubscribe_one_click(token: str = Path(max_length=64)) -> HTMLResponse:
        return await stop(token)  # List-Unsubscribe-Post: a mail program's one click

    @r.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> Response:
        return Response(static_text("app.webmanifest"), media_type="application/manifest+json")

    @r.get("/sw.js", include_in_schema=False)
    async def service_worker() -> Response:
        # served from the root so that it may control the lobby ("/"); never cached by the browser's HTTP cache
        return Response(static_text("sw.js"), media_type="text/javascript",
                        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})

    return r
