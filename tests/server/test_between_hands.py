"""Between hands: the table waits for every human's "Next hand"; the ended hand (its hand_end event,
in every view through the next hand) and the wait survive a reload and a restart."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from boneyard.server import create_app

from .conftest import NO_LIMITS
from .test_api import auth, join_all, new_table


def play_to_hand_end(client: TestClient, table_id: str, tokens: list[str]) -> tuple[dict[Any, Any], dict[str, Any]]:
    """Humans play their first legal action until a hand ends; returns each seat's state just
    before the ending action (spectator under ``None``) and the state after it."""
    for _ in range(300):
        before = {s: client.get(f"/api/tables/{table_id}", headers=auth(t)).json() for s, t in enumerate(tokens)}
        before[None] = client.get(f"/api/tables/{table_id}").json()
        s = before[None]["current_player"]
        r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[s]),
                        json={"action": before[s]["legal_actions"][0], "expected_version": before[s]["version"]})
        assert r.status_code == 200, r.text
        after = r.json()
        if ended(after) is not None:
            return before, after
    raise AssertionError("no hand ended in 300 actions")


def ended(state: dict[str, Any]) -> dict[str, Any] | None:
    """The view's newest hand_end event, or None."""
    ends = [e for e in state["view"]["events"] if e["kind"] == "hand_end"]
    return ends[-1] if ends else None


def test_the_table_waits_for_every_humans_next(client: TestClient) -> None:
    table_id = new_table(client, players=2, seed=5)
    tokens = join_all(client, table_id, 2)
    before, after = play_to_hand_end(client, table_id, tokens)
    assert after["between_hands"]["hand"] == 1 and after["between_hands"]["waiting"] == [0, 1]
    assert after["view"]["hand_number"] == 2
    # every seat (and a spectator) finds the ended hand in its own view: the same public
    # hand_end, told in its own words, after the events it had already seen
    ends = []
    for seat, token in [(0, tokens[0]), (1, tokens[1]), (None, None)]:
        state = client.get(f"/api/tables/{table_id}", headers=auth(token) if token else {}).json()
        assert "ended_hand" not in state
        end = ended(state)
        assert end is not None and end["hand"] == 1
        ends.append(end)
        view, seen = state["view"], before[seat]["view"]
        assert view["events_from"] + len(view["events"]) > seen["events_from"] + len(seen["events"])
        at = view["events"].index(end)
        assert len(state["log"]) == len(view["events"]) and state["log"][at].startswith("Hand 1 is over")
    assert ends[0] == ends[1] == ends[2]
    # nobody may act until both have pressed Next: a 409 in words, the table unchanged
    s = after["current_player"]
    version = after["version"]
    r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[s]),
                    json={"action": after["legal_actions"][0] if after["seat"] == s else "pass"})
    assert r.status_code == 409
    assert "hand 1 has just ended" in r.json()["detail"] and "p0 and p1 have pressed Next hand" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[0]), json={"hand": 1})
    assert r.status_code == 200 and r.json()["between_hands"]["waiting"] == [1]
    again = client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[0])).json()
    assert again["between_hands"]["waiting"] == [1]
    assert client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[1]), json={"hand": 7}).json()[
        "between_hands"]["waiting"] == [1]  # another hand's Next changes nothing
    assert client.post(f"/api/tables/{table_id}/next").status_code == 401
    r = client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[1]), json={"hand": 1})
    assert r.json()["between_hands"] is None and r.json()["version"] == version
    assert ended(r.json())["hand"] == 1  # type: ignore[index]  # the ended hand stays for a later reload
    state = client.get(f"/api/tables/{table_id}", headers=auth(tokens[s])).json()
    r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[s]),
                    json={"action": state["legal_actions"][0], "expected_version": version})
    assert r.status_code == 200, r.text
    # a Next pressed when the table is not between hands changes nothing
    assert client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[0])).json()["version"] == version + 1


def test_bots_wait_for_the_timeout_then_deal_on(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "bot:random"],
                                         "next_timeout": 1.0, "practice": True, "seed": 3})
    table_id = r.json()["id"]
    token = client.post(f"/api/tables/{table_id}/join", json={"name": "Ann"}).json()["token"]
    state: dict[str, Any] = {}
    for _ in range(300):
        state = client.get(f"/api/tables/{table_id}", headers=auth(token)).json()
        if state["between_hands"]:
            break
        if state["current_player"] == 0:
            client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                        json={"action": state["legal_actions"][0], "expected_version": state["version"]})
        else:
            time.sleep(0.02)
    held = state["version"]
    assert state["between_hands"] == {**state["between_hands"], "hand": 1, "waiting": [0]}
    time.sleep(0.4)
    assert client.get(f"/api/tables/{table_id}").json()["version"] == held  # bots wait
    deadline = time.monotonic() + 10
    while client.get(f"/api/tables/{table_id}").json()["between_hands"] is not None:
        assert time.monotonic() < deadline, "the hold did not end at its timeout"
        time.sleep(0.05)
    state = client.get(f"/api/tables/{table_id}", headers=auth(token)).json()
    if state["current_player"] == 1:  # the bot deals on by itself once the hold is over
        deadline = time.monotonic() + 10
        while client.get(f"/api/tables/{table_id}").json()["version"] == held:
            assert time.monotonic() < deadline, "the bot did not play after the hold"
            time.sleep(0.05)


def test_next_timeout_is_checked(client: TestClient) -> None:
    for bad in (-1, 601, "soon"):
        r = client.post("/api/tables", json={"game": "rounce", "next_timeout": bad})
        assert r.status_code == 422 and "next_timeout" in r.text
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "next_timeout": 0, "practice": True,
                                         "seed": 5})
    table_id = r.json()["id"]
    tokens = join_all(client, table_id, 2)
    _, after = play_to_hand_end(client, table_id, tokens)
    assert after["between_hands"] is None and ended(after)["hand"] == 1  # type: ignore[index]  # no wait, still kept


def test_a_table_between_hands_still_waits_after_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'restart.db'}"
    with TestClient(create_app(db, bot_delay=0.0, limits=NO_LIMITS)) as client:
        table_id = new_table(client, players=2, seed=5, next_timeout=600)
        tokens = join_all(client, table_id, 2)
        _before, after = play_to_hand_end(client, table_id, tokens)
        client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[0]), json={"hand": 1})
        ends = {s: ended(client.get(f"/api/tables/{table_id}", headers=auth(t)).json())
                for s, t in enumerate(tokens)}
    with TestClient(create_app(db, bot_delay=0.0, limits=NO_LIMITS)) as client:
        state = client.get(f"/api/tables/{table_id}", headers=auth(tokens[0])).json()
        hold = state["between_hands"]
        # the same hand's wait with the same deadline; a press from before the restart is asked again
        assert hold["hand"] == 1 and hold["waiting"] == [0, 1]
        assert abs(hold["until"] - after["between_hands"]["until"]) < 2
        assert {s: ended(client.get(f"/api/tables/{table_id}", headers=auth(t)).json())
                for s, t in enumerate(tokens)} == ends
        s = state["current_player"]
        mine = client.get(f"/api/tables/{table_id}", headers=auth(tokens[s])).json()
        r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[s]),
                        json={"action": mine["legal_actions"][0] if mine["legal_actions"] else "pass"})
        assert r.status_code == 409 and "hand 1 has just ended" in r.json()["detail"]
        for token in tokens:
            client.post(f"/api/tables/{table_id}/next", headers=auth(token), json={"hand": 1})
        assert client.get(f"/api/tables/{table_id}").json()["between_hands"] is None


def test_a_wait_that_ran_out_while_the_server_was_down_is_over(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'late.db'}"
    with TestClient(create_app(db, bot_delay=0.0, limits=NO_LIMITS)) as client:
        table_id = new_table(client, players=2, seed=5, next_timeout=0.5)
        tokens = join_all(client, table_id, 2)
        play_to_hand_end(client, table_id, tokens)
    time.sleep(0.6)
    with TestClient(create_app(db, bot_delay=0.0, limits=NO_LIMITS)) as client:
        state = client.get(f"/api/tables/{table_id}").json()
        assert state["between_hands"] is None and ended(state)["hand"] == 1  # type: ignore[index]
