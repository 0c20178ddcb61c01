"""Fixtures for the web app's tests: an in-process client, a real server subprocess, a browser."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from fastapi.testclient import TestClient

from boneyard.server import create_app
from boneyard.server.ratelimit import LimitSettings

if TYPE_CHECKING:
    from .pg import PgCluster

NO_LIMITS = LimitSettings.parse("off")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def auth(token: str) -> dict[str, str]:
    """The header that identifies a seat."""
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``boneyard serve`` as a subprocess on 127.0.0.1, on a given database."""

    def __init__(self, db: str, bot_delay: float = 0.0, port: int | None = None, limits: str = "off",
                 extra: list[str] | None = None) -> None:
        self.db = db
        self.limits = limits
        self.extra = extra or []
        self.bot_delay = bot_delay
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        """Start the server and wait until it answers."""
        cmd = [sys.executable, "-m", "boneyard", "serve", "--port", str(self.port), "--db", self.db,
               "--bot-delay", str(self.bot_delay), "--limits", self.limits, *self.extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 90  # generous: the machine may be loaded
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"server exited: {err}")
            try:
                if httpx.get(self.url + "/api/games", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start in 90 s")

    def kill(self) -> None:
        """kill -9: no shutdown code runs."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        """Stop politely."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app in-process on a temporary SQLite file; bots act at once; no rate limits."""
    app = create_app(f"sqlite:///{tmp_path / 'test.db'}", bot_delay=0.0, limits=NO_LIMITS)
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real server subprocess for browser tests (bots wait 0.05 s)."""
    db = tmp_path_factory.mktemp("web") / "web.db"
    server = Server(f"sqlite:///{db}", bot_delay=0.05).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright; skipped where it is not installed."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: run 'make chromium' (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def artifact(name: str) -> Path:
    """Where a test saves a screenshot."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / name


@pytest.fixture
def cluster() -> Iterator[PgCluster]:
    """A PostgreSQL cluster of the test's own, which the test may stop and start; removed after."""
    from .pg import PgCluster

    pg = PgCluster()
    pg.start()
    yield pg
    pg.remove()
