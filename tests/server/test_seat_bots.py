"""Bots a seat can be given: only those this server can make are listed, and an unplayable one is refused in words.

The policy bot plays the learned networks shipped in the package (four-player Rounce
only): it is listed, ``/api/bots/about`` says at which tables it plays, it takes a seat
there and plays, and anywhere else it is refused in words naming the game and the player
count, when the table is made, at Start, as a stand-in and at a restart; never a 500,
never a table half changed. A bot this server cannot make at all is neither listed nor
accepted.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from boneyard.bots import _REGISTRY, register
from boneyard.server import tables

from .test_friends import create, join, room, state, wait_for


def test_bots_listed_are_the_playable_ones(client: TestClient) -> None:
    listed = client.get("/api/bots").json()
    assert {"random", "greedy", "ismcts", "policy"} <= set(listed)


def test_the_policy_bot_says_at_which_tables_it_plays(client: TestClient) -> None:
    by_name = {b["name"]: b for b in client.get("/api/bots/about").json()}
    from boneyard.rl.weights import shipped

    assert by_name["policy"]["plays"] == [{"game": g, "players": n} for g, n in shipped()]
    assert {"game": "rounce", "players": 4} in by_name["policy"]["plays"]
    assert all(by_name[name]["plays"] is None for name in ("random", "greedy", "ismcts"))


def test_the_policy_bot_takes_a_seat_where_a_network_is_shipped_and_plays(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "bot:policy", "bot:policy", "bot:policy"], seed=1,
                            practice=True)
    ann = join(client, table_id, 0, "Ann")

    def played() -> dict | None:
        seen = state(client, table_id, ann)
        moved = [e for e in seen["view"]["events"] if e.get("seat") in (1, 2, 3) and e["kind"] not in ("first_dealer",)]
        return seen if moved and (seen["current_player"] == 0 or seen["is_over"]) else None

    seen = wait_for(played)  # seed 1: seat 2 is first to act, so bots move before Ann
    assert [s["bot"] for s in seen["seats"]][1:] == ["policy"] * 3


def test_the_policy_bot_is_refused_where_no_network_is_shipped(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "bot:policy"]})
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert detail.startswith("seat 1: the 'policy' bot cannot play rounce with 2 players")
    from boneyard.rl.weights import describe

    assert f"no learned network is shipped for rounce with 2 players (shipped: {describe()})" in detail
    seats = ["human", "bot:greedy", "bot:policy"]
    r = client.post("/api/tables", json={"game": "montana", "players": 3, "seats": seats})
    assert r.status_code == 400 and "cannot play montana with 3 players" in r.json()["detail"], r.text


def test_the_policy_bot_is_refused_at_start_and_as_stand_in_where_it_cannot_play(client: TestClient) -> None:
    table_id, host = create(client, ["human", "human", "human"])
    ann = join(client, table_id, 0, "Ann")
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "policy"}, headers={"X-Host-Token": host})
    assert r.status_code == 400 and "cannot play rounce with 3 players" in r.json()["detail"], r.text
    assert room(client, table_id)["started"] is False
    assert [s["kind"] for s in state(client, table_id)["seats"]] == ["human"] * 3  # nothing half done
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 0, "bot": "policy"},
                    headers={"Authorization": f"Bearer {ann}"})
    assert r.status_code == 400 and "cannot play rounce with 3 players" in r.json()["detail"], r.text
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "greedy"}, headers={"X-Host-Token": host})
    assert r.status_code == 200, r.text


class _NeedsAFile:
    """A bot that cannot be made with no settings (as a plug-in needing a file would be)."""

    name = "needs-file"

    def __init__(self, path: str = "") -> None:
        if not path:
            raise ValueError("this bot needs its file: needs-file:path=FILE")


@pytest.fixture
def unmakeable() -> Iterator[None]:
    """``needs-file`` registered for one test (the server reads the bots it can make once per process)."""
    register("needs-file", _NeedsAFile)
    tables._bot_states.cache_clear()
    yield
    del _REGISTRY["needs-file"]
    tables._bot_states.cache_clear()


def test_an_unmakeable_bot_is_neither_listed_nor_accepted(unmakeable: None, client: TestClient) -> None:
    assert "needs-file" not in client.get("/api/bots").json()
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "bot:needs-file"]})
    assert r.status_code == 400, r.text
    detail = r.json()["detail"]
    assert "the 'needs-file' bot cannot play on this server" in detail and "needs its file" in detail
    assert "available bots:" in detail and "greedy" in detail
    table_id, host = create(client, ["human", "human", "human"])
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "needs-file"}, headers={"X-Host-Token": host})
    assert r.status_code == 400 and "cannot play on this server" in r.json()["detail"]
    assert room(client, table_id)["started"] is False


def test_each_bot_listed_is_said_in_a_players_words(client: TestClient) -> None:
    """/api/bots/about: the bots of /api/bots, each with what it plays like; the searching one names the cap."""
    about = client.get("/api/bots/about").json()
    assert [b["name"] for b in about] == client.get("/api/bots").json()
    by_name = {b["name"]: b for b in about}
    assert by_name["ismcts"]["searches"] and not by_name["greedy"]["searches"]
    assert "up to a second a move" in by_name["ismcts"]["about"] and "strongest" in by_name["ismcts"]["about"]
    assert "at random" in by_name["random"]["about"]
    assert "trained" in by_name["policy"]["about"]
    assert all(b["about"] and "_" not in b["about"] for b in about)
