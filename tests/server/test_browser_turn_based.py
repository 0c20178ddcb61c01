"""A turn-based game between two browsers over a simulated day (issue 42), in headless Chromium
at 390x844 (a phone) and 1280x800 (a laptop) against a real server run with ``--test-clock``.

The server's clock is advanced by the test (``POST /api/test/clock``), never slept: Ann moves,
Dee sees "Your turn" first in the lobby and in "My games", twenty hours pass and Dee's page
says four hours are left, Dee moves; a day passes and the clock's bot plays Ann's late move.
Screenshots go to /tmp/shots-s42-slow/ for a person to look at.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, artifact, free_port

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHOTS = Path("/tmp/shots-s42-slow")
HOUR = 3600
DAY = 24 * HOUR
NAMES = {0: "Ann", 1: "Dee"}

# one move of the page's own player, through the page (its token, the table's API)
MOVE = """async ([id, token]) => {
  const h = {"Content-Type": "application/json", Authorization: `Bearer ${token}`};
  const st = await (await fetch(`/api/tables/${id}`, {headers: h})).json();
  const legal = st.legal_actions.filter((a) => a !== "fold");
  const action = legal[0] || st.legal_actions[0];
  const r = await fetch(`/api/tables/${id}/actions`, {method: "POST", headers: h,
    body: JSON.stringify({action, expected_version: st.version})});
  return r.status;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose move clocks run on the test clock."""
    db = tmp_path_factory.mktemp("slow") / "slow.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.05, port=free_port(), extra=["--test-clock"]).start()
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot for a person to look at: /tmp/shots-s42-slow/NAME.png and the test artifacts."""
    SHOTS.mkdir(exist_ok=True)
    path = artifact(f"slow-{name}.png")
    page.screenshot(path=str(path), full_page=False)
    shutil.copy(path, SHOTS / f"{name}.png")


def advance(server: Server, seconds: float) -> None:
    """Move the server's clock on."""
    r = httpx.post(f"{server.url}/api/test/clock", json={"advance": seconds}, timeout=10)
    assert r.status_code == 200, r.text


def friends(server: Server, table: str) -> dict[str, Any]:
    """The friends' view of a table."""
    out: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table}/friends", timeout=10).json()
    return out


def seated_table(http: httpx.Client, codes: dict[int, str], clock: Any) -> tuple[str, dict[int, str]]:
    """A two-player rounce table, Ann at seat 0 and Dee at seat 1, each seat linked to its player."""
    table = http.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "human"],
                                           "rules": {"max_hands": 1}, "next_timeout": 0, "clock": clock}).json()["id"]
    tokens = {}
    for seat, name in NAMES.items():
        tokens[seat] = http.post(f"/api/tables/{table}/join", json={"seat": seat, "name": name}).json()["token"]
        r = http.post(f"/api/tables/{table}/claim",
                      headers={"Authorization": f"Bearer {tokens[seat]}", "X-Player": codes[seat]})
        assert r.status_code == 200, r.text
    return table, tokens


def player_context(browser: Any, size: str, seat: int, code: str, seats: dict[str, str]) -> Any:
    """A browser of its own for ``seat``'s player: their code and name, and their seat at each table."""
    context = browser.new_context(bypass_csp=True, viewport=SIZES[size], is_mobile=size == "phone")
    script = (f"localStorage.setItem('boneyard.player', {json.dumps(json.dumps({'code': code, 'name': NAMES[seat]}))});"
              f"localStorage.setItem('boneyard.name', {json.dumps(NAMES[seat])});"
              "localStorage.setItem('boneyard.autoNext', '0');")
    for table, token in seats.items():
        keep = json.dumps({"token": token, "seat": seat})
        script += f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)});"
        script += f"localStorage.setItem('boneyard.claimed.{table}', {json.dumps(token)});"
    context.add_init_script(script)
    return context


def page_of(context: Any, url: str) -> Any:
    """A page of ``context`` at ``url`` that keeps its script errors."""
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(url)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_a_move_a_day_between_two_browsers_over_a_simulated_day(server: Server, browser: Any, size: str) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        codes = {s: http.post("/api/players", json={"name": n}).json()["code"] for s, n in NAMES.items()}
        table, tokens = seated_table(http, codes, {"per_move": DAY})
        first = friends(server, table)["current_player"]
        second = 1 - first
        # a newer table of the same two where it is the first mover's turn: the lobby and "My
        # games" would list it first by age, so the second player's turn must be what lifts the older
        newer, newer_tokens = seated_table(http, codes, {"per_game": 7 * DAY})
        while (turn := http.get(f"/api/tables/{newer}").json()["current_player"]) != first:
            head = {"Authorization": f"Bearer {newer_tokens[turn]}"}
            st = http.get(f"/api/tables/{newer}", headers=head).json()
            http.post(f"/api/tables/{newer}/actions", headers=head,
                      json={"action": st["legal_actions"][0], "expected_version": st["version"]})
    ctx = {s: player_context(browser, size, s, codes[s], {table: tokens[s], newer: newer_tokens[s]}) for s in NAMES}
    try:
        mover = page_of(ctx[first], f"{server.url}/tables/{table}")
        mover.wait_for_selector("#fr-clock:has-text('Your move: 24 hours left')")
        shot(mover, f"table-your-move-{size}")
        while friends(server, table)["current_player"] == first:
            assert mover.evaluate(MOVE, [table, tokens[first]]) == 200
        mover.wait_for_selector(f"#fr-clock:has-text('{NAMES[second]} has 24 hours left to move')")

        # Dee's lobby and "My games": the table where it is her turn first, marked
        lobby = page_of(ctx[second], f"{server.url}/")
        lobby.wait_for_selector("#tables tbody tr")
        top = lobby.locator("#tables tbody tr").first
        assert "Your turn" in top.inner_text() and top.locator(f"a[href='/tables/{table}']").count() == 1
        assert lobby.locator("#tables .your-turn").count() == 1
        # and at the top, where a phone opens the page: a link to it
        banner = lobby.locator("#your-turns")
        assert banner.is_visible() and banner.locator(f"a[href='/tables/{table}']").count() == 1
        assert f"with {NAMES[first]}" in banner.inner_text()
        shot(lobby, f"lobby-your-turn-top-{size}")
        lobby.locator("#tables-section").scroll_into_view_if_needed()
        shot(lobby, f"lobby-your-turn-{size}")
        mine = page_of(ctx[second], f"{server.url}/me")
        mine.wait_for_selector("#me-open tbody tr")
        assert "Your turn" in mine.locator("#me-open tbody tr").first.inner_text()
        assert "24 hours left" in mine.locator("#me-open tbody tr").first.inner_text()
        assert mine.locator("#me-open .your-turn").count() == 1
        shot(mine, f"my-games-your-turn-{size}")

        # twenty hours pass: Dee's page says four are left, and she moves
        waiter = page_of(ctx[second], f"{server.url}/tables/{table}")
        waiter.wait_for_selector("#fr-clock:has-text('Your move: 24 hours left')")
        advance(server, 20 * HOUR)
        waiter.wait_for_selector("#fr-clock:has-text('Your move: 4 hours left')")
        mover.wait_for_selector(f"#fr-clock:has-text('{NAMES[second]} has 4 hours left to move')")
        shot(waiter, f"table-4-hours-left-{size}")
        while friends(server, table)["current_player"] == second:
            assert waiter.evaluate(MOVE, [table, tokens[second]]) == 200
        waiter.wait_for_selector(f"#fr-clock:has-text('{NAMES[first]} has 24 hours left to move')")

        # a day and a second pass: the clock's bot plays the late move, and the seat stays its player's
        version = httpx.get(f"{server.url}/api/tables/{table}").json()["version"]
        advance(server, DAY + 1)
        said = f"{NAMES[first]}'s clock ran out: the greedy bot played for them"
        mover.wait_for_selector(f"#fr-log li:has-text(\"{said}\")")
        assert httpx.get(f"{server.url}/api/tables/{table}").json()["version"] > version
        assert friends(server, table)["seats"][first]["standin"] is None
        shot(mover, f"table-clock-ran-out-{size}")

        # the per-game table: a bank each, the running one counted down, in words
        bank = page_of(ctx[first], f"{server.url}/tables/{newer}")
        bank.wait_for_selector("#fr-clock:has-text('Your move: ')")
        text = bank.locator("#fr-clock").inner_text()
        assert "left of your time for the game" in text and "Time left: Ann " in text and ", Dee " in text
        assert "a week each for the whole game" in text
        shot(bank, f"table-per-game-{size}")
        for page in (bank,):
            assert page.js_errors == []
        for page in (mover, lobby, mine, waiter):
            assert page.js_errors == []
    finally:
        for c in ctx.values():
            c.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_makes_a_turn_based_table(server: Server, browser: Any, size: str) -> None:
    """The lobby's "Move clock" offers the turn-based clocks; the table made says its pace."""
    context = browser.new_context(bypass_csp=True, viewport=SIZES[size], is_mobile=size == "phone")
    context.add_init_script("localStorage.setItem('boneyard.name', 'Ann');")
    try:
        lobby = page_of(context, f"{server.url}/")
        lobby.wait_for_selector("#create-btn:not([disabled])")
        lobby.select_option("#game", "rounce")
        lobby.select_option("#players", "2")
        lobby.select_option("[data-seat='1']", "human")
        lobby.select_option("#clock", label="a move a day")
        lobby.locator("#clock").focus()
        shot(lobby, f"lobby-clock-choice-{size}")
        lobby.click("#create-btn")
        lobby.wait_for_url("**/tables/*")
        table = lobby.url.rsplit("/", 1)[1]
        lobby.wait_for_selector("#fr-clock:has-text('Turn-based: a move a day.')")
        made = friends(server, table)
        assert made["clock"] == DAY and made["turn_based"] and made["per_game"] is None
        assert lobby.js_errors == []
    finally:
        context.close()
