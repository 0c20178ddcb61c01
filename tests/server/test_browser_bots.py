"""The lobby's "Play a bot" in headless Chromium: a person challenges a bot that ``boneyard bot run``
hosts in a process of its own, plays a whole game against it on the table page, and the result and
ratings are the server's; screenshots at 390x844 and 1280x800 under /tmp/shots-s41-bots/."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .botkit import new_bot, play_person, run_bot, wait_online
from .conftest import Server, artifact, free_port
from .test_browser import click_a_move, page_factory, stored_seat, table_id_of  # noqa: F401 (a fixture)

SHOTS = Path("/tmp/shots-s41-bots")
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose own bots wait a little, so the page sees each move."""
    db = tmp_path_factory.mktemp("browserbots") / "bots.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.05, port=free_port()).start()
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot for a person to look at (and beside the other tests' artifacts)."""
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)
    page.screenshot(path=str(artifact(name)), full_page=True)


def test_the_lobby_says_when_no_bot_is_online(server: Server, page_factory: Any) -> None:  # noqa: F811
    page = page_factory(viewport=SIZES["phone"])
    page.goto(server.url + "/")
    page.wait_for_selector("#no-bots")
    assert "No bot is online now" in page.text_content("#bots-section")
    assert page.js_errors == []


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_person_challenges_an_online_bot_from_the_lobby_and_plays_a_game(
        server: Server, page_factory: Any, tmp_path: Path, size: str) -> None:  # noqa: F811
    bot = new_bot(server, ["rounce", "montana"], name=f"Robo{size}")
    process = run_bot(server, bot["token"], tmp_path / "bot.log", "greedy")
    try:
        wait_online(server, bot["name"])
        page = page_factory(viewport=SIZES[size], is_mobile=size == "phone")
        page.goto(server.url + "/")
        page.fill("#name", "Ann")
        card = page.locator(f".bot-card[data-bot='{bot['name']}']")
        card.wait_for()
        assert "run by Tess" in card.text_content() and card.locator(".badge").text_content() == "bot"
        card.locator("select[name=game]").select_option("montana")
        card.locator("select[name=players]").select_option("2")
        card.locator("select[name=length]").select_option("1")
        card.scroll_into_view_if_needed()
        shot(page, f"lobby-play-a-bot-{size}.png")
        # keyboard: the Challenge button is reached and pressed like any other
        card.locator("button[type=submit]").focus()
        page.keyboard.press("Enter")
        page.wait_for_url("**/tables/*", timeout=20_000)
        page.wait_for_selector("#players tbody tr")
        table = table_id_of(page)
        me = stored_seat(page, table)
        assert me["seat"] == 0
        players = page.text_content("#players")
        assert bot["name"] in players and "bot" in page.locator("#players tbody tr").nth(1).text_content()
        deadline = time.monotonic() + 90
        mid_shot = False
        while True:
            state = httpx.get(f"{server.url}/api/tables/{table}", headers={"Authorization": f"Bearer {me['token']}"},
                              timeout=10).json()
            if state["is_over"]:
                break
            assert time.monotonic() < deadline, "the game did not finish in time"
            if not mid_shot and state["version"] >= 4:
                shot(page, f"table-against-a-bot-{size}.png")
                mid_shot = True
                if size == "laptop":  # one whole game by clicking is enough (the phone's): the rest by HTTP
                    state = play_person(server, table, me["token"], random.Random(1))
                    continue
            if not click_a_move(page):
                page.wait_for_timeout(60)
        assert state["seats"][1]["account"] == "bot"
        page.wait_for_selector("#players .star")
        # no rematch with a bot account (its program answers challenges): the page offers a new challenge
        page.wait_for_selector("#fr-rematch-bot")
        assert page.locator("#fr-rematch").count() == 0
        refused = httpx.post(f"{server.url}/api/tables/{table}/rematch",
                             headers={"Authorization": f"Bearer {me['token']}"}, timeout=10)
        assert refused.status_code == 409 and "Play a bot" in refused.json()["detail"]
        shot(page, f"table-against-a-bot-over-{size}.png")
        # the game is rated on the people's board: Ann and the bot (the table page linked Ann's seat)
        deadline = time.monotonic() + 20
        names: set[str] = set()
        while time.monotonic() < deadline and not {"Ann", bot["name"]} <= names:
            board = httpx.get(f"{server.url}/api/games/montana/leaderboard", params={"players": 2}, timeout=10).json()
            names = {row["name"] for row in board}
            time.sleep(0.3)
        assert {"Ann", bot["name"]} <= names
        page.goto(f"{server.url}/leaderboard/montana?players=2")
        row = page.locator("#leaderboard tr", has_text=bot["name"])
        assert row.locator(".badge").text_content() == "bot"
        shot(page, f"leaderboard-with-a-bot-{size}.png")
        assert page.js_errors == []
    finally:
        process.kill()
        process.wait()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_any_bot_takes_an_open_seek_from_the_lobby(server: Server, page_factory: Any, tmp_path: Path,  # noqa: F811
                                                   size: str) -> None:
    bots = [new_bot(server, ["rounce"], name=f"Seeker{size}{i}") for i in range(2)]
    processes = [run_bot(server, b["token"], tmp_path / f"{b['name']}.log", "random") for b in bots]
    try:
        for b in bots:
            wait_online(server, b["name"])
        page = page_factory(viewport=SIZES[size], is_mobile=size == "phone")
        page.goto(server.url + "/")
        page.fill("#name", "Bo")
        card = page.locator(".bot-card[data-bot='']")
        card.wait_for()
        assert "Any bot" in card.text_content()
        card.locator("select[name=game]").select_option("rounce")
        card.locator("select[name=players]").select_option("2")
        card.scroll_into_view_if_needed()
        shot(page, f"lobby-any-bot-{size}.png")
        card.locator("button[type=submit]").click()
        page.wait_for_url("**/tables/*", timeout=20_000)
        page.wait_for_selector("#players tbody tr")
        table = table_id_of(page)
        seats = httpx.get(f"{server.url}/api/tables/{table}", timeout=10).json()["seats"]
        assert seats[0]["name"] == "Bo" and seats[1]["account"] == "bot"
        assert seats[1]["name"] in {b["name"] for b in bots}
        assert page.js_errors == []
    finally:
        for process in processes:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def five_game_bot(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One bot account that plays all five games, hosted by ``boneyard bot run`` for the module's tests."""
    import boneyard

    bot = new_bot(server, list(boneyard.games()), name="Allgames")
    process = run_bot(server, bot["token"], tmp_path_factory.mktemp("allgames") / "bot.log", "greedy")
    try:
        wait_online(server, bot["name"])
        yield bot
    finally:
        process.kill()
        process.wait()


# each game once, at one of the two sizes (both sizes are covered across the games)
FIVE = [("montana", "phone"), ("twobox", "laptop"), ("rummikub", "phone"), ("eighty", "laptop"), ("rounce", "phone")]


def click_to_the_end(server: Server, page: Any, table: str, token: str, within: float = 180) -> dict[str, Any]:
    """Click this page's moves until the game at ``table`` is over; its final state for ``token``'s seat."""
    deadline = time.monotonic() + within
    while True:
        state: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table}",
                                          headers={"Authorization": f"Bearer {token}"}, timeout=10).json()
        if state["is_over"]:
            return state
        assert time.monotonic() < deadline, f"the game at {table} did not finish in time"
        if not _open_the_bidding(page) and not click_a_move(page):
            page.wait_for_timeout(60)


def _open_the_bidding(page: Any) -> bool:
    """In Eighty's bidding, click the lowest bid rather than the first button (pass).

    A one-hand deal where every seat passes is thrown in with one move each, and is not
    rated; greedy passes most hands, so a person who always passed met that most times.
    """
    if "Your turn" not in (page.text_content("#status") or ""):
        return False
    bid = page.locator("#actions [data-action^='bid ']")
    if not bid.count():
        return False
    try:
        bid.first.click(timeout=2000)
    except Exception:
        return False  # the turn moved on under the click
    page.wait_for_timeout(50)
    return True


def _play_a_challenge(server: Server, page: Any, bot: str, game: str, players: int) -> tuple[str, dict[str, Any]]:
    """From the lobby's Play a bot card of ``bot``: challenge it to a one-hand game and click it to its end."""
    page.goto(server.url + "/")
    page.fill("#name", "Ann")
    card = page.locator(f".bot-card[data-bot='{bot}']")
    card.wait_for()
    card.locator("select[name=game]").select_option(game)
    card.locator("select[name=players]").select_option(str(players))
    card.locator("select[name=length]").select_option("1")
    card.locator("button[type=submit]").click()
    page.wait_for_url("**/tables/*", timeout=20_000)
    page.wait_for_selector("#players tbody tr")
    table = table_id_of(page)
    return table, click_to_the_end(server, page, table, stored_seat(page, table)["token"])


def _not_rated(server: Server, table: str) -> str | None:
    """Why the finished game at ``table`` is not rated (its log says so), or None once it is rated."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        room = httpx.get(f"{server.url}/api/tables/{table}/friends", timeout=10).json()
        said = [e["text"] for e in room["log"] if "not rated" in e["text"]]
        if said:
            return str(said[0])
        if any(seat.get("rating") for seat in room["seats"]):
            return None
        time.sleep(0.3)
    raise AssertionError(f"table {table}: neither rated nor said to be unrated")


@pytest.mark.parametrize(("game", "size"), FIVE)
def test_a_person_plays_a_whole_game_of_each_game_against_a_bot_program(
        server: Server, page_factory: Any, five_game_bot: dict[str, Any], game: str, size: str) -> None:  # noqa: F811
    """From the lobby's Play a bot, by clicking only: a one-hand game of every game against the program,
    to its end; the bot's seat is its account, and the finished game is on the ratings of that game. (A
    deal where nobody really played, every bid passed say, is not rated and says why: then another.)"""
    import boneyard

    players = boneyard.game_info(game)["players"]["min"]
    page = page_factory(viewport=SIZES[size], is_mobile=size == "phone")
    reasons: list[str] = []
    # a deal thrown in before Ann's bid (or one she could not open) is not rated: another deal
    for _attempt in range(20):
        table, state = _play_a_challenge(server, page, five_game_bot["name"], game, players)
        assert state["game"] == game and state["winners"]
        assert [s["account"] for s in state["seats"] if s.get("account")] == ["bot"]
        page.wait_for_selector("#players .star")
        why = _not_rated(server, table)
        if why is None:
            break
        assert "this game is not rated" in why  # the rule, said in words; play another deal
        reasons.append(why)
    else:
        raise AssertionError(f"{len(reasons)} {game} games in a row were not rated: {reasons}")
    shot(page, f"whole-{game}-against-a-bot-{size}.png")
    deadline = time.monotonic() + 20
    names: set[str] = set()
    while not {"Ann", five_game_bot["name"]} <= names:
        assert time.monotonic() < deadline, (game, names)
        board = httpx.get(f"{server.url}/api/games/{game}/leaderboard", params={"players": players}, timeout=10)
        names = {row["name"] for row in board.json()}
        time.sleep(0.2)
    assert page.js_errors == []


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_person_takes_a_bots_seek_from_the_lobby(server: Server, page_factory: Any, tmp_path: Path,  # noqa: F811
                                                   size: str) -> None:
    """``boneyard bot run --seek rounce`` keeps an open seek while idle; the lobby lists it under "Bots looking
    for a game", a person takes it with one click and plays the game at once; the bot seeks again after."""
    bot = new_bot(server, ["rounce"], name=f"Seeker{size}")
    process = run_bot(server, bot["token"], tmp_path / "bot.log", "greedy", "--seek", "rounce", "--seek-hands", "1")
    try:
        wait_online(server, bot["name"])
        page = page_factory(viewport=SIZES[size], is_mobile=size == "phone")
        page.goto(server.url + "/")
        page.fill("#name", "Ann")
        line = page.locator(".open-seek", has_text=bot["name"])
        line.wait_for(timeout=20_000)
        assert "seeks a game of Domino Rounce: 2 players, one hand" in " ".join(line.text_content().split())
        line.scroll_into_view_if_needed()
        shot(page, f"lobby-bot-seeks-{size}.png")
        line.locator(".take-seek").click()
        page.wait_for_url("**/tables/*", timeout=20_000)
        page.wait_for_selector("#players tbody tr")
        table = table_id_of(page)
        me = stored_seat(page, table)
        assert me["seat"] == 0
        state = click_to_the_end(server, page, table, me["token"], within=90)
        assert state["seats"][1]["name"] == bot["name"] and state["seats"][1]["account"] == "bot"
        # idle again, the program posts a new seek
        deadline = time.monotonic() + 20
        while not [c for c in httpx.get(server.url + "/api/seeks", timeout=10).json()
                   if c["by"]["name"] == bot["name"]]:
            assert time.monotonic() < deadline, "the bot did not seek again"
            time.sleep(0.3)
        assert page.js_errors == []
    finally:
        process.kill()
        process.wait()
