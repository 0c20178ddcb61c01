"""Playing with friends in the browser: two or three Chromium contexts against a real server.

A host creates a table in the lobby, a friend joins from the copied link, the game starts
only when the seats are full, chat goes both ways, presence and "left" show, the host hands
the absent seat to a bot, the friend resumes on a fresh context with their code, ratings
and the leaderboard move, and a rematch seats both again. Other tests: the move clock,
the copy-link fallback, and a Rounce hand played with the keyboard only.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, artifact
from .test_browser import page_factory, play_until, state_of, stored_seat, table_id_of
from .test_browser_friends_look import CONTRAST, post, seated

__all__ = ["page_factory"]  # the fixture, imported for the tests here

STEP = 20_000  # ms


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose public address (localhost) differs from the one the pages are opened at (127.0.0.1)."""
    db = tmp_path_factory.mktemp("friends") / "friends.db"
    srv = Server(f"sqlite:///{db}", bot_delay=0.05)
    srv.extra = ["--public-url", f"http://localhost:{srv.port}"]
    srv.start()
    yield srv
    srv.stop()


def room(server: Server, table_id: str) -> dict[str, Any]:
    """The friends' view of a table."""
    out: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}/friends", timeout=10).json()
    return out


def create_one_hand(page: Any, server: Server, name: str, seats: list[str]) -> str:
    """Create a one-hand rounce table in the lobby form; returns its id once the table page is open."""
    page.goto(server.url + "/")
    page.fill("#name", name)
    page.select_option("#game", "rounce")
    page.select_option("#players", str(len(seats)))
    for seat, kind in enumerate(seats):
        page.select_option(f"[data-seat='{seat}']", kind)
    page.fill("[data-opt='max_hands']", "1")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("#fr-seats li")
    return table_id_of(page)


def log_has(page: Any, text: str) -> None:
    """Wait until the friends' log on ``page`` shows ``text``."""
    page.wait_for_function("t => (document.getElementById('fr-log') || {}).textContent?.includes(t)", arg=text,
                           timeout=STEP)


def test_friends_play_chat_leave_resume_rate_and_rematch(server: Server, page_factory: Any) -> None:
    clip = {"permissions": ["clipboard-read", "clipboard-write"]}
    host = page_factory(viewport={"width": 1280, "height": 800}, **clip)
    table_id = create_one_hand(host, server, "Ann", ["human", "human"])
    host.wait_for_selector("#fr-start")
    assert "Waiting for players" in host.text_content("#fr-banner")
    assert state_of(server, table_id)["version"] == 0

    # the copy-link button copies the public address
    host.click("#share")
    host.wait_for_function("document.getElementById('share').textContent === 'copied'", timeout=STEP)
    link = host.evaluate("navigator.clipboard.readText()")
    assert link == f"http://localhost:{server.port}/tables/{table_id}"

    friend_context_page = page_factory(viewport={"width": 390, "height": 844})
    friend = friend_context_page
    friend.goto(link)
    friend.wait_for_selector("#join [data-join='1']")
    friend.fill("#join-name", "Bob")
    friend.click("#join [data-join='1']")
    for page in (host, friend):
        page.wait_for_function("!document.getElementById('fr-banner').textContent.includes('Waiting')", timeout=STEP)
    assert room(server, table_id)["started"] is True
    host.wait_for_selector("#fr-seats li[data-seat='1'] .fr-dot.here")
    log_has(host, "Bob joined")

    # chat both ways; markup arrives as text
    host.fill("#fr-text", "hello <b>Bob</b>")
    host.press("#fr-text", "Enter")
    log_has(friend, "hello <b>Bob</b>")
    assert friend.locator("#fr-log li.fr-msg b").count() == 1  # only the speaker's name is bold
    friend.fill("#fr-text", "hi Ann")
    friend.click("#fr-chat button[type=submit]")
    log_has(host, "hi Ann")

    # Bob's code, then Bob closes his browser: the host sees him leave
    friend.wait_for_function(f"localStorage.getItem('boneyard.claimed.{table_id}')", timeout=STEP)
    code = friend.evaluate("JSON.parse(localStorage.getItem('boneyard.player')).code")
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    friend.context.close()
    log_has(host, "Bob left")
    host.wait_for_selector("#fr-seats li[data-seat='1'] .fr-dot.away")

    # the host hands Bob's seat to a bot and play goes on
    host.click("#fr-seats li[data-seat='1'] button:has-text('bot plays')")
    log_has(host, "bot now plays for Bob")
    before = state_of(server, table_id)["version"]
    play_until([host], lambda: state_of(server, table_id)["version"] >= before + 4 or
               state_of(server, table_id)["is_over"], limit=60)
    host.screenshot(path=str(artifact("friends-table-1280.png")), full_page=True)

    # Bob continues on a fresh browser with his code and takes his seat back
    bob = page_factory(viewport={"width": 390, "height": 844})
    bob.goto(server.url + "/me")
    bob.fill("#me-code", code)
    bob.click("#me-use")
    bob.wait_for_selector(f"[data-go='{table_id}']")
    bob.screenshot(path=str(artifact("friends-me-390.png")), full_page=True)
    bob.click(f"[data-go='{table_id}']")
    bob.wait_for_url(f"**/tables/{table_id}")
    assert stored_seat(bob, table_id)["seat"] == 1
    bob.wait_for_selector("#fr-seats li[data-seat='1'] button:has-text('play again')")
    bob.click("#fr-seats li[data-seat='1'] button:has-text('play again')")
    log_has(host, "Bob plays again")
    log_has(host, "Bob is back")
    bob.screenshot(path=str(artifact("friends-table-390.png")), full_page=True)

    play_until([host, bob], lambda: state_of(server, table_id)["is_over"], limit=120)

    # Ann is rated; Bob is rated only if he made most of his own decisions (a bot played
    # his seat while he was away: how many it played depends on the bots' pace)
    host.wait_for_function("document.getElementById('fr-seats').textContent.includes('rating')", timeout=STEP)
    from sqlalchemy import text

    from boneyard.server.db import Store

    store = Store(server.db)
    with store.engine.connect() as conn:
        total = conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :t AND seat = 1"),
                             {"t": table_id}).scalar()
        by_bot = conn.execute(text("SELECT count(*) FROM standins WHERE table_id = :t AND seat = 1 "
                                   "AND kind <> 'resign'"), {"t": table_id}).scalar()
    store.close()
    bob_rated = int(by_bot) * 2 <= int(total)
    board = httpx.get(f"{server.url}/api/games/rounce/leaderboard?players=2", timeout=10).json()
    rated = {r["name"]: r for r in board}
    assert "Ann" in rated and ("Bob" in rated) == bob_rated, (rated, total, by_bot)
    assert all(rated[n]["games"] >= 1 and rated[n]["mu"] != 25.0 for n in rated)
    host.goto(f"{server.url}/leaderboard/rounce")
    assert "Ann" in host.text_content("#leaderboard")
    assert ("Bob" in host.text_content("#leaderboard")) == bob_rated
    host.screenshot(path=str(artifact("friends-leaderboard-1280.png")), full_page=True)
    host.go_back()

    # rematch: one click, the other accepts from the banner; both sit at the next table
    host.wait_for_selector("#fr-rematch")
    host.click("#fr-rematch")
    host.wait_for_url(re.compile(r".*/tables/(?!" + re.escape(table_id) + ").*"))
    new_id = table_id_of(host)
    bob.wait_for_selector("#fr-accept")
    assert "Ann" in bob.text_content("#fr-banner")
    assert bob.is_visible("#fr-decline")  # Bob's seat is kept for him until he answers
    line = next(t for t in httpx.get(f"{server.url}/api/tables", timeout=10).json() if t["id"] == new_id)
    assert line["seats"][1]["reserved_for"] == "Bob" and line["open_seats"] == []
    bob.click("#fr-accept")
    bob.wait_for_url(f"**/tables/{new_id}")
    assert [s["name"] for s in state_of(server, new_id)["seats"]] == ["Ann", "Bob"]
    assert room(server, new_id)["started"] is True
    assert host.js_errors == [] and bob.js_errors == []


def test_the_move_clock_runs_out_and_a_bot_plays(server: Server, page_factory: Any) -> None:
    body = {"game": "rounce", "players": 2, "seats": ["human", "human"], "rules": {"max_hands": 1}, "clock": 2}
    table_id = httpx.post(f"{server.url}/api/tables", json=body, timeout=10).json()["id"]
    pages = []
    for seat, name in enumerate(("Cy", "Di")):
        page = page_factory()
        page.goto(f"{server.url}/tables/{table_id}")
        page.wait_for_selector(f"#join [data-join='{seat}']")
        # two open seats are named as the board names them; the last one is "the open seat"
        want = "Take open seat 0" if seat == 0 else "Take the open seat"
        assert page.text_content(f"#join [data-join='{seat}']") == want
        page.fill("#join-name", name)
        page.click(f"#join [data-join='{seat}']")
        pages.append(page)
    pages[0].wait_for_function("document.getElementById('fr-clock').textContent.includes('s left')", timeout=STEP)
    log_has(pages[0], "clock ran out")
    assert state_of(server, table_id)["version"] >= 1  # nobody clicked: the bot played


def test_copy_link_shows_the_link_where_the_clipboard_is_denied(server: Server, page_factory: Any) -> None:
    page = page_factory(viewport={"width": 390, "height": 844})
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: {writeText: () => "
                         "Promise.reject(new DOMException('denied', 'NotAllowedError'))}})")
    page.goto(server.url + "/")
    page.fill("#name", "Eve")
    page.click("#create-btn")
    page.wait_for_url("**/tables/*")
    page.click("#share")
    page.wait_for_selector(".copy-fallback input")
    value = page.input_value(".copy-fallback input")
    assert value == f"http://localhost:{server.port}/tables/{table_id_of(page)}"
    selected = page.evaluate("(() => { const i = document.activeElement; return i.value.slice(i.selectionStart, "
                             "i.selectionEnd); })()")
    assert selected == value
    assert page.text_content("#share") != "copied"
    found = page.evaluate(CONTRAST)
    assert found["checked"] > 10 and not found["failing"], found
    assert page.evaluate("document.documentElement.scrollWidth") <= 391  # the field fits a phone
    page.screenshot(path=str(artifact("friends-copy-fallback-390.png")), full_page=True)


def tab_to(page: Any, selector: str) -> bool:
    """Press Tab until the focused element matches ``selector`` (False if it never does)."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return True
    return False


def test_a_rounce_hand_with_the_keyboard_only(server: Server, page_factory: Any) -> None:
    page = page_factory(viewport={"width": 1280, "height": 800})
    table_id = create_one_hand(page, server, "Kim", ["human", "bot:greedy"])
    page.wait_for_selector("#hand [data-hand]")
    labels = page.eval_on_selector_all("#hand [data-hand]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert all(re.match(r"(double [a-z]+|[a-z]+ [a-z]+)(,|$)", x) for x in labels), labels
    token = stored_seat(page, table_id)["token"]
    keys = {"digit": 0, "tab": 0}
    deadline = time.monotonic() + 120
    while not state_of(server, table_id)["is_over"]:
        assert time.monotonic() < deadline, "the hand did not finish"
        st = state_of(server, table_id, token)
        if st["current_player"] != st["seat"] or not st["legal_actions"]:
            page.wait_for_timeout(60)
            continue
        page.wait_for_timeout(150)  # the page draws the push
        if page.locator("#actions [data-action]").count():
            page.keyboard.press("1")  # the first action in the list
            keys["digit"] += 1
        else:
            assert tab_to(page, "#hand .handtile.playable"), "Tab never reached a playable tile"
            page.keyboard.press("Enter")
            keys["tab"] += 1
            page.wait_for_timeout(150)
            moved = state_of(server, table_id)["version"] != st["version"]
            if not moved and page.locator("#actions [data-action]").count():
                page.keyboard.press("1")  # the tile's own choices (e.g. which end)
        step_deadline = time.monotonic() + 10
        while state_of(server, table_id)["version"] == st["version"] and time.monotonic() < step_deadline:
            page.wait_for_timeout(30)
    assert keys["digit"] and keys["tab"], keys  # both ways were used
    assert page.js_errors == []


def test_lobby_form_first_labels_filter_and_history(server: Server, page_factory: Any) -> None:
    finished = httpx.post(f"{server.url}/api/tables", json={"game": "rounce", "players": 2, "rules": {"max_hands": 1},
                                                            "seats": ["bot:random", "bot:random"]}, timeout=10).json()
    deadline = time.monotonic() + 60
    while not state_of(server, finished["id"])["is_over"]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    waiting = httpx.post(f"{server.url}/api/tables", json={"game": "montana", "players": 2}, timeout=10).json()
    newer = httpx.post(f"{server.url}/api/tables", json={"game": "twobox", "players": 3,
                                                         "seats": ["human", "human", "bot:greedy"]}, timeout=10).json()
    for w, h in ((390, 844), (1280, 800)):
        page = page_factory(viewport={"width": w, "height": h})
        page.goto(server.url + "/")
        page.wait_for_selector("#fr-boards a")
        page.wait_for_selector(f"#fr-history a[href='/tables/{finished['id']}']")
        order = page.evaluate("[...document.querySelectorAll('main > section')].map(s => s.id)")
        assert order.index("create-section") < order.index("tables-section") < order.index("games-section")
        page.select_option("#game", "rounce")
        assert "Hand limit" in page.text_content("#options")
        row = page.locator(f"#tables tr:has(a[href='/tables/{waiting['id']}'])")
        row.wait_for()
        assert row.is_visible()
        # newest first, with who sits and which seats wait
        ids = page.eval_on_selector_all("#tables tbody tr a[href^='/tables/']",
                                        "els => els.map(a => a.getAttribute('href').split('/').pop())")
        assert ids.index(newer["id"]) < ids.index(waiting["id"])
        chips = page.locator(f"#tables tr:has(a[href='/tables/{newer['id']}']) .seat-chip").all_text_contents()
        assert [c.split(": ", 1)[1] for c in chips] == ["open", "open", "greedy bot"], chips
        assert not page.locator(f"#tables tr:has(a[href='/tables/{finished['id']}'])").is_visible()
        page.select_option("#fr-filter", "rounce")
        assert not row.is_visible()
        page.select_option("#fr-filter", "")
        assert page.evaluate("document.documentElement.scrollWidth") <= w + 1
        page.screenshot(path=str(artifact(f"friends-lobby-{w}.png")), full_page=True)
        create_one_hand(page, server, "Lu", ["human", "human"])
        page.wait_for_selector("#fr-start")
        assert page.evaluate("document.documentElement.scrollWidth") <= w + 1
        found = page.evaluate(CONTRAST)  # the waiting banner with its Start button
        assert found["checked"] > 10 and not found["failing"], found
        page.screenshot(path=str(artifact(f"friends-waiting-{w}.png")), full_page=True)


def test_my_games_keeps_a_code_typed_before_the_page_finished_loading(server: Server, page_factory: Any) -> None:
    """A player who types their code while "My games" is still loading finds their games.

    The page's first load waits for the games list; here that answer is held until the
    code is typed, so the first load runs between the typing and the click, as on a slow
    connection. It used to wipe the typed code, and the click then found nothing.
    """
    code = post(server, "/api/players", {"name": "Cleo"})["code"]
    table_id, _ = seated(server, "rounce", ["human", "bot:random"], "Cleo", code, {})
    page = page_factory(viewport={"width": 390, "height": 844})
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(server.url + "/me")
    page.fill("#me-code", code)
    deadline = time.monotonic() + 10
    while not held:  # the games list was asked for and is held
        assert time.monotonic() < deadline, "the page never asked for the games list"
        page.wait_for_timeout(20)
    held[0].continue_()
    page.wait_for_function("document.getElementById('me-who').textContent.includes('No player code')", timeout=STEP)
    assert page.input_value("#me-code") == code  # the first load left the typed code alone
    page.click("#me-use")
    page.wait_for_selector(f"[data-go='{table_id}']", timeout=STEP)
    assert "Playing as Cleo" in page.text_content("#me-who")
    assert page.js_errors == []
