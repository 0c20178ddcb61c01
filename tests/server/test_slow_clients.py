"""A WebSocket client that never reads holds nobody up, against a real server on a real socket."""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .conftest import Server, auth


def raw_websocket(port: int, path: str) -> socket.socket:
    """Open a WebSocket by hand on a socket with a tiny receive buffer, and never read from it again."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # byte by byte: nothing past the handshake is consumed
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server whose bots act at once, so pushes pile up quickly."""
    srv = Server(f"sqlite:///{tmp_path / 'slow.db'}", bot_delay=0.0).start()
    yield srv
    srv.stop()


def test_a_client_that_never_reads_is_dropped_and_the_table_plays_on(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as http:
        # a long game (eighty to 1,000 points): far more pushes than socket buffers and queues hold
        body = {"game": "eighty", "players": 4, "rules": {"target": 1000},
                "seats": ["human", "bot:random", "bot:random", "bot:random"], "next_timeout": 0}
        table_id = http.post("/api/tables", json=body).json()["id"]
        token = http.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}).json()["token"]
        stuck = [raw_websocket(server.port, f"/ws/tables/{table_id}") for _ in range(3)]
        slowest = 0.0
        actions = 0
        while actions < 1000:
            state = http.get(f"/api/tables/{table_id}", headers=auth(token)).json()
            if state["is_over"]:
                break
            if state["current_player"] != 0:
                time.sleep(0.01)
                continue
            started = time.monotonic()
            r = http.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                          json={"action": state["legal_actions"][0], "expected_version": state["version"]})
            slowest = max(slowest, time.monotonic() - started)
            assert r.status_code in (200, 409), r.text  # 409: a bot moved between our GET and POST
            actions += 1
        final = http.get(f"/api/tables/{table_id}").json()["version"]
        assert final > 300, f"too few pushes ({final}) to fill the buffers and queues"
        # The server gave up on the stuck clients: a frame closing with 4008, or a reset connection
        # (were they still subscribed, the socket would stay open and recv would time out).
        for sock in stuck:
            sock.settimeout(10)
            received = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := sock.recv(1 << 20):
                    received += chunk
            # what it got before the reset is the start of the table's pushes, never all of them
            assert f'"version":{final},'.encode() not in received
            sock.close()
        # a fresh connection resyncs at once: its first message is the current state
        from websockets.sync.client import connect

        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}") as ws:
            now = http.get(f"/api/tables/{table_id}").json()["version"]
            assert f'"version":{now},' in str(ws.recv(5))
    assert slowest < 5.0, f"a human's POST took {slowest:.1f} s while a client did not read"
