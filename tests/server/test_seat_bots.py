"""Bots a seat can be given: only those this server can make are listed, and an unplayable one is refused in words.

The policy bot is installed (the ``rl`` extra) but needs a weights file that no seat can
give it: it must be neither listed nor accepted, and asking for it must never be a 500
nor leave a table half changed.
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from .test_friends import create, join, room, state


def test_bots_listed_are_the_playable_ones(client: TestClient) -> None:
    import boneyard

    listed = client.get("/api/bots").json()
    assert "policy" in boneyard.bots() and "policy" not in listed
    assert {"random", "greedy", "ismcts"} <= set(listed)


def test_an_unplayable_bot_is_refused_when_a_table_is_made(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "bot:policy"]})
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert "the 'policy' bot cannot play on this server" in detail and "weights" in detail
    assert "available bots:" in detail and "greedy" in detail


def test_an_unplayable_bot_is_refused_at_start_and_as_stand_in(client: TestClient) -> None:
    table_id, host = create(client, ["human", "human", "human"])
    ann = join(client, table_id, 0, "Ann")
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "policy"}, headers={"X-Host-Token": host})
    assert r.status_code == 400 and "cannot play on this server" in r.json()["detail"]
    assert room(client, table_id)["started"] is False
    assert [s["kind"] for s in state(client, table_id)["seats"]] == ["human"] * 3  # nothing half done
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 0, "bot": "policy"},
                    headers={"Authorization": f"Bearer {ann}"})
    assert r.status_code == 400 and "cannot play on this server" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "greedy"}, headers={"X-Host-Token": host})
    assert r.status_code == 200, r.text


def test_each_bot_listed_is_said_in_a_players_words(client: TestClient) -> None:
    """/api/bots/about: the bots of /api/bots, each with what it plays like; the searching one names the cap."""
    about = client.get("/api/bots/about").json()
    assert [b["name"] for b in about] == client.get("/api/bots").json()
    by_name = {b["name"]: b for b in about}
    assert by_name["ismcts"]["searches"] and not by_name["greedy"]["searches"]
    assert "up to a second a move" in by_name["ismcts"]["about"] and "strongest" in by_name["ismcts"]["about"]
    assert "at random" in by_name["random"]["about"]
    assert all(b["about"] and "_" not in b["about"] for b in about)
