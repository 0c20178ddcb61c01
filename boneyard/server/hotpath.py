"""The two requests every move makes, answered without FastAPI's per-request machinery.

``POST /api/tables/{id}/actions`` and ``POST /api/tables/{id}/next`` are most of a busy
server's HTTP traffic (a human's every move and every "Next hand"). Routing them through
FastAPI costs more than the move itself: a dozen middleware layers, dependency solving, a
pydantic model per body and a response object, each a few coroutines. :class:`HotPath`
sits in front of the app and answers these two requests itself when their body is
exactly the plain, valid form the web client sends (a JSON object of the documented
fields with values of the right type and range), calling the same service methods and
writing the same answers and headers as the routes in ``app.py``. Anything else (another
content type, an unknown field, a value out of range, a string where a number belongs)
is handed to the app with its body unread, so every refusal keeps the app's exact 422
message; the routes stay where they are, in the API docs and for those requests.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .tables import MAX_ACTION, ServerError, TableService

_PATH = re.compile(r"/api/tables/([^/]+)/(actions|next)")
MAX_BODY = 16384  # a valid body is far smaller (an action is at most MAX_ACTION characters)
MAX_HAND = 10**6  # NextHand.hand's bound in app.py


def _action_body(body: Any) -> tuple[str, int | None] | None:
    """``(action, expected_version)`` if ``body`` is a valid ``PlayAction`` in its plain form, else None."""
    if not isinstance(body, dict) or not body.keys() <= {"action", "expected_version"}:
        return None
    action, version = body.get("action"), body.get("expected_version")
    if not isinstance(action, str) or len(action) > MAX_ACTION:
        return None
    if version is not None and (type(version) is not int or version < 0):
        return None
    return action, version


def _next_body(body: Any) -> tuple[int | None] | None:
    """``(hand,)`` if ``body`` is a valid ``NextHand`` (or no body at all), else None."""
    if body is None:
        return (None,)
    if not isinstance(body, dict) or not body.keys() <= {"hand"}:
        return None
    hand = body.get("hand")
    if hand is not None and (type(hand) is not int or not 1 <= hand <= MAX_HAND):
        return None
    return (hand,)


class HotPath:
    """ASGI middleware answering well-formed action and "Next hand" posts directly (module docstring)."""

    def __init__(self, app: ASGIApp, service: TableService, headers: list[tuple[bytes, bytes]]) -> None:
        self.app = app
        self.service = service
        self.headers = headers  # the security headers every answer carries

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer a plain action or "Next hand" post; hand every other request to the app."""
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        match = _PATH.fullmatch(scope["path"])
        if match is None:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        chunks: list[bytes] = []
        size = 0
        more = True
        while more and size <= MAX_BODY:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            more = message.get("more_body", False)
        raw = b"".join(chunks)
        parsed = None if more or size > MAX_BODY else self._parse(match.group(2), headers.get(b"content-type"), raw)
        if parsed is None:
            await self.app(scope, replay_body(raw, more, receive), send)
            return
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        try:  # counted against the "act" limit at the door (limitgate.py)
            token = bearer(authorization)
            if match.group(2) == "actions":
                table, seat = await self.service.act(match.group(1), token, *parsed)
            else:
                table, seat = await self.service.next_hand(match.group(1), token, *parsed)
            status, text, extra = 200, self.service.push(table, seat).encode(), []
        except ServerError as err:
            content: dict[str, Any] = {"detail": str(err)}
            if err.state is not None:
                content["state"] = err.state
            status, text = err.status, json.dumps(content, separators=(",", ":")).encode("ascii")
            extra = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (err.headers or {}).items()]
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(text)).encode()),
                                *extra, *self.headers]})
        await send({"type": "http.response.body", "body": text})

    @staticmethod
    def _parse(kind: str, content_type: bytes | None, raw: bytes) -> tuple[Any, ...] | None:
        """The service call's arguments from a plain, valid body; None sends the request to the app."""
        if not raw:
            return _next_body(None) if kind == "next" else None
        if content_type is None or content_type.split(b";")[0].strip().lower() != b"application/json":
            return None
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return None
        return _action_body(body) if kind == "actions" else _next_body(body)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def replay_body(raw: bytes, more: bool, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body already read, then whatever is left of it."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": raw, "more_body": more}
        return await receive()

    return replayed
