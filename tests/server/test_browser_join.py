"""Taking a seat in the browser while the table changes around the player."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import Server, auth
from .test_browser import page_factory, stored_seat  # noqa: F401  (page_factory is a fixture)


def test_a_push_while_typing_a_name_keeps_what_was_typed(live_server: Server, page_factory: Any) -> None:  # noqa: F811
    """Pushes redraw the page; the name a player is typing in the join box must survive them."""
    body = {"game": "eighty", "players": 4, "seats": ["human", "human", "human", "bot:random"]}
    table_id = httpx.post(f"{live_server.url}/api/tables", json=body, timeout=20).json()["id"]
    bob = page_factory()
    bob.goto(f"{live_server.url}/tables/{table_id}")
    bob.wait_for_selector("#join [data-join='2']")
    bob.fill("#join-name", "Bob")
    # another player takes a seat (the open seats change) and talks (a push that changes no seat)
    carol = httpx.post(f"{live_server.url}/api/tables/{table_id}/join", json={"seat": 1, "name": "Carol"}, timeout=20)
    assert carol.status_code == 200, carol.text
    bob.locator("#players", has_text="Carol").wait_for(timeout=30_000)
    said = httpx.post(f"{live_server.url}/api/tables/{table_id}/chat", json={"text": "hello"},
                      headers=auth(carol.json()["token"]), timeout=20)
    assert said.status_code == 200, said.text
    bob.locator("text=hello").first.wait_for(timeout=30_000)
    assert bob.input_value("#join-name") == "Bob"
    assert bob.locator("#join [data-join='1']").count() == 0  # Carol's seat is no longer offered
    bob.click("#join [data-join='2']")
    bob.locator("#players", has_text="Bob").wait_for(timeout=30_000)
    assert stored_seat(bob, table_id)["seat"] == 2
    assert bob.js_errors == []
