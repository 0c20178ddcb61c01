"""The table page when the connection or the view goes stale, and the replay viewer.

The page's WebSocket is routed through Playwright (``page.route_web_socket``) so that a
test can silence it (the page's view goes stale), drop it (the page must say so, reconnect
and catch up by itself), or pass it through to the real server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots act at once."""
    db = tmp_path_factory.mktemp("live") / "live.db"
    s = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port()).start()
    yield s
    s.stop()


def two_humans(server: Server) -> tuple[str, str, str]:
    """A two-player Rounce table: Ann (seat 0) calls first, Bob (seat 1) deals."""
    body = {"game": "rounce", "players": 2, "seed": 3, "dealer": 1, "practice": True}
    table = httpx.post(f"{server.url}/api/tables", json=body).json()["id"]
    ann = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    bob = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Bob", "seat": 1}).json()["token"]
    return table, ann, bob


def act(server: Server, table: str, token: str, action: str) -> dict[str, Any]:
    res = httpx.post(f"{server.url}/api/tables/{table}/actions", json={"action": action},
                     headers={"Authorization": f"Bearer {token}"})
    assert res.status_code == 200, res.text
    state: dict[str, Any] = res.json()
    return state


def seated_page(browser: Any, server: Server, table: str, token: str, seat: int) -> tuple[Any, Any]:
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    keep = json.dumps({"token": token, "seat": seat})
    context.add_init_script(f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)})")
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    return context, page


def test_an_action_from_a_stale_view_gets_the_table_as_it_is(server: Server, browser: Any) -> None:
    table, ann, bob = two_humans(server)
    act(server, table, ann, "pass")  # now Bob (the dealer) calls
    context, page = seated_page(browser, server, table, bob, 1)
    try:
        page.route_web_socket(re.compile(r".*/ws/tables/.*"), lambda ws: None)  # a socket that never speaks
        page.goto(f"{server.url}/tables/{table}")
        page.wait_for_selector("#actions [data-action='dummy']")
        assert (page.text_content("#status") or "").startswith("Your turn")
        act(server, table, bob, "pass")  # Bob calls from another device: Ann leads now
        assert (page.text_content("#status") or "").startswith("Your turn")  # this page has not heard
        # another call than the one already made (the same one again would be taken as a repeat)
        page.click("#actions [data-action='dummy']")
        page.wait_for_function("document.getElementById('error').textContent !== ''")
        assert page.text_content("#error") in ("It is Ann's turn.", "The table had moved on: it is Ann's turn.")
        assert (page.text_content("#status") or "").startswith("Waiting for Ann")
        assert page.locator("#actions [data-action]").count() == 0
        assert page.js_errors == []
    finally:
        context.close()


def test_a_dropped_connection_shows_a_banner_then_catches_up(server: Server, browser: Any) -> None:
    table, ann, _ = two_humans(server)
    context, page = seated_page(browser, server, table, ann, 0)
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        sockets.append(ws)
        if len(sockets) > 1:
            ws.connect_to_server()  # the reconnection reaches the real server

    try:
        page.route_web_socket(re.compile(r".*/ws/tables/.*"), route)
        page.goto(f"{server.url}/tables/{table}")
        page.wait_for_selector("#actions [data-action='pass']")
        page.wait_for_function("document.getElementById('conn').classList.contains('live')")
        act(server, table, ann, "pass")  # played elsewhere while this page's socket is silent
        sockets[0].close()
        page.wait_for_selector("#banner:not([hidden])")
        assert "Connection lost" in page.text_content("#banner")
        assert (page.text_content("#status") or "").startswith("Reconnecting")
        page.wait_for_selector("#banner", state="hidden", timeout=10_000)
        version = httpx.get(f"{server.url}/api/tables/{table}").json()["version"]
        page.wait_for_function(f"document.body.dataset.version === '{version}'")
        assert (page.text_content("#status") or "").startswith("Waiting for Bob")
        assert page.js_errors == []
    finally:
        context.close()


def test_the_replay_names_who_played_shows_every_hand_and_jumps_by_hand(server: Server, browser: Any) -> None:
    body = {"game": "rounce", "players": 3, "seats": ["bot:random"] * 3, "seed": 5, "practice": True}
    table = httpx.post(f"{server.url}/api/tables", json=body).json()["id"]
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/tables/{table}")
        page.wait_for_selector("#over:not([hidden])", timeout=60_000)
        facts = httpx.get(f"{server.url}/api/tables/{table}/replay/steps").json()
        assert len(facts["hand_starts"]) >= 2
        page.click("#open-replay")
        page.wait_for_function("document.getElementById('rp-label').textContent.startsWith('0/')")
        # a spectator sees every hand face up
        sizes = [len(h) for h in httpx.get(f"{server.url}/api/tables/{table}/replay/hands?step=0").json()["hands"]]
        for seat, n in enumerate(sizes):
            assert page.locator(f"#board [data-faceup='{seat}'] svg.tile").count() == n
        page.keyboard.press("ArrowRight")
        page.wait_for_function("document.getElementById('rp-label').textContent.startsWith('1/')")
        first = facts["plays"][0]
        status = page.text_content("#status") or ""
        assert f"random bot {first['seat']}" in status and "step 1 of" in status, status
        assert not re.search(r"\bseat \d", status)
        page.keyboard.press("ArrowDown")  # the next hand's start
        second = facts["hand_starts"][1]
        page.wait_for_function(f"document.getElementById('rp-label').textContent.startsWith('{second}/')")
        assert "hand 2" in (page.text_content("#status") or "")
        page.keyboard.press("ArrowUp")
        page.wait_for_function("document.getElementById('rp-label').textContent.startsWith('0/')")
        page.select_option("#rp-hand", str(facts["hand_starts"][-1]))
        page.wait_for_function(f"document.getElementById('rp-label').textContent.startsWith('{facts['hand_starts'][-1]}/')")
        assert errors == []
    finally:
        context.close()


def test_replay_facts_wait_for_the_end(server: Server) -> None:
    table = httpx.post(f"{server.url}/api/tables", json={"game": "rounce"}).json()["id"]
    assert httpx.get(f"{server.url}/api/tables/{table}/replay/steps").status_code == 409
    assert httpx.get(f"{server.url}/api/tables/{table}/replay/hands?step=0").status_code == 409
    assert httpx.get(f"{server.url}/api/tables/nope/replay/steps").status_code == 404
