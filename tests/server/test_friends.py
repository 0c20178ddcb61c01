"""Playing with friends over HTTP (in-process): Start, seats handed to bots, the move clock,
presence, chat, rematch, player codes and ratings (``docs/api.md``, "Friends")."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import social

from .conftest import auth


def create(client: TestClient, seats: list[str], **body: Any) -> tuple[str, str]:
    """A one-hand rounce table with these seats; returns its id and the host token."""
    r = client.post("/api/tables", json={"game": "rounce", "players": len(seats), "seats": seats,
                                         "rules": {"max_hands": 1}, **body})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["host_token"]


def join(client: TestClient, table_id: str, seat: int, name: str) -> str:
    """Join a seat; returns its token."""
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def state(client: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    """The table as a seat (or a spectator) sees it."""
    out: dict[str, Any] = client.get(f"/api/tables/{table_id}", headers=auth(token) if token else {}).json()
    return out


def room(client: TestClient, table_id: str) -> dict[str, Any]:
    """The friends' view of the table."""
    out: dict[str, Any] = client.get(f"/api/tables/{table_id}/friends").json()
    return out


def wait_for(check: Any, timeout: float = 10.0) -> Any:
    """Poll ``check()`` until it returns something true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


def play_out(client: TestClient, table_id: str, tokens: dict[int, str], seed: int = 1) -> dict[str, Any]:
    """Play random legal actions for the given seats until the game is over (bots play the rest)."""
    rng = random.Random(seed)
    for _ in range(5000):
        st = state(client, table_id)
        if st["is_over"]:
            return st
        seat = st["current_player"]
        if seat in tokens:
            mine = state(client, table_id, tokens[seat])
            if mine["legal_actions"]:
                client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat]),
                            json={"action": rng.choice(mine["legal_actions"]), "expected_version": mine["version"]})
                continue
        time.sleep(0.01)
    raise AssertionError("the game did not finish")


def own_moves(client: TestClient, table_id: str, tokens: dict[int, str], moves: int = 2) -> None:
    """Play until every given seat has made ``moves`` decisions of its own (a rated game needs
    two from each player, ``docs/api.md``), never folding where another action is legal."""
    made = dict.fromkeys(tokens, 0)
    for _ in range(2000):
        if all(n >= moves for n in made.values()):
            return
        st = state(client, table_id)
        assert not st["is_over"], f"the game ended before every player made {moves} moves"
        seat = st["current_player"]
        mine = state(client, table_id, tokens[seat]) if seat in tokens else {"legal_actions": []}
        legal = [a for a in mine["legal_actions"] if a != "fold"] or mine["legal_actions"]
        if not legal:
            if st["between_hands"] is not None:
                for token in tokens.values():
                    client.post(f"/api/tables/{table_id}/next", headers=auth(token))
            time.sleep(0.01)
            continue
        r = client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat]),
                        json={"action": legal[0], "expected_version": mine["version"]})
        if r.status_code == 200:
            made[seat] += 1
    raise AssertionError("the players did not get their moves")


def test_a_table_waits_until_every_human_seat_is_taken(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "human"])
    first = state(client, table_id)["current_player"]
    token = join(client, table_id, first, "Ann")
    assert room(client, table_id)["started"] is False
    st = state(client, table_id, token)
    r = client.post(f"/api/tables/{table_id}/actions", headers=auth(token), json={"action": st["legal_actions"][0]})
    assert r.status_code == 409 and "not started" in r.json()["detail"]
    assert state(client, table_id)["version"] == 0
    join(client, table_id, 1 - first, "Bob")
    assert room(client, table_id)["started"] is True
    r = client.post(f"/api/tables/{table_id}/actions", headers=auth(token), json={"action": st["legal_actions"][0]})
    assert r.status_code == 200, r.text


def test_a_bot_first_to_act_waits_for_the_players(client: TestClient) -> None:
    for _ in range(50):  # a table where the bot has the first decision
        table_id, _host = create(client, ["bot:random", "human"])
        if state(client, table_id)["current_player"] == 0:
            break
    time.sleep(0.3)
    assert state(client, table_id)["version"] == 0
    join(client, table_id, 1, "Bob")
    wait_for(lambda: state(client, table_id)["version"] > 0)


def test_the_host_starts_with_bots_in_the_empty_seats(client: TestClient) -> None:
    table_id, host = create(client, ["human", "human", "human"])
    ann = join(client, table_id, 0, "Ann")
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "random"})
    assert r.status_code == 401 and "host" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "random"}, headers={"X-Host-Token": "nope"})
    assert r.status_code == 403
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "nobody"}, headers={"X-Host-Token": host})
    assert r.status_code == 400 and "unknown bot" in r.json()["detail"]
    assert room(client, table_id)["started"] is False
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "random"}, headers={"X-Host-Token": host})
    assert r.status_code == 200, r.text
    seats = state(client, table_id)["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot", "bot"] and seats[1]["bot"] == "random"
    r = client.post(f"/api/tables/{table_id}/start", json={"bot": "random"}, headers={"X-Host-Token": host})
    assert r.status_code == 409
    final = play_out(client, table_id, {0: ann})
    assert final["is_over"]


def test_the_host_hands_a_seat_to_a_bot_and_gives_it_back(client: TestClient) -> None:
    table_id, host = create(client, ["human", "human"])
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "random"}, headers=auth(ann))
    assert r.status_code == 401  # Ann is not the host's token and seat 1 is not hers
    with client.websocket_connect(f"/ws/friends/{table_id}?token={bob}") as ws:
        ws.receive_text()  # Bob is here, then closes his page: he has left
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "random"},
                    headers={"X-Host-Token": host})
    assert r.status_code == 200, r.text
    assert room(client, table_id)["seats"][1]["standin"] == "random"
    # with Bob's seat played by a bot, Ann alone plays the game to its end
    final = play_out(client, table_id, {0: ann})
    assert final["is_over"]
    assert any("random bot now plays for Bob" in e["text"] for e in room(client, table_id)["log"])
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 1}, headers=auth(bob))
    assert r.status_code == 200
    assert room(client, table_id)["seats"][1]["standin"] is None


def test_a_player_leaves_and_a_bot_takes_over(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "human"])
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "greedy"}, headers=auth(bob))
    assert r.status_code == 200
    view = room(client, table_id)
    assert view["seats"][1]["left"] is True
    assert "Bob left: the greedy bot plays for them" in [e["text"] for e in view["log"]]
    assert play_out(client, table_id, {0: ann})["is_over"]


def test_when_the_move_clock_runs_out_a_bot_plays(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "human"], clock=1)
    join(client, table_id, 0, "Ann")
    join(client, table_id, 1, "Bob")
    assert room(client, table_id)["deadline"] is not None
    wait_for(lambda: state(client, table_id)["version"] > 0, timeout=5)
    assert any("clock ran out" in e["text"] for e in room(client, table_id)["log"])


def test_no_clock_by_default(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "human"])
    join(client, table_id, 0, "Ann")
    join(client, table_id, 1, "Bob")
    assert room(client, table_id)["clock"] is None and room(client, table_id)["deadline"] is None


def test_chat_is_stored_limited_and_readable_by_spectators(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "human"])
    ann = join(client, table_id, 0, "Ann")
    r = client.post(f"/api/tables/{table_id}/chat", json={"text": "<b>hi</b> Bob"}, headers=auth(ann))
    assert r.status_code == 200
    chat = [e for e in room(client, table_id)["log"] if e["kind"] == "chat"]
    assert chat == [{"kind": "chat", "seat": 0, "name": "Ann", "text": "<b>hi</b> Bob", "at": chat[0]["at"]}]
    assert client.post(f"/api/tables/{table_id}/chat", json={"text": "hi"}).status_code == 401
    r = client.post(f"/api/tables/{table_id}/chat", json={"text": "x" * 301}, headers=auth(ann))
    assert r.status_code == 400 and "300" in r.json()["detail"]
    assert client.post(f"/api/tables/{table_id}/chat", json={"text": "  "}, headers=auth(ann)).status_code == 400
    codes = [client.post(f"/api/tables/{table_id}/chat", json={"text": f"m{i}"}, headers=auth(ann)).status_code
             for i in range(6)]
    assert codes[:4] == [200] * 4 and codes[-1] == 429


def test_chat_survives_a_restart(tmp_path: Any) -> None:
    from boneyard.server import create_app
    from boneyard.server.ratelimit import LimitSettings

    url = f"sqlite:///{tmp_path / 'chat.db'}"
    with TestClient(create_app(url, bot_delay=0.0, limits=LimitSettings.parse("off"))) as c:
        table_id, _host = create(c, ["human", "human"])
        ann = join(c, table_id, 0, "Ann")
        c.post(f"/api/tables/{table_id}/chat", json={"text": "see you"}, headers=auth(ann))
        time.sleep(0.2)
    with TestClient(create_app(url, bot_delay=0.0, limits=LimitSettings.parse("off"))) as c:
        assert "see you" in [e["text"] for e in room(c, table_id)["log"]]
        assert room(c, table_id)["started"] is False


def test_presence_joined_left_and_back(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(social, "PRESENCE_GRACE", 0.2)  # "left" is said once the grace is over
    table_id, _host = create(client, ["human", "human"])
    ann = join(client, table_id, 0, "Ann")
    with client.websocket_connect(f"/ws/friends/{table_id}") as watcher:
        first = watcher.receive_json()
        assert first["type"] == "friends" and first["seats"][0]["present"] is False
        with client.websocket_connect(f"/ws/friends/{table_id}?token={ann}"):
            pushed = watcher.receive_json()
            assert pushed["seats"][0]["present"] is True and pushed["log"][-1]["text"] == "Ann joined"
        pushed = watcher.receive_json()
        assert pushed["seats"][0]["present"] is False
        assert watcher.receive_json()["log"][-1]["text"] == "Ann left"
        with client.websocket_connect(f"/ws/friends/{table_id}?token={ann}"):
            assert watcher.receive_json()["log"][-1]["text"] == "Ann is back"


def test_rematch_seats_everyone_again(client: TestClient) -> None:
    table_id, _host = create(client, ["human", "human", "bot:random"])
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    assert client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann)).status_code == 409  # not over yet
    play_out(client, table_id, {0: ann, 1: bob})
    r = client.post(f"/api/tables/{table_id}/rematch", headers=auth(ann))
    assert r.status_code == 200, r.text
    offer = r.json()
    assert room(client, table_id)["rematch"] == offer["id"] and room(client, table_id)["rematch_by"] == "Ann"
    assert room(client, offer["id"])["started"] is False
    r = client.post(f"/api/tables/{table_id}/rematch/accept", headers=auth(bob))
    assert r.status_code == 200 and r.json()["id"] == offer["id"] and r.json()["seat"] == 1
    new = state(client, offer["id"])
    assert [s["name"] for s in new["seats"]] == ["Ann", "Bob", "random bot"]
    assert room(client, offer["id"])["started"] is True
    assert client.post(f"/api/tables/{table_id}/rematch", headers=auth(bob)).status_code == 409


def register(client: TestClient, name: str) -> str:
    """A new player; returns their code."""
    r = client.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def test_a_player_code_lists_games_and_resumes_a_seat(client: TestClient) -> None:
    code = register(client, "Ann")
    table_id, _host = create(client, ["human", "bot:random"])
    ann = join(client, table_id, 0, "Ann")
    assert client.post(f"/api/tables/{table_id}/claim", headers={**auth(ann), "X-Player": "WRONG"}).status_code == 403
    assert client.post(f"/api/tables/{table_id}/claim", headers={**auth(ann), "X-Player": code}).status_code == 200
    mine = client.get("/api/players/me/tables", headers={"X-Player": code.lower().replace("-", "")}).json()
    assert mine["name"] == "Ann" and [t["id"] for t in mine["tables"]] == [table_id]
    r = client.post(f"/api/tables/{table_id}/resume", headers={"X-Player": code})
    assert r.status_code == 200 and r.json()["seat"] == 0
    other = r.json()["token"]
    assert other != ann and state(client, table_id, other)["seat"] == 0
    other_code = register(client, "Eve")
    assert client.post(f"/api/tables/{table_id}/resume", headers={"X-Player": other_code}).status_code == 403


def test_a_finished_game_moves_the_ratings_and_the_leaderboard(client: TestClient) -> None:
    ann_code, bob_code = register(client, "Ann"), register(client, "Bob")
    table_id, _host = create(client, ["human", "human", "bot:greedy"])
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    client.post(f"/api/tables/{table_id}/claim", headers={**auth(ann), "X-Player": ann_code})
    client.post(f"/api/tables/{table_id}/claim", headers={**auth(bob), "X-Player": bob_code})
    play_out(client, table_id, {0: ann, 1: bob})
    board = wait_for(lambda: client.get("/api/games/rounce/leaderboard").json())
    assert sorted(r["name"] for r in board) == ["Ann", "Bob", "greedy bot"]
    assert all(r["games"] == 1 and r["players"] == 3 for r in board)
    assert len({r["mu"] for r in board}) > 1  # the result moved them apart
    assert [r["ordinal"] for r in board] == sorted((r["ordinal"] for r in board), reverse=True)
    assert all(s["rating"] is not None for s in room(client, table_id)["seats"])
    page = client.get("/leaderboard/rounce")
    assert page.status_code == 200 and "greedy bot" in page.text
    assert client.get("/api/games/nope/leaderboard").status_code == 404


def test_a_fixed_deal_is_not_rated(client: TestClient) -> None:
    code = register(client, "Ann")
    table_id, _host = create(client, ["human", "bot:greedy"], practice=True, seed=7)
    ann = join(client, table_id, 0, "Ann")
    client.post(f"/api/tables/{table_id}/claim", headers={**auth(ann), "X-Player": code})
    play_out(client, table_id, {0: ann})
    time.sleep(0.3)
    assert client.get("/api/games/rounce/leaderboard").json() == []


def test_the_public_url_is_served(tmp_path: Any) -> None:
    from boneyard.server import create_app
    from boneyard.server.social import check_public_url

    app = create_app(f"sqlite:///{tmp_path / 'p.db'}", public_url="http://my-laptop:8000")
    with TestClient(app) as c:
        assert c.get("/api/config").json() == {"public_url": "http://my-laptop:8000"}
    assert check_public_url(" http://box:8000/ ") == "http://box:8000"
    for bad in ("my-laptop:8000", "ftp://x", "http://x/?a=1"):
        try:
            check_public_url(bad)
        except ValueError as err:
            assert "--public-url" in str(err)
        else:
            raise AssertionError(bad)


def test_history_lists_finished_tables_newest_first(client: TestClient) -> None:
    done = []
    for name in ("Ann", "Bob"):
        table_id, _host = create(client, ["human", "bot:random"])
        play_out(client, table_id, {0: join(client, table_id, 0, name)})
        done.append(table_id)
    open_id, _host = create(client, ["human", "bot:random"])
    rows = client.get("/api/history").json()
    assert [r["id"] for r in rows[:2]] == done[::-1] and open_id not in [r["id"] for r in rows]
    assert rows[0]["seats"] == ["Bob", "random bot"]
    assert client.get("/api/history?game=montana").json() == []
    r = client.get("/api/history?game=chess")
    assert r.status_code == 400 and "unknown game" in r.json()["detail"]


def to_hand_end(client: TestClient, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Humans play their first legal action until the first hand ends; returns the state then."""
    for _ in range(500):
        st = state(client, table_id)
        if st["between_hands"] is not None:
            return st
        seat = st["current_player"]
        mine = state(client, table_id, tokens[seat])
        if mine["legal_actions"]:
            client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[seat]),
                        json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
    raise AssertionError("no hand ended in 500 actions")


def two_hands(client: TestClient, **body: Any) -> tuple[str, str, dict[int, str]]:
    """A two-hand rounce table, Ann and Bob seated; returns its id, the host token and the seat tokens."""
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "human"],
                                         "rules": {"max_hands": 2}, **body})
    assert r.status_code == 201, r.text
    table_id, host = r.json()["id"], r.json()["host_token"]
    return table_id, host, {0: join(client, table_id, 0, "Ann"), 1: join(client, table_id, 1, "Bob")}


def test_the_move_clock_stops_between_hands(client: TestClient) -> None:
    table_id, _host, tokens = two_hands(client, clock=3, next_timeout=60)
    assert room(client, table_id)["deadline"] is not None
    held = to_hand_end(client, table_id, tokens)
    assert room(client, table_id)["deadline"] is None  # nobody's decision runs out while the table waits
    assert room(client, table_id)["between_hands"] is True  # the page shows nobody's turn meanwhile
    time.sleep(3.5)
    assert state(client, table_id)["version"] == held["version"]
    assert not any("clock ran out" in e["text"] for e in room(client, table_id)["log"])
    for token in tokens.values():
        client.post(f"/api/tables/{table_id}/next", headers=auth(token))
    assert state(client, table_id)["between_hands"] is None
    assert room(client, table_id)["deadline"] is not None  # the next hand's first decision is timed again
    assert room(client, table_id)["between_hands"] is False


def test_a_seat_handed_to_a_bot_is_not_waited_for_between_hands(client: TestClient) -> None:
    table_id, _host, tokens = two_hands(client, next_timeout=60)
    to_hand_end(client, table_id, tokens)
    r = client.post(f"/api/tables/{table_id}/next", headers=auth(tokens[0]))
    assert r.json()["between_hands"]["waiting"] == [1]
    # Bob leaves while the table waits for him: the bot needs no "Next hand", so play goes on
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "random"}, headers=auth(tokens[1]))
    assert r.status_code == 200, r.text
    assert state(client, table_id)["between_hands"] is None
    final = play_out(client, table_id, {0: tokens[0]})
    assert final["is_over"]


def test_a_hand_ending_with_every_human_away_deals_on_at_once(client: TestClient) -> None:
    table_id, _host, tokens = two_hands(client, next_timeout=60)
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "random"}, headers=auth(tokens[1]))
    assert r.status_code == 200
    # only Ann is waited for at the end of the first hand; once she has pressed, nobody holds the table
    for _ in range(500):
        st = state(client, table_id)
        if st["between_hands"] is not None or st["view"]["hand_number"] > 1:
            break
        mine = state(client, table_id, tokens[0])
        if mine["legal_actions"]:
            client.post(f"/api/tables/{table_id}/actions", headers=auth(tokens[0]),
                        json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
        else:
            time.sleep(0.01)
    st = state(client, table_id)
    assert st["between_hands"] is not None and st["between_hands"]["waiting"] == [0]
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 0, "bot": "random"}, headers=auth(tokens[0]))
    assert r.status_code == 200
    wait_for(lambda: state(client, table_id)["is_over"], timeout=20)  # bots alone never wait between hands


def test_a_rematch_keeps_the_wait_between_hands(client: TestClient) -> None:
    table_id, _host, tokens = two_hands(client, next_timeout=7)
    for seat, token in tokens.items():
        client.post(f"/api/tables/{table_id}/standin", json={"seat": seat, "bot": "random"}, headers=auth(token))
    wait_for(lambda: state(client, table_id)["is_over"], timeout=20)
    r = client.post(f"/api/tables/{table_id}/rematch", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    new = r.json()["id"]
    app = client.app
    assert app.state.service.tables[new].next_timeout == 7  # type: ignore[attr-defined]


def resign(client: TestClient, table_id: str, token: str | None) -> Any:
    """Resign the token's seat; returns the response."""
    return client.post(f"/api/tables/{table_id}/resign", headers=auth(token) if token else {})


def test_resigning_a_two_player_game_decides_it_at_once(client: TestClient) -> None:
    ann_code, bob_code = register(client, "Ann"), register(client, "Bob")
    table_id, _host = create(client, ["human", "human"], rules={"max_hands": 3}, next_timeout=0)
    ann = join(client, table_id, 0, "Ann")
    assert resign(client, table_id, ann).status_code == 409  # not started: Ann can simply leave
    bob = join(client, table_id, 1, "Bob")
    client.post(f"/api/tables/{table_id}/claim", headers={**auth(ann), "X-Player": ann_code})
    client.post(f"/api/tables/{table_id}/claim", headers={**auth(bob), "X-Player": bob_code})
    assert resign(client, table_id, None).status_code == 401
    own_moves(client, table_id, {0: ann, 1: bob})
    r = resign(client, table_id, ann)
    assert r.status_code == 200, r.text
    view = room(client, table_id)
    assert view["resigned"] == [0] and view["decided"] == [1]
    assert view["seats"][0]["standin"] == "greedy" and view["seats"][0]["left"] is True
    assert view["log"][-1]["text"] == "Ann resigned: the greedy bot plays their seat to the end; Bob wins"
    # rated at once, before the game is over: Bob first, Ann last
    board = wait_for(lambda: client.get("/api/games/rounce/leaderboard").json())
    assert [r["name"] for r in board] == ["Bob", "Ann"] and all(r["games"] == 1 for r in board)
    assert not state(client, table_id)["is_over"]
    r = resign(client, table_id, ann)
    assert r.status_code == 409 and "already resigned" in r.json()["detail"]
    r = resign(client, table_id, bob)
    assert r.status_code == 409 and "Bob won when the others resigned" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/standin", json={"seat": 0}, headers=auth(ann))
    assert r.status_code == 409 and "Ann resigned" in r.json()["detail"]  # no taking it back
    # a decided game may be played again at once
    r = client.post(f"/api/tables/{table_id}/rematch", headers=auth(bob))
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{table_id}/rematch/accept", headers=auth(ann)).json()["seat"] == 0
    # Bob plays on against the bot; the finished game is not counted twice
    assert play_out(client, table_id, {1: bob})["is_over"]
    time.sleep(0.2)
    assert [r["games"] for r in client.get("/api/games/rounce/leaderboard").json()] == [1, 1]
    assert resign(client, table_id, bob).status_code == 409


def test_a_resigned_player_ranks_last_while_the_others_play_on(client: TestClient) -> None:
    codes = [register(client, n) for n in ("Ann", "Bob")]
    # two hands: in one hand, a dealer whose two opponents fold takes it without a call, so
    # the game could end before Ann acts; over two deals she must make a call
    table_id, _host = create(client, ["human", "human", "bot:greedy"], rules={"max_hands": 3}, next_timeout=0)
    tokens = {0: join(client, table_id, 0, "Ann"), 1: join(client, table_id, 1, "Bob")}
    for seat, token in tokens.items():
        client.post(f"/api/tables/{table_id}/claim", headers={**auth(token), "X-Player": codes[seat]})
    own_moves(client, table_id, tokens)
    assert resign(client, table_id, tokens[1]).status_code == 200
    view = room(client, table_id)
    assert view["decided"] is None and view["log"][-1]["text"] == \
        "Bob resigned: the greedy bot plays their seat to the end"
    assert not state(client, table_id)["is_over"]
    assert client.get("/api/games/rounce/leaderboard").json() == []  # Ann and the bot still play
    play_out(client, table_id, {0: tokens[0]})
    board = wait_for(lambda: client.get("/api/games/rounce/leaderboard").json())
    assert board[-1]["name"] == "Bob"  # whatever the bot scored for his seat
    assert min(r["mu"] for r in board) == board[-1]["mu"]


def test_in_eighty_a_resignation_concedes_for_the_partnership(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "eighty", "players": 4, "seats": ["human"] * 4})
    table_id = r.json()["id"]
    tokens = [join(client, table_id, s, n) for s, n in enumerate(("Ann", "Bob", "Cy", "Dee"))]
    assert resign(client, table_id, tokens[2]).status_code == 200
    view = room(client, table_id)
    assert view["decided"] == [1, 3]
    assert view["log"][-1]["text"] == \
        "Cy resigned for Ann and Cy: the greedy bot plays their seat to the end; Bob and Dee win"
    assert resign(client, table_id, tokens[0]).status_code == 409  # the side has already conceded


def test_places_put_resigned_sides_last_the_first_to_resign_lowest() -> None:
    from boneyard.server.rating import ranks

    singles = [[0], [1], [2], [3]]
    assert ranks(singles, [5, 9, 9, 1], [], False, []) == [3, 1, 1, 4]
    assert ranks(singles, [5, 9, 9, 1], [], True, []) == [2, 3, 3, 1]  # lower is better
    assert ranks(singles, [5, 9, 9, 1], [], False, [1, 3]) == [2, 4, 1, 3]
    assert ranks([[0, 2], [1, 3]], [10, 0, 10, 0], [], False, [2]) == [2, 1]


def test_a_resignation_survives_a_restart(tmp_path: Any) -> None:
    from boneyard.server import create_app
    from boneyard.server.ratelimit import LimitSettings

    url = f"sqlite:///{tmp_path / 'resign.db'}"
    with TestClient(create_app(url, bot_delay=0.0, limits=LimitSettings.parse("off"))) as c:
        table_id, _host = create(c, ["human", "human"])
        join(c, table_id, 0, "Ann")
        bob = join(c, table_id, 1, "Bob")
        assert resign(c, table_id, bob).status_code == 200
        time.sleep(0.2)
    with TestClient(create_app(url, bot_delay=0.0, limits=LimitSettings.parse("off"))) as c:
        view = room(c, table_id)
        assert view["resigned"] == [1] and view["decided"] == [0] and view["seats"][1]["standin"] == "greedy"
        assert resign(c, table_id, bob).status_code == 409
