"""The table page's drawings, checked in the browser: the two-box cross's geometry, names, phone layout.

The two-box renderer is run on views (synthetic ones with known arms, and a real game's
views from the server) and the tiles' halves are measured with getBoundingClientRect: a
non-double lies along its arm with the matching ends touching, a double lies crosswise,
and the cross fits the board however long the arms are.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import boneyard

from .conftest import Server

pytestmark = pytest.mark.skipif("twobox" not in boneyard.games(), reason="the twobox engine is not registered")

# Renders a view with the page's own two-box renderer into a probe box of a given width,
# then measures every tile half. Returns {spinner: [...halves], tiles: [...], svg, box}.
PROBE = """async ([view, width]) => {
  const twobox = (await import('/static/games/twobox.js')).default;
  const old = document.getElementById('probe');
  if (old) old.remove();
  const box = document.createElement('section');
  box.id = 'probe';
  box.className = 'board';
  box.style.width = width + 'px';
  document.body.appendChild(box);
  const ctx = { seatName: (s) => 'P' + s, boardWidth: width - 24 };
  box.innerHTML = twobox.board(view, ctx);
  const halves = (g) => [...g.querySelectorAll('rect.halfbox')].map((r) => {
    const b = r.getBoundingClientRect();
    return { pips: Number(r.dataset.pips), x: b.x, y: b.y, w: b.width, h: b.height };
  });
  const sp = box.querySelector('g.ltile[data-spinner]');
  const tiles = [...box.querySelectorAll('g.ltile[data-arm]')].map((g) => ({
    arm: Number(g.dataset.arm), index: Number(g.dataset.index), tile: g.dataset.tile, dir: g.dataset.dir,
    orient: g.dataset.orient, stacked: g.dataset.stacked === undefined ? null : Number(g.dataset.stacked),
    halves: halves(g),
  }));
  const s = box.querySelector('svg.crosssvg').getBoundingClientRect();
  const b = box.getBoundingClientRect();
  return { spinner: sp ? halves(sp) : null, spinnerOrient: sp ? sp.dataset.orient : null, tiles,
           svg: { x: s.x, y: s.y, w: s.width, h: s.height }, box: { x: b.x, y: b.y, w: b.width, h: b.height },
           marks: box.querySelectorAll('.stackmark').length,
           labels: [...box.querySelectorAll('[data-armlabel]')].map((g) => g.textContent) };
}"""

EPS = 1.0  # px


def _rect(halves: list[dict[str, float]]) -> dict[str, float]:
    x0 = min(h["x"] for h in halves)
    y0 = min(h["y"] for h in halves)
    x1 = max(h["x"] + h["w"] for h in halves)
    y1 = max(h["y"] + h["h"] for h in halves)
    return {"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0}


def touching(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two rectangles share part of an edge (no gap, no overlap)."""
    def overlap(p0: float, p1: float, q0: float, q1: float) -> float:
        return min(p1, q1) - max(p0, q0)

    ax1, ay1, bx1, by1 = a["x"] + a["w"], a["y"] + a["h"], b["x"] + b["w"], b["y"] + b["h"]
    side = (abs(ax1 - b["x"]) < EPS or abs(bx1 - a["x"]) < EPS) and overlap(a["y"], ay1, b["y"], by1) > EPS
    end = (abs(ay1 - b["y"]) < EPS or abs(by1 - a["y"]) < EPS) and overlap(a["x"], ax1, b["x"], bx1) > EPS
    return side or end


def check_cross(result: dict[str, Any], view: dict[str, Any], straight: bool = True) -> None:
    """Every arm tile: orientation, its matching end touching the previous tile, stacks marked."""
    spinner = result["spinner"]
    assert spinner is not None and result["spinnerOrient"] == "v", "the spinner stands crosswise to the sides"
    pip = int(view["spinner"].split("-")[0])
    drawn = {(t["arm"], t["index"]): t for t in result["tiles"]}
    for arm in view["arms"]:
        prev_far: dict[str, float] = _rect(spinner)
        prev_far_pips = pip
        for i, entry in enumerate(arm["tiles"]):
            t = drawn[(arm["arm"], i)]
            a, b = (int(x) for x in entry["tile"].split("-"))
            outer = entry["outer"]
            inner = b if outer == a else a
            assert inner == prev_far_pips, f"{entry['tile']} does not match the arm it lies on"
            along_x = t["dir"] in ("l", "r")
            if straight:
                assert t["dir"] == {1: "l", 2: "r", 3: "u", 4: "d"}[arm["arm"]]
            if a == b:
                crosswise = "v" if along_x else "h"
                assert t["orient"] == crosswise, f"double {entry['tile']} on arm {arm['arm']} is not crosswise"
                near = far = _rect(t["halves"])
            else:
                lengthwise = "h" if along_x else "v"
                assert t["orient"] == lengthwise, f"{entry['tile']} on arm {arm['arm']} is not lengthwise"
                near = next(h for h in t["halves"] if h["pips"] == inner)
                far = next(h for h in t["halves"] if h["pips"] == outer)
                # the matching end lies toward the spinner (back along the direction of travel)
                if t["dir"] == "l":
                    assert near["x"] > far["x"]
                elif t["dir"] == "r":
                    assert near["x"] < far["x"]
                elif t["dir"] == "u":
                    assert near["y"] > far["y"]
                else:
                    assert near["y"] < far["y"]
            assert touching(near, prev_far), f"gap or overlap before {entry['tile']} on arm {arm['arm']} (tile {i})"
            assert t["stacked"] == entry["stacked_by"]
            prev_far, prev_far_pips = far, outer
    stacks = sum(t["stacked_by"] is not None for a in view["arms"] for t in a["tiles"])
    stacks += view.get("spinner_stacked_by") is not None
    assert result["marks"] == stacks


def arm_view(
    arms: dict[int, list[tuple[str, int]]], spinner: str = "6-6", stacked: dict[tuple[int, int], int] | None = None
) -> dict[str, Any]:
    """A two-box view with the given arms: per arm, (tile, outer end) from the spinner outwards."""
    stacked = stacked or {}
    out = []
    for n in (1, 2, 3, 4):
        tiles = [{"tile": t, "outer": o, "seat": 0, "stacked_by": stacked.get((n, i))}
                 for i, (t, o) in enumerate(arms.get(n, []))]
        out.append({"arm": n, "kind": "side" if n < 3 else "tip", "tiles": tiles,
                    "open_end": tiles[-1]["outer"] if tiles else (int(spinner[0]) if n < 3 else None)})
    return {"game": "twobox", "players": 4, "seat": 0, "current_player": 1, "phase": "play", "hand_number": 1,
            "hand_sizes": [5, 5, 5, 5], "drawn": [0, 0, 0, 0], "boneyard": 10, "spinner": spinner, "spinner_seat": 1,
            "spinner_stacked_by": None, "arms": out, "open_ends": [a["open_end"] for a in out], "count": 10,
            "target": 150, "passes": 0, "last_play": None, "passed_on": [[], [], [], []], "steal": None,
            "last_result": None, "events": [], "events_from": 0}


@pytest.fixture(scope="module")
def probe_page(live_server: Server, browser: Any) -> Iterator[Any]:
    """A table page (any game) whose scripts render the probe views."""
    table = httpx.post(f"{live_server.url}/api/tables", json={"game": "twobox", "seats": ["human"] * 4}).json()["id"]
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/tables/{table}")
    page.wait_for_selector("#players tbody tr")
    yield page
    assert errors == []
    context.close()


def test_doubles_lie_crosswise_and_ends_touch_on_every_arm(probe_page: Any) -> None:
    view = arm_view({
        1: [("6-2", 2), ("2-2", 2), ("5-2", 5)],   # left: non-double, double, non-double written high first
        2: [("6-3", 3)],
        3: [("6-1", 1), ("1-1", 1), ("1-0", 0)],  # up: vertical non-doubles, a horizontal double
        4: [("6-4", 4), ("4-4", 4)],
    }, stacked={(1, 1): 2, (4, 0): 3})
    result = probe_page.evaluate(PROBE, [view, 900])
    check_cross(result, view)
    t = {(x["arm"], x["index"]): x for x in result["tiles"]}
    assert t[(1, 0)]["orient"] == "h" and t[(1, 1)]["orient"] == "v"  # spelled out for the two kinds
    assert t[(3, 0)]["orient"] == "v" and t[(3, 1)]["orient"] == "h"
    assert any("open 5" in label for label in result["labels"]), result["labels"]


def test_long_arms_turn_a_corner_and_fit_a_phone(probe_page: Any) -> None:
    chain = [("6-5", 5), ("5-4", 4), ("4-4", 4), ("4-3", 3), ("3-2", 2), ("2-1", 1), ("1-1", 1), ("1-0", 0), ("0-0", 0)]
    chain2 = [("6-3", 3), ("3-3", 3), ("5-3", 5), ("5-5", 5), ("5-2", 2), ("2-2", 2), ("2-0", 0), ("6-0", 6)]
    view = arm_view({1: chain, 2: chain2, 3: [("6-1", 1)], 4: [("6-2", 2)]})
    for width in (360, 430, 1000):
        result = probe_page.evaluate(PROBE, [view, width])
        check_cross(result, view, straight=False)
        assert result["svg"]["w"] <= result["box"]["w"], f"the cross is wider than a {width}px board"
    # on a phone the side arms turn, and tiles stay legible (a tile half at least 18 px)
    result = probe_page.evaluate(PROBE, [view, 360])
    assert {t["dir"] for t in result["tiles"] if t["arm"] == 1} == {"l", "u"}
    assert min(h["w"] for t in result["tiles"] for h in t["halves"]) >= 18


def test_a_real_games_cross_is_drawn_right(live_server: Server, probe_page: Any) -> None:
    """Views the engine itself produced, many plays in: the same rules hold."""
    game = boneyard.new_game("twobox", seed=11)
    rng = random.Random(3)
    checked = 0
    while not game.is_over and checked < 60:
        game.apply(rng.choice(game.legal_actions()))
        view = game.view(0)
        if view["spinner"] and sum(len(a["tiles"]) for a in view["arms"]) >= 6 and rng.random() < 0.3:
            check_cross(probe_page.evaluate(PROBE, [view, 390]), view, straight=False)
            checked += 1
    assert checked > 3


# ----- every game's table page at phone and laptop widths --------------------------------------

LAYOUT = """() => {
  const r = (el) => { const b = el.getBoundingClientRect(); return { x: b.x, y: b.y, w: b.width, h: b.height }; };
  const all = (sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null).map(r);
  return { vw: window.innerWidth, page: document.documentElement.scrollWidth, header: r(document.querySelector('.top')),
           board: r(document.getElementById('board')), me: r(document.getElementById('me')),
           side: all('.side > *'), seats: all('#board .seatbox'), hand: all('#hand .handtile'),
           log: [...document.querySelectorAll('#log li')].map((li) => li.textContent) };
}"""


@pytest.fixture(scope="module")
def seated_pages(live_server: Server, browser: Any) -> Iterator[Any]:
    """For a game id: a page seated at a new table (seat 0, bots elsewhere) a few actions in."""
    contexts: list[Any] = []

    def open_table(game_id: str) -> Any:
        n = boneyard.game_info(game_id)["players"]["default"]
        seats = ["human"] + ["bot:random"] * (n - 1)
        body = {"game": game_id, "seats": seats, "seed": 9, "practice": True, "next_timeout": 0}
        table = httpx.post(f"{live_server.url}/api/tables", json=body).json()["id"]
        token = httpx.post(f"{live_server.url}/api/tables/{table}/join", json={"name": "Zoë"}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        rng = random.Random(2)
        for _ in range(400):  # play on until a hand result shows (its table is the widest panel)
            state = httpx.get(f"{live_server.url}/api/tables/{table}", headers=auth).json()
            if state["is_over"] or state["view"].get("last_result") or state["version"] >= 60:
                break
            if state["legal_actions"]:
                action = rng.choice(state["legal_actions"])
                httpx.post(f"{live_server.url}/api/tables/{table}/actions", headers=auth, json={"action": action})
        context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844}, is_mobile=True)
        keep = json.dumps({"token": token, "seat": 0})
        context.add_init_script(f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)})")
        contexts.append(context)
        page = context.new_page()
        page.js_errors = []
        page.on("pageerror", lambda e: page.js_errors.append(str(e)))
        page.goto(f"{live_server.url}/tables/{table}")
        page.wait_for_selector("#players tbody tr")
        page.wait_for_function("document.querySelectorAll('#log li').length > 0")
        return page

    yield open_table
    for c in contexts:
        c.close()


@pytest.mark.parametrize("game_id", [g for g in boneyard.games() if g != "rummikub"] + (
    ["rummikub"] if "rummikub" in boneyard.games() else []))
def test_table_page_fits_phones_and_laptops(seated_pages: Any, game_id: str) -> None:
    page = seated_pages(game_id)
    for width, height in ((360, 740), (390, 844), (430, 932), (1024, 768), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(250)  # the page re-renders for the new width
        m = page.evaluate(LAYOUT)
        where = f"{game_id} at {width}px"
        assert m["page"] <= width and m["vw"] <= width, f"{where}: the page is wider than the screen"
        assert m["header"]["h"] <= 60, f"{where}: the header wraps"
        board = m["board"]
        for seat in m["seats"]:
            assert seat["x"] >= board["x"] - EPS and seat["x"] + seat["w"] <= board["x"] + board["w"] + EPS, \
                f"{where}: a seat is cut off"
        # the hand and its actions stay on screen (the board scrolls under them), leaving
        # a good part of the board in view above
        me = m["me"]
        assert me["y"] >= 0 and me["y"] + me["h"] <= height + EPS, f"{where}: the hand is off screen"
        assert me["y"] >= board["y"] + 150, f"{where}: the hand hides the board"
        if width < 760:
            assert m["hand"] and min(t["h"] for t in m["hand"]) >= 44, f"{where}: hand tiles too small to tap"
    # the log is the server's words: the reader is "you", the others have names, never "seat N"
    assert any(line.startswith("You ") for line in m["log"]), m["log"][:5]
    assert any("andom bot" in line for line in m["log"]), m["log"][:5]
    assert not any(re.search(r"\bseats? \d", line) for line in m["log"]), m["log"]
    assert page.js_errors == []


def test_game_over_panel_names_the_winners_and_opens_the_replay(live_server: Server, browser: Any) -> None:
    seats = ["bot:random"] * 3
    body = {"game": "rounce", "players": 3, "seats": seats, "seed": 5, "practice": True}
    table = httpx.post(f"{live_server.url}/api/tables", json=body).json()["id"]
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/tables/{table}")
        page.wait_for_selector("#over:not([hidden])", timeout=60_000)
        state = httpx.get(f"{live_server.url}/api/tables/{table}").json()
        assert state["is_over"] and state["winners"]
        over = page.text_content("#over") or ""
        for w in state["winners"]:
            assert f"random bot {w}" in over  # three bots of one kind: names carry the seat
        assert "Game over" in over
        page.click("#open-replay")
        page.wait_for_selector("#replay:not([hidden])")
        page.wait_for_function("document.getElementById('rp-label').textContent.startsWith('0/')")
        assert page.locator("#over").is_hidden()
        page.click("#rp-next")
        page.wait_for_function("document.getElementById('rp-label').textContent.startsWith('1/')")
        page.click("#rp-close")
        page.wait_for_selector("#over:not([hidden])")
        assert errors == []
    finally:
        context.close()


def test_a_selected_tile_turns_its_arms_labels_into_targets(probe_page: Any) -> None:
    view = arm_view({1: [("6-2", 2)], 2: [("6-3", 3)]})
    legal = ["play 2-1 to 1", "play 3-2 to 2", "play 2-1 to 3", "draw"]
    got = probe_page.evaluate("""async ([view, legal]) => {
      const twobox = (await import('/static/games/twobox.js')).default;
      const ctx = { seatName: (s) => 'P' + s, boardWidth: 800, selected: '2-1', state: { legal_actions: legal } };
      const box = document.createElement('div');
      box.innerHTML = twobox.board(view, ctx);
      return [...box.querySelectorAll('[data-board-action]')].map((e) => e.dataset.boardAction).sort();
    }""", [view, legal])
    assert got == ["play 2-1 to 1", "play 2-1 to 3"]
