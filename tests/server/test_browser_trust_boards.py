"""A table a player trusts at first sight (issue 38), the games' boards and the lobby: the
words a board prints about a seat's tiles (defects 7 and 8) and what the lobby says about
seats and tables (defects 9 and 11), driven in headless Chromium at 390x844 (a phone) and
1280x800 (a laptop) against a real server.

Kept apart from test_browser_trust.py (the table shell's defects) so that the two could be
written at the same time; they share its fixtures and helpers. Each test fails on the page
as it was before its fix and saves screenshots under /tmp/shots/ for a person to look at.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .conftest import Server, free_port
from .test_browser_trust import SIZES, new_table, open_page, server, shot

__all__ = ["server"]  # the module's server fixture, shared with test_browser_trust.py

# The board a game's module draws for the page's own state, with ``change`` applied to a
# copy of the view first: how a seat line reads in a position the deal does not give at once.
DRAW = """(change) => {
  const T = window.boneyardTable;
  const s = structuredClone(T.state());
  new Function("view", change)(s.view);
  const ctx = { seatName: T.seatName, state: s, selected: null, replaying: false, boardWidth: 800, shell: {},
    since: null };
  return T.game().board(s.view, ctx);
}"""


@pytest.mark.parametrize("size", SIZES)
def test_two_box_says_one_tile_not_one_tiles(server: Server, browser: Any, size: str) -> None:
    """Defect 8: a two-box seat holding one tile reads "1 tile", not "1 tiles"."""
    table, token = new_table(server, {"game": "twobox", "players": 2, "seats": ["human", "bot:greedy"]})
    page, context = open_page(browser, server, table, token, size)
    try:
        page.wait_for_selector("#board .seatline")
        html = page.evaluate(DRAW, "view.hand_sizes = view.hand_sizes.map(() => 1);")
        assert "1 tiles" not in html
        assert "1 tile · drew" in html
        many = page.evaluate(DRAW, "view.hand_sizes = view.hand_sizes.map(() => 7);")
        assert "7 tiles · drew" in many
        shot(page, f"8-twobox-{size}")
        assert page.js_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_rounce_calls_a_folded_hand_folded_not_discards(server: Server, browser: Any, size: str) -> None:
    """Defect 7: once the player folds, the hand set aside is labelled as folded, not as "your discards"."""
    # seed 5: seat 2 deals, so seat 0 calls first and the hand goes on after its fold
    body = {"game": "rounce", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"], "practice": True, "seed": 5}
    table, token = new_table(server, body)
    page, context = open_page(browser, server, table, token, size)
    try:
        page.locator('#actions [data-action="fold"]').click(timeout=15000)
        page.wait_for_function("document.querySelector('#board').textContent.includes('you folded')")
        board = page.text_content("#board") or ""
        assert "your discards" not in board
        assert page.locator("#me").is_hidden(), "a folded player's empty hand panel is drawn as a blank box"
        shot(page, f"7-rounce-folded-{size}")
        assert page.js_errors == []
    finally:
        context.close()


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own, holding no table until a test makes one: the lobby's empty list."""
    running = Server(f"sqlite:///{tmp_path_factory.mktemp('lobby') / 'lobby.db'}", port=free_port()).start()
    yield running
    running.stop()


def test_the_lobby_counts_seats_from_one_invites_friends_and_dates_finished_tables(
    lobby_server: Server, browser: Any
) -> None:
    """Defect 11: with no tables the lobby says so once; seats are counted from 1 ("Seat 1 (you)"),
    a seat for a person other than you reads "a friend (open seat)" with a line saying how
    to invite one; a finished table shows the day it was played."""
    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
        page = context.new_page()
        try:
            page.goto(lobby_server.url + "/")
            page.wait_for_selector("#tables p")
            page.wait_for_selector("#fr-none", state="attached")
            shown = page.locator("#tables-section").inner_text()
            assert "No tables yet" not in shown
            assert shown.count("No open table") == 1, shown
            labels = page.locator("#seats label").all_inner_texts()
            assert labels[0].startswith("Seat 1 (you)") and labels[1].startswith("Seat 2"), labels
            assert not any("Seat 0" in x for x in labels)
            assert "a friend (open seat)" in page.locator("[data-seat='1'] option").all_inner_texts()
            help_text = page.locator("#seats-help")
            assert help_text.is_visible() and "link" in help_text.inner_text()
            shot(page, f"11-lobby-empty-{size}")
        finally:
            context.close()
    body = {"game": "rounce", "players": 2, "rules": {"max_hands": 1}, "seats": ["bot:random", "bot:random"]}
    finished = httpx.post(f"{lobby_server.url}/api/tables", json=body, timeout=10).json()["id"]
    deadline = time.monotonic() + 60
    while not httpx.get(f"{lobby_server.url}/api/tables/{finished}", timeout=10).json()["is_over"]:
        assert time.monotonic() < deadline, "the bots did not finish a one-hand game"
        time.sleep(0.1)
    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
        page = context.new_page()
        try:
            page.goto(lobby_server.url + "/")
            row = page.locator(f"#fr-history tr:has(a[href='/tables/{finished}'])")
            row.wait_for()
            assert "today" in row.inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"] + 1
            row.scroll_into_view_if_needed()
            shot(page, f"11-lobby-history-{size}")
        finally:
            context.close()


@pytest.mark.parametrize("size", SIZES)
def test_an_ended_hand_draws_no_empty_hand_panel(server: Server, browser: Any, size: str) -> None:
    """Defect 8: at a hand's end the player's emptied hand panel is not drawn as a blank box
    across the layout (seed 3: seat 0 deals, folds last, and the hand ends at once)."""
    body = {"game": "rounce", "players": 3, "seats": ["human", "bot:greedy", "bot:greedy"], "practice": True, "seed": 3}
    table, token = new_table(server, body)
    page, context = open_page(browser, server, table, token, size)
    try:
        page.locator('#actions [data-action="fold"]').click(timeout=15000)
        page.wait_for_selector("#handend:not([hidden])")
        assert page.inner_text("#hand").strip() == "" and page.inner_text("#actions").strip() == ""
        assert not page.locator("#me").is_visible(), "an empty hand panel is drawn at the hand's end"
        shot(page, f"8-hand-end-no-empty-panel-{size}")
        page.click("#next-hand")
        page.wait_for_selector("#hand .handtile, #hand svg")
        assert page.locator("#me").is_visible(), "the next hand's tiles are hidden"
        assert page.js_errors == []
    finally:
        context.close()


# The two-box layout drawn with the spinner stacked and every arm empty, or with arm 2's only
# tile stacked: the page's board replaced by it, then whether any ×2 mark meets an arm label.
OVERLAPS = """(change) => {
  const T = window.boneyardTable;
  const s = structuredClone(T.state());
  new Function("view", change)(s.view);
  const ctx = { seatName: T.seatName, state: s, selected: null, replaying: false,
    boardWidth: document.querySelector("#board").clientWidth - 24, shell: {}, since: null };
  document.querySelector("#board").innerHTML = T.game().board(s.view, ctx);
  const marks = [...document.querySelectorAll("#board .stackmark circle")].map((c) => c.getBoundingClientRect());
  const labels = [...document.querySelectorAll("#board .armlabel rect")].map((r) => r.getBoundingClientRect());
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const overlaps = marks.flatMap((m) => labels.filter((l) => meet(m, l))).length;
  return { marks: marks.length, labels: labels.length, overlaps };
}"""


@pytest.mark.parametrize("size", SIZES)
def test_two_box_arm_labels_stay_clear_of_the_stack_marks(server: Server, browser: Any, size: str) -> None:
    """Defect 8: an arm's label ("3: open 6") is never drawn over or under a ×2 stack mark."""
    table, token = new_table(server, {"game": "twobox", "players": 2, "seats": ["human", "bot:greedy"]})
    page, context = open_page(browser, server, table, token, size)
    try:
        page.wait_for_selector("#board .armlabel")
        page.wait_for_selector("#status.yours", timeout=15000)  # nothing draws the board again meanwhile
        empty = "view.arms.forEach((a) => { a.tiles = []; a.open_end = null; });"
        spinner = page.evaluate(OVERLAPS, empty + "view.spinner_stacked_by = 1;")
        assert spinner["marks"] == 1 and spinner["labels"] == 4, spinner
        assert spinner["overlaps"] == 0, "the tip arm's label covers the spinner's ×2"
        # a stacked tile at the end of each arm, for every spinner: with the spinner 1-1 the tile is
        # the other box's 1-1, a double laid crosswise whose mark stands where the next arm's label was
        for sp in range(7):
            for number in (1, 2, 3, 4):
                arm = page.evaluate(OVERLAPS, empty + f"""
                  view.spinner = "{sp}-{sp}";
                  view.spinner_stacked_by = null;
                  const arm = view.arms.find((a) => a.arm === {number});
                  arm.tiles = [{{ tile: "{max(sp, 1)}-{min(sp, 1)}", outer: 1, seat: 1, stacked_by: 0 }}];
                  arm.open_end = 1;""")
                assert arm["marks"] == 1 and arm["overlaps"] == 0, (sp, number, arm)
        page.evaluate(OVERLAPS, empty + """
          view.spinner_stacked_by = null;
          const sp = Number(view.spinner.split("-")[0]);
          const arm = view.arms.find((a) => a.arm === 2);
          arm.tiles = [{ tile: `${sp}-1`, outer: 1, seat: 1, stacked_by: 0 }];
          arm.open_end = 1;""")
        page.locator("#board").scroll_into_view_if_needed()
        shot(page, f"8-twobox-stacked-{size}")
        assert page.js_errors == []
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_two_box_marks_what_a_play_scored_on_the_layout(server: Server, browser: Any, size: str) -> None:
    """Defect 8: a scoring play shows "+15" on its tile in the layout (not only in the log)."""
    table, token = new_table(server, {"game": "twobox", "players": 2, "seats": ["human", "bot:greedy"]})
    page, context = open_page(browser, server, table, token, size)
    try:
        page.wait_for_selector("#board .armlabel")
        page.wait_for_selector("#status.yours", timeout=15000)
        # the drawing goes into a board of its own: the page redraws #board whenever a state arrives
        # (the socket's first push can land after the fetched state), which would wipe it
        shown = """const real = document.querySelector('#board');
          const mine = document.createElement(real.tagName);
          mine.id = 'drawn'; mine.className = real.className;
          mine.innerHTML = T.game().board(s.view, ctx);
          real.before(mine); real.style.display = 'none'; return '';"""
        page.evaluate(DRAW.replace("return T.game().board(s.view, ctx);", shown), """
          const sp = Number(view.spinner.split("-")[0]);
          const arm = view.arms.find((a) => a.arm === 2);
          arm.tiles = [{ tile: `${sp}-0`, outer: 0, seat: 1, stacked_by: null, last: true }];
          arm.open_end = 0;
          view.events = [...view.events, { kind: "play", seat: 1, tile: `${sp}-0`, arm: 2 },
                         { kind: "score", seat: 1, points: 15, count: 15 }];""")
        marks = page.locator("#drawn .scoremark")
        assert marks.count() == 1 and (marks.text_content() or "").endswith("+15")
        assert page.locator("#drawn .scoremark").evaluate(
            "m => m.closest('svg').querySelector('[data-arm=\"2\"][data-index=\"0\"]') !== null")
        page.locator("#drawn").scroll_into_view_if_needed()
        shot(page, f"8-twobox-scored-{size}")
        assert page.js_errors == []
    finally:
        context.close()


def test_the_lobby_tells_a_stalled_table_from_a_live_one(lobby_server: Server, browser: Any) -> None:
    """Defect 11: a table where nobody has moved for a long while reads "no move for 2 h", not
    "playing". The server says how long each table has been idle; a fresh one reads "playing"."""
    body = {"game": "montana", "players": 2, "seats": ["bot:greedy", "human"]}
    live = httpx.post(f"{lobby_server.url}/api/tables", json=body, timeout=10).json()["id"]
    httpx.post(f"{lobby_server.url}/api/tables/{live}/join", json={"seat": 1, "name": "Bo"}, timeout=10)
    tables = httpx.get(f"{lobby_server.url}/api/tables", timeout=10).json()
    mine = next(t for t in tables if t["id"] == live)
    assert isinstance(mine["idle"], int) and 0 <= mine["idle"] < 60
    stalled = {**mine, "id": "stalled1", "idle": 2 * 3600}

    def answer(route: Any) -> None:
        route.fulfill(json=[stalled, mine])

    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
        page = context.new_page()
        try:
            page.route("**/api/tables", answer)
            page.goto(lobby_server.url + "/")
            row = page.locator("#tables tr:has(a[href='/tables/stalled1'])")
            row.wait_for()
            assert "no move for 2 h" in row.inner_text() and "playing" not in row.inner_text()
            fresh = page.locator(f"#tables tr:has(a[href='/tables/{live}'])").inner_text()
            assert "playing" in fresh and "no move" not in fresh
            row.scroll_into_view_if_needed()
            shot(page, f"11-lobby-stalled-{size}")
        finally:
            context.close()
