"""Presence lines in a friends' table log: a reconnect within the grace says nothing, so that
opening and closing the friends socket cannot push the chat out of the log (``docs/api.md``)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from boneyard.server import social

from .test_friends import create, join, room, wait_for


def news(client: TestClient, table_id: str) -> list[str]:
    """The texts of the table's log, oldest first."""
    return [e["text"] for e in room(client, table_id)["log"]]


def test_reconnects_within_the_grace_say_nothing(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(social, "PRESENCE_GRACE", 2.0, raising=False)
    table_id, _host = create(client, ["human", "human"])
    ann = join(client, table_id, 0, "Ann")
    bob = join(client, table_id, 1, "Bob")
    assert client.post(f"/api/tables/{table_id}/chat", headers={"Authorization": f"Bearer {bob}"},
                       json={"text": "good luck"}).status_code == 200
    for _ in range(60):  # a reload loop: about 80 lines a second before the grace
        with client.websocket_connect(f"/ws/friends/{table_id}?token={ann}") as ws:
            ws.receive_json()
    lines = news(client, table_id)
    assert lines.count("Ann joined") == 1
    assert not [t for t in lines if t in ("Ann left", "Ann is back")], lines
    assert "good luck" in lines


def test_a_real_leave_is_said_after_the_grace_and_the_return_after_it(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(social, "PRESENCE_GRACE", 0.3, raising=False)
    table_id, _host = create(client, ["human", "human"])
    ann = join(client, table_id, 0, "Ann")
    with client.websocket_connect(f"/ws/friends/{table_id}?token={ann}") as ws:
        ws.receive_json()
    assert room(client, table_id)["seats"][0]["present"] is False  # shown away at once
    assert "Ann left" not in news(client, table_id)  # said only once the grace is over
    wait_for(lambda: "Ann left" in news(client, table_id), timeout=5)
    time.sleep(0.5)
    assert news(client, table_id).count("Ann left") == 1
    with client.websocket_connect(f"/ws/friends/{table_id}?token={ann}") as ws:
        ws.receive_json()
        assert news(client, table_id)[-1] == "Ann is back"
