"""The coach's why in the browser: the Hint and the Review show the sentence the server made.

A one-hand practice Rounce table (two greedy bots) made by HTTP; at 390x844 and 1280x800
the player asks for a Hint on the first call (the sentence under the list), then the game
is played to its end and the Review, every decision shown, gives each decision its why.
Screenshots go to /tmp/shots-s38-coach/ and test-artifacts/.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, artifact, free_port
from .test_browser_trust import SIZES, new_table, open_page

SHOTS = Path("/tmp/shots-s38-coach")
STEP = 30_000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots move at once and whose coach thinks briefly."""
    import os

    db = tmp_path_factory.mktemp("reasons") / "reasons.db"
    saved = {k: os.environ.get(k) for k in ("BONEYARD_HINT_MS", "BONEYARD_REVIEW_MS")}
    os.environ.update({"BONEYARD_HINT_MS": "400", "BONEYARD_REVIEW_MS": "150"})
    try:
        running = Server(f"sqlite:///{db}", bot_delay=0.05, port=free_port()).start()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    path = artifact(f"coach-reasons-{name}.png")
    page.screenshot(path=str(path))
    shutil.copy(path, SHOTS / f"{name}.png")


def _state(server: Server, table: str, token: str) -> dict[str, Any]:
    out: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table}",
                                    headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
    return out


@pytest.mark.parametrize("size", SIZES)
def test_the_hint_and_the_review_say_why(server: Server, browser: Any, size: str) -> None:
    body = {"game": "rounce", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"], "seed": 21,
            "practice": True, "dealer": 2, "next_timeout": 0, "rules": {"max_hands": 1}}
    table, token = new_table(server, body)
    page, context = open_page(browser, server, table, token, size)
    try:
        page.wait_for_selector("#coach-hint-btn:visible", timeout=STEP)  # Ann calls first
        page.click("#coach-hint-btn")
        page.wait_for_selector("#coach-hint-reason", timeout=STEP)
        why = page.text_content("#coach-hint-reason") or ""
        assert why.startswith("Why ") and "what you could see" in why
        assert page.locator("#coach-hint-reason").is_visible()
        page.locator("#coach-hint-reason").scroll_into_view_if_needed()
        shot(page, f"hint-{size}")
        # the game played to its end: Ann plays her hand (never folds), the bots theirs
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "the game did not end"
            state = _state(server, table, token)
            if state["is_over"]:
                break
            if state["current_player"] == 0:
                legal = state["legal_actions"]
                move = next((a for a in legal if a != "fold"), legal[0])
                httpx.post(f"{server.url}/api/tables/{table}/actions", json={"action": move},
                           headers={"Authorization": f"Bearer {token}"}, timeout=10)
            time.sleep(0.1)
        page.wait_for_selector("#coach-review-btn", timeout=STEP)
        page.click("#coach-review-btn")
        page.wait_for_selector("#coach-review .coach-summary", timeout=120_000)
        page.check("#coach-all")
        page.wait_for_selector("#coach-review .coach-decisions .coach-reason", timeout=STEP)
        review = httpx.get(f"{server.url}/api/tables/{table}/review", timeout=10,
                           headers={"Authorization": f"Bearer {token}"}).json()
        shown = [t.strip() for t in page.locator("#coach-review .coach-decisions .coach-reason").all_text_contents()]
        assert shown == [d["reason"] for d in review["decisions"] if d["reason"]]
        page.locator("#coach-review .coach-reason").first.scroll_into_view_if_needed()
        shot(page, f"review-{size}")
        assert page.js_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_late_in_a_game_the_hint_says_it_ranks_by_the_chance_of_winning(server: Server, browser: Any,
                                                                        size: str) -> None:
    """Two-box to 30 points is late from the first play: the Hint gives each move's chance of winning the game."""
    body = {"game": "twobox", "players": 2, "seats": ["human", "bot:greedy"], "seed": 3, "practice": True,
            "next_timeout": 0, "rules": {"target": 30}}
    table, token = new_table(server, body)
    page, context = open_page(browser, server, table, token, size)
    try:
        deadline = time.monotonic() + 60
        while True:  # the first turn of Ann's with a choice (a lone move is played for her)
            assert time.monotonic() < deadline, "no turn with a choice came"
            state = _state(server, table, token)
            assert not state["is_over"]
            if state["current_player"] == 0 and len(state["legal_actions"]) > 1:
                break
            if state["current_player"] == 0:
                httpx.post(f"{server.url}/api/tables/{table}/actions", json={"action": state["legal_actions"][0]},
                           headers={"Authorization": f"Bearer {token}"}, timeout=10)
            time.sleep(0.1)
        page.wait_for_function(f"document.body.dataset.version === '{state['version']}'", timeout=STEP)
        page.wait_for_selector("#coach-hint-btn:visible", timeout=STEP)
        page.click("#coach-hint-btn")
        page.wait_for_selector("#coach-hint-reason", timeout=STEP)
        why = page.text_content("#coach-hint-reason") or ""
        assert "late in the game the coach ranks by the chance of winning it" in why, why
        assert page.locator("#coach-hint .coach-win").count() >= 2
        assert "end of the game" in (page.text_content("#coach-hint .coach-head") or "")
        page.locator("#coach-hint-reason").scroll_into_view_if_needed()
        shot(page, f"hint-late-{size}")
        assert page.js_errors == []
    finally:
        context.close()
