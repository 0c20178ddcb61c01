"""Two real server processes with ``--redis`` count one client's limits and caps together.

Each test starts Debian's ``redis-server`` on a free port (no disk, no config file) and two
``boneyard serve`` processes on their own SQLite files: nothing but Redis connects them, so
whatever limit they enforce together is shared through Redis.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from boneyard.server.clients import CLOSE_TOO_MANY

from .conftest import Server, free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"

try:
    import redis  # noqa: F401  (limits' Redis storage needs it: the 'redis' extra)

    HAVE_CLIENT = True
except ImportError:
    HAVE_CLIENT = False

pytestmark = [
    pytest.mark.skipif(not Path(REDIS_SERVER).exists(),
                       reason="redis-server is not installed (apt-get install redis-server, as make test does)"),
    pytest.mark.skipif(not HAVE_CLIENT, reason="the redis package is not installed (pip install '.[redis]')"),
]


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A fresh redis-server on a free port, stopped after the test."""
    port = free_port()
    proc = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(tmp_path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert proc.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not start in 20 s"
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


def pair(tmp_path: Path, limits: str, redis_url: str | None) -> tuple[Server, Server]:
    """Two server processes on separate SQLite files, sharing ``redis_url`` when given."""
    extra = ["--redis", redis_url] if redis_url else []
    servers = []
    for name in ("a", "b"):
        servers.append(Server(f"sqlite:///{tmp_path / name}.db", limits=limits, extra=extra).start())
    return servers[0], servers[1]


def stop(*servers: Server) -> None:
    """Stop every server started."""
    for s in servers:
        s.stop()


def act_codes(a: Server, b: Server, n: int) -> list[int]:
    """``n`` action posts from this address, alternately to A and B, as fast as they go.

    They name no real table: the limit counts an action before looking at it.
    """
    codes = []
    with httpx.Client(timeout=10) as http:
        for i in range(n):
            url = (a if i % 2 == 0 else b).url
            r = http.post(f"{url}/api/tables/nosuchtable/actions", headers={"Authorization": "Bearer x"},
                          json={"action": "pass", "expected_version": 0})
            codes.append(r.status_code)
    return codes


def test_two_processes_with_redis_share_one_action_limit(tmp_path: Path, redis_url: str) -> None:
    a, b = pair(tmp_path, "act=5/second", redis_url)
    try:
        codes = act_codes(a, b, 6)
        assert 429 not in codes[:5], codes
        assert codes[5] == 429, f"the sixth action in a second across both processes was not refused: {codes}"
        r = httpx.post(f"{b.url}/api/tables/nosuchtable/actions", headers={"Authorization": "Bearer x"},
                       json={"action": "pass", "expected_version": 0})
        assert r.status_code == 429 and "too many actions" in r.json()["detail"]
        assert int(r.headers["Retry-After"]) >= 1
    finally:
        stop(a, b)


def test_without_redis_each_process_counts_alone(tmp_path: Path) -> None:
    """The finding: two processes without Redis let one client through twice as often."""
    a, b = pair(tmp_path, "act=5/second", None)
    try:
        assert 429 not in act_codes(a, b, 6)
    finally:
        stop(a, b)


def new_table(server: Server) -> str:
    """A table with an open human seat at ``server``."""
    r = httpx.post(server.url + "/api/tables", json={"game": "twobox", "players": 2}, timeout=10)
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    return table_id


def refused(ws: ClientConnection) -> bool:
    """Whether the server closed this socket at once as one too many."""
    try:
        ws.recv(5)
        ws.recv(0.5)
    except ConnectionClosed as closed:
        return closed.rcvd is not None and closed.rcvd.code == CLOSE_TOO_MANY
    except TimeoutError:
        return False
    return False


def test_two_processes_with_redis_share_one_socket_cap(tmp_path: Path, redis_url: str) -> None:
    a, b = pair(tmp_path, "sockets=2", redis_url)
    try:
        at_a, at_b = new_table(a), new_table(b)
        with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{at_a}") as first, \
                connect(f"ws://127.0.0.1:{b.port}/ws/tables/{at_b}") as second:
            assert not refused(first) and not refused(second)
            with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{at_a}") as third:
                assert refused(third), "a third socket was accepted while the other process held the second"
            second.close()
            deadline = time.monotonic() + 5
            while True:  # the closed socket's place comes back as soon as B has seen it close
                with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{at_a}") as again:
                    if not refused(again):
                        break
                assert time.monotonic() < deadline, "the place of a closed socket never came back"
                time.sleep(0.1)
    finally:
        stop(a, b)


def test_two_processes_with_redis_share_one_open_table_cap(tmp_path: Path, redis_url: str) -> None:
    a, b = pair(tmp_path, "open=3", redis_url)
    try:
        new_table(a)
        new_table(b)
        new_table(a)
        r = httpx.post(b.url + "/api/tables", json={"game": "twobox", "players": 2}, timeout=10)
        assert r.status_code == 429, r.text
        assert "3 unfinished tables" in r.json()["detail"]
    finally:
        stop(a, b)


def test_a_finished_table_gives_its_place_back(tmp_path: Path, redis_url: str) -> None:
    a, b = pair(tmp_path, "open=1", redis_url)
    try:
        bots = {"game": "rounce", "players": 3, "rules": {"max_hands": 1}, "seats": ["bot:random"] * 3}
        r = httpx.post(a.url + "/api/tables", json=bots, timeout=10)
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 30
        while True:  # the bots play the hand out at A; then B lets the same address open one
            r = httpx.post(b.url + "/api/tables", json={"game": "twobox", "players": 2}, timeout=10)
            if r.status_code == 201:
                break
            assert r.status_code == 429, r.text
            assert time.monotonic() < deadline, "a finished table kept its place in the shared cap"
            time.sleep(0.2)
        r = httpx.post(a.url + "/api/tables", json={"game": "twobox", "players": 2}, timeout=10)
        assert r.status_code == 429, "the table opened at B does not count at A"
    finally:
        stop(a, b)


def test_a_redis_outage_leaves_each_process_counting_alone(tmp_path: Path, redis_url: str) -> None:
    """Redis gone: the servers keep serving and each still enforces the limit on its own."""
    a, b = pair(tmp_path, "act=5/second", redis_url)
    try:
        port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(b"SHUTDOWN NOSAVE\r\n")
            s.recv(100)
        time.sleep(0.2)
        assert httpx.post(a.url + "/api/tables", json={"game": "twobox", "players": 2}, timeout=10).status_code == 201
        codes = act_codes(a, a, 6)
        assert codes[5] == 429 and 500 not in codes, codes
    finally:
        stop(a, b)


def test_the_sockets_of_a_killed_process_lapse(tmp_path: Path, redis_url: str) -> None:
    """kill -9 of a process with a socket open: its place in the shared count is not renewed, so it
    lapses within the lease (it does not count for ever), and the other process goes on serving."""
    import redis as redis_client

    from boneyard.server.sharedlimits import SOCKET_LEASE

    a, b = pair(tmp_path, "sockets=5", redis_url)
    store = redis_client.Redis.from_url(redis_url)
    try:
        at_b = new_table(b)
        key = "boneyard:sockets:127.0.0.1"
        with connect(f"ws://127.0.0.1:{b.port}/ws/tables/{at_b}") as ws:
            assert not refused(ws)
            assert store.zcard(key) == 1
            b.kill()
        time.sleep(0.5)
        ((member, lapses),) = store.zrange(key, 0, -1, withscores=True)
        assert lapses <= time.time() + SOCKET_LEASE, "a dead process's socket would count past its lease"
        assert 0 < store.ttl(key) <= SOCKET_LEASE + 61
        at_a = new_table(a)
        with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{at_a}") as alive:
            assert not refused(alive)
            assert store.zcard(key) == 2  # the dead one still counts until it lapses
        # once lapsed (moved to the past here rather than waiting a minute), it is dropped
        store.zadd(key, {member: time.time() - 1})
        with connect(f"ws://127.0.0.1:{a.port}/ws/tables/{at_a}") as alive:
            assert not refused(alive)
            assert store.zcard(key) == 1
    finally:
        store.close()
        stop(a, b)


def test_a_redis_option_that_is_not_a_url_is_refused_at_start(tmp_path: Path) -> None:
    import os
    import sys

    r = subprocess.run([sys.executable, "-m", "boneyard", "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                        "--redis", "localhost:6379"], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "COLUMNS": "200"})  # the message on one line
    assert r.returncode == 2
    assert "redis://127.0.0.1:6379/0" in r.stderr


def test_a_held_place_is_renewed_until_released(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The renewal that keeps a live socket counted (every third of the lease), and a released
    place that a renewal does not bring back."""
    import asyncio

    from boneyard.server import sharedlimits

    monkeypatch.setattr(sharedlimits, "SOCKET_LEASE", 0.6)

    async def run() -> None:
        caps = sharedlimits.SharedCaps(redis_url)
        key, member = caps.key("sockets", "203.0.113.9"), caps.member()
        assert await caps.acquire(key, member, cap=1, lease=0.6) is None
        caps.hold(key, member, 0.6)
        first = await caps.redis.zscore(key, member)
        await asyncio.sleep(1.0)
        later = await caps.redis.zscore(key, member)
        assert first is not None and later is not None and later > first + 0.2, "the place was not renewed"
        assert await caps.acquire(key, caps.member(), cap=1, lease=0.6) == 1  # still held: the cap is full
        await caps.release(key, member)
        await asyncio.sleep(0.5)
        assert await caps.redis.zscore(key, member) is None, "a renewal brought a released place back"
        await caps.close()

    asyncio.run(run())
