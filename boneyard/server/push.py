"""Web Push for the notices (``notices.py``): the server's VAPID keys, the players' subscriptions
and sending one encrypted push.

The key pair that signs the pushes is made at the server's first start and kept in the
database (``push_keys``), never in a file or the code, so every process and every restart
signs with the same key and the subscriptions browsers made with it keep working. A
push is encrypted for its subscription (``aes128gcm``, RFC 8291) by ``pywebpush``.
"""

from __future__ import annotations

import base64
import json
import logging
import time
from typing import Any

from sqlalchemy import Float, Integer, String, Text, delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from .db import Base, Store

log = logging.getLogger("boneyard.server")

PUSH_TTL = 24 * 3600  # seconds a push service keeps a notice for a device that is off
GONE = (404, 410)  # a push service's answers for a subscription it has dropped
MAX_ENDPOINT = 1000


class PushKeyRow(Base):
    """The server's VAPID key pair (one row): made at the first start, kept for good."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_key: Mapped[str] = mapped_column(String(120))  # base64url of the uncompressed point


class PushSubRow(Base):
    """One device's push subscription for a player (what ``PushManager.subscribe`` gave the page)."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(MAX_ENDPOINT), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created: Mapped[float] = mapped_column(Float)


def b64url(raw: bytes) -> str:
    """Base64url without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def new_key_pair() -> tuple[str, str]:
    """A fresh VAPID key pair: the private key as PEM and the public key as the page passes it to
    ``PushManager.subscribe`` (``applicationServerKey``: base64url of the uncompressed P-256 point)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return pem, b64url(point)


def keys_of(store: Store) -> tuple[str, str]:
    """The server's VAPID keys, made and stored the first time (a second process starting at the
    same moment loses the insert's race and reads the winner's keys)."""
    with store.session() as s:
        row = s.get(PushKeyRow, 1)
        if row is not None:
            return row.private_pem, row.public_key
    pem, public = new_key_pair()
    try:
        with store.session() as s:
            s.add(PushKeyRow(id=1, private_pem=pem, public_key=public))
    except IntegrityError:
        with store.session() as s:
            row = s.get(PushKeyRow, 1)
            assert row is not None
            return row.private_pem, row.public_key
    return pem, public


def check_keys(p256dh: str, auth: str) -> str | None:
    """Why a subscription's keys are refused (None: fine): a P-256 point and a 16-byte secret, base64url."""
    try:
        point = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
    except ValueError:
        return "a push subscription's keys must be base64url, as PushSubscription.toJSON() gives them"
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        return "a push subscription's keys must be a P-256 public key (p256dh) and a 16-byte secret (auth)"
    return None


def check_endpoint(endpoint: str, loopback: bool) -> str | None:
    """Why a subscription's endpoint is refused (None: it is fine): a push service is https; with
    ``loopback`` (``--push-loopback``), plain http on this machine too."""
    from urllib.parse import urlsplit

    parts = urlsplit(endpoint)
    if parts.scheme == "https" and parts.hostname:
        return None
    if loopback and parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1"):
        return None
    return "a push subscription's endpoint must be an https:// address of a push service"


def send(endpoint: str, p256dh: str, auth: str, payload: dict[str, Any], private_pem: str, contact: str,
         timeout: float) -> int | None:
    """Send one push (blocking: run it in a thread); None when the push service took it, else its
    status (0: it could not be reached). ``contact`` is the VAPID ``sub`` claim."""
    from py_vapid import Vapid
    from pywebpush import WebPushException, webpush

    try:
        webpush({"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}, data=json.dumps(payload),
                vapid_private_key=Vapid.from_pem(private_pem.encode()), vapid_claims={"sub": contact},
                ttl=PUSH_TTL, timeout=timeout)
        return None
    except WebPushException as err:
        status = err.response.status_code if err.response is not None else 0
        if status not in GONE:
            log.warning("a push service refused a notice (%s)", status)
        return int(status or 0)
    except Exception as err:  # unreachable, timed out
        log.warning("a push service could not be reached (%s)", type(err).__name__)
        return 0


def subscribe(store: Store, player: str, endpoint: str, p256dh: str, auth: str) -> None:
    """Store a device's subscription for the player (a device subscribing again replaces its own)."""
    with store.session() as s:
        s.execute(delete(PushSubRow).where(PushSubRow.endpoint == endpoint))
        s.add(PushSubRow(endpoint=endpoint, player_id=player, p256dh=p256dh, auth=auth, created=time.time()))


def unsubscribe(store: Store, player: str, endpoint: str) -> bool:
    """Forget the player's subscription at ``endpoint``; False when they had none there."""
    with store.session() as s:
        gone = s.execute(delete(PushSubRow).where(PushSubRow.endpoint == endpoint, PushSubRow.player_id == player))
        return bool(getattr(gone, "rowcount", 0))


def forget(store: Store, endpoint: str) -> None:
    """Delete a subscription its push service has dropped (it answered 404 or 410)."""
    with store.session() as s:
        s.execute(delete(PushSubRow).where(PushSubRow.endpoint == endpoint))
