"""The lobby offers the policy bot only at the tables a learned network is shipped for.

Driven in headless Chromium at 390x844 and 1280x800 against a real server: choosing Rounce
with four players offers "policy bot" in every other seat and explains it under "Which
bot?"; two players offer it nowhere; Eighty (shipped) offers it, three-player Montana (not
shipped) does not; a table made with it plays.
Screenshots go to /tmp/shots-s39-prior/ for a person to look at.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, artifact

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHOTS = Path("/tmp/shots-s39-prior")


def shot(page: Any, name: str) -> None:
    """Save a screenshot: /tmp/shots-s39-prior/NAME.png and the test artifacts."""
    SHOTS.mkdir(exist_ok=True)
    path = artifact(f"policy-{name}.png")
    page.screenshot(path=str(path))
    shutil.copy(path, SHOTS / f"{name}.png")


def bots_offered(page: Any, seat: int) -> list[str]:
    """The bot names a seat's menu offers."""
    values = page.eval_on_selector_all(f"[data-seat='{seat}'] option", "os => os.map(o => o.value)")
    return [v[4:] for v in values if v.startswith("bot:")]


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_offers_the_policy_bot_only_where_a_network_is_shipped(
        live_server: Server, browser: Any, size: str) -> None:
    context = browser.new_context(bypass_csp=True, viewport=SIZES[size], is_mobile=size == "phone")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(live_server.url + "/")
        page.wait_for_selector("#bots-help summary")
        page.select_option("#game", "rounce")
        page.select_option("#players", "4")
        page.dispatch_event("#players", "change")
        for seat in (1, 2, 3):
            assert "policy" in bots_offered(page, seat), bots_offered(page, seat)
        page.select_option("[data-seat='1']", "bot:policy")
        page.click("#bots-help summary")
        told = page.eval_on_selector_all("#bots-help dt", "ds => ds.map(d => d.textContent)")
        assert "policy bot" in told
        assert "trained" in (page.text_content("#bots-help") or "")
        page.locator("[data-seat='1']").scroll_into_view_if_needed()
        shot(page, f"lobby-rounce4-policy-offered-{size}")
        page.select_option("#players", "2")
        page.dispatch_event("#players", "change")
        assert "policy" not in bots_offered(page, 1) and "greedy" in bots_offered(page, 1)
        told = page.eval_on_selector_all("#bots-help dt", "ds => ds.map(d => d.textContent)")
        assert "policy bot" not in told
        page.select_option("#game", "eighty")
        page.dispatch_event("#game", "change")
        assert "policy" in bots_offered(page, 1)
        page.select_option("#game", "montana")
        page.dispatch_event("#game", "change")
        page.select_option("#players", "3")
        page.dispatch_event("#players", "change")
        assert "policy" not in bots_offered(page, 1) and "greedy" in bots_offered(page, 1)
        page.locator("[data-seat='1']").scroll_into_view_if_needed()
        shot(page, f"lobby-montana3-no-policy-{size}")
        assert errors == []
    finally:
        context.close()


def test_a_table_made_with_the_policy_bot_is_played_by_it(live_server: Server) -> None:
    with httpx.Client(base_url=live_server.url, timeout=10) as http:
        r = http.post("/api/tables", json={"game": "rounce", "players": 4,
                                           "seats": ["bot:policy", "bot:policy", "bot:greedy", "bot:policy"],
                                           "rules": {"max_hands": 1}})
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        for _ in range(200):
            seen = http.get(f"/api/tables/{table}").json()
            if seen["is_over"]:
                break
            time.sleep(0.1)
        assert seen["is_over"], "the bots did not finish the hand"
