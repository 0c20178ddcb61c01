"""One whole hand of every game, played in Chromium at a phone's and a laptop's size by
clicking only what a person would click (hand tiles, action buttons, the bid stepper, the
Rummikub builder, "Next hand").

On every turn the controls the player needs must be on screen without scrolling. When the
hand ends, the board must show exactly the final position its hand_end event carries (the
last trick and every trick, the two-box layout, the Rummikub table, every Montana seat's
sets and discards), the hand-end panel the server's sentence for that event and its
points and totals, and the page must name players (never "seat 2") and show no internal
key or raw dump. The game (two hands at most) is then played out, and the replay viewer
shows the same position at the step of the hand's last action. Screenshots of the table
mid-hand and of the hand-end panel go to ``test-artifacts/``. Fixed decks keep the hands
short; bots act without delay.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import boneyard

from .conftest import Server, artifact, free_port

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}

# A Montana deal: seat 0 holds three triples and a 3-2; the third tile it pulls is the
# other 3-2, and it goes out (the bot may of course go out first).
MONTANA_HAND = ["6-6", "6-6", "6-6", "5-5", "5-5", "5-5", "4-4", "4-4", "4-4", "3-2"]
# A Rummikub deal: seat 0 opens with 5-3 5-4 5-5, the bot cannot play, then seat 0 lays the
# other five (a joker among them) by tapping groups, and goes out.
RUMMIKUB_DECK = ["5-3", "5-4", "5-5", "4-3", "5-2", "6-1", "5-2", "0-0", "3-2", "3-0", "1-0", "5-0", "4-2", "6-4",
                 "6-0", "6-4", "2-2", "2-1", "3-3", "4-4", "4-0", "6-2", "6-6", "4-1", "6-1", "6-6", "1-1", "4-4",
                 "6-5", "2-2", "6-3", "5-5", "6-5", "0-0", "3-2", "5-3", "5-0", "1-1", "4-2", "4-3", "1-0", "3-3",
                 "5-1", "5-4", "5-1", "3-1", "2-0", "6-2", "6-3", "6-0", "2-0", "3-0", "4-1", "4-0", "3-1", "2-1"]

# Text that must never reach a player: identifiers, JSON, JavaScript leftovers.
RAW = [
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "an internal key"),
    (re.compile(r"\b(undefined|null|NaN|true|false)\b"), "a raw value"),
    (re.compile(r"\[object|[{}\[\]]"), "a raw dump"),
    (re.compile(r"\bseats? \d"), "a seat number"),
]


def montana_deck() -> list[str]:
    """Seat 0's hand, seat 1's, the two dead hands, then the woodpile with a 3-2 fifth."""
    game = boneyard.new_game("montana", players=2, seed=1)
    pool = [str(t) for t in type(game).full_set(game.rules)]
    for t in [*MONTANA_HAND, "3-2"]:
        pool.remove(t)
    random.Random(4).shuffle(pool)
    pool = [t for t in pool if t != "3-2"] + [t for t in pool if t == "3-2"]  # no other 3-2 comes early
    rest = pool[30:]
    return MONTANA_HAND + pool[:30] + rest[:4] + ["3-2"] + rest[4:]


# Two hands at most, so that the game ends and its replay opens.
TABLES: dict[str, dict[str, Any]] = {
    "rounce": {"players": 4, "seed": 21, "rules": {"max_hands": 2}},
    "eighty": {"players": 4, "seed": 5, "rules": {"max_hands": 2}},
    "twobox": {"players": 2, "seed": 8, "rules": {"max_hands": 2}},
    "rummikub": {"players": 2, "seed": 3, "deck": RUMMIKUB_DECK, "dealer": 1, "rules": {"max_hands": 2}},
    "montana": {"players": 2, "seed": 2, "deck": montana_deck(), "dealer": 0, "rules": {"max_hands": 2}},
}

# The position the board draws, read from the tiles it shows (their data-tile), per game.
TRICKS = """() => { const t = document.querySelector('#board .trick');
  return { plays: [...t.querySelectorAll('.play')].map((p) => [Number(p.dataset.trickSeat), p.dataset.tile]),
           winner: t.dataset.trickWinner,
           tricks: [...document.querySelectorAll('#board .tricklist li')].map((li) =>
             [Number(li.dataset.trickWinner), [...li.querySelectorAll('svg.tile')].map((x) => x.dataset.tile)]) }; }"""
POSITION = {
    "rounce": TRICKS,
    "eighty": TRICKS,
    "twobox": """() => ({ spinner: document.querySelector('#board g.ltile[data-spinner]').dataset.tile,
      arms: [1, 2, 3, 4].map((a) => [...document.querySelectorAll(`#board g.ltile[data-arm='${a}']`)]
        .sort((x, y) => x.dataset.index - y.dataset.index).map((g) => g.dataset.tile)) })""",
    "rummikub": """() => ({ table: [...document.querySelectorAll('#board .rk-table .group')].map((g) =>
      [...g.querySelectorAll('svg.tile')].map((x) => x.dataset.tile)) })""",
    "montana": """() => ({ seats: [...document.querySelectorAll('#board [data-seatbox]')]
      .sort((a, b) => a.dataset.seatbox - b.dataset.seatbox).map((b) => ({
        sets: [...b.querySelectorAll('.sets .group')].map((g) =>
          [...g.querySelectorAll('svg.tile')].map((x) => x.dataset.tile)),
        discards: [...b.querySelectorAll('.discards svg.tile')].map((x) => x.dataset.tile) })) })""",
}


def final_position(game_id: str, end: dict[str, Any]) -> dict[str, Any]:
    """The position a hand_end event carries, in the shape :data:`POSITION` reads from the board."""
    if game_id in ("rounce", "eighty"):
        played = end["played"]
        last = played[-1] if played else {"plays": [], "seat": ""}
        return {"plays": [[p["seat"], p["tile"]] for p in last["plays"]], "winner": str(last["seat"]),
                "tricks": [[t["seat"], [p["tile"] for p in t["plays"]]] for t in played]}
    if game_id == "twobox":
        arms = {a["arm"]: [t["tile"] for t in a["tiles"]] for a in end["arms"]}
        return {"spinner": end["spinner"], "arms": [arms.get(n, []) for n in (1, 2, 3, 4)]}
    if game_id == "rummikub":
        return {"table": end["table"]}
    if game_id == "montana":
        return {"seats": [{"sets": [m["tiles"] for m in sets], "discards": [t for s, t in end["discards"] if s == seat]}
                          for seat, sets in enumerate(end["exposed"])]}
    raise AssertionError(f"no position for {game_id}")


def last_hand_end(state: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The newest hand_end event of a state's view and the server's sentence for it."""
    events = state["view"]["events"]
    at = max(i for i, e in enumerate(events) if e["kind"] == "hand_end")
    return events[at], state["log"][at]


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots act at once."""
    db = tmp_path_factory.mktemp("hands") / "hands.db"
    server = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port()).start()
    yield server
    server.stop()


def open_table(server: Server, browser: Any, game_id: str, size: str) -> tuple[Any, str, str, Any]:
    """A table with Ann at seat 0 and bots elsewhere, open in a page of the given size."""
    spec = dict(TABLES[game_id])
    n = spec.pop("players")
    body = {"game": game_id, "players": n, "seats": ["human"] + ["bot:random"] * (n - 1), "practice": True,
            "next_timeout": 600, **spec}
    res = httpx.post(f"{server.url}/api/tables", json=body, timeout=10)
    assert res.status_code == 201, res.text
    table = res.json()["id"]
    token = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Ann"}, timeout=10).json()["token"]
    phone = size == "phone"
    context = browser.new_context(bypass_csp=True, viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    keep = json.dumps({"token": token, "seat": 0})
    context.add_init_script(f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)});"
                            "localStorage.setItem('boneyard.autoNext', '0');")
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("#players tbody tr")
    return page, table, token, context


def state_of(server: Server, table: str, token: str) -> dict[str, Any]:
    """The table as seat 0 sees it."""
    got: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table}", headers={"Authorization": f"Bearer {token}"},
                                    timeout=10).json()
    return got


def on_screen(page: Any, selector: str) -> list[str]:
    """The visible elements matching ``selector`` that are not wholly inside the viewport."""
    out: list[str] = page.evaluate("""(sel) => [...document.querySelectorAll(sel)]
      .filter((e) => e.offsetParent !== null)
      .filter((e) => { const b = e.getBoundingClientRect();
                       return b.top < 0 || b.left < 0 || b.bottom > innerHeight + 1 || b.right > innerWidth + 1; })
      .map((e) => e.textContent.trim() || e.getAttribute('aria-label') || e.id)""", selector)
    return out


def check_controls(page: Any, where: str) -> None:
    """Every action, tool and (for a hand of ten tiles or fewer) hand tile is on screen."""
    assert page.evaluate("scrollY") == 0, f"{where}: the page scrolled"
    off = on_screen(page, "#actions button, #tools button, #tools input")
    if page.locator("#hand .handtile").count() <= 10:
        off += on_screen(page, "#hand .handtile")
    assert not off, f"{where}: controls off screen: {off}"


def check_words(page: Any, where: str) -> None:
    """No internal key, raw value or seat number in what the page says."""
    text = page.evaluate("""() => ['#status', '#since', '#board', '#handend', '#over', '#error', '#log', '#actions',
                                   '#result'].map((s) => document.querySelector(s))
      .filter((e) => e && e.offsetParent !== null).map((e) => e.innerText).join('\\n')""")
    # every field a game's view holds is drawn by its module: nothing left over as raw fields
    assert page.locator("#board details.fields").count() == 0, f"{where}: {page.inner_text('#board details.fields')}"
    for pattern, what in RAW:
        found = pattern.search(text)
        assert not found, f"{where}: {what} in the page text: {text[max(0, found.start() - 60):found.end() + 60]!r}"


def wait_for_change(page: Any, version: str) -> None:
    """Until the page has drawn a newer state or the hand-end panel."""
    page.wait_for_function(f"document.body.dataset.version !== '{version}' || document.body.dataset.ending !== ''",
                           timeout=15_000)


PREFERRED = ("out", "claim out")  # a person goes out when they can


def click_once(page: Any) -> bool:
    """One decision by clicking, as a person would; False when it is not this player's turn."""
    if "Your turn" not in (page.text_content("#status") or ""):
        return False
    version = page.evaluate("document.body.dataset.version")
    for action in PREFERRED:
        button = page.locator(f"#actions [data-action='{action}']")
        if button.count():
            button.click()
            wait_for_change(page, version)
            return True
    claims = page.locator("#actions [data-action^='claim ']").count()
    if claims and page.locator("#actions [data-action='pass']").count():
        page.click("#actions [data-action='pass']")  # Montana: keep the hand as dealt rather than claim
    elif page.locator("#hand .handtile.pulled.playable").count():
        page.locator("#hand .handtile.pulled.playable").first.click()  # Montana: throw back the useless pull
        page.wait_for_function(f"document.body.dataset.version !== '{version}' || document.body.dataset.ending !== ''"
                               " || !!document.querySelector('#actions [data-cancel]')", timeout=15_000)
        if page.locator("#actions [data-cancel]").count():
            page.locator("#actions [data-action]").first.click()
    elif page.locator("#bid-go").count():
        page.click("#bid-up")
        page.click("#bid-go")
    elif page.locator("#hand .handtile.playable").count():
        page.locator("#hand .handtile.playable").first.click()
        # one action with that tile is played at once; several are offered to choose from
        page.wait_for_function(f"document.body.dataset.version !== '{version}' || document.body.dataset.ending !== ''"
                               " || !!document.querySelector('#actions [data-cancel]')", timeout=15_000)
        if page.locator("#actions [data-cancel]").count():
            page.locator("#actions [data-action]").first.click()
    elif page.locator("#actions [data-action]").count():
        page.locator("#actions [data-action]").first.click()
    else:
        return False
    wait_for_change(page, version)
    return True


def play_rummikub_turns(page: Any, where: str, size: str) -> None:
    """Open with one group, then lay the other five by tapping groups (and one tile of a group)."""
    def press(locator: Any) -> None:
        if size == "phone":
            locator.tap()  # a finger on a phone
        else:
            locator.click()

    def build(groups: list[tuple[list[str], str]]) -> None:
        press(page.locator("#rk-build"))
        for tiles, target in groups:
            for t in tiles:
                press(page.locator(f"#hand .handtile:not(.selected)[data-hand='{t}']").first)
            if target == "new":
                press(page.locator("#board [data-group='new']"))
            else:  # tap one of the group's tiles: the selection goes into that group
                press(page.locator(f"#board .group:has([title^='{target}']) .gt").first)
        version = page.evaluate("document.body.dataset.version")
        check_controls(page, where)
        page.click("#rk-play")
        wait_for_change(page, version)
        assert page.text_content("#error") == "", page.text_content("#error")

    page.wait_for_selector("#rk-build")
    joker = page.locator("#hand .handtile[data-hand='0-0']")
    assert "joker" in (joker.get_attribute("class") or "") and "joker" in joker.inner_text()
    build([(["5-3", "5-4", "5-5"], "new")])
    page.wait_for_function("document.getElementById('status').textContent.startsWith('Your turn')", timeout=15_000)
    screenshot_mid(page, "rummikub", size)
    build([(["4-3", "5-2", "6-1"], "new"), (["5-2"], "5-4"), (["0-0"], "4-3")])


def screenshot_mid(page: Any, game_id: str, where: str) -> None:
    """The table mid-hand."""
    page.screenshot(path=str(artifact(f"{game_id}-{where}-midhand.png")))


def check_hand_end(page: Any, game_id: str, where: str, state: dict[str, Any]) -> dict[str, Any]:
    """The board and the panel of the ended hand against its hand_end event; returns the event."""
    end, sentence = last_hand_end(state)
    panel = "#over" if state["is_over"] else "#handend"
    shown = page.evaluate(POSITION[game_id])
    assert shown == final_position(game_id, end), f"{where}: the board is not the hand's final position"
    # the panel: the server's sentence, then each seat's points this hand and total after it
    assert (page.text_content(f"{panel} .headline") or "").strip() == sentence
    rows = page.eval_on_selector_all(f"{panel} table.totals tbody tr",
                                     "rows => rows.map((r) => [...r.children].map((c) => c.textContent))")
    names = [name + (" (you)" if seat == 0 else "") for seat, name in enumerate(state["names"])]
    signed = [f"+{p}" if p > 0 else f"−{-p}" if p < 0 else "0" for p in end["points"]]
    assert rows == [[names[s], signed[s], str(end["totals"][s])] for s in range(len(names))], f"{where}: {rows}"
    if game_id == "twobox":  # the totals in the panel are those its sentence says
        told = ["you" if s == 0 else state["names"][s] for s in range(len(names))]
        assert all(f"{told[s]} {end['totals'][s]}" in sentence for s in range(len(names))), (sentence, rows)
    if game_id == "twobox" and end["how"] == "domino":
        # covered: the tile's box meets the panel's (on a laptop the panel stands beside the
        # board, so a tile lower on the page than the panel's top is not under it)
        seen = page.evaluate("""() => { const t = document.querySelector('#board g.ltile[data-last]');
          if (!t) return 'none';
          const b = t.getBoundingClientRect();
          const panel = [...document.querySelectorAll('#handend, #over')].find((e) => !e.hidden);
          if (!panel) return true;
          const p = panel.getBoundingClientRect();
          const covered = b.left < p.right && p.left < b.right && b.top < p.bottom && p.top < b.bottom;
          return covered ? JSON.stringify({tile: b, panel: p}) : true; }""")
        assert seen in (True, "none"), f"{where}: the last tile is hidden under the panel: {seen}"
    if game_id == "rummikub":
        assert page.locator("#board .gt.joker .jk").count() >= 1  # the joker on the table is marked
    if game_id == "montana":
        assert "waiting for claims" not in (page.text_content("#board") or "")
        if end["winner"] is not None:  # the tile that made the winning hand, in the middle of the table
            assert page.get_attribute("#board [data-out-tile]", "data-out-tile") == end["tile"]
    return end


def play_out(server: Server, table: str, token: str) -> dict[str, Any]:
    """Seat 0 plays its first legal action by HTTP (pressing Next between hands) until the game is over."""
    auth = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + 120
    while True:
        state = state_of(server, table, token)
        if state["is_over"]:
            return state
        assert time.monotonic() < deadline, "the game did not end"
        if state["between_hands"] and 0 in state["between_hands"]["waiting"]:
            httpx.post(f"{server.url}/api/tables/{table}/next", headers=auth, json={}, timeout=10)
        elif state["legal_actions"]:
            httpx.post(f"{server.url}/api/tables/{table}/actions", headers=auth, timeout=10,
                       json={"action": state["legal_actions"][0], "expected_version": state["version"]})
        else:
            time.sleep(0.02)


def replay_at_hand_end(page: Any, server: Server, table: str, hand: int) -> None:
    """Open the replay and go to the end of ``hand`` as a person would: the next hand's start in
    the hand list, then one step back (or, for the game's last hand, End)."""
    steps = httpx.get(f"{server.url}/api/tables/{table}/replay/steps", timeout=10).json()
    def ends(step: int) -> Any:
        return httpx.get(f"{server.url}/api/tables/{table}/replay?step={step}", timeout=10).json()["ends_hand"]

    step = next(c for c in [*steps["hand_starts"][1:], steps["steps"]] if ends(c) == hand)
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("#over:not([hidden])")
    page.click("#open-replay")
    page.wait_for_function("document.getElementById('rp-label').textContent.startsWith('0/')")
    if step == steps["steps"]:
        page.keyboard.press("End")
    else:
        page.select_option("#rp-hand", str(step))
        page.wait_for_function(f"document.getElementById('rp-label').textContent.startsWith('{step}/')")
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.getElementById('rp-label').textContent.startsWith('{step}/')"
                           f" && document.getElementById('status').textContent.includes('hand {hand}: ')"
                           " && document.getElementById('status').textContent.includes('the hand is over')")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game_id", boneyard.games())
def test_a_whole_hand_by_clicking(fast_server: Server, browser: Any, game_id: str, size: str) -> None:
    page, table, token, context = open_table(fast_server, browser, game_id, size)
    where = f"{game_id} at {size}"
    try:
        deadline = time.monotonic() + 120
        moves = 0
        if game_id == "rummikub":
            play_rummikub_turns(page, where, size)
        while page.evaluate("document.body.dataset.ending") == "":
            assert time.monotonic() < deadline, f"{where}: the hand did not end in time"
            if "Your turn" in (page.text_content("#status") or ""):
                check_controls(page, where)
                check_words(page, where)
                if game_id != "rummikub":
                    screenshot_mid(page, game_id, size)  # the last one before the end is kept
                if click_once(page):
                    moves += 1
                continue
            page.wait_for_timeout(50)
        after = state_of(fast_server, table, token)
        panel = "#over" if after["is_over"] else "#handend"
        page.wait_for_selector(f"{panel}:not([hidden])")
        end = check_hand_end(page, game_id, where, after)
        assert f"Hand {end['hand']}" in (page.text_content(panel) or "") or after["is_over"]
        if not after["is_over"]:
            assert not on_screen(page, "#next-hand"), f"{where}: Next hand is off screen"
        check_words(page, where)
        page.screenshot(path=str(artifact(f"{game_id}-{size}-handend.png")))
        if not after["is_over"]:
            page.click("#next-hand")
            page.wait_for_selector("#handend", state="hidden")
            now = state_of(fast_server, table, token)["version"]
            page.wait_for_function(f"document.body.dataset.version === '{now}' || document.body.dataset.ending === ''")
        assert page.js_errors == []
        # the replay of the record shows the same position at the step of the hand's last action
        play_out(fast_server, table, token)
        replay_at_hand_end(page, fast_server, table, end["hand"])
        assert page.evaluate(POSITION[game_id]) == final_position(game_id, end), f"{where}: the replay differs"
        assert page.js_errors == []
    finally:
        context.close()


def test_game_over_ranks_players_in_words(fast_server: Server, browser: Any) -> None:
    """Bots only: the panel reads "X wins with N; Y M; ..." in the order of the result."""
    body = {"game": "rounce", "players": 3, "seats": ["bot:random"] * 3, "seed": 5, "practice": True}
    table = httpx.post(f"{fast_server.url}/api/tables", json=body).json()["id"]
    context = browser.new_context(bypass_csp=True, viewport=SIZES["phone"])
    try:
        page = context.new_page()
        page.goto(f"{fast_server.url}/tables/{table}")
        page.wait_for_selector("#over:not([hidden])", timeout=60_000)
        state = httpx.get(f"{fast_server.url}/api/tables/{table}").json()
        text = page.text_content("#over .ranking") or ""
        order = sorted(range(3), key=lambda s: (s not in state["winners"], state["scores"][s]))  # lowest is best
        expected = "; ".join(
            [f"random bot {order[0]} wins with {state['scores'][order[0]]}"]
            + [f"random bot {s} {state['scores'][s]}" for s in order[1:]]) + "."
        if len(state["winners"]) == 1:
            assert text == expected
        assert not re.search(r"\bseat \d", text)
    finally:
        context.close()



def drag(page: Any, source: str, target: str, touch: bool) -> None:
    """Drag from the centre of ``source`` to the centre of ``target``: the mouse, or a finger (CDP touch events)."""
    a = page.locator(source).first.bounding_box()
    b = page.locator(target).first.bounding_box()
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    steps = [(x0 + (x1 - x0) * k / 8, y0 + (y1 - y0) * k / 8) for k in range(1, 9)]
    if not touch:
        page.mouse.move(x0, y0)
        page.mouse.down()
        for x, y in steps:
            page.mouse.move(x, y)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for x, y in steps:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("size", list(SIZES))
def test_rummikub_tiles_are_dragged_into_groups(fast_server: Server, browser: Any, size: str) -> None:
    """Drag works with the mouse on a laptop and with a finger on a phone: hand tiles into a
    new group and onto a group on the table, and the built table is accepted."""
    page, table, token, context = open_table(fast_server, browser, "rummikub", size)
    touch = size == "phone"
    try:
        auth = {"Authorization": f"Bearer {token}"}
        httpx.post(f"{fast_server.url}/api/tables/{table}/actions", json={"action": "play 5-3 5-4 5-5"}, headers=auth)
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Your turn')"
                               " && document.querySelectorAll('#board .gt').length === 3", timeout=15_000)
        page.click("#rk-build")
        drag(page, "#hand .handtile[data-hand='4-3']", "#board [data-group='new']", touch)
        page.wait_for_selector("#board [data-group='1']")
        for tile in ("5-2", "6-1", "0-0"):
            drag(page, f"#hand .handtile[data-hand='{tile}']", "#board [data-group='1']", touch)
        drag(page, "#hand .handtile[data-hand='5-2']", "#board [data-group='0'] .gt", touch)
        groups = page.eval_on_selector_all("#board .group.build:not(.newgroup)", """gs => gs.map((g) =>
          [...g.querySelectorAll('.gt')].map((e) => e.title.split(' ')[0]).sort())""")
        assert sorted(groups) == [["0-0", "4-3", "5-2", "6-1"], ["5-2", "5-3", "5-4", "5-5"]], groups
        assert page.locator("#hand .handtile").count() == 0
        version = page.evaluate("document.body.dataset.version")
        page.click("#rk-play")
        wait_for_change(page, version)
        assert page.text_content("#error") == ""
        assert page.js_errors == []
    finally:
        context.close()


def test_a_one_human_table_moves_on_after_the_timeout(fast_server: Server, browser: Any) -> None:
    """The hand-end panel waits for "Next hand", or for the delay the player chose (here 1 s)."""
    page, _, _, context = open_table(fast_server, browser, "montana", "laptop")
    try:
        page.evaluate("localStorage.setItem('boneyard.autoNext', '1')")
        deadline = time.monotonic() + 60
        while page.evaluate("document.body.dataset.ending") == "":
            assert time.monotonic() < deadline
            if not click_once(page):
                page.wait_for_timeout(50)
        page.wait_for_selector("#handend:not([hidden])")
        assert page.locator("#auto-next").input_value() == "1"
        page.wait_for_selector("#handend", state="hidden", timeout=5_000)
        assert page.evaluate("document.body.dataset.ending") == ""
        assert page.js_errors == []
    finally:
        context.close()


# A Montana deal for three: Cy deals and discards his 5-3; Ann, just after him, holds 5-1
# and 5-2 for a run; Bob holds a pair of 5-3 for a triple. The fourth 5-3 lies in the dead hand.
CLAIM_HANDS = (["5-1", "5-2", "6-6", "6-4", "4-4", "3-1", "2-0", "1-1", "6-0", "4-0"],
               ["5-3", "5-3", "6-5", "6-2", "4-2", "3-3", "2-1", "1-0", "0-0", "6-3"],
               ["5-3", "6-6", "5-5", "4-3", "3-2", "2-2", "6-1", "4-1", "3-0", "5-0"])


def claim_deck() -> list[str]:
    """The three hands, the dead hand (the last 5-3 first), then a woodpile of no 5-1, 5-2 or 5-3."""
    game = boneyard.new_game("montana", players=3, seed=1)
    pool = [str(t) for t in type(game).full_set(game.rules)]
    for t in [*CLAIM_HANDS[0], *CLAIM_HANDS[1], *CLAIM_HANDS[2], "5-3"]:
        pool.remove(t)
    random.Random(7).shuffle(pool)
    late = ("5-1", "5-2", "5-3")
    return [*CLAIM_HANDS[0], *CLAIM_HANDS[1], *CLAIM_HANDS[2], "5-3",
            *[t for t in pool if t not in late], *[t for t in pool if t in late]]


@pytest.mark.parametrize("size", list(SIZES))
def test_a_montana_claim_that_loses_is_told(fast_server: Server, browser: Any, size: str) -> None:
    """Ann claims Cy's discard for a run, Bob for a triple: the log and "Since your turn" say
    that her run lost to Bob's triple, in the server's words."""
    http = httpx.Client(base_url=fast_server.url, timeout=10)
    body = {"game": "montana", "players": 3, "practice": True, "deck": claim_deck(), "dealer": 2}
    table = http.post("/api/tables", json=body).json()["id"]
    tokens = [http.post(f"/api/tables/{table}/join", json={"seat": s, "name": n}).json()["token"]
              for s, n in enumerate(["Ann", "Bob", "Cy"])]
    auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
    phone = size == "phone"
    context = browser.new_context(bypass_csp=True, viewport=SIZES[size], is_mobile=phone, has_touch=phone)
    keep = json.dumps({"token": tokens[0], "seat": 0})
    context.add_init_script(f"localStorage.setItem('boneyard.token.{table}', {json.dumps(keep)});")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{fast_server.url}/tables/{table}")
        page.wait_for_selector("#players tbody tr")
        def act(seat: int, action: str) -> None:
            r = http.post(f"/api/tables/{table}/actions", headers=auth[seat], json={"action": action})
            assert r.status_code == 200, r.text

        act(2, "discard 5-3")
        page.wait_for_selector("#hand .handtile.playable[data-hand='5-1']")
        page.click("#hand .handtile[data-hand='5-1']")  # the one action with it: the run claim
        page.wait_for_function("document.getElementById('status').textContent.startsWith('Waiting for Bob')")
        act(1, "claim triple")
        state = state_of(fast_server, table, tokens[0])
        told = dict(zip([e["kind"] for e in state["view"]["events"]], state["log"], strict=False))["answers"]
        assert "your run loses to Bob's triple" in told, told
        page.wait_for_function("(s) => [...document.querySelectorAll('#log li')].some((li) => li.textContent === s)",
                               arg=told)
        assert told in (page.text_content("#since") or "")  # it happened after Ann's claim
        check_words(page, f"the claim at {size}")
        page.screenshot(path=str(artifact(f"montana-{size}-claim.png")))
        page.locator("#log").screenshot(path=str(artifact(f"montana-{size}-claim-log.png")))
        assert errors == []
    finally:
        context.close()
