"""A rematch keeps the last game's seats for their players, and two proposals make one table
(``docs/api.md``, "Rematch")."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from boneyard.server import social

from .conftest import Server, auth
from .pg import PgCluster
from .test_friends import create, join, play_out, room


def finished(client: TestClient) -> tuple[str, str, str]:
    """A finished one-hand table where Ann (seat 0) and Bob (seat 1) played a random bot."""
    table_id, _host = create(client, ["human", "human", "bot:random"])
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    play_out(client, table_id, {0: ann, 1: bob})
    return table_id, ann, bob


def lobby_line(client: TestClient, table_id: str) -> dict[str, Any]:
    """The lobby's line for one table."""
    line: dict[str, Any] = next(t for t in client.get("/api/tables").json() if t["id"] == table_id)
    return line


def test_a_stranger_cannot_take_the_seat_kept_for_the_last_player(client: TestClient) -> None:
    table_id, ann, bob = finished(client)
    offer = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann)).json()
    line = lobby_line(client, offer["id"])
    assert line["open_seats"] == [], "the lobby offers a seat kept for Bob to anyone"
    assert line["seats"][1]["reserved_for"] == "Bob"
    for name in ("Mallory", "Bob"):  # not even under the same name
        r = client.post(f"/api/tables/{offer['id']}/join", json={"seat": 1, "name": name})
        assert r.status_code == 409, r.text
        assert "kept for Bob" in r.json()["detail"] and "accept or decline" in r.json()["detail"]
    r = client.post(f"/api/tables/{offer['id']}/join", json={"name": "Mallory"})  # "any free seat"
    assert r.status_code == 409 and "kept" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/rematch/accept", headers=auth(bob))
    assert r.status_code == 200, r.text
    assert r.json()["id"] == offer["id"] and r.json()["seat"] == 1
    assert [s["name"] for s in client.get(f"/api/tables/{offer['id']}").json()["seats"]][:2] == ["Ann", "Bob"]
    assert room(client, offer["id"])["started"] is True


def test_a_declined_seat_opens_at_once(client: TestClient) -> None:
    table_id, ann, bob = finished(client)
    offer = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann)).json()
    r = client.post(f"/api/tables/{table_id}/rematch/decline", headers=auth(ann))
    assert r.status_code == 409 and "you proposed" in r.json()["detail"]
    assert client.post(f"/api/tables/{table_id}/rematch/decline", headers=auth(bob)).status_code == 200
    assert any(e["text"] == "Bob declines the rematch" for e in room(client, table_id)["log"])
    assert lobby_line(client, offer["id"])["open_seats"] == [1]
    r = client.post(f"/api/tables/{offer['id']}/join", json={"seat": 1, "name": "Cleo"})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{table_id}/rematch/accept", headers=auth(bob))
    assert r.status_code == 409 and "Cleo sits in your seat" in r.json()["detail"]


def test_the_seat_opens_when_its_time_is_up(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(social, "REMATCH_HOLD", 0.5, raising=False)
    table_id, ann, _bob = finished(client)
    offer = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann)).json()
    assert client.post(f"/api/tables/{offer['id']}/join", json={"seat": 1, "name": "Cleo"}).status_code == 409
    time.sleep(0.6)
    assert lobby_line(client, offer["id"])["open_seats"] == [1]
    r = client.post(f"/api/tables/{offer['id']}/join", json={"seat": 1, "name": "Cleo"})
    assert r.status_code == 200, r.text


def test_the_kept_seat_survives_a_restart(tmp_path: Path) -> None:
    from boneyard.server import create_app

    from .conftest import NO_LIMITS

    db = f"sqlite:///{tmp_path / 'kept.db'}"
    with TestClient(create_app(db, bot_delay=0.0, limits=NO_LIMITS)) as client:
        table_id, ann, bob = finished(client)
        offer = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann)).json()
    with TestClient(create_app(db, bot_delay=0.0, limits=NO_LIMITS)) as client:
        r = client.post(f"/api/tables/{offer['id']}/join", json={"seat": 1, "name": "Bob"})
        assert r.status_code == 409 and "kept for Bob" in r.json()["detail"]
        r = client.post(f"/api/tables/{table_id}/rematch/accept", headers=auth(bob))
        assert r.status_code == 200 and r.json()["seat"] == 1


def test_two_players_proposing_at_once_make_one_table(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'race.db'}").start()
    try:
        with httpx.Client(base_url=server.url, timeout=20) as http:
            for _ in range(3):  # one race may be lost by chance; three in a row are not
                r = http.post("/api/tables", json={"game": "rounce", "players": 3, "rules": {"max_hands": 1},
                                                   "seats": ["human", "human", "bot:random"]})
                table_id = r.json()["id"]
                ann = http.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
                bob = http.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
                _play_out(http, table_id, {0: ann, 1: bob})
                answers = _propose_at_once(server.url, table_id, {"Ann": ann, "Bob": bob})
                assert all(r.status_code == 200 for r in answers.values()), [r.text for r in answers.values()]
                ids = {r.json()["id"] for r in answers.values()}
                assert len(ids) == 1, "two proposals at once made two rematch tables"
                new = http.get(f"/api/tables/{ids.pop()}").json()
                assert [s["name"] for s in new["seats"]][:2] == ["Ann", "Bob"]
    finally:
        server.stop()


def test_two_proposals_at_two_processes_make_one_table(cluster: PgCluster) -> None:
    """Ann proposes at one process and Bob at the other, at once (Bob's token is known only to
    the database at his process): one rematch, both seated."""
    a, b = Server(cluster.url).start(), Server(cluster.url).start()
    try:
        http = httpx.Client(base_url=a.url, timeout=20)
        for _ in range(3):
            r = http.post("/api/tables", json={"game": "rounce", "players": 3, "rules": {"max_hands": 1},
                                               "seats": ["human", "human", "bot:random"]})
            table_id = r.json()["id"]
            ann = http.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
            bob = http.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
            _play_out(http, table_id, {0: ann, 1: bob})
            deadline = time.monotonic() + 10
            while not httpx.get(f"{b.url}/api/tables/{table_id}", timeout=10).json()["is_over"]:
                assert time.monotonic() < deadline, "the other process never saw the game end"
                time.sleep(0.05)
            answers = _propose_at_once([a.url, b.url], table_id, {"Ann": ann, "Bob": bob})
            assert all(r.status_code == 200 for r in answers.values()), [r.text for r in answers.values()]
            assert len({r.json()["id"] for r in answers.values()}) == 1, "two processes made two rematch tables"
        offer = http.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))  # Ann sits there already
        assert offer.status_code == 409
        http.close()
    finally:
        a.stop()
        b.stop()


def _propose_at_once(url: str | list[str], table_id: str, tokens: dict[str, str]) -> dict[str, httpx.Response]:
    """Every player proposes a rematch at the same moment (one thread each, released together);
    with several ``url`` (processes), each player through their own."""
    answers: dict[str, httpx.Response] = {}
    start = threading.Barrier(len(tokens))
    urls = dict(zip(tokens, url if isinstance(url, list) else [url] * len(tokens), strict=True))

    def propose(name: str, token: str) -> None:
        with httpx.Client(base_url=urls[name], timeout=20) as own:
            start.wait()
            answers[name] = own.post(f"/api/tables/{table_id}/rematch", headers=auth(token))

    threads = [threading.Thread(target=propose, args=item) for item in tokens.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def _play_out(http: httpx.Client, table_id: str, tokens: dict[int, str]) -> None:
    """Play the humans' first legal actions until the game is over."""
    for _ in range(5000):
        st = http.get(f"/api/tables/{table_id}").json()
        if st["is_over"]:
            return
        seat = st["current_player"]
        if seat in tokens:
            mine = http.get(f"/api/tables/{table_id}", headers=auth(tokens[seat])).json()
            if mine["legal_actions"]:
                http.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat]),
                          json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
                continue
        time.sleep(0.01)
    raise AssertionError("the game did not finish")
