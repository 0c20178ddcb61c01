"""The HTTP and WebSocket contract of the web app, in-process on a temporary SQLite file."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import boneyard
from boneyard.testing import hidden_swap

from .conftest import auth


def new_table(client: TestClient, **body: Any) -> str:
    """Create a table; returns its id."""
    if "seed" in body or "deck" in body:
        body = {"practice": True, **body}
    r = client.post("/api/tables", json={"game": "rounce", **body})
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    return table_id


def join_all(client: TestClient, table_id: str, players: int) -> list[str]:
    """Join every seat; returns the tokens by seat."""
    tokens = []
    for seat in range(players):
        r = client.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": f"p{seat}"})
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
        tokens.append(r.json()["token"])
    return tokens


def snapshot(client: TestClient, table_id: str, tokens: list[str]) -> str:
    """Every seat's and a spectator's state, as one string."""
    states = [client.get(f"/api/tables/{table_id}", headers=auth(t)).json() for t in tokens]
    states.append(client.get(f"/api/tables/{table_id}").json())
    return json.dumps(states, sort_keys=True)


def test_games_and_openapi(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == boneyard.games()
    assert games[0] == boneyard.game_info(games[0]["id"])
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/tables", "/api/tables/{table_id}/join", "/api/tables/{table_id}",
                 "/api/tables/{table_id}/actions"):
        assert path in paths
    assert "random" in client.get("/api/bots").json()


def test_pages_are_served(client: TestClient) -> None:
    assert "boneyard" in client.get("/").text
    table_id = new_table(client)
    assert client.get(f"/tables/{table_id}").status_code == 200
    assert "Rounce" in client.get("/rules/rounce").text
    assert client.get("/static/core/tiles.js").status_code == 200
    assert client.get("/rules/chess").status_code == 404


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "rounce", "players": 9}, "2 to 4 players"),
        ({"game": "rounce", "rules": {"bogus": 1}}, "unknown rules option 'bogus'"),
        ({"game": "rounce", "players": 2, "seats": ["human"]}, "seats must be a list of 2"),
        ({"game": "rounce", "players": 2, "seats": ["human", "bot:nobody"]}, "unknown bot 'nobody'"),
        ({"game": "rounce", "players": 2, "seats": ["human", "robot"]}, "neither"),
        ({"game": "rounce", "deck": ["6-6"]}, "deck"),
    ],
)
def test_bad_tables_are_refused_with_a_message(client: TestClient, body: dict[str, Any], words: str) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert words in r.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_malformed_json_and_fields(client: TestClient) -> None:
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "JSON" in r.json()["detail"]
    r = client.post("/api/tables", json={"players": 4})
    assert r.status_code == 422 and "game" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "rounce", "players": "four"})
    assert r.status_code == 422 and "players" in r.json()["detail"]
    r = client.post("/api/tables", json={"game": "rounce", "colour": "red"})
    assert r.status_code == 422 and "colour" in r.json()["detail"]


def test_join_rules(client: TestClient) -> None:
    table_id = new_table(client, players=3, seats=["human", "human", "bot:random"])
    assert client.post("/api/tables/nope/join", json={"name": "a"}).status_code == 404
    first = client.post(f"/api/tables/{table_id}/join", json={"name": "ann"}).json()
    assert first["seat"] == 0 and len(first["token"]) > 20
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "bob"})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": 2, "name": "bob"})
    assert r.status_code == 409 and "bot" in r.json()["detail"]
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": 7, "name": "bob"})
    assert r.status_code == 400
    r = client.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "  "})
    assert r.status_code == 400 and "name" in r.json()["detail"]
    assert client.post(f"/api/tables/{table_id}/join", json={"name": "bob"}).json()["seat"] == 1
    r = client.post(f"/api/tables/{table_id}/join", json={"name": "cat"})
    assert r.status_code == 409
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["ann", "bob", "random bot"]


def test_state_is_the_seat_view(client: TestClient) -> None:
    table_id = new_table(client, seed=5, players=4)
    tokens = join_all(client, table_id, 4)
    game = boneyard.new_game("rounce", players=4, seed=5)
    for seat, token in enumerate(tokens):
        state = client.get(f"/api/tables/{table_id}", headers=auth(token)).json()
        assert state["view"] == game.view(seat)
        assert state["seat"] == seat
        assert state["current_player"] == game.current_player
        assert state["scores"] == game.scores and state["is_over"] is False
        expected = [str(a) for a in game.legal_actions()] if seat == game.current_player else []
        assert state["legal_actions"] == expected
    spectator = client.get(f"/api/tables/{table_id}").json()
    assert spectator["view"] == game.view(None) and spectator["view"]["hand"] is None
    assert spectator["legal_actions"] == []
    assert client.get("/api/tables/nope").status_code == 404


def test_refused_actions_leave_the_table_unchanged(client: TestClient) -> None:
    table_id = new_table(client, seed=3, players=4)
    tokens = join_all(client, table_id, 4)
    before = snapshot(client, table_id, tokens)
    current = client.get(f"/api/tables/{table_id}").json()["current_player"]
    other = (current + 1) % 4
    url = f"/api/tables/{table_id}/actions"
    r = client.post(url, json={"action": "pass"})
    assert r.status_code == 401 and "token" in r.json()["detail"]
    r = client.post(url, json={"action": "pass"}, headers=auth("not-a-token"))
    assert r.status_code == 403
    r = client.post(url, json={"action": "pass"}, headers={"Authorization": "Basic abc"})
    assert r.status_code == 401
    r = client.post(url, json={"action": "pass"}, headers=auth(tokens[other]))
    assert r.status_code == 400 and "not your turn" in r.json()["detail"]
    r = client.post(url, json={"action": "play 6-6"}, headers=auth(tokens[current]))
    assert r.status_code == 400
    r = client.post(url, json={"action": "xyzzy"}, headers=auth(tokens[current]))
    assert r.status_code == 400 and "not a Rounce action" in r.json()["detail"]
    r = client.post(url, json={"action": ""}, headers=auth(tokens[current]))
    assert r.status_code == 400
    r = client.post(url, json={"action": 42}, headers=auth(tokens[current]))
    assert r.status_code == 422
    r = client.post(url, content=b"{", headers={**auth(tokens[current]), "Content-Type": "application/json"})
    assert r.status_code == 422
    assert client.post("/api/tables/nope/actions", json={"action": "pass"}, headers=auth(tokens[0])).status_code == 404
    # A token from another table is refused here.
    other_table = new_table(client)
    stranger = client.post(f"/api/tables/{other_table}/join", json={"name": "x"}).json()["token"]
    assert client.post(url, json={"action": "pass"}, headers=auth(stranger)).status_code == 403
    assert snapshot(client, table_id, tokens) == before


def test_a_whole_game_over_http_matches_the_engine(client: TestClient) -> None:
    table_id = new_table(client, seed=9, players=3, next_timeout=0)  # no wait between hands
    tokens = join_all(client, table_id, 3)
    game = boneyard.new_game("rounce", players=3, seed=9)
    rng = random.Random(9)
    while not game.is_over:
        seat = game.current_player
        action = str(rng.choice(game.legal_actions()))
        game.apply(action)
        r = client.post(f"/api/tables/{table_id}/actions", json={"action": action}, headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        assert r.json()["view"] == game.view(seat)
    final = client.get(f"/api/tables/{table_id}").json()
    assert final["is_over"] and final["winners"] == game.winners
    r = client.post(f"/api/tables/{table_id}/actions", json={"action": "pass"}, headers=auth(tokens[0]))
    assert r.status_code == 400 and "over" in r.json()["detail"]
    # The replay viewer: every step is the seat's view at that point.
    steps = final["version"]
    last = client.get(f"/api/tables/{table_id}/replay?step={steps}", headers=auth(tokens[1])).json()
    assert last["view"] == game.view(1)
    first = client.get(f"/api/tables/{table_id}/replay?step=0").json()
    assert first["view"] == boneyard.new_game("rounce", players=3, seed=9).view(None)
    assert client.get(f"/api/tables/{table_id}/replay?step={steps + 1}").status_code == 400


def test_replay_waits_for_the_end(client: TestClient) -> None:
    table_id = new_table(client)
    assert client.get(f"/api/tables/{table_id}/replay?step=0").status_code == 409


def wait_for(client: TestClient, table_id: str, token: str, check: Any, timeout: float = 20) -> dict[str, Any]:
    """Poll the table until ``check(state)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = client.get(f"/api/tables/{table_id}", headers=auth(token)).json()
        if check(state) or time.monotonic() > deadline:
            return state
        time.sleep(0.02)


def test_bots_play_on_the_server(client: TestClient) -> None:
    table_id = new_table(client, seed=2, seats=["human", "bot:random", "bot:random", "bot:random"])
    token = client.post(f"/api/tables/{table_id}/join", json={"name": "ann"}).json()["token"]
    for _ in range(6):
        state = wait_for(client, table_id, token, lambda s: s["current_player"] in (0, None))
        if state["is_over"]:
            break
        assert state["current_player"] == 0 and state["legal_actions"]
        action = {"action": state["legal_actions"][0]}
        r = client.post(f"/api/tables/{table_id}/actions", json=action, headers=auth(token))
        assert r.status_code == 200
    record_actions = wait_for(client, table_id, token, lambda s: s["current_player"] in (0, None))["version"]
    assert record_actions > 6  # the bots moved too


def test_all_bot_table_plays_to_the_end(client: TestClient) -> None:
    table_id = new_table(client, players=2, seats=["bot:random", "bot:random"])
    state = wait_for(client, table_id, "", lambda s: s["is_over"], timeout=60)
    assert state["is_over"] and state["winners"]


def test_websocket_pushes_each_change(client: TestClient) -> None:
    table_id = new_table(client, seed=4, players=2)
    tokens = join_all(client, table_id, 2)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/ws/tables/{table_id}") as watcher:
        first = ws0.receive_json()
        assert first == client.get(f"/api/tables/{table_id}", headers=auth(tokens[0])).json()
        assert watcher.receive_json()["view"]["hand"] is None
        seat = first["current_player"]
        state = client.get(f"/api/tables/{table_id}", headers=auth(tokens[seat])).json()
        client.post(f"/api/tables/{table_id}/actions", json={"action": state["legal_actions"][0]},
                    headers=auth(tokens[seat]))
        pushed = ws0.receive_json()
        assert pushed["version"] == 1
        assert pushed == client.get(f"/api/tables/{table_id}", headers=auth(tokens[0])).json()
        assert watcher.receive_json()["view"] == client.get(f"/api/tables/{table_id}").json()["view"]


def test_websocket_refuses_bad_tokens_and_tables(client: TestClient) -> None:
    table_id = new_table(client)
    with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect(f"/ws/tables/{table_id}?token=bad") as ws:
        ws.receive_json()
    assert err.value.code == 4403
    with pytest.raises(WebSocketDisconnect) as err, client.websocket_connect("/ws/tables/nope") as ws:
        ws.receive_json()
    assert err.value.code == 4404


@pytest.mark.parametrize("game_id", boneyard.games())
def test_no_message_reveals_another_seats_tiles(client: TestClient, game_id: str) -> None:
    """Two tables differing only in tiles hidden from a seat send that seat identical messages."""
    players = boneyard.game_info(game_id)["players"]["default"]
    compared = 0
    for seed in range(3):
        decks = hidden_swap(game_id, players, seed)
        if decks is None:
            continue
        deck, swapped, seat = decks
        ids = [new_table(client, game=game_id, players=players, seed=seed, deck=d, dealer=0, next_timeout=0)
               for d in (deck, swapped)]
        tokens = [join_all(client, t, players) for t in ids]
        rng = random.Random(seed)
        with client.websocket_connect(f"/ws/tables/{ids[0]}?token={tokens[0][seat]}") as ws_a, \
                client.websocket_connect(f"/ws/tables/{ids[1]}?token={tokens[1][seat]}") as ws_b:
            for _step in range(40):
                msg_a, msg_b = ws_a.receive_json(), ws_b.receive_json()
                states = [client.get(f"/api/tables/{t}", headers=auth(tok[seat])).json()
                          for t, tok in zip(ids, tokens, strict=True)]
                spectators = [client.get(f"/api/tables/{t}").json() for t in ids]
                public_differs = spectators[0]["view"] != spectators[1]["view"]
                if public_differs or states[0]["view"]["hand"] != states[1]["view"]["hand"]:
                    break  # the swapped tiles came into the open: nothing hidden is left to compare
                for a, b in ((msg_a, msg_b), (states[0], states[1])):
                    a.pop("table"), b.pop("table")
                    assert a == b, f"seat {seat} of {game_id} receives a hidden tile"
                compared += 1
                if states[0]["is_over"]:
                    break
                mover = states[0]["current_player"]
                legal = [client.get(f"/api/tables/{t}", headers=auth(tok[mover])).json()["legal_actions"]
                         for t, tok in zip(ids, tokens, strict=True)]
                both = [a for a in legal[0] if a in legal[1]]
                if not both:
                    break  # the mover holds one of the swapped tiles: play can no longer be the same
                action = rng.choice(both)
                for t, tok in zip(ids, tokens, strict=True):
                    r = client.post(f"/api/tables/{t}/actions", json={"action": action}, headers=auth(tok[mover]))
                    assert r.status_code == 200, r.text
    assert compared > 3, "the swapped tiles never stayed hidden: the check compared nothing"
