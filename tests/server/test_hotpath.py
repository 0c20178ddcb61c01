"""The hot path: plain action and "Next hand" posts skip the framework, and answer exactly as the routes do."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import hotpath
from boneyard.server.hotpath import _action_body, _next_body

from .test_service import auth, make, to_act


def test_only_the_plain_valid_bodies_are_taken() -> None:
    assert _action_body({"action": "pass"}) == ("pass", None)
    assert _action_body({"action": "play 6-4", "expected_version": 3}) == ("play 6-4", 3)
    assert _action_body({"action": "pass", "expected_version": None}) == ("pass", None)
    for body in ({}, {"action": 5}, {"action": "x" * 2001}, {"action": "pass", "expected_version": -1},
                 {"action": "pass", "expected_version": True}, {"action": "pass", "expected_version": "3"},
                 {"action": "pass", "expected_version": 2.0}, {"action": "pass", "extra": 1}, ["pass"], "pass"):
        assert _action_body(body) is None, body
    assert _next_body(None) == (None,) and _next_body({}) == (None,) and _next_body({"hand": 2}) == (2,)
    bad: tuple[Any, ...] = ({"hand": 0}, {"hand": 10**6 + 1}, {"hand": "2"}, {"hand": True}, {"hand": 2, "x": 1}, [2])
    for body in bad:
        assert _next_body(body) is None, body


def test_moves_take_the_hot_path_and_answer_like_the_routes(client: TestClient,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[Any] = []
    real = hotpath._action_body

    def spy(body: Any) -> Any:
        out = real(body)
        taken.append(out)
        return out

    monkeypatch.setattr(hotpath, "_action_body", spy)
    table_id, tokens = make(client)
    token, mine = to_act(client, table_id, tokens)
    body = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
    r = client.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(token))
    assert taken == [(body["action"], mine["version"])]
    assert r.status_code == 200 and r.json()["version"] == mine["version"] + 1
    assert r.headers["content-type"] == "application/json"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "no-referrer"
    # the same state as the GET's, bounded the same way
    got = client.get(f"/api/tables/{table_id}", headers=auth(token)).json()
    assert r.json()["view"] == got["view"] and r.json()["version"] == got["version"]
    # refusals from the service: the same status and detail as through the routes
    r = client.post(f"/api/tables/{table_id}/actions", json={"action": "xyzzy"}, headers=auth(tokens[0]))
    assert r.status_code in (400, 409) and r.json()["detail"]
    assert "content-security-policy" in r.headers
    stale = client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                        json={"action": "pass", "expected_version": mine["version"] + 5})
    assert stale.status_code == 409 and stale.json()["state"]["version"] == mine["version"] + 1
    r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass"})
    assert r.status_code == 401 and "token" in r.json()["detail"]
    r = client.post("/api/tables/nope/actions", json={"action": "pass"}, headers=auth(token))
    assert r.status_code == 404
    r = client.post(f"/api/tables/{table_id}/next", headers=auth(token))  # no body: not between hands
    assert r.status_code == 200 and r.json()["version"] == mine["version"] + 1


def test_anything_else_goes_to_the_app_with_its_body(client: TestClient) -> None:
    table_id, tokens = make(client)
    token, mine = to_act(client, table_id, tokens)
    url = f"/api/tables/{table_id}/actions"
    r = client.post(url, json={"action": "pass", "expected_version": "x"}, headers=auth(token))
    assert r.status_code == 422 and "expected_version" in r.json()["detail"]
    r = client.post(url, json={"action": "pass", "colour": "red"}, headers=auth(token))
    assert r.status_code == 422 and "colour" in r.json()["detail"]
    r = client.post(url, content=b"{not json", headers={**auth(token), "Content-Type": "application/json"})
    assert r.status_code == 422
    r = client.post(url, json={"action": "x" * 3_000}, headers=auth(token))  # too long, though under the body limit
    assert r.status_code == 422 and "2000" in r.json()["detail"]
    r = client.post(url, json={"action": "x" * 30_000}, headers=auth(token))  # over the body limit: never read
    assert r.status_code == 413 and "4 KB" in r.json()["detail"]
    # types are strict on both paths: a version sent as a string is refused
    r = client.post(url, json={"action": mine["legal_actions"][0], "expected_version": str(mine["version"])},
                    headers=auth(token))
    assert r.status_code == 422 and "expected_version" in r.json()["detail"]
    # a body the app parses as valid even though the hot path did not take it (a "+json" type):
    # played through the route
    body = json.dumps({"action": mine["legal_actions"][0], "expected_version": mine["version"]}).encode()
    r = client.post(url, content=body, headers={**auth(token), "Content-Type": "application/vnd.boneyard+json"})
    assert r.status_code == 200 and r.json()["version"] == mine["version"] + 1
    r = client.post(f"/api/tables/{table_id}/next", json={"hand": 0}, headers=auth(token))
    assert r.status_code == 422 and "hand" in r.json()["detail"]
