"""The bot API (issue 41) against a real ``boneyard serve``: bot accounts, challenges, the NDJSON streams,
and the behaviour a bad bot meets (an illegal action, silence, a flood, a second stream)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import jsonschema
import pytest

from boneyard.server.botapi import protocol_schema

from .botkit import bot_seat_token, new_bot, play_person
from .conftest import Server, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots act at once and whose bot streams beat every half second."""
    db = tmp_path_factory.mktemp("botapi") / "bots.db"
    running = Server(f"sqlite:///{db}", bot_delay=0.0, port=free_port(), extra=["--bot-heartbeat", "0.5"]).start()
    yield running
    running.stop()


def bearer(token: str) -> dict[str, str]:
    """The header of a bot account (or a seat)."""
    return {"Authorization": f"Bearer {token}"}


VALIDATOR = jsonschema.Draft202012Validator(protocol_schema())


class Stream:
    """An open NDJSON stream read line by line (heartbeats counted, not returned), each line checked
    against the protocol's JSON Schema."""

    def __init__(self, answer: httpx.Response) -> None:
        self.answer = answer
        self.heartbeats = 0
        self._lines = answer.iter_lines()

    def next(self) -> dict[str, Any]:
        """The next line that is not a heartbeat."""
        for raw in self._lines:
            if raw.strip():
                line: dict[str, Any] = json.loads(raw)
                VALIDATOR.validate(line)
                return line
            self.heartbeats += 1
        raise EOFError("the stream ended")

    def quiet_for(self, beats: int) -> float:
        """Read ``beats`` heartbeats with nothing else between them; the seconds it took."""
        start = time.monotonic()
        for raw in self._lines:
            assert not raw.strip(), f"a quiet stream sent {raw!r}"
            beats -= 1
            if beats == 0:
                return time.monotonic() - start
        raise EOFError("the stream ended")

    def rest(self) -> list[dict[str, Any]]:
        """Every line until the stream ends."""
        out = []
        for raw in self._lines:
            if raw.strip():
                out.append(json.loads(raw))
                VALIDATOR.validate(out[-1])
        return out


@contextmanager
def stream(server: Server, path: str, token: str, **params: Any) -> Iterator[Stream]:
    """Open a stream of the bot API."""
    with httpx.Client(base_url=server.url, timeout=httpx.Timeout(10, read=20)) as http, \
            http.stream("GET", path, headers=bearer(token), params=params) as answer:
        assert answer.status_code == 200, answer.read()
        assert answer.headers["content-type"].startswith("application/x-ndjson")
        yield Stream(answer)


def start_game(server: Server, bot: dict[str, Any], body: dict[str, Any]) -> tuple[Stream, Any, str, str]:
    """Open the bot's event stream, have a person challenge it, accept; the event stream (kept open), its
    context, the table and the person's seat token."""
    ctx = stream(server, "/api/stream/event", bot["token"])
    events = ctx.__enter__()
    with httpx.Client(base_url=server.url, timeout=10) as http:
        made = http.post(f"/api/challenge/{bot['name']}", json=body).json()
        line = events.next()
        assert line["type"] == "challenge" and line["challenge"]["id"] == made["challenge"]["id"]
        assert line["protocol"] == 1
        accepted = http.post(f"/api/challenge/{line['challenge']['id']}/accept", headers=bearer(bot["token"]))
        assert accepted.status_code == 200, accepted.text
        status = http.get(f"/api/challenge/{made['challenge']['id']}", headers={"X-Challenge-Key": made["key"]}).json()
    start = events.next()
    assert start["type"] == "gameStart" and start["game"]["id"] == status["challenge"]["table"]
    return events, ctx, status["challenge"]["table"], status["token"]


def test_a_bot_account_is_registered_once_shown_as_a_bot_and_never_played_from_the_page(server: Server) -> None:
    bot = new_bot(server, ["montana"])
    assert bot["token"].startswith("bot_") and bot["account"] == "bot"
    with httpx.Client(base_url=server.url, timeout=10) as http:
        again = http.post("/api/bots/accounts", json={"name": bot["name"], "owner": "X", "games": ["montana"]})
        assert again.status_code == 409 and "already called" in again.json()["detail"]
        wrong = http.post("/api/bots/accounts", json={"name": "Zed", "owner": "X", "games": ["chess"]})
        assert wrong.status_code == 400 and "montana" in wrong.json()["detail"]
        public = http.get(f"/api/bots/accounts/{bot['name']}").json()
        assert "token" not in public and public["online"] is False
        offline = http.post(f"/api/challenge/{bot['name']}", json={"game": "montana"})
        assert offline.status_code == 409 and "not online" in offline.json()["detail"]
        assert http.get("/api/bots/protocol").json() == protocol_schema()
        assert not VALIDATOR.is_valid({"type": "gameState", "protocol": 2, "id": "x"})
        assert http.get("/api/stream/event").status_code == 401
        assert http.get("/api/stream/event", headers=bearer("bot_nobody")).status_code == 403

    _events, ctx, table, person = start_game(server, bot, {"game": "montana", "players": 2, "name": "Ann"})
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            state = http.get(f"/api/tables/{table}", headers=bearer(person)).json()
            assert [(s["name"], s["account"]) for s in state["seats"]] == [("Ann", None), (bot["name"], "bot")]
            lobby = next(t for t in http.get("/api/tables").json() if t["id"] == table)
            assert lobby["seats"][1]["account"] == "bot"
            # the page cannot act for the bot: its account token is no seat token, and its seat token
            # (derived inside the server) is refused on the pages' route
            move = {"action": "pass"}
            assert http.post(f"/api/tables/{table}/actions", json=move, headers=bearer(bot["token"])).status_code == 403
            refused = http.post(f"/api/tables/{table}/actions", json=move,
                                headers=bearer(bot_seat_token(bot["token"], table)))
            assert refused.status_code == 403 and "bot API" in refused.json()["detail"]
    finally:
        ctx.__exit__(None, None, None)


def test_the_game_stream_then_a_cut_and_a_resume_lose_and_repeat_no_event(server: Server) -> None:
    bot = new_bot(server, ["montana"])
    events, ctx, table, person = start_game(server, bot, {"game": "montana", "players": 2, "rules": {"max_hands": 1},
                                                          "name": "Ann"})
    rng = random.Random(3)
    seen: list[dict[str, Any]] = []
    versions: list[int] = []

    def play_from(lines: Stream, first: dict[str, Any], stop_at: int | None) -> int:
        line = first
        while True:
            if line["type"] == "gameState":
                seen.extend(line["events"])
                versions.append(line["version"])
            state = line["state"] if line["type"] == "gameFull" else line
            if state["is_over"] or (stop_at is not None and line["version"] >= stop_at):
                return int(line["version"])
            if state["legal_actions"]:
                done = httpx.post(f"{server.url}/api/bot/game/{table}/action", headers=bearer(bot["token"]),
                                  json={"action": rng.choice(state["legal_actions"]), "version": line["version"]})
                assert done.status_code == 200, done.text
            line = lines.next()

    person_rng = random.Random(4)
    try:
        with stream(server, f"/api/bot/game/stream/{table}", bot["token"]) as lines:
            full = lines.next()
            assert full["type"] == "gameFull" and full["protocol"] == 1 and full["seat"] == 1
            assert full["state"]["view"]["events_from"] == 0
            seen.extend(full["state"]["view"]["events"])
            # the person plays on a thread of its own meanwhile
            person_done: dict[str, Any] = {}
            mover = threading.Thread(target=lambda: person_done.update(play_person(server, table, person, person_rng)))
            mover.start()
            cut_at = play_from(lines, full, stop_at=8)
        # the connection is cut; the bot opens the stream again from the last version it saw
        with stream(server, f"/api/bot/game/stream/{table}", bot["token"], since=cut_at) as lines:
            again = lines.next()
            assert again["type"] == "gameFull"
            caught_up = lines.next()
            assert caught_up["type"] == "gameState"
            play_from(lines, caught_up, stop_at=None)
        mover.join(60)
        assert person_done["is_over"]
        as_bot = bearer(bot_seat_token(bot["token"], table))
        final = httpx.get(f"{server.url}/api/tables/{table}", headers=as_bot).json()
        assert final["view"]["events_from"] == 0
        assert seen == final["view"]["events"], "an event was lost or told twice across the cut"
        assert versions == sorted(versions)
        finish = events.next()
        assert finish["type"] == "gameFinish" and finish["game"]["id"] == table
    finally:
        ctx.__exit__(None, None, None)


def test_an_illegal_action_is_refused_with_the_reason_and_the_clock_keeps_running(server: Server) -> None:
    bot = new_bot(server, ["montana"])
    _events, ctx, table, person = start_game(server, bot, {"game": "montana", "players": 2, "clock": 2,
                                                          "name": "Ann"})
    try:
        with stream(server, f"/api/bot/game/stream/{table}", bot["token"]) as lines:
            line = lines.next()
            state = line["state"]
            while not state["legal_actions"]:  # the person plays until it is the bot's turn
                play_person(server, table, person, random.Random(1), until_version=state["version"] + 1)
                line = lines.next()
                state = line
            assert line["clock"]["seconds"] == 2 and line["clock"]["left"] > 0
            bad = httpx.post(f"{server.url}/api/bot/game/{table}/action", headers=bearer(bot["token"]),
                             json={"action": "play 9-9 nowhere", "version": line["version"]})
            assert bad.status_code == 400
            assert bad.json()["detail"]  # the engine's reason, in words
            # silence from here: the clock runs out and the server's stand-in plays the bot's decision
            nxt = lines.next()
            while nxt["version"] == line["version"]:
                nxt = lines.next()
            assert nxt["version"] == line["version"] + 1
        log = httpx.get(f"{server.url}/api/tables/{table}/friends").json()["log"]
        assert any("clock ran out" in entry["text"] and bot["name"] in entry["text"] for entry in log)
    finally:
        ctx.__exit__(None, None, None)


def test_a_flood_of_actions_is_answered_429(server: Server) -> None:
    bot = new_bot(server, ["montana"])
    _events, ctx, table, _person = start_game(server, bot, {"game": "montana", "players": 2, "name": "Ann"})
    try:
        with httpx.Client(base_url=server.url, headers=bearer(bot["token"]), timeout=10) as http:
            first = http.post(f"/api/bot/game/{table}/action", json={"action": "nonsense"})
            assert first.status_code == 400
            # a flood arrives at once: sixty refused actions from sixteen connections
            with ThreadPoolExecutor(16) as pool:
                codes = list(pool.map(lambda _: http.post(f"/api/bot/game/{table}/action",
                                                          json={"action": "nonsense"}).status_code, range(60)))
        assert 429 in codes and set(codes) <= {400, 429}
        limited = httpx.post(f"{server.url}/api/bot/game/{table}/action", headers=bearer(bot["token"]),
                             json={"action": "nonsense"})
        assert limited.status_code == 429 and "Retry-After" in limited.headers
        # an address trying token after token is stopped too; a real bot's token still works
        guesses = [httpx.get(f"{server.url}/api/stream/event", headers=bearer(f"bot_guess{i}")).status_code
                   for i in range(25)]
        assert guesses[0] == 403 and guesses[-1] == 429
        assert httpx.get(f"{server.url}/api/bots/accounts/{bot['name']}").status_code == 200
    finally:
        ctx.__exit__(None, None, None)


def test_a_stream_opened_twice_closes_the_older(server: Server) -> None:
    bot = new_bot(server, ["montana"])
    events, ctx, table, _person = start_game(server, bot, {"game": "montana", "players": 2, "name": "Ann"})
    try:
        with stream(server, f"/api/bot/game/stream/{table}", bot["token"]) as first:
            assert first.next()["type"] == "gameFull"
            with stream(server, f"/api/bot/game/stream/{table}", bot["token"]) as second:
                assert second.next()["type"] == "gameFull"
                closing = first.next()
                assert closing["type"] == "closed" and "another stream" in closing["reason"]
                assert first.rest() == []
                # the newer one lives on: an empty line every half second (--bot-heartbeat 0.5) keeps it open
                took = second.quiet_for(3)
                assert 0.8 < took < 3.0
        # the same for the event stream: a second one closes the first
        with stream(server, "/api/stream/event", bot["token"]) as newer:
            closing = events.next()
            assert closing["type"] == "closed" and "another event stream" in closing["reason"]
            assert newer.next()["type"] == "gameStart"  # it is told of the unfinished game
    finally:
        ctx.__exit__(None, None, None)


def test_a_bot_challenges_a_bot_and_a_decline_reaches_the_challenger(server: Server) -> None:
    first, second = new_bot(server, ["rounce"]), new_bot(server, ["rounce"])
    with stream(server, "/api/stream/event", first["token"]) as one, \
            stream(server, "/api/stream/event", second["token"]) as two:
        made = httpx.post(f"{server.url}/api/challenge/{second['name']}", headers=bearer(first["token"]),
                          json={"game": "rounce", "players": 2}).json()
        heard = two.next()
        assert heard["challenge"]["challenger"] == {"name": first["name"], "account": "bot"}
        declined = httpx.post(f"{server.url}/api/challenge/{heard['challenge']['id']}/decline",
                              headers=bearer(second["token"]), json={"reason": "busy"})
        assert declined.status_code == 200
        told = one.next()
        assert told["type"] == "challengeDeclined" and told["challenge"]["id"] == made["challenge"]["id"]
        assert told["challenge"]["reason"] == "busy"
        other = httpx.post(f"{server.url}/api/challenge/{heard['challenge']['id']}/accept",
                           headers=bearer(second["token"]))
        assert other.status_code == 409


def test_a_stopping_server_ends_the_bot_streams_instead_of_waiting_for_them(tmp_path: Any) -> None:
    own = Server(f"sqlite:///{tmp_path / 'stop.db'}", port=free_port()).start()
    try:
        bot = new_bot(own, ["rounce"])
        with stream(own, "/api/stream/event", bot["token"]) as events:
            started = time.monotonic()
            assert own.proc is not None
            own.proc.terminate()  # what Ctrl-C or a service manager sends
            closing = events.next()
            assert closing["type"] == "closed" and "stopping" in closing["reason"]
            assert own.proc.wait(10) in (0, -15)  # uvicorn ends by the signal it handled
            assert time.monotonic() - started < 5
    finally:
        own.kill()


def test_a_bot_chats_and_resigns_through_the_api(server: Server) -> None:
    bot = new_bot(server, ["montana"])
    _events, ctx, table, person = start_game(server, bot, {"game": "montana", "players": 2, "name": "Ann"})
    try:
        with httpx.Client(base_url=server.url, headers=bearer(bot["token"]), timeout=10) as http:
            said = http.post(f"/api/bot/game/{table}/chat", json={"text": "good luck, Ann"})
            assert said.status_code == 200
            resigned = http.post(f"/api/bot/game/{table}/resign")
            assert resigned.status_code == 200
            again = http.post(f"/api/bot/game/{table}/resign")
            assert again.status_code == 409 and "already resigned" in again.json()["detail"]
            elsewhere = http.post("/api/bot/game/nosuchtab/resign")
            assert elsewhere.status_code == 404
        room = httpx.get(f"{server.url}/api/tables/{table}/friends", timeout=10).json()
        lines = [(entry["kind"], entry["name"], entry["text"]) for entry in room["log"]]
        assert ("chat", bot["name"], "good luck, Ann") in lines
        assert any(kind == "resign" and bot["name"] in text and "Ann wins" in text for kind, _, text in lines)
        assert room["decided"] == [0]
        # the person may play on to the end against the server's bot, which now plays the resigned seat
        assert play_person(server, table, person, random.Random(8))["is_over"]
    finally:
        ctx.__exit__(None, None, None)


def test_an_open_seek_goes_to_the_first_bot_that_takes_it(server: Server) -> None:
    game = "eighty"  # no other test's bot plays it: only these two are offered the seek
    first, second = new_bot(server, [game]), new_bot(server, [game, "rounce"])
    with httpx.Client(base_url=server.url, timeout=10) as http:
        none = http.post("/api/seeks", json={"game": game, "name": "Ann"})
        assert none.status_code == 409 and "no online bot plays" in none.json()["detail"]
        with stream(server, "/api/stream/event", first["token"]) as one, \
                stream(server, "/api/stream/event", second["token"]) as two:
            made = http.post("/api/seeks", json={"game": game, "name": "Ann", "rules": {"max_hands": 1}}).json()
            assert made["challenge"]["seek"] is True and made["challenge"]["bot"] is None
            heard = [one.next(), two.next()]
            assert all(h["type"] == "challenge" and h["challenge"]["id"] == made["challenge"]["id"] for h in heard)
            # one bot turning it down leaves it open for the other
            declined = http.post(f"/api/challenge/{made['challenge']['id']}/decline", headers=bearer(first["token"]))
            assert declined.json()["challenge"]["status"] == "created"
            taken = http.post(f"/api/challenge/{made['challenge']['id']}/accept", headers=bearer(second["token"]))
            assert taken.status_code == 200 and taken.json()["challenge"]["bot"] == second["name"]
            told = one.next()
            assert told["type"] == "challengeCanceled" and told["challenge"]["reason"] == f"taken by {second['name']}"
            assert two.next()["type"] == "gameStart"
            late = http.post(f"/api/challenge/{made['challenge']['id']}/accept", headers=bearer(first["token"]))
            assert late.status_code == 409
            status = http.get(f"/api/challenge/{made['challenge']['id']}", headers={"X-Challenge-Key": made["key"]})
            table = status.json()["challenge"]["table"]
            seats = http.get(f"/api/tables/{table}", headers=bearer(status.json()["token"])).json()["seats"]
            assert [(s["name"], s["account"]) for s in seats[:2]] == [("Ann", None), (second["name"], "bot")]


def test_a_stream_whose_answer_never_began_is_undone(monkeypatch: pytest.MonkeyPatch) -> None:
    # a client gone between its request and the first line never runs the stream's own clean-up
    from boneyard.server import botapi

    monkeypatch.setattr(botapi, "ORPHAN_AFTER", 0.05)

    async def main() -> tuple[list[str], list[str]]:
        orphan, live = botapi.Channel(), botapi.Channel()
        undone: list[str] = []
        orphan.unless_started(lambda: undone.append("orphan"))
        live.unless_started(lambda: undone.append("live"))
        live.started = True
        await asyncio.sleep(0.2)
        return undone, [c.reason for c in (orphan, live)]

    undone, reasons = asyncio.run(main())
    assert undone == ["orphan"] and reasons == ["the stream never started", ""]


def test_a_bots_open_seek_is_listed_and_a_person_takes_it(server: Server) -> None:
    """A bot posts an open seek; the lobby's list shows it while the bot is online; a person takes it and the
    game starts at once with them at seat 0 and the bot at seat 1; a second taker is refused; the bot hears
    gameStart; a seek for a game the bot does not play is refused."""
    bot = new_bot(server, ["rounce"])
    with stream(server, "/api/stream/event", bot["token"]) as events:
        wrong = httpx.post(server.url + "/api/seeks", json={"game": "montana"}, headers=bearer(bot["token"]))
        assert wrong.status_code == 400 and "plays rounce, not 'montana'" in wrong.json()["detail"]
        made = httpx.post(server.url + "/api/seeks", json={"game": "rounce", "players": 2, "rules": {"max_hands": 1}},
                          headers=bearer(bot["token"]))
        assert made.status_code == 201, made.text  # a bot's seek is for people: it waits in the lobby
        seek_id = made.json()["challenge"]["id"]
        listed = httpx.get(server.url + "/api/seeks").json()
        mine = [c for c in listed if c["id"] == seek_id]
        assert mine and mine[0]["by"]["name"] == bot["name"] and mine[0]["game"] == "rounce"
        assert mine[0]["players"] == 2 and mine[0]["by"]["account"] == "bot"
        taken = httpx.post(f"{server.url}/api/seeks/{seek_id}/take", json={"name": "Ann"})
        assert taken.status_code == 200, taken.text
        answer = taken.json()
        assert answer["seat"] == 0 and answer["token"] and answer["challenge"]["reason"] == "taken by Ann"
        again = httpx.post(f"{server.url}/api/seeks/{seek_id}/take", json={"name": "Bob"})
        assert again.status_code == 409 and "already accepted" in again.json()["detail"]
        assert seek_id not in {c["id"] for c in httpx.get(server.url + "/api/seeks").json()}
        line = events.next()
        while line["type"] != "gameStart":
            line = events.next()
        assert line["game"]["id"] == answer["table"] and line["game"]["seat"] == 1
    state = httpx.get(f"{server.url}/api/tables/{answer['table']}", headers=bearer(answer["token"])).json()
    assert [s["name"] for s in state["seats"]] == ["Ann", bot["name"]] and state["seats"][1]["account"] == "bot"
    assert state["seat"] == 0
    # once the bot's event stream is closed its seeks leave the list
    assert not [c for c in httpx.get(server.url + "/api/seeks").json() if c["by"]["name"] == bot["name"]]
    bad = httpx.post(f"{server.url}/api/seeks/nosuchseek/take", json={"name": "Ann"})
    assert bad.status_code == 404 and "no challenge" in bad.json()["detail"]
    assert httpx.post(f"{server.url}/api/seeks/{seek_id}/take", json={"name": 7}).status_code == 422
