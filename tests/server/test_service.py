"""The server as a service, in-process: exactly-once actions, fair deals, bounds, the log, faults, limits, memory."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

import boneyard
from boneyard.server import commits as commits_module
from boneyard.server import create_app
from boneyard.server.app import SERVER_GC_THRESHOLDS
from boneyard.server.db import Store
from boneyard.server.ratelimit import LimitSettings
from boneyard.server.telling import Teller, reader_names

from .conftest import NO_LIMITS, auth


def make(client: TestClient, players: int = 2, **body: Any) -> tuple[str, list[str]]:
    """A rounce table with every seat joined (names Ann, Bob...); returns its id and tokens."""
    r = client.post("/api/tables", json={"game": "rounce", "players": players, **body})
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    tokens = []
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"][:players]):
        r = client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    return table_id, tokens


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    """A seat's (or a spectator's) state."""
    r = client.get(f"/api/tables/{table_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def to_act(client: TestClient, table_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
    """The token of the seat to act and its state."""
    seat = state(client, table_id)["current_player"]
    return tokens[seat], state(client, table_id, tokens[seat])


def post(client: TestClient, table_id: str, token: str, **body: Any) -> Any:
    """POST an action."""
    return client.post(f"/api/tables/{table_id}/actions", json=body, headers=auth(token))


@pytest.fixture
def app_at(tmp_path: Path) -> Iterator[Any]:
    """Build apps on one database file (a restart is a new app on the same file)."""
    url = f"sqlite:///{tmp_path / 'svc.db'}"
    clients: list[TestClient] = []

    def build(**kwargs: Any) -> TestClient:
        kwargs.setdefault("limits", NO_LIMITS)
        kwargs.setdefault("bot_delay", 0.0)
        c = TestClient(create_app(url, **kwargs))
        c.__enter__()
        clients.append(c)
        return c

    build.url = url  # type: ignore[attr-defined]
    yield build
    for c in clients:
        c.__exit__(None, None, None)


# ----- exactly once ------------------------------------------------------------------


def test_a_repeated_action_is_played_once_and_a_stale_one_gets_the_state(client: TestClient) -> None:
    table_id, tokens = make(client)
    token, mine = to_act(client, table_id, tokens)
    body = {"action": mine["legal_actions"][0], "expected_version": mine["version"]}
    first = post(client, table_id, token, **body)
    assert first.status_code == 200 and first.json()["version"] == mine["version"] + 1
    again = post(client, table_id, token, **body)  # the same click arriving twice
    assert again.status_code == 200 and again.json() == first.json()
    assert state(client, table_id)["version"] == mine["version"] + 1
    # an action chosen from a view older than that: 409 with the current state
    token2, now = to_act(client, table_id, tokens)
    stale = post(client, table_id, token2, action=now["legal_actions"][0], expected_version=now["version"] - 1)
    assert stale.status_code == 409 and "moved on" in stale.json()["detail"]
    assert stale.json()["state"] == state(client, table_id, token2)
    ahead = post(client, table_id, token2, action=now["legal_actions"][0], expected_version=now["version"] + 5)
    assert ahead.status_code == 409
    assert state(client, table_id)["version"] == now["version"]


def test_a_repeat_only_counts_for_the_seat_that_played(client: TestClient) -> None:
    table_id, tokens = make(client)
    token, mine = to_act(client, table_id, tokens)
    action = mine["legal_actions"][0]
    assert post(client, table_id, token, action=action, expected_version=mine["version"]).status_code == 200
    other = tokens[1 - tokens.index(token)]
    r = post(client, table_id, other, action=action, expected_version=mine["version"])
    assert r.status_code == 409


def test_turn_errors_name_players(client: TestClient) -> None:
    table_id, tokens = make(client)
    seat = state(client, table_id)["current_player"]
    r = post(client, table_id, tokens[1 - seat], action="pass")
    name = ["Ann", "Bob"][seat]
    assert r.status_code == 400 and r.json()["detail"] == f"not your turn: it is {name}'s turn"
    assert "seat" not in r.json()["detail"]


# ----- fair deals --------------------------------------------------------------------


def test_seeds_are_secret_until_the_end_and_fixed_deals_are_marked(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce", "seed": 5})
    assert r.status_code == 400 and "practice" in r.json()["detail"]
    deck = [str(t) for t in boneyard.new_game("rounce").full_set(boneyard.new_game("rounce").rules)]
    assert client.post("/api/tables", json={"game": "rounce", "deck": deck}).status_code == 400
    fair_id, _ = make(client)
    fixed_id, _ = make(client, seed=5, practice=True)
    lobby = {t["id"]: t for t in client.get("/api/tables").json()}
    assert lobby[fair_id]["fixed_deal"] is False and lobby[fixed_id]["fixed_deal"] is True
    assert state(client, fixed_id)["fixed_deal"] is True and state(client, fair_id)["fixed_deal"] is False
    # two fair tables deal differently (the seed is drawn, not fixed)
    views = {json.dumps(state(client, make(client)[0])["view"]) for _ in range(4)}
    assert len(views) > 1


def test_the_seed_is_published_at_the_end_and_replays_the_game(client: TestClient) -> None:
    table_id, tokens = make(client, players=2, next_timeout=0)
    played = []
    rng = random.Random(3)
    while not state(client, table_id)["is_over"]:
        assert state(client, table_id)["seed"] is None
        token, mine = to_act(client, table_id, tokens)
        action = rng.choice(mine["legal_actions"])
        assert post(client, table_id, token, action=action).status_code == 200
        played.append(action)
    final = state(client, table_id, tokens[0])
    assert final["seed"] is not None
    game = boneyard.replay({"game": "rounce", "players": 2, "seed": int(final["seed"]), "rules": {},
                            "actions": played})
    assert game.view(0) == final["view"] and game.scores == final["scores"]


# ----- bounds and 4xx instead of 500 -------------------------------------------------


def test_names_are_bounded_and_printable(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "rounce"})
    table_id = r.json()["id"]
    url = f"/api/tables/{table_id}/join"
    for bad in ["x" * 41, "a\x00b", "tab\there", "\u202e"]:
        r = client.post(url, json={"name": bad})
        assert r.status_code == 400, bad
    lone = b'{"name": "a\\ud800b"}'  # a lone surrogate, as JSON allows
    r = client.post(url, content=lone, headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 422), r.text  # refused, by the JSON parser or as not printable
    assert client.post(url, json={"name": "x" * 1000}).status_code == 422
    assert client.post(url, json={"name": "É" * 40}).status_code == 200


def test_huge_or_strange_input_is_refused_briefly(client: TestClient) -> None:
    table_id, tokens = make(client)
    token, mine = to_act(client, table_id, tokens)
    r = post(client, table_id, token, action="x" * 1_000_000)
    assert r.status_code == 413 and len(r.content) < 500  # refused by its size, before it is parsed
    r = post(client, table_id, token, action="play " + "9" * 1500)
    assert r.status_code == 400 and len(r.json()["detail"]) < 400
    r = client.post(f"/api/tables/{table_id}/actions", headers={**auth(token), "Content-Type": "application/json"},
                    content=b'{"action": "pla\\ud800y"}')
    assert r.status_code in (400, 422)
    for body in ({"game": "rounce", "seed": int("9" * 100), "practice": True},
                 {"game": "rounce", "seed": -1, "practice": True},
                 {"game": "x" * 10_000}, {"game": "rounce", "players": 10**50}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422 and len(r.content) < 1000, body
    r = client.post("/api/tables", json={"game": "twobox", "rules": {"target": 1001}})
    assert r.status_code == 400 and "1000" in r.json()["detail"]
    assert client.post("/api/tables", json={"game": "twobox", "rules": {"target": 1000}}).status_code == 201
    r = client.post("/api/tables", json={"game": "twobox", "rules": {"target": "y" * 5000}})
    assert r.status_code == 400 and len(r.json()["detail"]) < 400
    r = client.post("/api/tables", json={"game": "rounce", "seats": ["bot:" + "z" * 60, "human", "human", "human"]})
    assert r.status_code == 400 and len(r.json()["detail"]) < 400
    assert state(client, table_id)["version"] == mine["version"]
    info = {g["id"]: g for g in client.get("/api/games").json()}
    assert info["twobox"]["options"]["target"]["maximum"] == 1000


def test_every_rules_option_that_is_a_number_has_a_range(client: TestClient) -> None:
    for info in client.get("/api/games").json():
        for name, option in info["options"].items():
            if option["type"] in ("int", "float"):
                assert "minimum" in option and "maximum" in option, (info["id"], name)


def test_websocket_ignores_binary_and_junk_frames(client: TestClient) -> None:
    table_id, tokens = make(client)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws:
        first = ws.receive_json()
        ws.send_bytes(b"\x00\xff" * 100)
        ws.send_text("{not json")
        token, mine = to_act(client, table_id, tokens)
        assert post(client, table_id, token, action=mine["legal_actions"][0]).status_code == 200
        assert ws.receive_json()["version"] == first["version"] + 1


def test_pages_and_answers_carry_security_headers(client: TestClient) -> None:
    table_id, _ = make(client)
    for path in ["/", f"/tables/{table_id}", "/rules/rounce", "/api/games", "/api/tables/nope", "/static/app.css"]:
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"


def test_the_lobby_lists_the_newest_table_first(client: TestClient) -> None:
    ids = [make(client)[0] for _ in range(4)]
    listed = [t["id"] for t in client.get("/api/tables").json()]
    assert listed == ids[::-1]


# ----- database faults ---------------------------------------------------------------


def test_a_failed_commit_refuses_the_action_with_503_and_keeps_the_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id, tokens = make(client)
    token, mine = to_act(client, table_id, tokens)
    before = [state(client, table_id, t) for t in tokens]

    def down(*_args: Any, **_kwargs: Any) -> None:
        raise OperationalError("INSERT", {}, Exception("database is locked"))

    monkeypatch.setattr(commits_module, "write_actions", down)
    r = post(client, table_id, token, action=mine["legal_actions"][0])
    assert r.status_code == 503 and "not played" in r.json()["detail"]
    assert [state(client, table_id, t) for t in tokens] == before
    monkeypatch.undo()
    r = post(client, table_id, token, action=mine["legal_actions"][0])
    assert r.status_code == 200 and r.json()["version"] == mine["version"] + 1


def test_bots_resume_by_themselves_after_failed_commits(app_at: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    real = commits_module.write_actions
    failures = [0]

    def flaky(*args: Any, **kwargs: Any) -> None:
        if failures[0] < 4:
            failures[0] += 1
            raise OperationalError("INSERT", {}, Exception("server closed the connection"))
        real(*args, **kwargs)

    monkeypatch.setattr(commits_module, "write_actions", flaky)
    client = app_at()
    table_id = client.post("/api/tables", json={"game": "rounce", "players": 2,
                                                "seats": ["bot:random", "bot:random"]}).json()["id"]
    deadline = time.monotonic() + 60
    while not state(client, table_id)["is_over"]:
        assert time.monotonic() < deadline, "the bots stopped after the failed commits"
        time.sleep(0.05)
    assert failures[0] == 4
    assert client.get("/healthz").json()["database"] == "ok"


def test_a_table_that_no_longer_replays_is_quarantined(
    app_at: Any, caplog: pytest.LogCaptureFixture
) -> None:
    client = app_at()
    table_id, tokens = make(client)
    other_id, _ = make(client)
    Store(app_at.url).add_action(table_id, state(client, table_id)["version"], "fly to the moon", 0, False)
    client = app_at()  # a restart: the record no longer replays
    with caplog.at_level(logging.ERROR, logger="boneyard.server"):
        for _ in range(3):
            r = client.get(f"/api/tables/{table_id}")
            assert r.status_code == 410 and "no longer replays" in r.json()["detail"]
        r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass"}, headers=auth(tokens[0]))
        assert r.status_code == 410
    lines = [r for r in caplog.records if table_id in r.getMessage()]
    assert len(lines) == 1  # one line, at start-up, however many requests follow
    assert state(client, other_id)["version"] == 0
    assert client.get("/healthz").json()["quarantined"] == 1


# ----- flooding and memory -----------------------------------------------------------


def test_rate_limits_answer_429_with_retry_after(app_at: Any) -> None:
    client = app_at(limits=LimitSettings(create="3/minute", join="4/minute", act="3/minute", open_tables=None))
    for _ in range(3):
        assert client.post("/api/tables", json={"game": "rounce", "players": 2}).status_code == 201
    r = client.post("/api/tables", json={"game": "rounce"})
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1 and "new tables" in r.json()["detail"]
    table_id = client.get("/api/tables").json()[0]["id"]
    tokens = [client.post(f"/api/tables/{table_id}/join", json={"name": n}).json()["token"] for n in ("A", "B")]
    for _ in range(2):
        client.post(f"/api/tables/{table_id}/join", json={"name": "C"})  # 409s still count
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "D"}).status_code == 429
    for _ in range(3):
        post(client, table_id, tokens[0], action="xyzzy")
    assert post(client, table_id, tokens[0], action="pass").status_code == 429


def test_open_tables_per_address_are_capped(app_at: Any) -> None:
    client = app_at(limits=LimitSettings(create=None, join=None, act=None, open_tables=2))
    assert [client.post("/api/tables", json={"game": "rounce"}).status_code for _ in range(3)] == [201, 201, 429]


def test_idle_tables_expire_and_finished_tables_leave_memory(app_at: Any) -> None:
    client = app_at(idle_timeout=0.3, finished_linger=0.2)
    service = client.app.state.service  # type: ignore[attr-defined]
    idle_id, _ = make(client)
    done_id = client.post("/api/tables", json={"game": "rounce", "players": 2,
                                               "seats": ["bot:random", "bot:random"]}).json()["id"]
    deadline = time.monotonic() + 30
    while idle_id in service.tables or done_id in service.tables:
        assert time.monotonic() < deadline, "the tables stayed in memory"
        time.sleep(0.05)
    r = client.get(f"/api/tables/{idle_id}")
    assert r.status_code == 410 and "expired" in r.json()["detail"]
    assert idle_id not in [t["id"] for t in client.get("/api/tables").json()]
    finished = state(client, done_id)  # loaded again on demand
    assert finished["is_over"] and finished["seed"] is not None


def test_start_up_loads_only_live_tables(app_at: Any) -> None:
    client = app_at()
    live_id, _ = make(client)
    done_id = client.post("/api/tables", json={"game": "rounce", "players": 2,
                                               "seats": ["bot:random", "bot:random"]}).json()["id"]
    deadline = time.monotonic() + 30
    while not state(client, done_id)["is_over"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    restarted = app_at()
    deadline = time.monotonic() + 20
    while not restarted.get("/healthz").json()["loaded"]:  # loaded in the background
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert set(restarted.app.state.service.tables) == {live_id}  # type: ignore[attr-defined]
    assert state(restarted, done_id)["is_over"]


# ----- what happened, told ------------------------------------------------------------


def test_states_carry_the_hand_s_events_told_in_the_reader_s_words(client: TestClient) -> None:
    """One sentence per event of the reader's own view, in the table's names ("you" for the reader);
    the views keep this hand and the last one's end, so a push needs no trimming of its own."""
    table_id, tokens = make(client, players=3, seed=4, practice=True)
    for _ in range(400):  # play on until a hand has ended and the next one has begun
        token, mine = to_act(client, table_id, tokens)
        if mine["view"]["events_from"] > 0 and mine["view"]["hand_number"] > 1:
            break
        post(client, table_id, token, action=mine["legal_actions"][0], expected_version=mine["version"])
    states: dict[int | None, dict[str, Any]] = {None: state(client, table_id)}
    states.update({seat: state(client, table_id, token) for seat, token in enumerate(tokens)})
    for seat, st in states.items():
        view = st["view"]
        assert st["names"] == ["Ann", "Bob", "Cat"] and "history_from" not in st and "ended_hand" not in st
        assert st["log"] == boneyard.words.words("rounce", st["names"], seat).story(view["events"])
        assert [e["kind"] for e in view["events"]].count("hand_end") == 1  # the last hand's end, kept
        assert view["events_from"] > 0  # the hands before it were cut
        dealt = [line for e, line in zip(view["events"], st["log"], strict=True) if e["kind"] == "dealt"]
        assert dealt == ([] if seat is None else [dealt[0]]) and all(line.startswith("You are dealt") for line in dealt)
        assert not any("seat" in line for line in st["log"])
    assert any("Ann" in line for line in states[None]["log"]) and not any("You" in line for line in states[None]["log"])
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        pushed = ws.receive_json()
    assert pushed == states[1]  # a push is the state itself, its whole view and log


def test_the_words_name_seats_as_the_page_does() -> None:
    seats: list[dict[str, Any]] = [{"name": "random bot"}, {"name": "Ann"}, {"name": None}, {"name": "random bot"}]
    assert reader_names(seats) == ["random bot 0", "Ann", "open seat 2", "random bot 3"]


def test_a_teller_tells_each_event_once_per_reader_while_it_is_shown() -> None:
    teller = Teller("rounce")
    first: dict[str, Any] = {"kind": "pass", "seat": 0}
    second: dict[str, Any] = {"kind": "fold", "seat": 1}
    assert teller.log(["Ann", "Bob"], 0, [first]) == [boneyard.words.words("rounce", ["Ann", "Bob"], 0).tell(first)]
    told = teller.log(["Ann", "Bob"], 0, [first, second])
    again = teller.log(["Ann", "Bob"], 0, [first, second])
    assert again == told and all(a is b for a, b in zip(again, told, strict=True))  # remembered, not made again
    assert teller.log(["Ann", "Bob"], None, [first])[0].startswith("Ann")  # each reader in its own words
    assert teller.log(["Cy", "Bob"], 0, [second]) == told[1:]  # a rename starts afresh
    assert teller.log(["Cy", "Bob"], 1, [first])[0].startswith("Cy")


# ----- the event loop stays free -----------------------------------------------------


def test_a_long_replay_does_not_hold_up_other_tables(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    done_id = client.post("/api/tables", json={"game": "rounce", "players": 2,
                                               "seats": ["bot:random", "bot:random"]}).json()["id"]
    deadline = time.monotonic() + 30
    while not state(client, done_id)["is_over"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    real = service._replay_state

    def slow_replay(*args: Any) -> Any:
        time.sleep(1.5)  # a replay of a very long game, as far as the server can tell
        return real(*args)

    monkeypatch.setattr(service, "_replay_state", slow_replay)
    table_id, tokens = make(client)
    replay = threading.Thread(target=lambda: client.get(f"/api/tables/{done_id}/replay?step=3"))
    replay.start()
    time.sleep(0.2)  # the replay is under way
    token, mine = to_act(client, table_id, tokens)
    started = time.monotonic()
    r = post(client, table_id, token, action=mine["legal_actions"][0])
    took = time.monotonic() - started
    replay.join()
    assert r.status_code == 200
    assert took < 1.0, f"an action waited {took:.2f} s for another table's replay"


def test_a_serving_app_freezes_its_start_up_heap_and_spaces_full_collections(tmp_path: Path) -> None:
    """``boneyard serve`` (tune_gc) freezes what start-up loaded and makes full passes rare, only while it runs."""
    before = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with TestClient(create_app(f"sqlite:///{tmp_path / 'gc.db'}", limits=NO_LIMITS, tune_gc=True)) as c:
        assert gc.get_freeze_count() > 10_000  # the modules and the app: never walked again
        assert gc.get_threshold() == SERVER_GC_THRESHOLDS
        make(c)  # the app serves as usual
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
    with TestClient(create_app(f"sqlite:///{tmp_path / 'gc2.db'}", limits=NO_LIMITS)):
        assert gc.get_freeze_count() == 0 and gc.get_threshold() == before  # tests' apps leave it alone


def test_a_join_is_pushed_to_everyone_watching(client: TestClient) -> None:
    table_id = client.post("/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert [s["name"] for s in ws.receive_json()["seats"]] == [None, None]
        client.post(f"/api/tables/{table_id}/join", json={"name": "Ann"})
        pushed = ws.receive_json()
        assert [s["name"] for s in pushed["seats"]] == ["Ann", None] and pushed["version"] == 0


def test_websockets_per_address_are_capped(app_at: Any) -> None:
    client = app_at(limits=LimitSettings(create=None, join=None, act=None, open_tables=None, sockets=3))
    table_id = client.post("/api/tables", json={"game": "rounce", "players": 2}).json()["id"]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}")) for _ in range(3)]
        assert all(ws.receive_json()["version"] == 0 for ws in sockets)
        fourth = stack.enter_context(client.websocket_connect(f"/ws/friends/{table_id}"))  # every socket counts
        with pytest.raises(WebSocketDisconnect) as refused:
            fourth.receive_json()
        assert refused.value.code == 4429 and "at most 3" in refused.value.reason
        sockets[0].close()
        time.sleep(0.2)
        with client.websocket_connect(f"/ws/tables/{table_id}") as again:  # a closed one frees its place
            assert again.receive_json()["version"] == 0


def test_a_notice_carrying_the_next_action_is_applied_without_reading_the_database(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process's new version arrives with its action: it is played here as told, no query."""
    service = client.app.state.service  # type: ignore[attr-defined]
    table_id, _ = make(client)
    table = service.tables[table_id]
    version = table.version
    seat = table.game.current_player
    action = str(table.game.legal_actions()[0])
    reads: list[int] = []
    real = service.store.actions

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(service.store, "actions", counted)
    # a notice of a version further ahead (one was missed): read from the database, which has nothing new
    assert service._catch_up(table, False, (version + 2, action, seat)) is False and reads == [1]
    assert service._catch_up(table, False, (version + 1, action, seat)) is True
    assert reads == [1] and table.version == version + 1 and table.last_seat == seat
    assert state(client, table_id)["version"] == version + 1
