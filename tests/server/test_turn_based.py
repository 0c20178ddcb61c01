"""Turn-based tables (issue 42): the slow clock per move and per game, the server's test clock,
deadlines kept across a restart, "your turn" first in "My games", and a slow game rated.

The server's clock is a :class:`~boneyard.server.clock.TestClock` that these tests advance
through ``POST /api/test/clock``: a simulated day passes in a moment, never slept.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import create_app
from boneyard.server.clock import TestClock

from .conftest import NO_LIMITS, auth
from .test_friends import create, join, register, room, state, wait_for
from .test_ratings import claim, log_texts, rated_game

HOUR = 3600.0
DAY = 24 * HOUR


def app_on(db: Path, clock: TestClock, **options: Any) -> TestClient:
    """The app on ``db`` with the test clock ``clock`` (bots act at once, no rate limits)."""
    return TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0, limits=NO_LIMITS, clock=clock, **options))


@pytest.fixture
def slow(tmp_path: Path) -> Iterator[TestClient]:
    """The app in-process with a test clock."""
    with app_on(tmp_path / "slow.db", TestClock()) as c:
        yield c


def advance(client: TestClient, seconds: float) -> float:
    """Move the server's clock on by ``seconds``; returns its new time."""
    r = client.post("/api/test/clock", json={"advance": seconds})
    assert r.status_code == 200, r.text
    now: float = r.json()["now"]
    return now


def two_players(client: TestClient, clock: dict[str, float] | float | None, rules: dict[str, Any] | None = None
                ) -> tuple[str, dict[int, str]]:
    """A two-player rounce table with ``clock``, Ann at seat 0 and Dee at seat 1."""
    table_id, _host = create(client, ["human", "human"], clock=clock, next_timeout=0,
                             rules=rules or {"max_hands": 1})
    return table_id, {0: join(client, table_id, 0, "Ann"), 1: join(client, table_id, 1, "Dee")}


def move(client: TestClient, table_id: str, tokens: dict[int, str]) -> int:
    """The player whose turn it is makes a move of their own (not a fold where another is legal); returns the seat."""
    st = state(client, table_id)
    seat = st["current_player"]
    mine = state(client, table_id, tokens[seat])
    legal = [a for a in mine["legal_actions"] if a != "fold"] or mine["legal_actions"]
    r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat]),
                    json={"action": legal[0], "expected_version": mine["version"]})
    assert r.status_code == 200, r.text
    return int(seat)


def test_a_move_a_day_runs_on_the_servers_clock_and_its_bot_plays_a_late_move(slow: TestClient) -> None:
    table_id, tokens = two_players(slow, {"per_move": DAY})
    first = room(slow, table_id)
    assert first["turn_based"] and first["clock"] == DAY and first["left"] == DAY
    mover = move(slow, table_id, tokens)
    other = room(slow, table_id)["current_player"]
    assert other != mover
    advance(slow, 20 * HOUR)
    now = room(slow, table_id)
    assert now["current_player"] == other and now["left"] == pytest.approx(4 * HOUR)
    assert not any("clock ran out" in t for t in log_texts(slow, table_id))
    # the other player moves with 4 hours left: the next decision gets a full day
    while room(slow, table_id)["current_player"] == other:
        move(slow, table_id, tokens)
    late = room(slow, table_id)["current_player"]
    version = state(slow, table_id)["version"]
    assert room(slow, table_id)["left"] == pytest.approx(DAY)
    advance(slow, DAY + 1)
    name = "Ann" if late == 0 else "Dee"
    wait_for(lambda: any(f"{name}'s clock ran out: the greedy bot played for them" in t
                         for t in log_texts(slow, table_id)))
    assert state(slow, table_id)["version"] > version
    assert room(slow, table_id)["seats"][late]["standin"] is None  # one decision, the seat stays theirs


def test_a_deadline_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "restart.db"
    clock = TestClock()
    with app_on(db, clock) as first:
        table_id, tokens = two_players(first, {"per_move": DAY})
        move(first, table_id, tokens)
        before = room(first, table_id)
        advance(first, 5 * HOUR)
        wait_for(lambda: _stored_deadline(db, table_id) == pytest.approx(before["deadline"]))
    # a new app on the same database, its clock where the first one's stood
    with app_on(db, TestClock(start=clock.now())) as second:
        again = room(second, table_id)
        assert again["deadline"] == pytest.approx(before["deadline"])
        assert again["left"] == pytest.approx(19 * HOUR)
        version = state(second, table_id)["version"]
        advance(second, 19 * HOUR + 1)
        wait_for(lambda: state(second, table_id)["version"] > version)
        assert any("clock ran out" in t for t in log_texts(second, table_id))


def _stored_deadline(db: Path, table_id: str) -> float | None:
    """The deadline stored in the table's room row."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        row = conn.execute("SELECT deadline FROM rooms WHERE table_id = ?", (table_id,)).fetchone()
    return None if row is None else row[0]


def test_a_bank_per_game_pays_for_each_move_and_running_out_loses_on_time(slow: TestClient) -> None:
    codes = {0: register(slow, "Ann"), 1: register(slow, "Dee")}
    table_id, tokens = two_players(slow, {"per_game": 7 * DAY}, rules={"max_hands": 6})
    for seat, token in tokens.items():
        assert claim(slow, table_id, token, codes[seat]).status_code == 200
    start = room(slow, table_id)
    assert start["per_game"] == 7 * DAY and start["clock"] is None and start["banks"] == [7 * DAY, 7 * DAY]
    used = {0: 0.0, 1: 0.0}
    for thinking in (2 * DAY, 3 * HOUR, DAY, 5 * HOUR):  # two moves of each player's own, each slow
        seat = room(slow, table_id)["current_player"]
        advance(slow, thinking)
        assert room(slow, table_id)["banks"][seat] == pytest.approx(7 * DAY - used[seat] - thinking)
        assert move(slow, table_id, tokens) == seat
        used[seat] += thinking
        if room(slow, table_id)["current_player"] == seat:  # the same player again: count it so
            continue
    banks = room(slow, table_id)["banks"]
    assert banks == [pytest.approx(7 * DAY - used[0]), pytest.approx(7 * DAY - used[1])]
    late = room(slow, table_id)["current_player"]
    winner = 1 - late
    advance(slow, 7 * DAY)  # more than anyone has left
    names = {0: "Ann", 1: "Dee"}
    said = f"{names[late]}'s time ran out: the greedy bot plays their seat to the end; {names[winner]} wins"
    wait_for(lambda: said in log_texts(slow, table_id))
    after = room(slow, table_id)
    assert after["resigned"] == [late] and after["decided"] == [winner]
    assert after["deadline"] is None and after["left"] is None  # decided: nobody can lose on time now
    assert after["banks"][late] == 0


def test_a_slow_game_played_to_its_end_is_rated(slow: TestClient) -> None:
    table_id, _tokens = rated_game(slow, clock={"per_move": 3 * DAY})
    assert room(slow, table_id)["turn_based"]
    board = wait_for(lambda: slow.get("/api/games/rounce/leaderboard").json())
    assert sorted(r["name"] for r in board) == ["Ann", "Bob"] and all(r["games"] == 1 for r in board)


def test_my_games_lists_the_tables_where_it_is_your_turn_first(slow: TestClient) -> None:
    codes = {"Ann": register(slow, "Ann"), "Dee": register(slow, "Dee")}
    tables = []
    for _ in range(3):
        table_id, tokens = two_players(slow, {"per_move": DAY})
        claim(slow, table_id, tokens[0], codes["Ann"])
        claim(slow, table_id, tokens[1], codes["Dee"])
        tables.append((table_id, tokens))
    # at the oldest table it becomes Dee's turn, at the others Ann's (the newest come first otherwise)
    for n, (table_id, tokens) in enumerate(tables):
        while room(slow, table_id)["current_player"] != (1 if n == 0 else 0):
            move(slow, table_id, tokens)
    oldest = tables[0][0]
    mine = slow.get("/api/players/me/tables", headers={"X-Player": codes["Dee"]}).json()["tables"]
    assert [t["your_turn"] for t in mine] == [True, False, False]
    assert mine[0]["id"] == oldest and mine[0]["left"] == pytest.approx(DAY)
    assert [t["id"] for t in mine[1:]] == [tables[2][0], tables[1][0]]  # then the others, newest first
    assert all(t["turn_based"] for t in mine) and mine[1]["deadline"] is None
    ann = slow.get("/api/players/me/tables", headers={"X-Player": codes["Ann"]}).json()["tables"]
    assert not next(t for t in ann if t["id"] == oldest)["your_turn"]
    lobby = {t["id"]: t for t in slow.get("/api/tables").json()}
    assert lobby[oldest]["current_player"] == 1 and lobby[oldest]["turn_based"]


def test_a_turn_based_table_never_expires_for_want_of_moves(tmp_path: Path) -> None:
    with app_on(tmp_path / "idle.db", TestClock(), idle_timeout=0.4) as c:
        slow_id, _ = two_players(c, {"per_move": DAY})
        quick_id, _ = two_players(c, None)  # no clock: a real-time table
        time.sleep(1.5)  # the sweep expires a table idle for 0.4 s of real time
        assert c.get(f"/api/tables/{quick_id}").status_code == 410
        assert c.get(f"/api/tables/{slow_id}").status_code == 200
        assert not next(t for t in c.get("/api/tables").json() if t["id"] == slow_id)["abandoned"]


@pytest.mark.parametrize("clock", [{"per_move": 60}, {"per_move": 3600}, {"per_move": DAY, "per_game": DAY}, {},
                                   {"per_game": 91 * DAY}, {"per_move": "86400"}, 3601, True])
def test_a_clock_out_of_bounds_is_refused(slow: TestClient, clock: Any) -> None:
    r = slow.post("/api/tables", json={"game": "rounce", "players": 2, "clock": clock})
    assert r.status_code == 422, r.text


def test_the_seconds_clock_keeps_its_meaning(slow: TestClient) -> None:
    table_id, _tokens = two_players(slow, 30)
    seen = room(slow, table_id)
    assert seen["clock"] == 30 and not seen["turn_based"] and seen["per_game"] is None
    assert seen["left"] == pytest.approx(30)


def test_the_test_clock_is_not_served_without_it(client: TestClient) -> None:
    assert client.post("/api/test/clock", json={"advance": 60}).status_code in (404, 405)
    assert client.get("/api/test/clock").status_code == 404


def test_a_test_clock_runs_its_timers_in_order_and_never_goes_back() -> None:
    clock = TestClock(start=100.0)
    fired: list[str] = []
    clock.call_at(150.0, lambda: fired.append("b"))
    clock.call_at(120.0, lambda: fired.append("a"))
    clock.call_at(300.0, lambda: fired.append("late")).cancel()
    assert clock.advance(49) == 149.0 and fired == ["a"]
    assert clock.advance(200) == 349.0 and fired == ["a", "b"]
    with pytest.raises(ValueError):
        clock.advance(-1)
