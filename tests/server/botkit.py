"""Helpers of the bot API's tests: bot accounts, ``boneyard bot run`` processes, a person's random play."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from boneyard.server.botapi import seat_token
from boneyard.server.db import hash_token

from .conftest import Server


def new_bot(server: Server, games: list[str], name: str | None = None) -> dict[str, Any]:
    """A fresh bot account on ``server`` (its answer, token included)."""
    name = name or f"Bot{random.randrange(10**6)}"
    answer = httpx.post(server.url + "/api/bots/accounts",
                        json={"name": name, "owner": "Tess", "games": games, "description": "a test bot"}, timeout=10)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def run_bot(server: Server, token: str, log: Path, bot: str = "random", *extra: str) -> subprocess.Popen[bytes]:
    """``boneyard bot run`` in a process of its own (its output in ``log``)."""
    return subprocess.Popen([sys.executable, "-m", "boneyard", "bot", "run", "--server", server.url, "--token", token,
                             "--bot", bot, "--seed", "7", *extra], stdout=log.open("ab"), stderr=subprocess.STDOUT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def wait_online(server: Server, name: str, online: bool = True, within: float = 30.0) -> None:
    """Wait until the bot ``name`` is (or is no longer) online."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        names = [b["name"] for b in httpx.get(server.url + "/api/bots/online", timeout=10).json()]
        if (name in names) == online:
            return
        time.sleep(0.1)
    raise AssertionError(f"{name} did not go {'online' if online else 'offline'} in {within} s")


def challenge(server: Server, bot: str, body: dict[str, Any], code: str | None = None,
              within: float = 30.0) -> dict[str, Any]:
    """A person challenges ``bot``; waits for the answer and returns it (seat token included once accepted)."""
    headers = {"X-Player": code} if code else {}
    made = httpx.post(f"{server.url}/api/challenge/{bot}", json=body, headers=headers, timeout=10)
    assert made.status_code == 201, made.text
    cid, key = made.json()["challenge"]["id"], made.json()["key"]
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        status: dict[str, Any] = httpx.get(f"{server.url}/api/challenge/{cid}", headers={"X-Challenge-Key": key},
                                           timeout=10).json()
        if status["challenge"]["status"] not in ("created", "accepting"):
            return status
        time.sleep(0.1)
    raise AssertionError("the challenge was not answered")


def play_person(server: Server, table: str, token: str, rng: random.Random, until_version: int | None = None,
                within: float = 90.0) -> dict[str, Any]:
    """Play random legal actions for a person's seat until the game ends (or reaches ``until_version``)."""
    headers = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + within
    with httpx.Client(base_url=server.url, headers=headers, timeout=10) as http:
        while time.monotonic() < deadline:
            state: dict[str, Any] = http.get(f"/api/tables/{table}").json()
            if state["is_over"] or (until_version is not None and state["version"] >= until_version):
                return state
            hold = state.get("between_hands")
            if hold and state["seat"] in hold["waiting"]:
                http.post(f"/api/tables/{table}/next", json={"hand": hold["hand"]})  # "Next hand", as on the page
            elif state["legal_actions"] and not hold:
                http.post(f"/api/tables/{table}/actions",
                          json={"action": rng.choice(state["legal_actions"]), "expected_version": state["version"]})
            else:
                time.sleep(0.02)
    raise AssertionError(f"the game at {table} did not end in {within} s")


def bot_seat_token(bot_token: str, table: str) -> str:
    """The seat token the server derives for a bot account at a table (never handed out)."""
    return seat_token(hash_token(bot_token), table)
