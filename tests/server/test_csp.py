"""The pages work under their Content-Security-Policy: no violation while a table is played."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import Server


def test_lobby_and_table_pages_run_under_the_csp(live_server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # CSP enforced (no bypass)
    page = context.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: violations.append(str(e)))
    try:
        body = {"game": "rounce", "players": 2, "seats": ["human", "bot:random"]}
        table_id = httpx.post(live_server.url + "/api/tables", json=body).json()["id"]
        page.goto(live_server.url + "/")
        page.locator("#tables a.button").first.wait_for()
        page.goto(f"{live_server.url}/tables/{table_id}")
        page.locator("#join-name").fill("Ann")
        page.locator("[data-join='0']").click()
        page.locator("#hand svg.tile").first.wait_for()  # drawn from the WebSocket's pushes
        page.locator("#conn.live").wait_for()
        assert violations == []
    finally:
        context.close()
