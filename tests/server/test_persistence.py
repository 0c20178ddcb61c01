"""Persistence: kill -9 of a real server loses nothing; PostgreSQL works like SQLite."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from glob import glob
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from boneyard.server import create_app

from .conftest import NO_LIMITS, Server, auth, free_port


class Api:
    """A tiny client for a server, in-process (TestClient) or real (httpx)."""

    def __init__(self, http: Any) -> None:
        self.http = http

    def table(self, **body: Any) -> tuple[str, list[str | None]]:
        """Create a table and join its human seats; returns the id and the tokens by seat."""
        if "seed" in body or "deck" in body:
            body = {"practice": True, **body}
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table_id = r.json()["id"]
        tokens: list[str | None] = []
        for seat, kind in enumerate(body["seats"]):
            if kind != "human":
                tokens.append(None)
                continue
            r = self.http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": f"p{seat}"})
            tokens.append(r.json()["token"])
        return table_id, tokens

    def state(self, table_id: str, token: str | None) -> dict[str, Any]:
        """A seat's (or a spectator's) state."""
        r = self.http.get(f"/api/tables/{table_id}", headers=auth(token) if token else {})
        assert r.status_code == 200, r.text
        state: dict[str, Any] = r.json()
        return state

    def play(self, table_id: str, tokens: list[str | None], count: int) -> None:
        """Play ``count`` actions at a table whose seat to act is human (first legal action)."""
        for _ in range(count):
            seat = self.state(table_id, None)["current_player"]
            if seat is None or tokens[seat] is None:
                return
            token = tokens[seat]
            assert token is not None
            action = self.state(table_id, token)["legal_actions"][-1]
            r = self.http.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=auth(token))
            assert r.status_code == 200, r.text

    def settle(self, table_id: str, tokens: list[str | None]) -> None:
        """Wait until the table waits on a human (bots have finished their turns)."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            seat = self.state(table_id, None)["current_player"]
            if seat is None or tokens[seat] is not None:
                return
            time.sleep(0.02)
        raise AssertionError("the bots never handed the turn back")

    def snapshot(self, tables: dict[str, list[str | None]]) -> str:
        """Every seat's and spectator's view and legal actions at every table."""
        out = {}
        for table_id, tokens in tables.items():
            out[table_id] = [
                {k: s[k] for k in ("view", "legal_actions", "current_player", "scores", "is_over", "version")}
                for s in (self.state(table_id, t) for t in [*[t for t in tokens if t], None])
            ]
        return json.dumps(out, sort_keys=True)


def test_kill_9_mid_game_loses_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    server = Server(db, bot_delay=0.0).start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            api = Api(http)
            tables = {}
            for game, seats, moves in (
                ("rounce", ["human"] * 4, 9),
                ("twobox", ["human"] * 4, 7),
                ("rounce", ["human", "bot:random", "bot:random"], 5),
                ("eighty", ["human"] * 4, 6),
            ):
                table_id, tokens = api.table(game=game, players=len(seats), seats=seats, seed=11)
                api.play(table_id, tokens, moves)
                api.settle(table_id, tokens)
                tables[table_id] = tokens
            before = api.snapshot(tables)
            # An action stream in flight when the server dies: every acknowledged action must survive.
            busy_id, busy_tokens = api.table(game="rounce", players=4, seats=["human"] * 4, seed=3)
            acked = [0]

            def stream() -> None:
                try:
                    while True:
                        api.play(busy_id, busy_tokens, 1)
                        acked[0] += 1
                except Exception:
                    return  # the server is gone

            worker = threading.Thread(target=stream)
            worker.start()
            deadline = time.monotonic() + 30
            while acked[0] < 15 and worker.is_alive() and time.monotonic() < deadline:
                time.sleep(0.005)
            assert acked[0] >= 15, "the action stream stopped early"
            server.kill()
            worker.join(10)
        server = Server(db, bot_delay=0.0).start()
        with httpx.Client(base_url=server.url, timeout=10) as http:
            api = Api(http)
            assert api.snapshot(tables) == before
            version = api.state(busy_id, None)["version"]
            assert acked[0] <= version <= acked[0] + 1
            for table_id, tokens in tables.items():  # the tokens still work and play goes on
                api.play(table_id, tokens, 1)
    finally:
        server.stop()


def _initdb() -> str | None:
    found = shutil.which("initdb") or next(iter(sorted(glob("/usr/lib/postgresql/*/bin/initdb"))), None)
    return found


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server from Debian's package, on a free port."""
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    initdb = _initdb()
    if initdb is None:
        pytest.skip("PostgreSQL is not installed (make postgres: apt-get install postgresql)")
    bindir = Path(initdb).resolve().parent
    as_user: list[str] = []
    data = tempfile.mkdtemp(prefix="boneyard-pg-")
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None or subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
            pytest.skip("running as root without a 'postgres' user to run PostgreSQL as")
        shutil.chown(data, "postgres", "postgres")
        as_user = [runuser, "-u", "postgres", "--"]
    port = free_port()
    pgdata = os.path.join(data, "data")
    subprocess.run([*as_user, str(bindir / "initdb"), "-D", pgdata, "-A", "trust", "-U", "postgres"],
                   check=True, capture_output=True)
    subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", pgdata, "-w", "-l", os.path.join(data, "log"),
                    "-o", f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                   check=True, capture_output=True)
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", pgdata, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(data, ignore_errors=True)


def test_postgresql_works_the_same(postgres_url: str) -> None:
    with TestClient(create_app(postgres_url, bot_delay=0.0, limits=NO_LIMITS)) as client:
        api = Api(client)
        tables = {}
        for game, seats in (("rounce", ["human"] * 4), ("montana", ["human"] * 4), ("eighty", ["human"] * 4)):
            table_id, tokens = api.table(game=game, players=4, seats=seats, seed=21)
            api.play(table_id, tokens, 8)
            tables[table_id] = tokens
        r = client.post(f"/api/tables/{table_id}/actions", json={"action": "xyzzy"}, headers=auth(tokens[0] or ""))
        assert r.status_code in (400, 409)
        before = api.snapshot(tables)
    with TestClient(create_app(postgres_url, bot_delay=0.0, limits=NO_LIMITS)) as client:
        assert Api(client).snapshot(tables) == before
