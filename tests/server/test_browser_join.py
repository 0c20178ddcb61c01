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


def test_a_push_that_leaves_the_hand_as_it_was_keeps_its_tiles(live_server: Server, page_factory: Any) -> None:  # noqa: F811
    """A chat line or a presence push redraws the page but must not replace the hand's tiles.

    A tap that lands as such a push arrives would otherwise fall on a tile just taken out of
    the page, and the player's move would be lost.
    """
    body = {"game": "eighty", "players": 4, "seats": ["human", "human", "human", "human"]}
    table_id = httpx.post(f"{live_server.url}/api/tables", json=body, timeout=20).json()["id"]
    bob = page_factory()
    bob.goto(f"{live_server.url}/tables/{table_id}")
    bob.fill("#join-name", "Bob")
    bob.click("#join [data-join='0']")
    bob.wait_for_selector("#hand .handtile")
    bob.evaluate("""() => {
        window.renders = 0;
        document.addEventListener('boneyard:render', () => window.renders++);
        document.querySelector('#hand .handtile').dataset.kept = 'yes';
        const b = document.querySelector('#actions [data-action]');
        if (b) b.dataset.kept = 'yes';
    }""")
    carol = httpx.post(f"{live_server.url}/api/tables/{table_id}/join", json={"seat": 1, "name": "Carol"}, timeout=20)
    assert carol.status_code == 200, carol.text
    said = httpx.post(f"{live_server.url}/api/tables/{table_id}/chat", json={"text": "hello"},
                      headers=auth(carol.json()["token"]), timeout=20)
    assert said.status_code == 200, said.text
    bob.locator("text=hello").first.wait_for(timeout=30_000)
    assert bob.evaluate("window.renders") >= 1  # the pushes did redraw the page
    assert bob.locator("#hand .handtile[data-kept='yes']").count() == 1
    if bob.evaluate("document.querySelector('#actions [data-action]') !== null"):
        assert bob.locator("#actions [data-kept='yes']").count() == 1
    # the kept tiles still answer a tap: a move sent, a tile picked, or words saying why not
    version = bob.evaluate("document.body.dataset.version")
    bob.locator("#hand .handtile").first.click()
    bob.wait_for_function(
        """v => document.body.dataset.version !== v || document.querySelector('#hand .handtile.selected')
                || document.querySelector('#error').textContent !== ''""", arg=version, timeout=30_000)
    assert bob.js_errors == []
