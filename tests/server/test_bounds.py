"""Bounds on what a request may carry: body sizes refused before parsing (413), and strict types (422)."""

from __future__ import annotations

import contextlib
import socket
import time
from pathlib import Path

import httpx
from fastapi.testclient import TestClient

from boneyard.server.bodylimit import LARGE_BODY, SMALL_BODY

from .conftest import Server, auth
from .test_api import join_all, new_table


def test_a_body_over_the_limit_is_refused_with_413_before_parsing(client: TestClient) -> None:
    table_id = new_table(client, players=2)
    tokens = join_all(client, table_id, 2)
    big = '{"action": "' + "x" * SMALL_BODY + '"}'
    r = client.post(f"/api/tables/{table_id}/actions", content=big, headers={**auth(tokens[0]),
                                                                             "content-type": "application/json"})
    assert r.status_code == 413 and "at most 4 KB" in r.json()["detail"]
    r = client.post("/api/tables", content='{"game": "' + "r" * LARGE_BODY + '"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and "at most 16 KB" in r.json()["detail"]
    assert client.get(f"/api/tables/{table_id}", headers=auth(tokens[0])).json()["version"] >= 0  # nothing changed


def test_strict_types_refuse_a_string_where_a_number_belongs(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce", "players": "2"})
    assert r.status_code == 422 and "players" in r.text
    table_id = new_table(client, players=2)
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": "0", "name": "Ann"})
    assert r.status_code == 422 and "seat" in r.text
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": True, "name": "Ann"})
    assert r.status_code == 422
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass", "expected_version": "0"},
                    headers=auth(token))
    assert r.status_code == 422 and "expected_version" in r.text


def test_a_streamed_body_without_a_length_is_cut_off_at_the_limit(tmp_path: Path) -> None:
    """A client streaming megabytes with no Content-Length is answered 413 while others are served at once."""
    server = Server(f"sqlite:///{tmp_path / 'b.db'}").start()
    try:
        sock = socket.create_connection(("127.0.0.1", server.port))
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 65536
        try:
            for _ in range(80):  # up to 5 MB, unless refused first
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                started = time.monotonic()
                assert httpx.get(f"{server.url}/api/games", timeout=5).status_code == 200
                assert time.monotonic() - started < 2  # the others are not held up
        except (BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(5)
        answer = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError):
            answer = sock.recv(4096)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    finally:
        server.stop()
