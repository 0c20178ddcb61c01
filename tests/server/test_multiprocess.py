"""Two server processes on one PostgreSQL: any process serves any table, and kill -9 of one loses nothing."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from .conftest import Server, auth
from .pg import PgCluster


def get(url: str, table_id: str, token: str | None = None) -> dict[str, Any]:
    """A table's state from one process."""
    r = httpx.get(f"{url}/api/tables/{table_id}", headers=auth(token) if token else {}, timeout=20)
    assert r.status_code == 200, r.text
    state: dict[str, Any] = r.json()
    return state


def play_one(urls: list[str], table_id: str, tokens: list[str], turn: int, known: int = 0) -> int:
    """Play the first legal action of the seat to act through ``urls[turn % 2]``; returns the new version.

    That process is first given up to 5 s to catch up with version ``known`` (committed
    through the other process and announced to it by NOTIFY).
    """
    url = urls[turn % len(urls)]
    deadline = time.monotonic() + 5
    while get(url, table_id)["version"] < known:
        assert time.monotonic() < deadline, "a committed version never reached the other process"
        time.sleep(0.01)
    seat = get(url, table_id)["current_player"]
    mine = get(url, table_id, tokens[seat])
    r = httpx.post(f"{url}/api/tables/{table_id}/actions", headers=auth(tokens[seat]), timeout=20,
                   json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


def test_two_processes_share_tables_and_survive_kill_9_of_one(cluster: PgCluster) -> None:
    a = Server(cluster.url, bot_delay=0.05).start()
    b = Server(cluster.url, bot_delay=0.05).start()
    c: Server | None = None
    try:
        urls = [a.url, b.url]
        bots = httpx.post(a.url + "/api/tables", json={"game": "eighty", "players": 4, "rules": {"target": 400},
                                                       "seats": ["bot:random"] * 4}).json()["id"]
        humans = httpx.post(b.url + "/api/tables", json={"game": "rounce", "players": 4}).json()["id"]
        tokens = [httpx.post(f"{urls[s % 2]}/api/tables/{humans}/join", json={"seat": s, "name": f"P{s}"}).json()
                  ["token"] for s in range(4)]
        # a spectator on B sees actions posted to A (LISTEN/NOTIFY fan-out)
        with connect(f"ws://127.0.0.1:{b.port}/ws/tables/{humans}") as ws:
            assert json.loads(ws.recv(5))["version"] == 0
            assert play_one(urls, humans, tokens, 0) == 1  # through A
            pushed = json.loads(ws.recv(10))
            while pushed["version"] == 0:  # B may first push the seats it learnt of (the last joins at A)
                pushed = json.loads(ws.recv(10))
            assert pushed["version"] == 1 and pushed["view"] == get(b.url, humans)["view"]
        acked = [1]
        stop = threading.Event()

        def stream() -> None:  # human actions alternately through A and B until A dies
            turn = 1
            while not stop.is_set():
                try:
                    acked[0] = play_one(urls, humans, tokens, turn, known=acked[0])
                except (httpx.HTTPError, AssertionError):
                    return
                turn += 1

        worker = threading.Thread(target=stream)
        worker.start()
        deadline = time.monotonic() + 60
        while (acked[0] < 12 or get(b.url, bots)["version"] < 20) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert acked[0] >= 12, "the human stream stalled"
        a.kill()
        stop.set()
        worker.join(30)

        # B serves everything: acknowledged actions are all there, play goes on, the bots resume
        assert acked[0] <= get(b.url, humans)["version"] <= acked[0] + 1
        at_kill = get(b.url, bots)["version"]
        deadline = time.monotonic() + 40
        while get(b.url, bots)["version"] < at_kill + 10:
            assert time.monotonic() < deadline, "the bots of the killed process's table never resumed"
            time.sleep(0.1)
        version = get(b.url, humans)["version"]
        for turn in range(4):
            version = play_one([b.url], humans, tokens, turn, known=version)
        human_states = [get(b.url, humans, t) for t in tokens]
        seen_bots = get(b.url, bots)
        b.stop()

        # a fresh process rebuilds every table exactly as the others left it
        c = Server(cluster.url, bot_delay=60).start()
        assert [get(c.url, humans, t) for t in tokens] == human_states
        rebuilt = get(c.url, bots)  # its bots wait a minute: the table stands still
        assert rebuilt["version"] >= seen_bots["version"]
        # the same game, continued, never forked: the events seen are still there (or cut with their hand)
        seen, now = seen_bots["view"], rebuilt["view"]
        skip = now["events_from"] - seen["events_from"]
        assert skip >= 0 and now["events"][: max(0, len(seen["events"]) - skip)] == seen["events"][skip:]
    finally:
        for server in (a, b, c):
            if server is not None:
                server.stop()



def test_serve_with_two_workers_on_postgresql(cluster: PgCluster) -> None:
    server = Server(cluster.url, bot_delay=0.01, extra=["--workers", "2"]).start()
    try:
        table_id = httpx.post(server.url + "/api/tables", json={"game": "rounce", "players": 2,
                                                              "seats": ["bot:random", "bot:random"]}).json()["id"]
        deadline = time.monotonic() + 60
        while not get(server.url, table_id)["is_over"]:  # whichever worker answers, the game gets played
            assert time.monotonic() < deadline, "the bots never finished"
            time.sleep(0.1)
        assert httpx.get(server.url + "/healthz").json()["database"] == "ok"
    finally:
        server.stop()


def wait_for(check: Any, what: str, seconds: float = 10) -> None:
    """Poll ``check()`` until true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_seats_and_hands_agree_across_two_processes(cluster: PgCluster) -> None:
    a = Server(cluster.url, bot_delay=0.05).start()
    b = Server(cluster.url, bot_delay=0.05).start()
    try:
        # a seat taken at B: its token works at A at once, before A has heard of the join
        for _ in range(5):
            table_id = httpx.post(b.url + "/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
            token = httpx.post(f"{b.url}/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
            assert get(a.url, table_id, token)["seat"] == 0
            token = httpx.post(f"{b.url}/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
            with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{table_id}?token={token}") as ws:
                assert json.loads(ws.recv(5))["seat"] == 1
        # a hand ended through one process holds at both; each process counts the other's presses
        table_id = httpx.post(b.url + "/api/tables", json={"game": "rounce", "players": 2, "practice": True,
                                                           "seed": 5, "next_timeout": 600}).json()["id"]
        urls = [a.url, b.url]
        tokens = [httpx.post(f"{urls[s]}/api/tables/{table_id}/join", json={"seat": s, "name": f"P{s}"}).json()
                  ["token"] for s in range(2)]
        version, turn = 0, -1
        while turn < 0 or get(urls[turn % 2], table_id)["between_hands"] is None:  # asked where it was played
            turn += 1
            assert turn < 300, "no hand ended"
            version = play_one(urls, table_id, tokens, turn, known=version)
        other = urls[(turn + 1) % 2]  # the process that did not play the hand's last action
        wait_for(lambda: get(other, table_id)["version"] == version, "the other process never caught up")
        assert get(other, table_id)["between_hands"] == {**get(other, table_id)["between_hands"], "hand": 1,
                                                         "waiting": [0, 1]}
        r = httpx.post(f"{a.url}/api/tables/{table_id}/next", headers=auth(tokens[0]), json={"hand": 1})
        assert r.json()["between_hands"]["waiting"] == [1]
        wait_for(lambda: get(b.url, table_id)["between_hands"]["waiting"] == [1], "B never counted A's press")
        r = httpx.post(f"{b.url}/api/tables/{table_id}/next", headers=auth(tokens[1]), json={"hand": 1})
        assert r.json()["between_hands"] is None
        wait_for(lambda: get(a.url, table_id)["between_hands"] is None, "A still waits after both pressed")
        assert play_one([a.url], table_id, tokens, 0, known=version) == version + 1
    finally:
        a.stop()
        b.stop()


def test_servers_starting_together_create_the_schema_once(cluster: PgCluster) -> None:
    """Several processes opening one fresh database at the same moment all start.

    Without the schema lock the losers of the race fail on a duplicate table type, which
    stopped one of two `boneyard serve` processes started together.
    """
    from boneyard.server.db import Store

    errors: list[BaseException] = []
    barrier = threading.Barrier(6)

    def open_store() -> None:
        barrier.wait()
        try:
            Store(cluster.url).close()
        except BaseException as err:  # every failure is what the test reports
            errors.append(err)

    threads = [threading.Thread(target=open_store) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    store = Store(cluster.url)
    assert store.tables() == []
    store.close()
