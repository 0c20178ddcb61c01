"""The lobby's finished and abandoned tables (issue 38, defect 11): a finished table names its
winner and when it finished; a table its players walked away from reads "abandoned", not
"playing". Driven in headless Chromium at 390x844 and 1280x800; screenshots under
/tmp/shots-s38-coach/.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from boneyard.server.tables import ABANDONED_AFTER, abandoned

from .conftest import Server, artifact, auth, free_port
from .test_browser_trust import SIZES

SHOTS = Path("/tmp/shots-s38-coach")


@pytest.fixture(scope="module")
def lobby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own, so that the lobby lists only this module's tables."""
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('finished') / 'lobby.db'}", bot_delay=0.0,
                     port=free_port()).start()
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    path = artifact(f"lobby-{name}.png")
    page.screenshot(path=str(path))
    shutil.copy(path, SHOTS / f"{name}.png")


def test_a_finished_table_names_its_winner_and_when_it_finished(lobby: Server, browser: Any) -> None:
    body = {"game": "rounce", "players": 2, "rules": {"max_hands": 1}, "seats": ["bot:random", "bot:greedy"]}
    table = httpx.post(f"{lobby.url}/api/tables", json=body, timeout=10).json()["id"]
    deadline = time.monotonic() + 60
    while not (state := httpx.get(f"{lobby.url}/api/tables/{table}", timeout=10).json())["is_over"]:
        assert time.monotonic() < deadline, "the bots did not finish a one-hand game"
        time.sleep(0.1)
    names = {s["seat"]: s["name"] for s in state["seats"]}
    winners = [names[w] for w in state["view"]["winners"]]
    history = httpx.get(f"{lobby.url}/api/history", timeout=10).json()
    row = next(r for r in history if r["id"] == table)
    assert row["winners"] == winners and row["finished"] >= row["created"]
    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
        page = context.new_page()
        try:
            page.goto(lobby.url + "/")
            line = page.locator(f"#fr-history tr:has(a[href='/tables/{table}'])")
            line.wait_for()
            assert line.locator(".fr-winner").inner_text() == " and ".join(winners)
            assert line.locator(".fr-finished").inner_text().startswith("today ")
            assert page.locator("#fr-history th").all_inner_texts()[2:4] == ["Winner", "Finished"]
            assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"] + 1
            line.scroll_into_view_if_needed()
            shot(page, f"11-finished-{size}")
        finally:
            context.close()


def test_abandoned_is_defined_once_by_the_server() -> None:
    assert abandoned(False, ABANDONED_AFTER, 0)
    assert not abandoned(False, ABANDONED_AFTER - 1, 0)  # a slow player is not gone
    assert not abandoned(False, 10 * ABANDONED_AFTER, 1)  # someone has the table open
    assert not abandoned(True, 10 * ABANDONED_AFTER, 0)  # a finished game is finished, not abandoned


def test_the_lobby_summary_says_abandoned_once_nobody_is_there(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "montana", "players": 2, "seats": ["human", "bot:greedy"]})
    table = r.json()["id"]
    token = client.post(f"/api/tables/{table}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
    # the bot may lead: let it play first, or its move (a real move) would touch the table
    # after the backdating below
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{table}", headers=auth(token)).json()[
            "current_player"] != 0:
        assert time.monotonic() < deadline, "the bot never passed the turn to Ann"
        time.sleep(0.02)
    line = next(t for t in client.get("/api/tables").json() if t["id"] == table)
    assert line["abandoned"] is False and line["connected"] == 0
    live = client.app.state.service.tables[table]  # type: ignore[attr-defined]
    live.touched -= ABANDONED_AFTER + 5  # nobody moved for ten minutes
    line = next(t for t in client.get("/api/tables").json() if t["id"] == table)
    assert line["abandoned"] is True and line["idle"] >= ABANDONED_AFTER
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        ws.receive_text()
        line = next(t for t in client.get("/api/tables").json() if t["id"] == table)
        assert line["connected"] == 1 and line["abandoned"] is False  # Ann is back at the table


def test_the_lobby_shows_an_abandoned_table_as_abandoned(lobby: Server, browser: Any) -> None:
    body = {"game": "montana", "players": 2, "seats": ["bot:greedy", "human"]}
    live = httpx.post(f"{lobby.url}/api/tables", json=body, timeout=10).json()["id"]
    httpx.post(f"{lobby.url}/api/tables/{live}/join", json={"seat": 1, "name": "Bo"}, timeout=10)
    mine = next(t for t in httpx.get(f"{lobby.url}/api/tables", timeout=10).json() if t["id"] == live)
    gone = {**mine, "id": "gone1", "idle": 3 * 3600, "connected": 0, "abandoned": True}
    here = {**mine, "id": "here1", "idle": 3 * 3600, "connected": 1, "abandoned": False}

    def answer(route: Any) -> None:
        route.fulfill(json=[gone, here, mine])

    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
        page = context.new_page()
        try:
            page.route("**/api/tables", answer)
            page.goto(lobby.url + "/")
            row = page.locator("#tables tr:has(a[href='/tables/gone1'])")
            row.wait_for()
            text = row.inner_text()
            assert "abandoned" in text and "no move for 3 h" in text and "playing" not in text
            assert row.locator(".abandoned").is_visible()
            kept = page.locator("#tables tr:has(a[href='/tables/here1'])").inner_text()
            assert "abandoned" not in kept and "no move for 3 h" in kept  # someone is still there
            assert "playing" in page.locator(f"#tables tr:has(a[href='/tables/{live}'])").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"] + 1
            row.scroll_into_view_if_needed()
            shot(page, f"11-abandoned-{size}")
        finally:
            context.close()
