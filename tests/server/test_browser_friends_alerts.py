"""Turn alerts, muting and resigning in the browser: the page title and favicon on your turn,
the opt-in sound and browser notification (spied on, and kept across a reload), muting a
player's chat, a resignation that decides a two-player game, nobody's turn shown between
hands, and decisions at every game made with the keyboard only (Tab and Enter on a tile,
the number keys for the action list; Rounce has a whole hand in test_browser_friends)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server
from .test_browser import page_factory, state_of, stored_seat
from .test_browser_friends import log_has
from .test_browser_friends_look import CONTRAST

__all__ = ["page_factory"]  # the fixture, imported for the tests here

STEP = 20_000  # ms

# Counts what the page asks of the browser: each sound (an oscillator started) and each
# notification. The page is made to look hidden (a notification is for a player looking
# elsewhere) and the notification permission granted.
SPIES = """
window.__beeps = 0;
window.__notes = [];
const RealAudio = window.AudioContext;
window.AudioContext = class extends RealAudio {
  createOscillator() { window.__beeps += 1; return super.createOscillator(); }
};
window.Notification = class {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
};
Object.defineProperty(document, "hidden", { get: () => true });
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own (bots wait 0.05 s)."""
    db = tmp_path_factory.mktemp("alerts") / "alerts.db"
    srv = Server(f"sqlite:///{db}", bot_delay=0.05)
    srv.start()
    yield srv
    srv.stop()


def seat_pages(server: Server, page_factory: Any, names: tuple[str, str], hands: int = 1,
               **extra: Any) -> tuple[str, list[Any]]:
    """A two-human rounce table of ``hands`` hands and a page per seat, each joined; returns the id and the pages."""
    body: dict[str, Any] = {"game": "rounce", "players": 2, "seats": ["human", "human"],
                            "rules": {"max_hands": hands}, **extra}
    table_id = httpx.post(f"{server.url}/api/tables", json=body, timeout=10).json()["id"]
    pages = []
    for seat, name in enumerate(names):
        page = page_factory(viewport={"width": 1280, "height": 800})
        page.add_init_script(SPIES)
        page.goto(f"{server.url}/tables/{table_id}")
        page.wait_for_selector(f"#join [data-join='{seat}']")
        page.fill("#join-name", name)
        page.click(f"#join [data-join='{seat}']")
        pages.append(page)
    for seat, page in enumerate(pages):  # each page's friends panel knows its seat: it offers to leave
        page.wait_for_selector(f"#fr-seats li[data-seat='{seat}'] button:has-text('leave')", timeout=STEP)
    return table_id, pages


def turn_shown(page: Any) -> dict[str, Any]:
    """What the page shows of the turn: its title, and the favicon's colour and mark."""
    out: dict[str, Any] = page.evaluate(
        "(() => { const l = document.querySelector('link[rel=icon]'); return {title: document.title, "
        "href: l ? decodeURIComponent(l.href) : '', turn: l ? l.dataset.turn : null}; })()")
    return out


def play_one(server: Server, table_id: str, token: str) -> None:
    """The token's seat plays its first legal action (it must be its turn)."""
    st = state_of(server, table_id, token)
    r = httpx.post(f"{server.url}/api/tables/{table_id}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"action": st["legal_actions"][0], "expected_version": st["version"]}, timeout=10)
    assert r.status_code == 200, r.text


def test_title_favicon_sound_and_notification_on_your_turn(server: Server, page_factory: Any) -> None:
    table_id, pages = seat_pages(server, page_factory, ("Ann", "Bob"))
    ann = pages[0]
    # Ann opts in to the sound and the notification; Bob does not
    ann.click(".fr-alerts summary")
    ann.check("#fr-sound")
    ann.check("#fr-notify")
    assert ann.evaluate("JSON.parse(localStorage.getItem('boneyard.alerts'))") == {"sound": True, "notify": True}
    tokens = [stored_seat(p, table_id)["token"] for p in pages]
    # whoever is first passes the turn on until Ann's turn starts after she opted in
    if state_of(server, table_id)["current_player"] == 0:
        play_one(server, table_id, tokens[0])
    while state_of(server, table_id)["current_player"] != 0:
        play_one(server, table_id, tokens[1])
    ann.wait_for_function("document.title.startsWith('● Your turn')", timeout=STEP)
    shown = [turn_shown(p) for p in pages]
    assert shown[0]["turn"] == "yes" and "#d97706" in shown[0]["href"]
    assert not shown[1]["title"].startswith("●") and shown[1]["turn"] == "no" and "#d97706" not in shown[1]["href"]
    ann.wait_for_function("window.__beeps >= 1 && window.__notes.length >= 1", timeout=STEP)
    assert ann.evaluate("window.__notes[0].title") == "boneyard: your turn"
    assert pages[1].evaluate("[window.__beeps, window.__notes.length]") == [0, 0]
    # Ann plays: the title and favicon go back, then show Bob's turn on his page
    play_one(server, table_id, tokens[0])
    if state_of(server, table_id)["current_player"] == 1:
        pages[1].wait_for_function("document.title.startsWith('● Your turn')", timeout=STEP)
        ann.wait_for_function("!document.title.startsWith('●')", timeout=STEP)
        assert turn_shown(ann)["turn"] == "no"
        assert pages[1].evaluate("[window.__beeps, window.__notes.length]") == [0, 0]  # Bob did not opt in
    # the choices are kept: a reload shows them ticked; unticking is kept too
    ann.reload()
    ann.wait_for_selector("#fr-seats li")
    ann.click(".fr-alerts summary")
    assert ann.is_checked("#fr-sound") and ann.is_checked("#fr-notify")
    ann.uncheck("#fr-sound")
    assert ann.evaluate("JSON.parse(localStorage.getItem('boneyard.alerts'))")["sound"] is False
    assert ann.js_errors == [] and pages[1].js_errors == []


def test_mute_hides_a_players_chat_and_is_kept(server: Server, page_factory: Any) -> None:
    _table_id, (ann, bob) = seat_pages(server, page_factory, ("Ann", "Bob"))
    bob.click("#fr-seats li[data-seat='0'] button:has-text('mute')")
    assert bob.evaluate("JSON.parse(localStorage.getItem('boneyard.muted'))") == ["Ann"]
    ann.fill("#fr-text", "can you hear me")
    ann.press("#fr-text", "Enter")
    log_has(ann, "can you hear me")
    bob.fill("#fr-text", "Bob here")
    bob.press("#fr-text", "Enter")
    log_has(bob, "Bob here")
    assert "can you hear me" not in bob.text_content("#fr-log")  # pushed after Ann's line, still hidden
    bob.reload()
    log_has(bob, "Bob here")
    assert "can you hear me" not in bob.text_content("#fr-log")
    bob.click("#fr-seats li[data-seat='0'] button:has-text('unmute')")
    log_has(bob, "can you hear me")
    assert "Ann" in ann.text_content("#fr-seats") and ann.locator("#fr-seats li[data-seat='0'] button:has-text('mute')"
                                                                  ).count() == 0  # nobody mutes themselves
    assert ann.js_errors == [] and bob.js_errors == []


def test_resigning_in_the_browser_decides_a_two_player_game(server: Server, page_factory: Any) -> None:
    table_id, (ann, bob) = seat_pages(server, page_factory, ("Ann", "Bob"))
    bob.on("dialog", lambda d: d.accept())
    bob.click("#fr-seats li[data-seat='1'] button:has-text('resign')")
    ann.wait_for_function("document.getElementById('fr-banner').textContent.includes('Ann wins')", timeout=STEP)
    log_has(ann, "Bob resigned")
    assert "resigned: greedy bot plays" in bob.text_content("#fr-seats li[data-seat='1']")
    assert bob.locator("#fr-seats button:has-text('resign'), #fr-seats button:has-text('play again')").count() == 0
    assert httpx.get(f"{server.url}/api/tables/{table_id}/friends", timeout=10).json()["decided"] == [0]
    found = ann.evaluate(CONTRAST)  # the banner and its Rematch button
    assert found["checked"] > 10 and not found["failing"], found
    # a decided game offers the rematch at once: Ann proposes, Bob accepts from his banner
    ann.click("#fr-rematch")
    ann.wait_for_url(lambda url: table_id not in url, timeout=STEP)
    bob.wait_for_selector("#fr-accept", timeout=STEP)
    bob.click("#fr-accept")
    bob.wait_for_url(ann.url, timeout=STEP)
    assert ann.js_errors == [] and bob.js_errors == []


def test_nobodys_turn_is_shown_between_hands(server: Server, page_factory: Any) -> None:
    table_id, pages = seat_pages(server, page_factory, ("Ann", "Bob"), hands=2, next_timeout=60, clock=30)
    tokens = [stored_seat(p, table_id)["token"] for p in pages]
    while state_of(server, table_id)["between_hands"] is None:
        play_one(server, table_id, tokens[state_of(server, table_id)["current_player"]])
    first = state_of(server, table_id)["current_player"]  # who acts once the next hand starts
    pages[first].wait_for_function("!document.title.startsWith('●')", timeout=STEP)
    pages[first].wait_for_timeout(500)
    assert not turn_shown(pages[first])["title"].startswith("●") and turn_shown(pages[first])["turn"] == "no"
    assert "s left" not in pages[first].text_content("#fr-clock")  # the clock stands still
    found = pages[first].evaluate(CONTRAST)  # the hand's result sheet and the Next hand button too
    assert found["checked"] > 10 and not found["failing"], found
    for token in tokens:
        httpx.post(f"{server.url}/api/tables/{table_id}/next", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    pages[first].wait_for_function("document.title.startsWith('● Your turn')", timeout=STEP)
    pages[first].wait_for_function("document.getElementById('fr-clock').textContent.includes('s left')", timeout=STEP)
    assert pages[0].js_errors == [] and pages[1].js_errors == []


def tab_to(page: Any, selector: str) -> bool:
    """Press Tab until the focused element matches ``selector`` (False if it never does)."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return True
    return False


@pytest.mark.parametrize("game", ["montana", "twobox", "rummikub", "eighty"])
def test_decisions_with_the_keyboard_only(server: Server, page_factory: Any, game: str) -> None:
    players = 4 if game == "eighty" else 2
    seats = ["human"] + ["bot:greedy"] * (players - 1)
    table_id = httpx.post(f"{server.url}/api/tables", json={"game": game, "players": players, "seats": seats},
                          timeout=10).json()["id"]
    page = page_factory(viewport={"width": 1280, "height": 800})
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_selector("#join [data-join='0']")
    page.fill("#join-name", "Kim")
    page.click("#join [data-join='0']")
    token = None
    for _ in range(100):
        raw = page.evaluate(f"localStorage.getItem('boneyard.token.{table_id}')")
        if raw:
            token = stored_seat(page, table_id)["token"]
            break
        page.wait_for_timeout(100)
    assert token
    made = 0
    deadline = time.monotonic() + 120
    while made < 3:
        assert time.monotonic() < deadline, f"{made} decisions made by keyboard"
        st = state_of(server, table_id, token)
        if st["current_player"] != 0 or not st["legal_actions"]:
            page.wait_for_timeout(60)
            continue
        # the page has drawn the push that made it our turn (the server answers before it does)
        page.wait_for_function("document.querySelector('#status.yours') && document.querySelectorAll("
                               "'#actions [data-action], #hand .handtile.playable').length > 0", timeout=15_000)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        if page.locator("#hand .handtile.playable").count() and tab_to(page, "#hand .handtile.playable"):
            page.keyboard.press("Enter")
            page.wait_for_timeout(200)
        if state_of(server, table_id)["version"] == st["version"]:
            page.keyboard.press("1")
        step = time.monotonic() + 10
        while state_of(server, table_id)["version"] == st["version"] and time.monotonic() < step:
            page.wait_for_timeout(50)
        assert state_of(server, table_id)["version"] != st["version"], \
            (game, st["legal_actions"][:5], page.text_content("#actions"))
        made += 1
    assert made == 3 and page.js_errors == []
