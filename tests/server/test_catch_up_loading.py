"""A change another process commits while this one is loading the table is not lost.

Two apps on one SQLite file stand for two server processes. The second one's load is held
after it has read the database; the first plays an action meanwhile and its notice
reaches the second while the table is still loading. Once loaded, the second must catch
up to the new version (after a game's last action no further notice would come).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from boneyard.server import create_app

from .conftest import NO_LIMITS, auth


def test_a_change_announced_while_loading_is_caught_up(tmp_path: Path) -> None:
    """Ann plays at process A while process B is loading the table: B ends at Ann's version."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    with TestClient(create_app(url, bot_delay=0.0, limits=NO_LIMITS)) as a, \
            TestClient(create_app(url, bot_delay=0.0, limits=NO_LIMITS)) as b:
        made = a.post("/api/tables", json={"game": "rounce", "players": 3, "rules": {"max_hands": 1},
                                           "seats": ["human", "human", "human"]})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        tokens = [a.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name}).json()["token"]
                  for seat, name in enumerate(["Ann", "Bob", "Cy"])]

        service: Any = b.app.state.service  # type: ignore[attr-defined]
        load = service._load
        read, gate = threading.Event(), threading.Event()

        def held_load(wanted: str) -> Any:
            table = load(wanted)  # the database as it is now
            read.set()
            assert gate.wait(10)
            return table

        service._load = held_load
        answers: list[Any] = []
        loader = threading.Thread(target=lambda: answers.append(b.get(f"/api/tables/{table_id}")))
        loader.start()
        assert read.wait(10), "process B never started loading the table"
        assert not answers and table_id in service._loading  # B's answer waits for the load

        state = a.get(f"/api/tables/{table_id}", headers=auth(tokens[0])).json()
        seat = state["current_player"]
        mine = a.get(f"/api/tables/{table_id}", headers=auth(tokens[seat])).json()
        played = a.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat]),
                        json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
        assert played.status_code == 200, played.text
        version = played.json()["version"]
        # the notice PostgreSQL would deliver, handed to B's event loop while the load is held
        b.portal.call(service._on_notice, str(version), table_id, "another-process", "")  # type: ignore[union-attr]
        gate.set()
        loader.join(10)
        assert answers and answers[0].status_code == 200
        assert answers[0].json()["version"] == version - 1  # what the load had read

        deadline = time.monotonic() + 5
        while b.get(f"/api/tables/{table_id}").json()["version"] != version:
            assert time.monotonic() < deadline, "process B never caught up with the action played while it loaded"
            time.sleep(0.02)
