"""A push service and a mail server on 127.0.0.1 for the notices' tests (nothing leaves the machine).

:class:`LocalPush` receives the POSTs a push service would (answering each path with the
status the test sets), :func:`new_subscription` makes what ``PushManager.subscribe`` would
give a page (a P-256 key pair and an auth secret made here, with cryptography), and
:func:`decrypt` opens a received body with the subscription's private key, as the browser
does (``http_ece``, the library pywebpush encrypts with). :class:`Mailbox` is an aiosmtpd
server that keeps every message it is sent.
"""

from __future__ import annotations

import base64
import email
import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from .conftest import free_port


def b64url(raw: bytes) -> str:
    """Base64url without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass
class Received:
    """One POST the local push service received."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class LocalPush:
    """A push service on 127.0.0.1: keeps what it receives; ``status[path]`` answers (default 201)."""

    received: list[Received] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                owner.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(owner.status.get(self.path, 201))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def at(self, path: str) -> list[Received]:
        """What was posted to ``path``."""
        return [r for r in self.received if r.path == path]

    def close(self) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class Sub:
    """A subscription as a browser holds it: what it gives the server, and its private key."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    def json(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``: the body of ``POST /api/players/me/push``."""
        point = self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                           serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": {"p256dh": b64url(point),
                                                                            "auth": b64url(self.auth)}}


def new_subscription(endpoint: str) -> Sub:
    """A fresh subscription for ``endpoint`` with keys made here."""
    return Sub(endpoint, ec.generate_private_key(ec.SECP256R1()), os.urandom(16))


def decrypt(received: Received, sub: Sub) -> dict[str, Any]:
    """The JSON a push carried, decrypted with the subscription's private key (fails on anything else)."""
    assert received.headers.get("content-encoding") == "aes128gcm", received.headers
    plain = http_ece.decrypt(received.body, private_key=sub.private_key, auth_secret=sub.auth, version="aes128gcm")
    out: dict[str, Any] = json.loads(plain)
    return out


class Mailbox:
    """An SMTP server (aiosmtpd) on 127.0.0.1 that keeps every message."""

    def __init__(self) -> None:
        from aiosmtpd.controller import Controller

        self.messages: list[Message] = []
        owner = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                owner.messages.append(email.message_from_bytes(envelope.content))
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def to(self, address: str) -> list[Message]:
        """The messages sent to ``address``."""
        return [m for m in self.messages if m["To"] == address]

    def close(self) -> None:
        """Stop serving."""
        self.controller.stop()


def wait_for(check: Callable[[], Any], timeout: float = 15.0) -> Any:
    """Poll ``check()`` until it gives something true; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def text_of(message: Message) -> str:
    """The plain-text body of an e-mail."""
    if message.is_multipart():
        for part in message.walk():
            if part.get_content_type() == "text/plain":
                return str(part.get_payload(decode=True).decode())  # type: ignore[union-attr]
    return str(message.get_payload(decode=True).decode())  # type: ignore[union-attr]
