"""Real faults against real servers: PostgreSQL stopped mid-game, WebSocket handshakes refused."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from .conftest import Server, auth
from .pg import PgCluster


def wait(check: Any, timeout: float, what: str) -> None:
    """Poll until ``check()`` is true."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_postgresql_stopped_mid_game_then_restarted(cluster: PgCluster) -> None:
    server = Server(cluster.url, bot_delay=0.05).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=20)
        bots_only = http.post("/api/tables", json={"game": "eighty", "players": 4, "rules": {"target": 500},
                                                   "seats": ["bot:random"] * 4}).json()["id"]
        human_table = http.post("/api/tables", json={"game": "rounce", "players": 2,
                                                     "seats": ["human", "bot:random"]}).json()["id"]
        token = http.post(f"/api/tables/{human_table}/join", json={"name": "Ann"}).json()["token"]
        version = lambda t: http.get(f"/api/tables/{t}").json()["version"]  # noqa: E731
        wait(lambda: version(bots_only) >= 10, 30, "the bots did not start")
        wait(lambda: http.get(f"/api/tables/{human_table}").json()["current_player"] == 0, 30, "no human turn")
        mine = http.get(f"/api/tables/{human_table}", headers=auth(token)).json()

        cluster.stop()
        assert http.get("/healthz").status_code == 503
        assert http.get("/healthz").json()["database"] == "unavailable"
        r = http.post(f"/api/tables/{human_table}/actions", headers=auth(token),
                      json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
        assert r.status_code == 503 and "database" in r.json()["detail"], r.text
        assert http.get(f"/api/tables/{human_table}", headers=auth(token)).json() == mine  # as stored
        time.sleep(3)
        stalled = version(bots_only)
        time.sleep(0.5)
        assert version(bots_only) == stalled  # nothing is played that could not be stored
        cluster.start()

        wait(lambda: http.get("/healthz").status_code == 200, 30, "healthz never recovered")
        wait(lambda: version(bots_only) > stalled + 5, 30, "the bots did not resume by themselves")
        r = http.post(f"/api/tables/{human_table}/actions", headers=auth(token),
                      json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
        assert r.status_code == 200, r.text
        played = {t: http.get(f"/api/tables/{t}").json() for t in (bots_only, human_table)}
        server.kill()  # what was acknowledged is what was stored
        server = Server(cluster.url, bot_delay=60).start()
        for table_id, before in played.items():
            after = http.get(f"{server.url}/api/tables/{table_id}").json()
            assert after["version"] >= before["version"]
            if table_id == human_table:
                assert after["view"] == before["view"]
    finally:
        server.stop()


def test_websocket_handshakes_are_accepted_then_closed_with_a_code(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'ws.db'}").start()
    try:
        table_id = httpx.post(server.url + "/api/tables", json={"game": "rounce"}).json()["id"]
        for path, code in ((f"/ws/tables/{table_id}?token=forged", 4403), ("/ws/tables/nope", 4404),
                           ("/ws/tables/" + "x" * 300, 4404)):
            with connect(f"ws://127.0.0.1:{server.port}{path}") as ws, pytest.raises(ConnectionClosed) as err:
                ws.recv(5)
            assert err.value.rcvd is not None and err.value.rcvd.code == code, path
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}") as ws:
            first = json.loads(ws.recv(5))
            ws.send(b"\x00\x01binary junk")
            ws.send("text junk")
            ws.ping()
            assert first["version"] == 0
        assert server.proc is not None and server.proc.poll() is None
    finally:
        server.stop()
    assert server.proc is not None and server.proc.stderr is not None
    assert "Traceback" not in server.proc.stderr.read().decode()


def test_input_postgresql_refuses_is_refused_before_it(cluster: PgCluster) -> None:
    from fastapi.testclient import TestClient

    from boneyard.server import create_app

    from .conftest import NO_LIMITS

    with TestClient(create_app(cluster.url, bot_delay=0.0, limits=NO_LIMITS)) as client:
        table_id = client.post("/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
        for body in ({"name": "nul\x00name"}, {"name": "x" * 41}):
            assert client.post(f"/api/tables/{table_id}/join", json=body).status_code == 400
        tokens = [client.post(f"/api/tables/{table_id}/join", json={"name": n}).json()["token"] for n in ("A", "B")]
        bad_tables = [{"game": "rounce", "practice": True, "seed": int("7" * 100)},
                      {"game": "roun\x00ce"}, {"game": "twobox", "rules": {"target": "1\x00"}},
                      {"game": "rounce", "practice": True, "deck": ["6-6\x00"] * 28},
                      {"game": "rounce", "seats": ["bot:\x00", "human", "human", "human"]}]
        for body in bad_tables:
            r = client.post("/api/tables", json=body)
            assert r.status_code in (400, 422), (body, r.text)
        seat = client.get(f"/api/tables/{table_id}").json()["current_player"]
        r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pl\x00ay 6-6"}, headers=auth(tokens[seat]))
        assert r.status_code == 400
        assert client.get("/healthz").json()["database"] == "ok"
