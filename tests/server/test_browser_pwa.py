"""The installable app in headless Chromium against a real server: the manifest is installable
(Chromium says so over CDP), the lobby opens offline from the service worker's cache and says so
in words, the "Notices" panel sets notices up, and a table page in the background lets its
player's turn be pushed (to a local push service: nothing leaves the machine).

Chromium cannot make a real push subscription here (that needs its vendor's push service on
the internet), so the subscriptions are made by the test with keys of its own (cryptography's
EC keys) and given to the server through the API, as the page would give its own. Screenshots
at 390x844 and 1280x800 go to /tmp/shots-s42-notice/ for a person to look at.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, Server, artifact, auth, free_port
from .pushkit import LocalPush, Mailbox, decrypt, new_subscription, wait_for

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHOTS = Path("/tmp/shots-s42-notice")
OFFLINE = "You are offline: the lobby will refresh when you are back"


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Playwright with Debian's Chromium (skipped where it is missing). Not conftest's ``browser``:
    the installability check needs a profile on disk (an incognito context is never installable),
    which only Playwright's own object can launch."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: run 'make chromium' (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Iterator[Any]:
    """Chromium for the pages that need no profile of their own."""
    b = chromium.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="module")
def push() -> Iterator[LocalPush]:
    """A push service on 127.0.0.1."""
    service = LocalPush()
    yield service
    service.close()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    """An SMTP server on 127.0.0.1."""
    box = Mailbox()
    yield box
    box.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[Server]:
    """A server that sends e-mail to the local SMTP server and accepts local push endpoints."""
    db = tmp_path_factory.mktemp("pwa") / "pwa.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.05, port=free_port(),
                     extra=["--smtp-host", "127.0.0.1", "--smtp-port", str(mailbox.port),
                            "--smtp-from", "tables@boneyard.test", "--push-loopback"]).start()
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot for a person to look at (and as a test artifact)."""
    SHOTS.mkdir(exist_ok=True)
    path = artifact(f"pwa-{name}.png")
    page.screenshot(path=str(path))
    shutil.copy(path, SHOTS / f"{name}.png")


def lobby(browser: Any, server: Server, size: str, code: str | None = None) -> tuple[Any, Any]:
    """The lobby at ``size``, its service worker active and controlling it; ``code`` kept as the player's."""
    context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
    context.add_init_script("localStorage.setItem('boneyard.name', 'Ann');")
    if code:
        keep = json.dumps({"code": code, "name": "Ann"})
        context.add_init_script(f"localStorage.setItem('boneyard.player', {json.dumps(keep)});"
                                "localStorage.setItem('boneyard.name', 'Ann');")
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#games .card, #games > *")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    return page, context


def test_chromium_reports_the_app_installable(server: Server, chromium: Any, tmp_path: Path) -> None:
    """The manifest (name, icons at 192 and 512, standalone, start URL) and the service worker make
    the app installable: Chromium's own check finds nothing missing."""
    context = chromium.chromium.launch_persistent_context(str(tmp_path / "profile"), executable_path=CHROMIUM,
                                                          args=CHROMIUM_ARGS, viewport=SIZES["laptop"])
    page = context.pages[0] if context.pages else context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(server.url + "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")
    assert errors["installabilityErrors"] == [], errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert json.loads(manifest["data"])["theme_color"] == "#1f5f46"
    # every page links the manifest
    for path in ("/tables/nothing-here", "/me", "/learn/rounce", "/rules/rounce", "/leaderboard/rounce"):
        html = httpx.get(server.url + path, timeout=10).text
        assert "/manifest.webmanifest" in html, path
    assert not page.js_errors
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_opens_offline_and_says_so(server: Server, browser: Any, size: str) -> None:
    """Offline, the lobby's shell comes from the service worker's cache with the words that it is
    offline; the API is never answered from the cache; back online, the lobby loads again."""
    page, context = lobby(browser, server, size)
    context.set_offline(True)
    page.goto(server.url + "/")  # a fresh load (a reload would restore the form's fields by itself)
    banner = page.wait_for_selector("#offline", state="visible")
    assert banner.text_content() == OFFLINE
    assert page.locator("h1").first.text_content() == "boneyard"
    assert page.input_value("#name") == "Ann"  # the lobby's own script ran
    # every module the lobby imports is in the service worker's cache, not only in the browser's
    for module in ("/static/lobby.js", "/static/core/api.js", "/static/core/tiles.js", "/static/bots.js",
                   "/static/friends/lobby.js", "/static/friends/common.js", "/static/notices/notices.js"):
        assert page.evaluate(f"caches.match('{module}').then((hit) => !!hit)"), module
    # what needs the server is not shown empty, nor with a fetch's error
    for part in ("#create-section", "#bots-section", "#tables-section", "#games-section"):
        assert page.locator(part).is_hidden(), part
    # the API is not answered from a cache: offline it fails
    assert page.evaluate("fetch('/api/tables').then(() => 'answered', () => 'failed')") == "failed"
    shot(page, f"lobby-offline-{size}")
    with page.expect_navigation():
        context.set_offline(False)  # the page reloads itself
    page.wait_for_selector("#games > *")
    assert page.locator("#offline").is_hidden() and page.locator("#create-section").is_visible()
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_notices_panel_sets_up_email(server: Server, browser: Any, mailbox: Mailbox, size: str) -> None:
    """The lobby's "Notices" (keyboard: Enter opens it, Esc closes it) keeps the kinds and an address;
    saving an address sends a confirmation link to it, and the panel says so."""
    code = httpx.post(server.url + "/api/players", json={"name": "Ann"}, timeout=10).json()["code"]
    page, context = lobby(browser, server, size, code)
    page.focus("#nt-open")
    page.keyboard.press("Enter")
    page.wait_for_selector("#nt-panel", state="visible")
    page.wait_for_function("() => document.activeElement.name === 'kind'")  # the focus moves into the panel
    page.wait_for_function("() => document.querySelector('#nt-device-state').textContent !== ''")
    page.uncheck("input[name=kind][value=chat]")
    address = f"ann-{size}@example.org"
    page.fill("#nt-address", address)
    page.click("#nt-save")
    page.wait_for_function("() => document.querySelector('#nt-status').textContent === 'Saved.'")
    assert f"We sent a link to {address}" in page.text_content("#nt-email-state")
    wait_for(lambda: mailbox.to(address))
    stored = httpx.get(server.url + "/api/players/me/notices", headers={"X-Player": code}, timeout=10).json()
    assert stored["kinds"] == ["turn", "join", "end"] and stored["address"] == address
    shot(page, f"lobby-notices-{size}")
    # nothing covers the panel's Save button once it is scrolled to
    page.locator("#nt-save").scroll_into_view_if_needed()
    assert page.evaluate("() => { const b = document.querySelector('#nt-save').getBoundingClientRect();"
                         " return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id; }") == "nt-save"
    page.keyboard.press("Escape")
    assert page.locator("#nt-panel").is_hidden()
    assert page.evaluate("document.activeElement.id") == "nt-open"
    assert not page.js_errors
    context.close()


def test_this_device_button_asks_only_when_pressed(server: Server, browser: Any) -> None:
    """No permission prompt until the player presses the button; pressed, the page either subscribes or
    says in words why it could not (headless Chromium has no push service to reach)."""
    code = httpx.post(server.url + "/api/players", json={"name": "Ann"}, timeout=10).json()["code"]
    page, context = lobby(browser, server, "laptop", code)
    assert page.evaluate("Notification.permission") == "default"  # nothing asked at load
    context.grant_permissions(["notifications"], origin=server.url)
    page.click("#nt-open")
    page.wait_for_function("() => document.querySelector('#nt-device-state').textContent !== ''")
    page.click("#nt-device")
    page.wait_for_function("() => /This device gets notices|could not subscribe/.test("
                           "document.querySelector('#nt-device-state').textContent)", timeout=20000)
    words = page.text_content("#nt-device-state") or ""
    if "could not subscribe" in words:
        assert "E-mail still works" in words
    else:
        stored = httpx.get(server.url + "/api/players/me/notices", headers={"X-Player": code}, timeout=10).json()
        assert stored["subscriptions"] == 1
    context.close()


def test_a_table_page_in_the_background_lets_the_turn_be_pushed(server: Server, browser: Any,
                                                                push: LocalPush) -> None:
    """Ann's table page is open: while it is visible her turn is not pushed; once it goes to the
    background (the page tells the server), the next turn reaches her subscription."""
    with httpx.Client(base_url=server.url, timeout=10) as http:
        table = http.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "human"],
                                               "rules": {"max_hands": 1}, "practice": True, "seed": 1}).json()["id"]
        seats = {}
        for seat, name in ((0, "Ann"), (1, "Bob")):
            code = http.post("/api/players", json={"name": name}).json()["code"]
            token = http.post(f"/api/tables/{table}/join", json={"seat": seat, "name": name}).json()["token"]
            http.post(f"/api/tables/{table}/claim", headers={**auth(token), "X-Player": code})
            seats[seat] = (code, token)
        sub = new_subscription(f"{push.url}/ann-{table}")
        assert http.post("/api/players/me/push", headers={"X-Player": seats[0][0]}, json=sub.json()).status_code == 201
        context = browser.new_context(viewport=SIZES["phone"], is_mobile=True)
        keep = json.dumps({"token": seats[0][1], "seat": 0})
        player = json.dumps({"code": seats[0][0], "name": "Ann"})  # the page claims the seat with this code
        context.add_init_script(f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)});"
                                f"localStorage.setItem('boneyard.player', {json.dumps(player)});"
                                "localStorage.setItem('boneyard.autoNext', '0');")
        page = context.new_page()
        page.goto(f"{server.url}/tables/{table}")
        page.wait_for_selector("#players tbody tr")
        rng = random.Random(11)

        def play(seat: int) -> None:
            mine = http.get(f"/api/tables/{table}", headers=auth(seats[seat][1])).json()
            r = http.post(f"/api/tables/{table}/actions", headers=auth(seats[seat][1]),
                          json={"action": rng.choice(mine["legal_actions"]), "expected_version": mine["version"]})
            assert r.status_code == 200, r.text

        def bob_until_ann() -> None:
            """Play (Ann too, where the deal gives her the lead) until Bob's move passes the turn to Ann."""
            bob_played = False
            for _ in range(200):
                now = http.get(f"/api/tables/{table}").json()["current_player"]
                if now == 0 and bob_played:
                    return
                bob_played = now == 1
                play(now)
            raise AssertionError("the turn never came to Ann")

        def turns() -> list[dict[str, Any]]:
            return [n for n in (decrypt(r, sub) for r in push.at(f"/ann-{table}")) if n["kind"] == "turn"]

        bob_until_ann()
        page.wait_for_timeout(1500)  # time enough for a notice to be sent, were it to be
        assert turns() == []
        page.evaluate("Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});"
                      "document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_timeout(300)
        play(0)
        bob_until_ann()
        got = wait_for(turns)
        assert got[-1]["title"] == "Your turn in Domino Rounce" and got[-1]["table"] == table
        assert got[-1]["names"] == ["Ann", "Bob"]
        context.close()
