"""The Rummikub hint: built from the seat's view and the public solver; refusals name the problem."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import boneyard
from boneyard.server.hints import play_text, rummikub_hint, table_groups


def view(hand: list[str], table: list[list[str]], opened: bool = True) -> dict[str, Any]:
    """A minimal rummikub-like view for seat 0."""
    return {"game": "rummikub", "seat": 0, "rules": {}, "hand": hand, "table": table, "opened": [opened, True]}


def test_the_hint_plays_the_most_hand_tiles() -> None:
    got = rummikub_hint(view(["5-3", "5-4", "5-5", "2-1"], [["4-3", "5-2", "6-1"]]))
    assert got["action"] is not None and got["action"].startswith("play ")
    assert sorted(got["tiles"]) == ["5-3", "5-4", "5-5"] and got["count"] == 3 and got["pips"] == 27
    groups = [sorted(g.split()) for g in got["action"][5:].split(" | ")]
    assert sorted(["4-3", "5-2", "6-1"]) in groups and sorted(["5-3", "5-4", "5-5"]) in groups


def test_before_opening_the_hint_is_a_starting_group_added_to_the_table() -> None:
    got = rummikub_hint(view(["5-3", "5-4", "5-5", "6-5", "2-1"], [["4-3", "5-2", "6-1"]], opened=False))
    assert got["count"] == 3
    assert got["action"].startswith("play 4-3 5-2 6-1 | ")


def test_no_play_says_draw() -> None:
    got = rummikub_hint(view(["2-1"], [["4-3", "5-2", "6-1"]]))
    assert got["action"] is None and "draw" in got["why"]
    got = rummikub_hint(view(["2-1", "6-5"], [], opened=False))
    assert got["action"] is None and "starting group" in got["why"]


def test_a_refused_answer_is_not_suggested() -> None:
    got = rummikub_hint(view(["5-3", "5-4", "5-5"], []), is_legal=lambda _a: False)
    assert got["action"] is None and "not legal" in got["why"]


def test_table_groups_reads_lists_or_objects() -> None:
    assert table_groups({"table": [{"tiles": ["1-0", "1-1", "2-1"]}]}) == [["1-0", "1-1", "2-1"]]
    assert table_groups({"groups": [["1-0", "1-1", "2-1"]]}) == [["1-0", "1-1", "2-1"]]
    assert play_text([["1-0", "1-1", "2-1"], ["6-1", "5-2", "4-3"]]) == "play 1-0 1-1 2-1 | 6-1 5-2 4-3"


def _table(client: TestClient, game: str, seats: list[str]) -> tuple[str, str]:
    table = client.post("/api/tables", json={"game": game, "seats": seats, "seed": 4}).json()["id"]
    token = client.post(f"/api/tables/{table}/join", json={"name": "Ann"}).json()["token"]
    return table, token


def test_hint_refusals(client: TestClient) -> None:
    table, token = _table(client, "rounce", ["human", "human", "human", "human"])
    assert client.get(f"/api/tables/{table}/hint").status_code == 401
    assert client.get(f"/api/tables/{table}/hint", headers={"Authorization": "Bearer nope"}).status_code == 403
    r = client.get(f"/api/tables/{table}/hint", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400 and "rummikub" in r.json()["detail"]
    assert client.get("/api/tables/nope/hint", headers={"Authorization": f"Bearer {token}"}).status_code == 404


@pytest.mark.skipif("rummikub" not in boneyard.games(), reason="the rummikub engine is not registered yet")
def test_hint_endpoint_gives_a_legal_play_or_says_draw(client: TestClient) -> None:
    table, token = _table(client, "rummikub", ["human", "human"])
    auth = {"Authorization": f"Bearer {token}"}
    state = client.get(f"/api/tables/{table}", headers=auth).json()
    r = client.get(f"/api/tables/{table}/hint", headers=auth)
    if state["current_player"] != 0:
        assert r.status_code == 409
        return
    assert r.status_code == 200, r.text
    hint = r.json()
    assert hint["version"] == state["version"]
    if hint["action"] is not None:
        played = client.post(f"/api/tables/{table}/actions", json={"action": hint["action"]}, headers=auth)
        assert played.status_code == 200, played.text
    else:
        assert "draw" in hint["why"]
