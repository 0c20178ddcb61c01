"""A club event in Chromium against a real server: the host makes it on the events page, a
player joins on a phone and others through the API, the host starts it, the games are played
(random legal actions through the API), and the page shows the rounds and the standings as
they come, at 390x844 and 1280x800. Screenshots go to /tmp/shots-s42-tourn/ (and test-artifacts/)."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import Server, artifact, free_port

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHOTS = Path("/tmp/shots-s42-tourn")
OTHERS = ["Bob", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots move at once."""
    db = tmp_path_factory.mktemp("tourney") / "tourney.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port()).start()
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot of the whole page for a person to look at."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, artifact(f"s42-tourn-{name}.png"))


def new_page(browser: Any, size: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    return page, context


def play_round(server: Server, event: str, codes: list[str], rng: random.Random) -> None:
    """Every entrant plays random legal actions at their table (keeping their hand rather than
    folding, so that each game is rated) until every table of the round is over."""
    with httpx.Client(base_url=server.url, timeout=10) as http:
        seats = [http.post(f"/api/events/{event}/seat", headers={"X-Player": c}).json() for c in codes]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            busy = False
            for s in seats:
                auth = {"Authorization": f"Bearer {s['token']}"}
                state = http.get(f"/api/tables/{s['table']}", headers=auth).json()
                if state["is_over"]:
                    continue
                busy = True
                hold = state.get("between_hands")
                if hold and state["seat"] in hold["waiting"]:
                    http.post(f"/api/tables/{s['table']}/next", json={"hand": hold["hand"]}, headers=auth)
                elif state["legal_actions"] and not hold:
                    choices = [a for a in state["legal_actions"] if a != "fold"] or state["legal_actions"]
                    http.post(f"/api/tables/{s['table']}/actions", headers=auth,
                              json={"action": rng.choice(choices), "expected_version": state["version"]})
            if not busy:
                return
            time.sleep(0.01)
    raise AssertionError("the round's games did not end in 60 s")


def test_host_runs_an_event_and_the_page_shows_standings(server: Server, browser: Any) -> None:
    rng = random.Random(3)
    host, host_ctx = new_page(browser, "laptop")
    host.goto(f"{server.url}/")
    host.click("text=Club events")
    host.wait_for_url("**/events")
    host.wait_for_selector("#ev-game option[value=rounce]", state="attached")
    host.fill("#ev-name", "Friday club")
    host.select_option("#ev-game", "rounce")
    host.select_option("#ev-players", "4")
    host.fill("#ev-rounds", "2")
    host.fill("#ev-opt-max_hands", "1")
    host.click("#ev-create-btn")
    host.wait_for_url("**/events/*")
    event = host.url.rsplit("/", 1)[1]
    host.wait_for_selector("#ev-host:not([hidden])")
    assert "Domino Rounce · tables of 4 · Swiss, 2 rounds · Hand limit: 1" in host.inner_text("#ev-facts")

    # Ann joins on her phone with a name (a player code is made for her) ...
    phone, phone_ctx = new_page(browser, "phone")
    phone.goto(f"{server.url}/events/{event}")
    phone.wait_for_selector("#ev-join:not([hidden])")
    phone.fill("#ev-join-name", "Ann")
    phone.press("#ev-join-name", "Enter")
    phone.wait_for_selector("text=You have joined as Ann")
    ann = json.loads(phone.evaluate("localStorage.getItem('boneyard.player')"))["code"]
    # ... and five more through the API
    codes = [ann]
    with httpx.Client(base_url=server.url, timeout=10) as http:
        for name in OTHERS:
            code = http.post("/api/players", json={"name": name}).json()["code"]
            assert http.post(f"/api/events/{event}/join", headers={"X-Player": code}).status_code == 200
            codes.append(code)
    host.wait_for_selector("#ev-status:has-text('6 joined')")
    shot(host, "event-open-laptop")
    shot(phone, "event-open-phone")

    host.click("#ev-start")
    host.wait_for_selector("text=Round 1 of 2")
    assert host.is_hidden("#ev-start") and host.is_hidden("#ev-join")
    assert "You host every table of this event" in host.inner_text("#ev-host")
    shot(host, "event-round1-laptop")
    # Ann's phone offers her table this round
    phone.wait_for_selector("#ev-go", timeout=10000)
    assert "you play at table 1 with Bob, Cy and the greedy bot" in phone.inner_text("#ev-mine")
    assert phone.locator(".ev-table.mine").count() == 1
    assert phone.locator(".ev-table i", has_text="greedy bot").count() == 2  # one bot seat at each table
    shot(phone, "event-round1-phone")
    phone.click("#ev-go")
    phone.wait_for_url("**/tables/*")
    phone.wait_for_selector("#players tbody tr")
    assert "Ann" in phone.inner_text("#players")
    phone.go_back()
    phone.wait_for_selector("#ev-go")
    # the host, watching a table, gets its host's tools (the event's host token hosts the table)
    host.click(".ev-table >> nth=0 >> text=watch")
    host.wait_for_url("**/tables/*")
    host.wait_for_selector("#fr-tools #fr-bot")
    host.go_back()
    host.wait_for_selector("text=Round 1 of 2")

    play_round(server, event, codes, rng)
    host.wait_for_selector("text=Round 2 of 2", timeout=20000)
    assert "This is the last round" in host.inner_text("#ev-status")
    shot(host, "event-round2-laptop")
    play_round(server, event, codes, rng)
    host.wait_for_selector("text=Finished after 2 rounds", timeout=20000)
    phone.wait_for_selector("text=Finished after 2 rounds", timeout=20000)
    host.click("text=How places are decided")
    assert "one point for each table-mate placed below you" in host.inner_text("#ev-rules")
    shot(host, "event-finished-laptop")
    shot(phone, "event-finished-phone")

    view = httpx.get(f"{server.url}/api/events/{event}", timeout=10).json()
    rows = host.locator("#ev-standings tbody tr")
    assert rows.count() == 6
    for i, line in enumerate(view["standings"]):
        cells = rows.nth(i).locator("td").all_inner_texts()
        assert cells[0] == str(line["place"]) and cells[1].startswith(line["name"])
        assert float(cells[2]) == line["points"]
    winner = view["standings"][0]["name"]
    assert f"{winner} wins the event" in host.inner_text("#ev-status")
    assert "You finished" in phone.inner_text("#ev-mine")
    assert phone.locator("#ev-standings tr.me").count() == 1
    # nothing on the phone is wider than the screen
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert host.js_errors == [] and phone.js_errors == []
    host_ctx.close()
    phone_ctx.close()


def test_events_list_and_refusal(server: Server, browser: Any) -> None:
    """The list names each event with its state; a Swiss event without rounds is refused in words."""
    page, ctx = new_page(browser, "phone")
    page.goto(f"{server.url}/events")
    page.wait_for_selector("#ev-game option[value=rounce]", state="attached")
    page.fill("#ev-name", "No rounds")
    page.fill("#ev-rounds", "")
    page.click("#ev-create-btn")  # the browser asks for the rounds first: nothing is sent
    assert page.url.endswith("/events")
    page.select_option("#ev-format", "round_robin")
    assert "as many rounds as it takes" in page.inner_text("#ev-rounds-help")
    page.wait_for_selector("#ev-list table")
    shot(page, "events-list-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []
    ctx.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_turn_based_event_is_made_on_the_events_page(server: Server, browser: Any, size: str) -> None:
    """The New event form offers the turn-based clocks; the event page says the clock in words."""
    page, context = new_page(browser, size)
    try:
        page.goto(f"{server.url}/events")
        page.wait_for_selector("#ev-game option[value=rounce]", state="attached")
        page.fill("#ev-name", "Rounce by post")
        page.select_option("#ev-game", "rounce")
        page.fill("#ev-rounds", "2")
        page.select_option("#ev-clock", label="a move a day")
        page.click("#ev-create-btn")
        page.wait_for_url("**/events/*")
        event = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#ev-host:not([hidden])")
        assert "turn-based: a move a day" in page.inner_text("#ev-facts")
        with httpx.Client(base_url=server.url, timeout=10) as http:
            assert http.get(f"/api/events/{event}").json()["clock"] == {"per_move": 86400}
        shot(page, f"event-turn-based-{size}")
        assert page.js_errors == []
    finally:
        context.close()
