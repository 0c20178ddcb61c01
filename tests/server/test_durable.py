"""Stored before answered, 503 never 500, quarantine, and limits counted at the door (issue #37).

The fault tests use real faults: a server process killed with kill -9 right after it
answered, and a real PostgreSQL stopped under a running server.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import update

from boneyard.server import create_app
from boneyard.server.db import Store, TableRow
from boneyard.server.ratelimit import LimitSettings

from .conftest import NO_LIMITS, Server, auth
from .pg import PgCluster


def wait(check: Any, timeout: float, what: str) -> Any:
    """Poll until ``check()`` returns something true; returns it."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return found


def friends_table(url: str, names: list[str], seats: list[str] | None = None) -> tuple[str, str, list[str]]:
    """A one-hand Rounce table from the lobby with these players seated: its id, host token and seat tokens."""
    seats = seats or ["human"] * len(names)
    r = httpx.post(f"{url}/api/tables", json={"game": "rounce", "players": len(seats), "seats": seats,
                                              "rules": {"max_hands": 1}}, timeout=20)
    assert r.status_code == 201, r.text
    table_id, host = r.json()["id"], r.json()["host_token"]
    tokens = []
    for seat, name in enumerate(names):
        r = httpx.post(f"{url}/api/tables/{table_id}/join", json={"seat": seat, "name": name}, timeout=20)
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return table_id, host, tokens


def room(url: str, table_id: str) -> dict[str, Any]:
    """The friends' view of a table."""
    r = httpx.get(f"{url}/api/tables/{table_id}/friends", timeout=20)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_every_answered_chat_stand_in_and_leave_survives_a_kill_9(tmp_path: Path) -> None:
    """A burst of chat lines, leaves and a stand-in, then kill -9 the moment the last one is
    answered: after a restart, every change that was answered 200 is there."""
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    server = Server(db, bot_delay=60).start()  # bots wait: the log holds only what is sent here
    names = ["Ann", "Bob", "Cy", "Di"]
    try:
        table_id, host, tokens = friends_table(server.url, names)
        answered: list[tuple[str, Any]] = []
        lock = threading.Lock()

        def send(seat: int) -> None:
            with httpx.Client(base_url=server.url, timeout=20) as http:
                for i in range(5):
                    text = f"{names[seat]} says {i}"
                    r = http.post(f"/api/tables/{table_id}/chat", json={"text": text}, headers=auth(tokens[seat]))
                    if r.status_code == 200:
                        with lock:
                            answered.append(("chat", text))
                if seat < 3:  # Ann, Bob and Cy leave: a bot plays for each
                    r = http.post(f"/api/tables/{table_id}/standin", json={"seat": seat, "bot": "greedy"},
                                  headers=auth(tokens[seat]))
                    if r.status_code == 200:
                        with lock:
                            answered.append(("left", seat))

        threads = [threading.Thread(target=send, args=(seat,)) for seat in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        # the host gives Ann's seat back, and the server dies the moment that is answered
        r = httpx.post(f"{server.url}/api/tables/{table_id}/standin", json={"seat": 0, "bot": None},
                       headers={"X-Host-Token": host}, timeout=20)
        server.kill()
        assert r.status_code == 200, r.text
        answered.append(("back", 0))
        assert len(answered) == 4 * 5 + 3 + 1
        server = Server(db, bot_delay=60).start()
        after = room(server.url, table_id)
        texts = [e["text"] for e in after["log"]]
        lost = [text for kind, text in answered if kind == "chat" and text not in texts]
        assert not lost, f"{len(lost)} answered chat lines were lost: {lost}"
        standins = {s["seat"]: s["standin"] for s in after["seats"]}
        assert standins == {0: None, 1: "greedy", 2: "greedy", 3: None}, after["seats"]
        assert [s["left"] for s in after["seats"]] == [False, True, True, False]
        assert "Bob left: the greedy bot plays for them" in texts and "Ann plays again" in texts
    finally:
        server.stop()


def test_chat_stand_in_leave_and_start_answer_503_while_postgresql_is_stopped(cluster: PgCluster) -> None:
    """With the database stopped, each write is refused with 503 and nothing of it is kept;
    once the database is back they work, and a restart finds the tables as they were stored."""
    server = Server(cluster.url, bot_delay=60).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=20)
        table_id, host, tokens = friends_table(server.url, ["Ann", "Bob", "Cy"])
        assert http.post(f"/api/tables/{table_id}/standin", json={"seat": 2, "bot": "greedy"},
                         headers=auth(tokens[2])).status_code == 200  # Cy left before the outage
        waiting, waiting_host, _ = friends_table(server.url, ["Ann"], seats=["human", "human", "human"])
        before = room(server.url, table_id)
        seats_before = http.get(f"/api/tables/{waiting}").json()["seats"]

        cluster.stop()
        refused = {
            "chat": http.post(f"/api/tables/{table_id}/chat", json={"text": "anyone there?"}, headers=auth(tokens[0])),
            "leave": http.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "greedy"},
                               headers=auth(tokens[1])),
            "stand-in back": http.post(f"/api/tables/{table_id}/standin", json={"seat": 2, "bot": None},
                                       headers={"X-Host-Token": host}),
            "start": http.post(f"/api/tables/{waiting}/start", json={"bot": "greedy"},
                               headers={"X-Host-Token": waiting_host}),
        }
        for what, r in refused.items():
            assert r.status_code == 503, (what, r.status_code, r.text)
            assert "database" in r.json()["detail"] and "try again" in r.json()["detail"], r.text
        assert "message was not sent" in refused["chat"].json()["detail"]
        assert "Bob's seat was not handed to the greedy bot" in refused["leave"].json()["detail"]
        assert "did not start" in refused["start"].json()["detail"]
        # nothing refused is in memory either
        assert room(server.url, table_id) == before
        assert http.get(f"/api/tables/{waiting}").json()["seats"] == seats_before
        assert room(server.url, waiting)["started"] is False
        cluster.start()

        wait(lambda: http.get("/healthz").status_code == 200, 30, "healthz never recovered")
        server.kill()
        server = Server(cluster.url, bot_delay=60).start()
        http = httpx.Client(base_url=server.url, timeout=20)
        again = room(server.url, table_id)
        assert "anyone there?" not in [e["text"] for e in again["log"]]
        assert [s["standin"] for s in again["seats"]] == [None, None, "greedy"]
        r = http.get(f"/api/tables/{waiting}")
        assert r.status_code == 200, r.text  # a failed Start left nothing half written
        assert r.json()["seats"] == seats_before
        r = http.post(f"/api/tables/{waiting}/start", json={"bot": "greedy"}, headers={"X-Host-Token": waiting_host})
        assert r.status_code == 200, r.text
        assert http.post(f"/api/tables/{table_id}/chat", json={"text": "back again"},
                         headers=auth(tokens[0])).status_code == 200
    finally:
        server.stop()


# Bodies and headers that make each route go as far as it can (to the database) rather than
# stop at validation: the walk below sends them to every route of the app.
def _walk_request(route: APIRoute, method: str, ids: dict[str, str], auth_headers: dict[str, str],
                  ) -> tuple[str, dict[str, Any] | None, dict[str, str]]:
    # every path parameter filled: ids' own, then a plausible value for the other routes' (lessons...)
    filled = {"game": "rounce", "lesson": "trumps", "step": "1", **ids}
    path = route.path.format(**{k: filled.get(k, "x") for k in route.param_convertors})
    bodies: dict[str, dict[str, Any]] = {
        "/api/tables": {"game": "rounce", "players": 2},
        "/api/tables/{table_id}/join": {"name": "Zed"},
        "/api/tables/{table_id}/actions": {"action": "pass"},
        "/api/tables/{table_id}/next": {},
        "/api/tables/{table_id}/start": {"bot": "greedy"},
        "/api/tables/{table_id}/standin": {"seat": 1, "bot": "greedy"},
        "/api/tables/{table_id}/chat": {"text": "hello"},
        "/api/players": {"name": "Newcomer"},
    }
    body = bodies.get(route.path, {}) if method in ("POST", "PUT", "PATCH") else None
    return path, body, auth_headers


def api_routes(routes: list[Any]) -> list[APIRoute]:
    """Every HTTP route of the app, those of included routers too (FastAPI may keep those as a router)."""
    out: list[APIRoute] = []
    for route in routes:
        if isinstance(route, APIRoute):
            out.append(route)
        elif hasattr(route, "original_router"):
            out.extend(api_routes(route.original_router.routes))
    return out


def test_no_endpoint_answers_500_while_postgresql_is_stopped(cluster: PgCluster) -> None:
    """Every route of the app, sent a valid request during an outage: 503 (or its usual answer
    where it needs no database), never 500; the routes that read the database say 503."""
    app = create_app(cluster.url, bot_delay=60, limits=NO_LIMITS)
    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.post("/api/tables", json={"game": "rounce", "players": 2, "rules": {"max_hands": 1}})
        table_id, host = r.json()["id"], r.json()["host_token"]
        token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
        code = client.post("/api/players", json={"name": "Ann"}).json()["code"]
        assert client.post(f"/api/tables/{table_id}/claim", headers={**auth(token), "X-Player": code}
                           ).status_code == 200
        headers = {**auth(token), "X-Host-Token": host, "X-Player": code}
        cluster.stop()
        answers: dict[str, int] = {}
        for route in api_routes(app.routes):
            for method in sorted((route.methods or set()) - {"HEAD"}):
                # a table this server holds in memory, and one it would have to read from the database
                for ids in ({"table_id": table_id, "game_id": "rounce"},
                            {"table_id": "storedelsewhere1", "game_id": "rounce"}):
                    path, body, sent = _walk_request(route, method, ids, headers)
                    r = client.request(method, path, json=body, headers=sent)
                    answers[f"{method} {path}"] = r.status_code
                    assert r.status_code != 500, (method, path, r.text)
                    if r.status_code == 503:
                        assert "database" in r.text, (method, path, r.text)  # /healthz: {"database": ...}
        for must in ("POST /api/players", "GET /api/players/me/tables", f"POST /api/tables/{table_id}/claim",
                     "GET /api/games/rounce/leaderboard", "GET /api/history", f"POST /api/tables/{table_id}/chat",
                     "GET /api/tables/storedelsewhere1", "POST /api/tables"):
            assert answers.get(must) == 503, (must, answers)
        assert len(answers) > 40
        cluster.start()
        wait(lambda: client.get("/healthz").status_code == 200, 30, "healthz never recovered")
        assert client.get("/api/history").status_code == 200


def _corrupt(url: str, table_id: str, **values: Any) -> None:
    store = Store(url)
    with store.session() as s:
        s.execute(update(TableRow).where(TableRow.id == table_id).values(**values))
    store.close()


@pytest.mark.parametrize("corruption", [
    {"seats": ["human", "bot:policy"]},  # a bot that cannot play here (no network is shipped for two players)
    {"seats": ["human"]},  # fewer seats than players
    {"rules": {"max_hands": "many"}},  # a rules value the game refuses
])
def test_a_table_that_cannot_be_restored_is_quarantined_whatever_broke_it(
        tmp_path: Path, corruption: dict[str, Any]) -> None:
    url = f"sqlite:///{tmp_path / 'q.db'}"
    with TestClient(create_app(url, bot_delay=60, limits=NO_LIMITS)) as client:
        broken = client.post("/api/tables", json={"game": "rounce", "players": 2,
                                                  "seats": ["human", "bot:random"]}).json()["id"]
        token = client.post(f"/api/tables/{broken}/join", json={"name": "Ann"}).json()["token"]
        fine = client.post("/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
    _corrupt(url, broken, **corruption)
    # a restart: the broken table is set aside, the rest of the server works
    with TestClient(create_app(url, bot_delay=60, limits=NO_LIMITS), raise_server_exceptions=False) as client:
        for path in (f"/api/tables/{broken}", f"/api/tables/{broken}/friends"):
            r = client.get(path)
            assert r.status_code == 410, (path, r.status_code, r.text)
            assert r.json()["detail"].startswith("this table could not be restored"), r.text
        r = client.post(f"/api/tables/{broken}/chat", json={"text": "hi"}, headers=auth(token))
        assert r.status_code == 410, r.text
        assert client.get(f"/api/tables/{fine}").status_code == 200
        assert client.get("/api/tables").status_code == 200
        assert client.get("/healthz").json()["quarantined"] == 1


def test_a_failed_start_leaves_the_seats_as_stored_when_the_database_is_away(cluster: PgCluster) -> None:
    """In process: the Start's write fails, and the table in memory is as stored (then Start works)."""
    with TestClient(create_app(cluster.url, bot_delay=60, limits=NO_LIMITS)) as client:
        r = client.post("/api/tables", json={"game": "rounce", "players": 3, "rules": {"max_hands": 1}})
        table_id, host = r.json()["id"], r.json()["host_token"]
        client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"})
        cluster.stop()
        r = client.post(f"/api/tables/{table_id}/start", json={"bot": "random"}, headers={"X-Host-Token": host})
        assert r.status_code == 503, r.text
        assert [s["kind"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]] == ["human"] * 3
        cluster.start()
        wait(lambda: client.get("/healthz").status_code == 200, 30, "healthz never recovered")
        r = client.post(f"/api/tables/{table_id}/start", json={"bot": "random"}, headers={"X-Host-Token": host})
        assert r.status_code == 200, r.text
        assert [s["kind"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]] == ["human", "bot", "bot"]


# ----- limits --------------------------------------------------------------------------


def limited(tmp_path: Path, **limits: Any) -> TestClient:
    """The app with only the given limits on (``None`` for the rest: each test sees its own)."""
    settings = dataclasses.replace(LimitSettings.parse("off"), **limits)
    return TestClient(create_app(f"sqlite:///{tmp_path / 'limits.db'}", bot_delay=60, limits=settings))


def test_invalid_requests_count_against_the_rate_limits(tmp_path: Path) -> None:
    """Bodies refused as invalid (422) or too large (413) are counted before they are read."""
    with limited(tmp_path, create="3/minute", act="3/minute") as client:
        for body in ({"game": "rounce", "players": "2"}, {"game": 7}):
            assert client.post("/api/tables", json=body).status_code == 422
        assert client.post("/api/tables", content=b"x" * 20000,
                           headers={"content-type": "application/json"}).status_code == 413
        r = client.post("/api/tables", json={"game": "rounce", "players": 2})
        assert r.status_code == 429, r.text
        assert "too many new tables from your address" in r.json()["detail"] and r.headers["Retry-After"]
    with limited(tmp_path, act="3/minute") as client:
        table_id = client.post("/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
        token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
        for _ in range(3):
            r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass", "expected_version": "0"},
                            headers=auth(token))
            assert r.status_code == 422 and "expected_version" in r.text
        r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass"}, headers=auth(token))
        assert r.status_code == 429 and "too many actions" in r.json()["detail"], r.text


def test_registering_and_claiming_codes_are_rate_limited_by_default(tmp_path: Path) -> None:
    """A server's default limits: 10 new player codes and 10 claims (each checks a code) a minute per address."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'codes.db'}", bot_delay=60, limits=LimitSettings())) as client:
        codes = [client.post("/api/players", json={"name": f"P{i}"}) for i in range(10)]
        assert {r.status_code for r in codes} == {201}
        r = client.post("/api/players", json={"name": "P11"})
        assert r.status_code == 429 and "too many new player codes" in r.json()["detail"], r.text
        assert int(r.headers["Retry-After"]) >= 1
        table_id = client.post("/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
        token = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
        for i in range(10):  # guessing codes
            r = client.post(f"/api/tables/{table_id}/claim", headers={**auth(token), "X-Player": f"AAAA-AAAA-AA{i:02}"})
            assert r.status_code == 403, r.text
        r = client.post(f"/api/tables/{table_id}/claim", headers={**auth(token), "X-Player": codes[0].json()["code"]})
        assert r.status_code == 429 and "too many player codes tried" in r.json()["detail"], r.text


def test_a_string_is_not_a_seat_number_in_the_friends_routes(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce", "players": 2})
    table_id, host = r.json()["id"], r.json()["host_token"]
    client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"})
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": "0", "bot": "greedy"},
                    headers={"X-Host-Token": host})
    assert r.status_code == 422 and r.json()["detail"] == "seat: Input should be a valid integer", r.text
