"""The Rummikub solver's hint: built from the seat's view and the public solver (the coach: test_coach_web.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import boneyard
from boneyard.server.hints.rummikub import hint as rummikub_hint
from boneyard.server.hints.rummikub import play_text, table_groups


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


def test_table_groups_reads_the_views_table() -> None:
    assert table_groups({"table": [["1-0", "1-1", "2-1"], ["6-5", "5-5", "5-4"]]}) == [
        ["1-0", "1-1", "2-1"],
        ["6-5", "5-5", "5-4"],
    ]
    assert table_groups({"table": []}) == []
    assert play_text([["1-0", "1-1", "2-1"], ["6-1", "5-2", "4-3"]]) == "play 1-0 1-1 2-1 | 6-1 5-2 4-3"


@pytest.mark.skipif("rummikub" not in boneyard.games(), reason="the rummikub engine is not registered yet")
def test_hints_are_legal_plays_all_game_long(client: TestClient) -> None:
    """Two seats follow the solver's play in the hint (or draw when it has none): every one is accepted."""
    client.app.state.coach.hint_ms = 30  # type: ignore[attr-defined]  # the solver is what is tested here
    body = {"game": "rummikub", "players": 2, "seats": ["human", "human"], "seed": 4, "practice": True,
            "next_timeout": 0}
    table = client.post("/api/tables", json=body).json()["id"]
    joins = [client.post(f"/api/tables/{table}/join", json={"seat": s, "name": f"P{s}"}) for s in (0, 1)]
    tokens = [j.json()["token"] for j in joins]
    played = 0
    for _ in range(60):
        state = client.get(f"/api/tables/{table}").json()
        if state["is_over"]:
            break
        seat = state["current_player"]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        other = {"Authorization": f"Bearer {tokens[1 - seat]}"}
        assert client.get(f"/api/tables/{table}/hint", headers=other).status_code == 409  # not their turn
        hint = client.get(f"/api/tables/{table}/hint", headers=auth).json()
        assert hint["version"] == state["version"] and hint["seat"] == seat
        hint = hint["solver"]
        if hint["action"] is None:
            own = client.get(f"/api/tables/{table}", headers=auth).json()
            action = "draw" if "draw" in own["legal_actions"] else "pass"
        else:
            action = hint["action"]
            played += 1
        r = client.post(f"/api/tables/{table}/actions", json={"action": action}, headers=auth)
        assert r.status_code == 200, (action, r.text)
    assert played >= 3
