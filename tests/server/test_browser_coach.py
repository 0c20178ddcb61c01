"""The coach in the browser: the Hint during a Rounce game and the Review once it is over.

A practice Rounce table (one hand, two greedy bots) is created in the lobby (again, when the
bots' folds end the deal before the player has a tile to play). On the player's turn the
Hint shows at most three actions with their values and marks the best
one's tile; "Play" plays it. The game is played to its end, then "Review my game" shows
progress, the decisions judged, and opens the replay at a decision with the coach's move
marked on the board. A table that is not practice (rated) shows no Hint button.
Screenshots at laptop and phone size go to test-artifacts/.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import boneyard

from .conftest import Server, artifact
from .test_browser import click_a_move, create_in_lobby, page_factory, state_of, stored_seat, table_id_of

__all__ = ["page_factory"]  # the fixture, imported for the tests here

STEP = 30_000  # ms
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose coach thinks briefly (the environment variables ``boneyard serve`` reads)."""
    db = tmp_path_factory.mktemp("coach") / "coach.db"
    saved = {k: os.environ.get(k) for k in ("BONEYARD_HINT_MS", "BONEYARD_REVIEW_MS")}
    os.environ.update({"BONEYARD_HINT_MS": "500", "BONEYARD_REVIEW_MS": "150"})
    try:
        srv = Server(f"sqlite:///{db}", bot_delay=0.05).start()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    yield srv
    srv.stop()


def my_turn(page: Any, server: Server, table_id: str, token: str) -> dict[str, Any]:
    """Wait until it is the page's seat's turn to play a tile (or the game is over); the state then."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the player's turn did not come"
        state = state_of(server, table_id, token)
        if state["is_over"] or (state["current_player"] == state["seat"] and not state.get("between_hands")):
            page.wait_for_function(f"document.body.dataset.version === '{state['version']}'", timeout=STEP)
            return state
        if page.locator("#next-hand").is_visible():
            page.click("#next-hand")
        time.sleep(0.05)


def create_practice_table(page: Any, server: Server) -> tuple[str, str]:
    """A one-hand practice Rounce table made in the lobby as a person does: its id and the player's token."""
    page.goto(server.url + "/")
    page.fill("#name", "Ann")
    page.select_option("#game", "rounce")
    page.select_option("#players", "3")
    for seat, kind in enumerate(["human", "bot:greedy", "bot:greedy"]):
        page.select_option(f"[data-seat='{seat}']", kind)
    page.fill("[data-opt='max_hands']", "1")
    page.check("#practice")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#players tbody tr")
    table_id = table_id_of(page)
    token = stored_seat(page, table_id)["token"]
    assert state_of(server, table_id, token)["fixed_deal"] is True
    return table_id, token


def hint_and_play_a_tile(page: Any, server: Server, table_id: str, token: str) -> bool:
    """On the first turn with a tile to play, check the Hint and play its best action; False if none came.

    The player never folds, but the deal is random: when both bots fold, this one-hand
    game can end before the player has a tile to play.
    """
    deadline = time.monotonic() + 120
    missed = 0  # clicks in a row on a call button that did not land
    while True:
        assert time.monotonic() < deadline, "no turn with a tile to play came"
        state = my_turn(page, server, table_id, token)
        if state["is_over"]:
            return False
        legal = state["legal_actions"]
        page.wait_for_selector("#coach-hint-btn:visible", timeout=STEP)
        if not any(a.startswith("play ") for a in legal):
            # stay in the hand (a fold could end this one-hand game before a tile is played)
            staying = [a for a in legal if a != "fold" and page.locator(f"button.action[data-action='{a}']").count()]
            if staying:
                try:
                    page.click(f"button.action[data-action='{staying[0]}']", timeout=5_000)
                    missed = 0
                except Exception:
                    # the table moved on under the click: look again, but not for ever
                    missed += 1
                    assert missed < 3, f"the button {staying[0]!r} did not take a click: {page.inner_html('#actions')}"
            else:
                click_a_move(page)
            continue
        page.click("#coach-hint-btn")
        page.wait_for_selector("#coach-hint .coach-list li", timeout=STEP)
        items = page.locator("#coach-hint .coach-list li")
        assert 1 <= items.count() <= 3
        actions = [items.nth(i).get_attribute("data-coach-action") for i in range(items.count())]
        assert all(a in legal for a in actions), (actions, legal)
        text = page.text_content("#coach-hint") or ""
        assert "Coach's hint" in text and "over the rest of this hand" in text
        best = actions[0]
        if best.startswith("play "):
            tile = best.split()[1]
            assert page.locator(f"#hand .handtile.coach-best[data-hand='{tile}']").count() == 1
        page.screenshot(path=str(artifact("coach-hint-1366.png")), full_page=False)
        page.set_viewport_size(PHONE)
        page.locator("#coach-hint").scroll_into_view_if_needed()
        page.screenshot(path=str(artifact("coach-hint-390.png")), full_page=False)
        page.set_viewport_size(LAPTOP)
        page.click("#coach-play")
        page.wait_for_function(f"Number(document.body.dataset.version) > {state['version']}", timeout=STEP)
        return True


def test_hint_during_play_and_review_after_the_game(server: Server, page_factory: Any) -> None:
    page = page_factory(viewport=LAPTOP)
    # the Hint on the first turn where a tile is played: three actions at most, the best one's tile marked
    # (a new table when the bots' folds ended a deal before the player had a tile to play)
    for _ in range(4):
        table_id, token = create_practice_table(page, server)
        if hint_and_play_a_tile(page, server, table_id, token):
            break
    else:
        pytest.fail("four deals in a row ended before the player had a tile to play")

    # play the game out by clicking, as a player does
    deadline = time.monotonic() + 180
    while not state_of(server, table_id, token)["is_over"]:
        assert time.monotonic() < deadline, "the game did not end"
        if not click_a_move(page):
            page.wait_for_timeout(60)
    page.wait_for_selector("#over:not([hidden])", timeout=STEP)
    assert not page.locator("#coach-hint-btn").is_visible()  # no hint once the game is over

    # the review: progress while it works, then the decisions, a second request answered at once
    page.click("#coach-review-btn")
    page.wait_for_selector("#coach-progress", timeout=STEP)
    page.wait_for_selector("#coach-review .coach-summary", timeout=120_000)
    summary = page.text_content("#coach-review .coach-summary") or ""
    assert "decisions judged" in summary
    review = httpx.get(f"{server.url}/api/tables/{table_id}/review", params={"seat": 0}, timeout=10)
    assert review.status_code == 200
    decisions = review.json()["decisions"]
    assert decisions and f"{len(decisions)} decisions judged" in summary
    for mark in ("blunder", "mistake", "inaccuracy"):
        assert page.locator(f"#coach-review li.mark-{mark}").count() == review.json()["counts"][mark]

    # open the replay at a decision: a marked one if any, else any decision whose best move names a tile
    with_tiles = [d for d in decisions if d["best"][0]["tiles"]]
    assert with_tiles, "no decision whose best move names a tile"
    chosen = next((d for d in with_tiles if d["mark"]), None)
    if chosen is None:
        page.check("#coach-all")
        chosen = with_tiles[0]
    page.click(f"[data-coach-step='{chosen['step']}']")
    page.wait_for_selector("#replay:not([hidden])", timeout=STEP)
    page.wait_for_function(f"document.getElementById('rp-label').textContent.startsWith('{chosen['step']}/')",
                           timeout=STEP)
    page.wait_for_selector("#coach-note:not([hidden])", timeout=STEP)
    best_tile = chosen["best"][0]["tiles"][0]
    page.wait_for_selector(f"#hand .handtile.coach-best[data-hand='{best_tile}']", timeout=STEP)
    if chosen["best"][0]["action"] != chosen["played"]:
        assert "the coach prefers" in (page.text_content("#coach-note") or "")
        if set(chosen["played_tiles"]) - set(chosen["best"][0]["tiles"]):
            assert page.locator(".coach-played").count() >= 1  # the tile played, dashed red
    page.screenshot(path=str(artifact("coach-review-board-1366.png")))
    page.locator("#coach-review").scroll_into_view_if_needed()
    page.screenshot(path=str(artifact("coach-review-1366.png")))
    page.set_viewport_size(PHONE)
    page.locator("#coach-review").scroll_into_view_if_needed()
    page.screenshot(path=str(artifact("coach-review-390.png")))
    page.click(f"[data-coach-step='{chosen['step']}']")  # again, on the phone: the note and the board come into view
    page.wait_for_timeout(300)
    page.screenshot(path=str(artifact("coach-review-board-390.png")))
    assert page.js_errors == []


def test_no_hint_button_at_a_rated_table(server: Server, page_factory: Any) -> None:
    page = page_factory(viewport=PHONE, is_mobile=True)
    table_id = create_in_lobby(page, server, "rounce", "Bea", seats=["human", "bot:greedy", "bot:greedy"])
    token = stored_seat(page, table_id)["token"]
    state = my_turn(page, server, table_id, token)
    assert state["fixed_deal"] is False
    page.wait_for_selector("#status.yours", timeout=STEP)
    assert page.locator("#coach-hint-btn").count() == 1 and not page.locator("#coach-hint-btn").is_visible()
    r = httpx.get(f"{server.url}/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"},
                  timeout=30)
    assert r.status_code == 403 and "rated" in r.json()["detail"]
    page.keyboard.press("h")  # the key does nothing either
    page.wait_for_timeout(300)
    assert page.locator("#coach-hint").is_hidden()
    assert page.js_errors == []


@pytest.mark.parametrize("game", boneyard.games())
def test_the_hint_panel_in_every_game(server: Server, page_factory: Any, game: str) -> None:
    """In every game the Hint lists legal actions, best first, and rings the best one's tiles or button."""
    page = page_factory(viewport=PHONE, is_mobile=True)
    players = boneyard.game_info(game)["players"]["default"]
    body = {"game": game, "players": players, "seats": ["human"] + ["bot:greedy"] * (players - 1),
            "practice": True, "seed": 11, "next_timeout": 0}
    table_id = httpx.post(f"{server.url}/api/tables", json=body, timeout=30).json()["id"]
    page.goto(f"{server.url}/tables/{table_id}")
    page.fill("#join-name", "Cy")
    page.click("[data-join='0']")
    page.wait_for_function(f"localStorage.getItem('boneyard.token.{table_id}')", timeout=STEP)
    token = stored_seat(page, table_id)["token"]
    state = my_turn(page, server, table_id, token)
    assert not state["is_over"]
    with page.expect_response(lambda r: r.url.endswith(f"/api/tables/{table_id}/hint"), timeout=STEP) as answer:
        page.click("#coach-hint-btn")
    hint = answer.value.json()
    page.wait_for_selector("#coach-hint .coach-list li", timeout=STEP)
    actions = page.eval_on_selector_all("#coach-hint .coach-list li", "els => els.map(e => e.dataset.coachAction)")
    assert actions == [b["action"] for b in hint["best"]]
    assert all(a in state["legal_actions"] or a == (hint.get("solver") or {}).get("action") for a in actions)
    rings = page.locator(".coach-best").count()
    assert rings >= 1 or not hint["tiles"]  # the best action's tiles (or its button) are ringed
    page.locator("#coach-hint").scroll_into_view_if_needed()
    page.screenshot(path=str(artifact(f"coach-hint-{game}-390.png")))
    assert page.js_errors == []
