"""Between hands in Chromium: the ended hand survives a reload, and "Next hand" tells the server."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, free_port
from .test_browser_hands import click_once


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots act at once."""
    db = tmp_path_factory.mktemp("between") / "between.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port()).start()
    yield running
    running.stop()


def seated_page(browser: Any, server: Server, table: str, token: str, seat: int, auto_next: int = 0) -> tuple[Any, Any]:
    """A 390x844 page of ``table`` holding ``seat``'s token; the automatic Next after ``auto_next`` s (0: never)."""
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}, is_mobile=True)
    keep = json.dumps({"token": token, "seat": seat})
    context.add_init_script(f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)});"
                            f"localStorage.setItem('boneyard.autoNext', '{auto_next}');")
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("#players tbody tr")
    return page, context


def test_the_ended_hand_survives_a_reload_and_next_waits_for_both(server: Server, browser: Any) -> None:
    http = httpx.Client(base_url=server.url, timeout=10)
    body = {"game": "rounce", "players": 2, "practice": True, "seed": 5}
    table = http.post("/api/tables", json=body).json()["id"]
    tokens = [http.post(f"/api/tables/{table}/join", json={"seat": s, "name": n}).json()["token"]
              for s, n in enumerate(["Ann", "Bob"])]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    state: dict[str, Any] = {}
    for _ in range(300):  # both play by HTTP until the first hand ends; nobody's page saw it
        state = http.get(f"/api/tables/{table}").json()
        if state["between_hands"]:
            break
        s = state["current_player"]
        mine = http.get(f"/api/tables/{table}", headers=auth[s]).json()
        http.post(f"/api/tables/{table}/actions", headers=auth[s],
                  json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
    assert state["between_hands"]["waiting"] == [0, 1]
    mine = http.get(f"/api/tables/{table}", headers=auth[0]).json()
    page, context = seated_page(browser, server, table, tokens[0], 0)
    try:
        for _ in range(2):  # a page opened after the hand ended, then the same page reloaded
            page.wait_for_selector("#handend:not([hidden])")
            assert page.evaluate("document.body.dataset.ending") == "1"
            assert "Hand 1 is over" in page.text_content("#handend")
            totals = page.eval_on_selector_all("#handend table.totals tbody tr",
                                               "rows => rows.map((r) => r.lastElementChild.textContent)")
            assert [int(x.replace("−", "-")) for x in totals] == mine["scores"]
            assert page.locator("#board .trick, #board [data-last], #board .tile").count() > 0  # the board as it ended
            page.reload()
        page.wait_for_selector("#handend:not([hidden])")
        page.click("#next-hand")
        page.wait_for_selector("#handend", state="hidden")
        page.wait_for_function("document.querySelector('#status').textContent.includes('Bob presses Next hand')")
        assert http.get(f"/api/tables/{table}").json()["between_hands"]["waiting"] == [1]
        http.post(f"/api/tables/{table}/next", headers=auth[1], json={"hand": 1})
        page.wait_for_function("!document.querySelector('#status').textContent.includes('Next hand')")
        assert http.get(f"/api/tables/{table}").json()["between_hands"] is None
        page.reload()  # Ann pressed Next: a reload shows the new hand, not the old panel
        page.wait_for_selector("#players tbody tr")
        page.wait_for_timeout(300)
        assert page.locator("#handend").is_hidden()
        assert page.js_errors == []
    finally:
        context.close()
        http.close()


def test_the_pages_automatic_next_ends_the_servers_wait(server: Server, browser: Any) -> None:
    """One human: the page presses Next by itself after the delay the player chose (1 s here),
    long before the table's own 20 s timeout, and the bots deal on."""
    http = httpx.Client(base_url=server.url, timeout=10)
    body = {"game": "rounce", "players": 2, "seats": ["human", "bot:random"], "practice": True, "seed": 5}
    table = http.post("/api/tables", json=body).json()["id"]
    token = http.post(f"/api/tables/{table}/join", json={"name": "Ann"}).json()["token"]
    page, context = seated_page(browser, server, table, token, 0, auto_next=1)
    try:
        deadline = time.monotonic() + 60
        while not http.get(f"/api/tables/{table}").json()["between_hands"]:
            assert time.monotonic() < deadline, "no hand ended"
            if not ("Your turn" in (page.text_content("#status") or "") and click_once(page)):
                page.wait_for_timeout(50)
        held = time.monotonic()
        page.wait_for_selector("#handend:not([hidden])")
        while http.get(f"/api/tables/{table}").json()["between_hands"]:
            assert time.monotonic() - held < 10, "the page's automatic Next did not reach the server"
            time.sleep(0.1)
        assert page.js_errors == []
    finally:
        context.close()
        http.close()
