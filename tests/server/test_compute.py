"""Fair compute: searches and the coach in worker processes, a fair queue, a budget per address, a think-time cap.

The findings: twelve tables of search bots opened from one address slowed everyone's
moves from milliseconds to seconds (and did so again after a restart), and four hints at
once from one client multiplied another player's wait for a hint. Here: a human's move is
answered while every compute worker is busy; a second address's job is served before the
first address's tenth; an address past its search-bot budget or its hint rate gets a 429
that says what the limit is and how to free it, counted again after a restart; a search
bot's think time is the server's cap whatever it would take.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import create_app
from boneyard.server.compute import ComputePool, SeatBot, choose_in_worker, searches
from boneyard.server.ratelimit import LimitSettings

from .conftest import NO_LIMITS, auth
from .test_friends import join, state, wait_for

BUDGET = LimitSettings(None, None, None, None, None, None, None, None, 4)  # four search-bot seats, nothing else


def app(path: Path, **kwargs: Any) -> TestClient:
    """The app on a database file (a restart is a new app on the same file), entered."""
    kwargs.setdefault("limits", NO_LIMITS)
    kwargs.setdefault("bot_delay", 0.0)
    client = TestClient(create_app(f"sqlite:///{path / 'compute.db'}", **kwargs))
    client.__enter__()
    return client


def table(client: TestClient, seats: list[str], game: str = "rounce", **body: Any) -> Any:
    return client.post("/api/tables", json={"game": game, "players": len(seats), "seats": seats, **body})


def play_out(client: TestClient, table_id: str, token: str) -> None:
    """Play seat 0's first legal action whenever it is to act, until the game ends (or a good while passes)."""
    for _ in range(300):
        s = state(client, table_id, token)
        if s["is_over"]:
            return
        if s["current_player"] == 0:
            client.post(f"/api/tables/{table_id}/actions", json={"action": s["legal_actions"][0]},
                        headers=auth(token))
        else:
            time.sleep(0.05)


# ----- the queue -------------------------------------------------------------------------


def test_search_bots_are_those_that_take_a_think_time() -> None:
    assert searches("ismcts")
    assert not searches("greedy") and not searches("random") and not searches("no-such-bot")


def test_a_second_address_is_served_before_the_first_addresss_tenth_job() -> None:
    async def main() -> list[str]:
        pool = ComputePool(1)
        done: list[str] = []

        async def job(address: str, table: str, label: str) -> None:
            await pool.run(address, table, time.sleep, 0.05)
            done.append(label)

        try:
            first = [asyncio.create_task(job("1.1.1.1", "t0", f"a{i}")) for i in range(9)]
            first.append(asyncio.create_task(job("1.1.1.1", "t1", "c")))  # its tenth, at another of its tables
            await asyncio.sleep(0)  # the first address's ten are queued before the second's one
            second = asyncio.create_task(job("2.2.2.2", "u", "b"))
            await asyncio.gather(*first, second)
        finally:
            pool.close()
        return done

    done = asyncio.run(main())
    # a0 runs at once; then the addresses take turns, and within the first its tables do
    assert done[:5] == ["a0", "a1", "b", "c", "a2"], done


def test_a_job_given_up_before_its_turn_never_runs() -> None:
    async def main() -> tuple[int, int]:
        pool = ComputePool(1)
        try:
            running = asyncio.create_task(pool.run("a", "t", time.sleep, 0.3))
            await asyncio.sleep(0.05)
            waiting = asyncio.create_task(pool.run("a", "t", time.sleep, 5))
            await asyncio.sleep(0.05)
            waiting.cancel()
            await running
            return pool.waiting, pool.served
        finally:
            pool.close()

    waiting, served = asyncio.run(main())
    assert (waiting, served) == (0, 1)


def test_a_worker_makes_the_seats_bot_with_the_servers_think_time(tmp_path: Path) -> None:
    client = app(tmp_path, bot_ms_cap=40.0)
    service = client.app.state.service  # type: ignore[attr-defined]
    made = service.seat_bot("ismcts")
    assert isinstance(made, SeatBot) and dict(made.params) == {"ms": 40.0}  # whatever ismcts would take alone
    assert service.seat_bot("greedy").params == ()
    import boneyard

    game = boneyard.new_game("rounce", players=3, seed=5)
    seat = game.current_player
    text = choose_in_worker("ismcts", made.params, game.view(seat), game.legal_actions(), "5:0")
    assert game.is_legal(text)
    client.__exit__(None, None, None)


# ----- the tables ------------------------------------------------------------------------


def test_a_human_move_is_answered_while_every_compute_worker_is_busy(tmp_path: Path) -> None:
    client = app(tmp_path, compute_workers=1)
    service = client.app.state.service  # type: ignore[attr-defined]
    # a search-bot table of another address keeps the pool's one worker busy for seconds
    r = table(client, ["bot:ismcts", "bot:ismcts", "bot:ismcts"])
    assert r.status_code == 201
    wait_for(lambda: service.compute.running == 1, 30)
    blocker = client.portal.start_task_soon(service.compute.run, "9.9.9.9", "x", time.sleep, 8)  # type: ignore[union-attr]
    r = table(client, ["human", "bot:greedy"], rules={"max_hands": 1})
    table_id = r.json()["id"]
    token = join(client, table_id, 0, "Ann")
    moves = 0
    started = time.monotonic()
    while moves < 3:
        s = state(client, table_id, token)
        if s["is_over"]:
            break
        if s["current_player"] != 0:
            time.sleep(0.02)
            continue
        r = client.post(f"/api/tables/{table_id}/actions", json={"action": s["legal_actions"][0]},
                        headers=auth(token))
        assert r.status_code == 200, r.text
        moves += 1
    took = time.monotonic() - started
    assert service.compute.running == 1 and not blocker.done()  # the worker was still busy all along
    assert moves >= 1 and took < 6.0, took  # generous; the pool's job alone takes 8 s
    blocker.cancel()
    client.__exit__(None, None, None)


def test_search_bots_play_in_the_pool_and_the_game_goes_on(tmp_path: Path) -> None:
    client = app(tmp_path, bot_ms_cap=30.0, compute_workers=1)
    service = client.app.state.service  # type: ignore[attr-defined]
    r = table(client, ["human", "bot:ismcts"], rules={"max_hands": 1})
    table_id = r.json()["id"]
    token = join(client, table_id, 0, "Ann")
    play_out(client, table_id, token)
    s = wait_for(lambda: (x := state(client, table_id, token))["is_over"] and x, 60)
    assert s["is_over"]
    assert service.compute.served >= 1  # the bot's decisions were made in a worker process
    client.__exit__(None, None, None)


def test_an_address_past_its_search_budget_gets_a_429_that_says_how_to_free_it(tmp_path: Path) -> None:
    client = app(tmp_path, limits=BUDGET, bot_delay=60.0)  # the bots wait: the budget is about seats, not moves
    assert table(client, ["bot:ismcts", "bot:ismcts", "human"]).status_code == 201
    assert table(client, ["bot:ismcts", "bot:ismcts", "human"]).status_code == 201
    r = table(client, ["bot:ismcts", "human", "human"])
    assert r.status_code == 429, r.text
    detail = r.json()["detail"]
    assert "at most 4 search bots" in detail and "4 are seated" in detail and "greedy" in detail
    assert "Retry-After" in r.headers
    assert table(client, ["bot:greedy", "bot:greedy", "human"]).status_code == 201  # cheap bots are not counted
    # Start filling empty seats with search bots, and a stand-in, are counted too
    r = table(client, ["human", "human", "human"])
    table_id, host = r.json()["id"], r.json()["host_token"]
    ann = join(client, table_id, 0, "Ann")
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "ismcts"}, headers={"X-Host-Token": host})
    assert r.status_code == 429 and "search bots" in r.json()["detail"]
    assert [s["kind"] for s in state(client, table_id)["seats"]] == ["human"] * 3  # nothing half done
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "greedy"}, headers={"X-Host-Token": host})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 0, "bot": "ismcts"}, headers=auth(ann))
    assert r.status_code == 429 and "search bots" in r.json()["detail"]
    client.__exit__(None, None, None)
    # after a restart the reloaded tables still count
    again = app(tmp_path, limits=BUDGET, bot_delay=60.0)
    wait_for(lambda: again.get("/healthz").json().get("loaded"), 30)
    r = table(again, ["bot:ismcts", "human", "human"])
    assert r.status_code == 429, r.text
    again.__exit__(None, None, None)


def test_hints_past_the_coach_rate_get_a_429(tmp_path: Path) -> None:
    limits = LimitSettings(None, None, None, None, None, None, None, "2/minute", None)
    client = app(tmp_path, limits=limits)
    coach = client.app.state.coach  # type: ignore[attr-defined]
    coach.rounds, coach.hint_ms = 2, 50.0
    r = table(client, ["human", "bot:greedy"], practice=True, seed=7, rules={"max_hands": 1})
    table_id = r.json()["id"]
    token = join(client, table_id, 0, "Ann")
    wait_for(lambda: state(client, table_id, token)["current_player"] == 0, 20)
    codes = [client.get(f"/api/tables/{table_id}/hint", headers=auth(token)).status_code for _ in range(3)]
    assert codes[:2] == [200, 200] and codes[2] == 429, codes
    r = client.get(f"/api/tables/{table_id}/hint", headers=auth(token))
    assert "hints and reviews" in r.json()["detail"] and "at most 2 per 1 minute" in r.json()["detail"]
    client.__exit__(None, None, None)


@pytest.mark.parametrize("asks", [1, 3])
def test_polling_a_review_costs_one_coach_request(tmp_path: Path, asks: int) -> None:
    limits = LimitSettings(None, None, None, None, None, None, None, "1/minute", None)
    client = app(tmp_path, limits=limits)
    coach = client.app.state.coach  # type: ignore[attr-defined]
    coach.rounds, coach.review_ms = 1, 20.0
    r = table(client, ["human", "bot:greedy"], rules={"max_hands": 1})
    table_id = r.json()["id"]
    token = join(client, table_id, 0, "Ann")
    play_out(client, table_id, token)
    assert state(client, table_id, token)["is_over"]
    codes = [client.get(f"/api/tables/{table_id}/review", headers=auth(token)).status_code for _ in range(asks)]
    assert all(c in (200, 202) for c in codes), codes  # asking again while it runs is free
    done = wait_for(lambda: (x := client.get(f"/api/tables/{table_id}/review", headers=auth(token))).status_code
                    == 200 and x.json(), 60)
    assert done["status"] == "done" and done["done"] == done["total"]
    client.__exit__(None, None, None)


def _workers_of(pid: int) -> list[int]:
    """The compute workers a server process started: its children running a multiprocessing spawn (from /proc)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            ppid = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (proc / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        if ppid == pid and b"spawn_main" in command:
            found.append(int(proc.name))
    return found


def test_the_workers_of_a_killed_server_end_with_it(tmp_path: Path) -> None:
    """kill -9 runs no shutdown: the workers notice that their server is gone and end, none is left behind."""
    import os

    import httpx

    from .conftest import Server

    server = Server(f"sqlite:///{tmp_path / 'kill.db'}").start()
    try:
        assert server.proc is not None
        r = httpx.post(server.url + "/api/tables", json={"game": "rounce", "players": 3, "seats": ["bot:ismcts"] * 3})
        assert r.status_code == 201, r.text
        workers = wait_for(lambda: _workers_of(server.proc.pid), 60)  # type: ignore[union-attr]
        wait_for(lambda: httpx.get(server.url + "/healthz").json()["compute"]["served"] > 0, 60)
    finally:
        server.kill()

    def gone() -> bool:
        alive = []
        for pid in workers:
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except ProcessLookupError:
                pass
        return not alive

    assert wait_for(gone, 15)


def test_a_bots_illegal_or_failing_decision_plays_a_random_legal_action(tmp_path: Path) -> None:
    """From the pool (an illegal choice) or here (a bot that raises): the table goes on with a legal action."""
    client = app(tmp_path, bot_delay=60.0)
    service = client.app.state.service  # type: ignore[attr-defined]
    table_id = table(client, ["human", "human"], rules={"max_hands": 1}).json()["id"]
    held = service.tables[table_id]
    held.held = False  # nobody joins: the service's own bot path is driven by hand below

    class Broken:
        name = "broken"

        def choose(self, view: Any, legal: Any, rng: Any) -> Any:
            raise RuntimeError("a bug in the bot")

    for chosen, player in (("nonsense", None), (None, Broken())):
        game = held.game
        before, seat = list(game.record()["actions"]), game.current_player
        text, _snapshot = service._bot_advance(held, seat, player, chosen)
        assert game.record()["actions"] == [*before, text] and text != "nonsense"
    client.__exit__(None, None, None)
