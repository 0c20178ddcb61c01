"""Browser tests: Playwright driving Debian's Chromium against a real server subprocess."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

import boneyard

from .conftest import Server, artifact

STEP_TIMEOUT = 20_000  # ms


def state_of(server: Server, table_id: str, token: str | None = None) -> dict[str, Any]:
    """The table as a seat sees it, over HTTP."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    state: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}", headers=headers, timeout=10).json()
    return state


def stored_seat(page: Any, table_id: str) -> dict[str, Any]:
    """The seat and token the page keeps in localStorage."""
    raw = page.evaluate(f"localStorage.getItem('boneyard.token.{table_id}')")
    assert raw, "the page did not keep its seat token"
    seat: dict[str, Any] = json.loads(raw)
    return seat


def table_id_of(page: Any) -> str:
    """The table id in the page's URL."""
    return str(page.url.rstrip("/").split("/")[-1])


@pytest.fixture
def page_factory(browser: Any) -> Iterator[Callable[..., Any]]:
    """New pages in fresh browser contexts (a new player each), closed afterwards."""
    contexts: list[Any] = []

    def make(**kwargs: Any) -> Any:
        context = browser.new_context(bypass_csp=True, **kwargs)  # page.wait_for_function evaluates strings
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.js_errors = errors
        return page

    yield make
    for c in contexts:
        c.close()


def create_in_lobby(page: Any, server: Server, game: str, name: str, seats: list[str] | None = None,
                    practice: bool = False) -> str:
    """Create a table through the lobby form (``practice``: ticked Practice); returns its id once the page is open."""
    page.goto(server.url + "/")
    page.fill("#name", name)
    page.select_option("#game", game)
    if practice:
        page.check("#practice")
    if seats is not None:
        page.select_option("#players", str(len(seats)))
        for seat, kind in enumerate(seats):
            page.select_option(f"[data-seat='{seat}']", kind)
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#players tbody tr")
    return table_id_of(page)


def click_a_move(page: Any) -> bool:
    """If it is this page's turn, play by clicking: a playable hand tile, else an action button.

    A hand-end panel is dismissed with its "Next hand" button first, as a player would.
    """
    if page.locator("#next-hand").is_visible():
        page.click("#next-hand")
        return True
    if "Your turn" not in (page.text_content("#status") or ""):
        return False
    tiles = page.locator("#hand .handtile.playable")
    if tiles.count():
        try:
            tiles.first.click(timeout=2000)
        except Exception:
            return False  # the turn moved on under the click
        page.wait_for_timeout(50)
    buttons = page.locator("#actions [data-action]")
    if buttons.count() and "Your turn" in (page.text_content("#status") or ""):
        version = page.evaluate("document.querySelectorAll('#log li').length")
        try:
            buttons.first.click(timeout=2000)
        except Exception:
            return False  # the board moved on under the click
        # the log grows, or (the move ended the hand and the next hand's log began) the turn moved on
        page.wait_for_function(
            f"document.querySelectorAll('#log li').length > {version}"
            " || !(document.querySelector('#status')?.textContent || '').includes('Your turn')",
            timeout=STEP_TIMEOUT)
    return True


def play_until(pages: list[Any], done: Callable[[], bool], limit: float = 90) -> None:
    """Click moves on every page until ``done()``."""
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the hand did not finish in time"
        moved = any([click_a_move(p) for p in pages])
        if not moved:
            pages[0].wait_for_timeout(60)


def test_new_player_plays_a_rounce_hand_against_bots(live_server: Server, page_factory: Any) -> None:
    page = page_factory(viewport={"width": 1280, "height": 900})
    table_id = create_in_lobby(page, live_server, "rounce", "Ann")
    me = stored_seat(page, table_id)
    assert me["seat"] == 0
    page.wait_for_selector("#hand .handtile")
    assert page.locator("#board .seatbox").count() == 4

    def hand_number() -> int:
        view = state_of(live_server, table_id, me["token"])["view"]
        return 10**6 if view["is_over"] else int(view["hand_number"])

    # Play by clicking until a hand in which this player acted is over (bots may end a hand alone).
    played_in: int | None = None
    deadline = time.monotonic() + 90
    while played_in is None or hand_number() <= played_in:
        assert time.monotonic() < deadline, "the hand did not finish in time"
        current = hand_number()
        if click_a_move(page):
            played_in = current if played_in is None else played_in
        else:
            page.wait_for_timeout(60)
    page.wait_for_selector("#result:not([hidden])")
    assert "Hand result" in page.text_content("#result")
    page.screenshot(path=str(artifact("rounce-table.png")), full_page=True)
    assert page.js_errors == []


def test_reload_mid_hand_restores_the_table(live_server: Server, page_factory: Any) -> None:
    page = page_factory()
    table_id = create_in_lobby(page, live_server, "rounce", "Bea", seats=["human", "bot:random", "bot:random"])
    page.wait_for_selector("#hand .handtile")
    play_until([page], lambda: state_of(live_server, table_id)["version"] >= 3, limit=30)
    if page.locator("#next-hand").is_visible():
        page.click("#next-hand")
    page.wait_for_selector("#hand .handtile")
    before = state_of(live_server, table_id, stored_seat(page, table_id)["token"])
    tiles_before = page.eval_on_selector_all("#hand [data-hand]", "els => els.map(e => e.dataset.hand)")
    page.reload()
    page.wait_for_selector("#hand .handtile")
    tiles_after = page.eval_on_selector_all("#hand [data-hand]", "els => els.map(e => e.dataset.hand)")
    assert tiles_after == tiles_before == before["view"]["hand"]
    assert stored_seat(page, table_id)["seat"] == 0
    assert page.locator("#players tbody tr").count() == 3
    assert page.js_errors == []


@pytest.mark.skipif("eighty" not in boneyard.games(), reason="the eighty engine is not registered yet")
def test_two_browsers_play_eighty_as_partners(live_server: Server, page_factory: Any) -> None:
    ann = page_factory()
    table_id = create_in_lobby(ann, live_server, "eighty", "Ann", seats=["human", "bot:random", "human", "bot:random"])
    bob = page_factory(viewport={"width": 390, "height": 844}, is_mobile=True)  # a phone
    bob.goto(f"{live_server.url}/tables/{table_id}")
    bob.fill("#join-name", "Bob")
    bob.click("[data-join='2']")
    bob.wait_for_selector("#hand .handtile")
    assert stored_seat(bob, table_id)["seat"] == 2
    token = stored_seat(ann, table_id)["token"]

    def hand_over() -> bool:
        view = state_of(live_server, table_id, token)["view"]
        return bool(view["is_over"] or view["hand_number"] > 1)

    play_until([ann, bob], hand_over, limit=120)
    ann.screenshot(path=str(artifact("eighty-table.png")), full_page=True)
    bob.screenshot(path=str(artifact("eighty-table-phone.png")), full_page=True)
    assert ann.js_errors == [] and bob.js_errors == []


def _new_groups(play: str, table: list[list[str]], hand: list[str]) -> list[list[str]] | None:
    """The groups a listed play adds, if it keeps every table group and adds hand tiles only."""
    groups = [g.split() for g in play[len("play "):].split("|")]
    rest = [sorted(g) for g in table]
    added = []
    for g in groups:
        if sorted(g) in rest:
            rest.remove(sorted(g))
        else:
            added.append(g)
    pool = list(hand)
    for t in (t for g in added for t in g):
        if t not in pool:
            return None
        pool.remove(t)
    return added if not rest and added else None


@pytest.mark.skipif("rummikub" not in boneyard.games(), reason="the rummikub engine is not registered yet")
def test_a_rummikub_play_is_built_in_the_ui(live_server: Server, page_factory: Any) -> None:
    page = page_factory()
    table_id = create_in_lobby(page, live_server, "rummikub", "Cy", seats=["human", "bot:random"])
    token = stored_seat(page, table_id)["token"]
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no play that adds only hand tiles came up"
        state = state_of(live_server, table_id, token)
        if state["current_player"] != 0:
            page.wait_for_timeout(60)
            continue
        view = state["view"]
        key = next(k for k in ("table", "groups", "melds", "sets") if isinstance(view.get(k), list))
        table = [g if isinstance(g, list) else g["tiles"] for g in view[key]]
        plays = [a for a in state["legal_actions"] if a.startswith("play ")]
        target = next((g for g in (_new_groups(p, table, view["hand"]) for p in plays) if g), None)
        if target is None:
            page.wait_for_selector("#actions [data-action='draw'], #actions [data-action='pass']")
            page.locator("#actions [data-action='draw'], #actions [data-action='pass']").first.click()
            page.wait_for_timeout(200)
            continue
        break
    page.wait_for_selector("#rk-build")
    page.click("#rk-build")
    for group in target:
        for tile in group:
            page.locator(f"#hand .handtile:not(.selected)[data-hand='{tile}']").first.click()
        page.click("#rk-new")
    version = state["version"]
    page.click("#rk-play")
    deadline = time.monotonic() + 10
    while state_of(live_server, table_id, token)["version"] == version:
        assert time.monotonic() < deadline, f"the built play was not accepted: {page.text_content('#error')}"
        time.sleep(0.05)
    assert page.text_content("#error") == ""
    page.screenshot(path=str(artifact("rummikub-table.png")), full_page=True)
    assert page.js_errors == []


@pytest.mark.parametrize("game_id", boneyard.games())
def test_each_games_table_page_renders(live_server: Server, page_factory: Any, game_id: str) -> None:
    info = boneyard.game_info(game_id)
    n = info["players"]["default"]
    page = page_factory(viewport={"width": 1280, "height": 900})
    table_id = create_in_lobby(page, live_server, game_id, "Dee", seats=["human"] + ["bot:random"] * (n - 1))
    page.wait_for_function("document.querySelector('#board').children.length > 0")
    page.wait_for_timeout(300)
    if page.locator("#next-hand").is_visible():
        # the random bots can end the first hand before the human's first move (in Rounce, all
        # three fold): that hand's board holds no tile, so go on to the next hand as a player would
        page.click("#next-hand")
        page.wait_for_function("document.querySelectorAll('#board svg.tile, #hand svg.tile').length > 0")
    shown = page.locator("#board svg.tile").count() + page.locator("#hand svg.tile").count()
    assert shown > 0, f"no tiles: board {page.inner_html('#board')[:1500]!r} hand {page.inner_html('#hand')[:500]!r}"
    assert info["name"] in page.text_content("#title")
    page.screenshot(path=str(artifact(f"{game_id}-table-page.png")), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifact(f"{game_id}-table-page-phone.png")), full_page=True)
    assert page.js_errors == []
    assert state_of(live_server, table_id)["game"] == game_id


@pytest.mark.skipif("rummikub" not in boneyard.games(), reason="the rummikub engine is not registered yet")
def test_the_rummikub_hint_is_loaded_into_the_builder_and_played(live_server: Server, page_factory: Any) -> None:
    page = page_factory(viewport={"width": 390, "height": 844}, is_mobile=True)
    table_id = create_in_lobby(page, live_server, "rummikub", "Hal", seats=["human", "bot:random"], practice=True)
    token = stored_seat(page, table_id)["token"]
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no hint with a play came up"
        state = state_of(live_server, table_id, token)
        if state["current_player"] != 0:
            page.wait_for_timeout(60)
            continue
        page.wait_for_selector("#rk-hint")
        hint = httpx.get(f"{live_server.url}/api/tables/{table_id}/hint", headers={"Authorization": f"Bearer {token}"},
                         timeout=30).json()["solver"]
        if hint["action"] is None:
            page.locator("#actions [data-action='draw'], #actions [data-action='pass']").first.click()
            page.wait_for_function(f"!document.getElementById('status').textContent.startsWith('Your turn') || "
                                   f"document.querySelectorAll('#log li').length > {len(state['log'])}")
            page.wait_for_timeout(100)
            continue
        break
    page.click("#rk-hint")
    page.wait_for_selector("#rk-play")
    assert "Hint" in (page.text_content("#error") or "")
    assert page.locator("#board .gt.fromhand").count() == hint["count"]
    page.click("#rk-play")
    deadline = time.monotonic() + 10
    while state_of(live_server, table_id, token)["version"] == state["version"]:
        assert time.monotonic() < deadline, f"the hinted play was not accepted: {page.text_content('#error')}"
        time.sleep(0.05)
    assert page.js_errors == []
