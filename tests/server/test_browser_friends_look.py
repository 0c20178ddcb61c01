"""How the friends' pages look: text contrast meets WCAG AA, nothing overflows a phone, and
screenshots of the lobby, a table mid-game with chat, My games and a leaderboard at phone
(390x844) and laptop (1366x768) size are saved under test-artifacts/ to be looked at."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, artifact
from .test_browser import page_factory, state_of

__all__ = ["page_factory"]  # the fixture, imported for the tests here

STEP = 20_000  # ms
SIZES = {"phone": (390, 844), "laptop": (1366, 768)}

# Every visible element that shows text of its own (a text node, or a form field's value;
# a range slider shows none) against the background it is drawn on: the nearest opaque background up the tree, with
# the translucent ones between blended over it. WCAG 2.1 contrast: 4.5:1, or 3:1 for
# large text (24 px, or 18.66 px bold). Disabled controls are exempt (WCAG 1.4.3); so is
# text inside an SVG drawing (the tiles' pips), which is no text to read.
CONTRAST = """
() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const layer of layers.reverse()) bg = over(layer, bg);
    return bg;
  };
  const out = [];
  let checked = 0;
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("svg") || el.closest("[hidden]") || el.disabled) continue;
    const field = el.matches("select, textarea, input:not([type=checkbox]):not([type=radio]):not([type=hidden])")
      && !el.matches("[type=range]");
    const own = field ? el.value
      : [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
    if (!own.trim()) continue;
    const cs = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (cs.visibility !== "visible" || box.width < 2 || box.height < 2) continue;
    if (!el.checkVisibility({ opacityProperty: true })) continue;
    if (el.closest(".sr")) continue;
    const bg = backdrop(el);
    const fg = over(parse(cs.color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    const size = parseFloat(cs.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    checked += 1;
    if (ratio < (large ? 3 : 4.5) - 0.005) {
      out.push({ text: own.trim().slice(0, 40), tag: el.tagName.toLowerCase(),
                 cls: String(el.className).slice(0, 40),
                 ratio: Math.round(ratio * 100) / 100, color: cs.color,
                 background: `rgb(${bg.slice(0, 3).map(Math.round)})` });
    }
  }
  return { checked, failing: out };
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own (bots wait 0.05 s)."""
    db = tmp_path_factory.mktemp("look") / "look.db"
    srv = Server(f"sqlite:///{db}", bot_delay=0.05)
    srv.start()
    yield srv
    srv.stop()


def post(server: Server, path: str, body: Any = None, headers: dict[str, str] | None = None) -> dict[str, Any]:
    """POST to the server; the answer's JSON (a refusal fails the test)."""
    r = httpx.post(server.url + path, json=body or {}, headers=headers or {}, timeout=10)
    assert r.status_code in (200, 201), r.text
    out: dict[str, Any] = r.json()
    return out


def seated(server: Server, game: str, seats: list[str], name: str, code: str, rules: dict[str, Any]) -> tuple[str, str]:
    """A table with ``name`` at seat 0 linked to the player ``code``; returns its id and the seat's token."""
    table_id = post(server, "/api/tables", {"game": game, "players": len(seats), "seats": seats, "rules": rules})["id"]
    token = post(server, f"/api/tables/{table_id}/join", {"seat": 0, "name": name})["token"]
    post(server, f"/api/tables/{table_id}/claim", headers={"Authorization": f"Bearer {token}", "X-Player": code})
    return table_id, token


def play(server: Server, table_id: str, token: str, until: Any) -> None:
    """Seat 0 plays random legal actions (pressing Next hand between hands) until ``until(state)``."""
    rng = random.Random(4)
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 120
    while not until(st := state_of(server, table_id, token)):
        assert time.monotonic() < deadline, "the table did not get there in time"
        if st["between_hands"]:
            httpx.post(f"{server.url}/api/tables/{table_id}/next", headers=headers, timeout=10)
        elif st["legal_actions"]:
            httpx.post(f"{server.url}/api/tables/{table_id}/actions", headers=headers, timeout=10,
                       json={"action": rng.choice(st["legal_actions"]), "expected_version": st["version"]})
        else:
            time.sleep(0.05)


def test_contrast_and_screenshots_of_the_friends_pages(server: Server, page_factory: Any) -> None:
    player = post(server, "/api/players", {"name": "Ann"})
    # three hands: a rated game needs two moves of Ann's own, and in one hand she may fold at once
    done_id, done_token = seated(server, "rounce", ["human", "bot:greedy", "bot:random"], "Ann", player["code"],
                                 {"max_hands": 3})
    play(server, done_id, done_token, lambda st: st["is_over"])
    live_id, live_token = seated(server, "rounce", ["human", "bot:greedy", "bot:random"], "Ann", player["code"], {})
    play(server, live_id, live_token, lambda st: st["version"] >= 4 and st["current_player"] == 0
         and not st["between_hands"])
    post(server, f"/api/tables/{live_id}/chat", {"text": "good luck, bots"},
         headers={"Authorization": f"Bearer {live_token}"})
    post(server, "/api/tables", {"game": "twobox", "players": 3, "seats": ["human", "human", "bot:greedy"]})
    deadline = time.monotonic() + 30
    while not httpx.get(f"{server.url}/api/games/rounce/leaderboard", timeout=10).json():
        assert time.monotonic() < deadline, "the finished table was not rated"
        time.sleep(0.1)

    seat = json.dumps({"seat": 0, "token": live_token})
    pages = {
        "lobby": ("/", "#tables tr"),
        "table": (f"/tables/{live_id}", "#fr-log li.fr-msg"),
        "me": ("/me", f"[data-go='{done_id}']"),
        "leaderboard": ("/leaderboard/rounce", "#leaderboard tbody tr"),
    }
    failures: dict[str, Any] = {}
    for size, (w, h) in SIZES.items():
        page = page_factory(viewport={"width": w, "height": h})
        page.add_init_script(f"localStorage.setItem('boneyard.player', {json.dumps(json.dumps(player))});"
                             f"localStorage.setItem('boneyard.token.{live_id}', {json.dumps(seat)});"
                             f"localStorage.setItem('boneyard.claimed.{live_id}', {json.dumps(live_token)});")
        for name, (path, ready) in pages.items():
            page.goto(server.url + path)
            page.wait_for_selector(ready, timeout=STEP)
            if name == "table":
                page.wait_for_selector("#hand .handtile", timeout=STEP)
                page.wait_for_function("document.title.startsWith('● Your turn')", timeout=STEP)
            page.wait_for_timeout(200)
            found = page.evaluate(CONTRAST)
            assert found["checked"] > 10, (name, found)  # the check saw the page's text
            if found["failing"]:
                failures[f"{name}-{size}"] = found["failing"]
            assert page.evaluate("document.documentElement.scrollWidth") <= w + 1, f"{name} overflows at {w} px"
            page.screenshot(path=str(artifact(f"look-{name}-{size}.png")), full_page=True)
        assert page.js_errors == []
    assert not failures, json.dumps(failures, indent=1)


@pytest.mark.parametrize("game", ["montana", "twobox", "rummikub", "eighty"])
def test_contrast_at_every_games_table(server: Server, page_factory: Any, game: str) -> None:
    players = 4 if game == "eighty" else 3
    player = post(server, "/api/players", {"name": "Kim"})
    table_id, token = seated(server, game, ["human"] + ["bot:greedy"] * (players - 1), "Kim", player["code"], {})
    post(server, f"/api/tables/{table_id}/chat", {"text": "hello"}, headers={"Authorization": f"Bearer {token}"})
    page = page_factory(viewport={"width": 1366, "height": 768})
    page.add_init_script(f"localStorage.setItem('boneyard.player', {json.dumps(json.dumps(player))});"
                         f"localStorage.setItem('boneyard.token.{table_id}', "
                         f"{json.dumps(json.dumps({'seat': 0, 'token': token}))});")
    page.goto(f"{server.url}/tables/{table_id}")
    page.wait_for_selector("#fr-log li.fr-msg", timeout=STEP)
    page.wait_for_selector("#hand *", timeout=STEP)
    page.wait_for_timeout(300)
    found = page.evaluate(CONTRAST)
    assert found["checked"] > 10, found
    assert not found["failing"], json.dumps(found["failing"], indent=1)
    # the players' list names the bots as the board does: one "greedy bot" per seat, numbered
    names = page.locator("#fr-seats .fr-name").all_text_contents()
    assert names == ["Kim"] + [f"greedy bot {s}" for s in range(1, players)], names
    page.screenshot(path=str(artifact(f"look-table-{game}-laptop.png")), full_page=True)
    assert page.js_errors == []


def test_the_connection_dot_says_live_or_reconnecting_readably(server: Server, page_factory: Any) -> None:
    """The dot by a table's title: readable on the felt, and its words right, live or not.

    The table's WebSocket is routed through Playwright, which closes it once from the
    server's side: the dot must turn to "reconnecting" (still readable), then back to
    "live" when the page reconnects on its own.
    """
    table_id = post(server, "/api/tables", {"game": "rounce", "players": 2, "seats": ["human", "bot:greedy"]})["id"]
    sockets: list[Any] = []

    def through(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    page = page_factory(viewport={"width": 390, "height": 844})
    page.route_web_socket("**/ws/tables/**", through)
    page.goto(f"{server.url}/tables/{table_id}")
    page.locator("#conn.live").wait_for(timeout=STEP)
    assert page.text_content("#join [data-join='0']") == "Take the open seat"  # words, not a seat number
    assert page.get_attribute("#conn", "title") == "live connection"
    assert page.get_attribute("#conn", "aria-label") == "live connection"
    sockets[-1].close(code=1011, reason="test")
    page.wait_for_function("!document.getElementById('conn').classList.contains('live')", timeout=STEP)
    assert page.get_attribute("#conn", "title") == "connection lost: reconnecting"
    page.screenshot(path=str(artifact("look-table-reconnecting-390.png")))
    found = page.evaluate(CONTRAST)
    assert not [f for f in found["failing"] if f["cls"].startswith("conn")], found["failing"]
    page.locator("#conn.live").wait_for(timeout=STEP)  # the page reconnects by itself
    assert len(sockets) >= 2
    found = page.evaluate(CONTRAST)
    assert not [f for f in found["failing"] if f["cls"].startswith("conn")], found["failing"]
    assert page.js_errors == []
