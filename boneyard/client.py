"""A client of a boneyard server's bot API (``docs/api.md``, "Bot API"), and a host for any boneyard bot.

:class:`BotClient` is the protocol, one method per endpoint: it streams the account's
events and a game's lines (NDJSON, read as they come, heartbeats skipped) and posts
actions, challenges and their answers. :class:`BotRunner` is what ``boneyard bot run``
runs: it accepts the challenges for the games its bot plays, plays each game from its
stream with a :class:`boneyard.bots.Bot`, and picks up where it was after a restart or a
cut stream (the event stream tells it of its unfinished games; a game stream resumes
from the last version it saw).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

import boneyard

PROTOCOL = 1
SEEK_CHECK = 1.0  # seconds between a runner's checks whether it should post its seek again
log = logging.getLogger("boneyard.client")


class BotApiError(Exception):
    """A refusal from the server: its status and its words (``detail``)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


class BotClient:
    """The bot API of one server for one bot account (its token)."""

    def __init__(self, server: str, token: str, timeout: float = 30.0) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.timeout = timeout
        self._http = httpx.Client(base_url=self.server, timeout=timeout,
                                  headers={"Authorization": f"Bearer {token}"})

    def close(self) -> None:
        """Close the connections."""
        self._http.close()

    def _post(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self._http.post(path, json=body if body is not None else {})
        return self._checked(answer)

    @staticmethod
    def _checked(answer: httpx.Response) -> dict[str, Any]:
        if answer.status_code >= 400:
            try:
                detail = str(answer.json().get("detail", answer.text))
            except ValueError:
                detail = answer.text
            raise BotApiError(answer.status_code, detail)
        data: dict[str, Any] = answer.json()
        return data

    def _stream(self, path: str, params: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        """The NDJSON lines of a stream as dicts, as they arrive; empty lines (heartbeats) are skipped.

        The read timeout is three heartbeats: a stream that says nothing for that long is
        taken for cut, and the caller opens it again.
        """
        timeout = httpx.Timeout(self.timeout, read=max(35.0, self.timeout))
        with self._http.stream("GET", path, params=params, timeout=timeout) as answer:
            if answer.status_code >= 400:
                answer.read()
                self._checked(answer)
            for raw in answer.iter_lines():
                if raw.strip():
                    yield json.loads(raw)

    def events(self) -> Iterator[dict[str, Any]]:
        """``GET /api/stream/event``: challenge, challengeCanceled, challengeDeclined, gameStart, gameFinish."""
        return self._stream("/api/stream/event")

    def game(self, table_id: str, since: int | None = None) -> Iterator[dict[str, Any]]:
        """``GET /api/bot/game/stream/{id}``: gameFull, then gameState lines (``since``: resume after a version)."""
        return self._stream(f"/api/bot/game/stream/{table_id}", None if since is None else {"since": since})

    def act(self, table_id: str, action: str, version: int | None = None) -> dict[str, Any]:
        """Play an action (``version``: the one it was chosen at, so a repeat is never played twice)."""
        body: dict[str, Any] = {"action": action}
        if version is not None:
            body["version"] = version
        return self._post(f"/api/bot/game/{table_id}/action", body)

    def accept(self, challenge_id: str) -> dict[str, Any]:
        """Accept a challenge: the game starts."""
        return self._post(f"/api/challenge/{challenge_id}/accept")

    def decline(self, challenge_id: str, reason: str | None = None) -> dict[str, Any]:
        """Decline a challenge."""
        return self._post(f"/api/challenge/{challenge_id}/decline", {"reason": reason} if reason else {})

    def challenge(self, bot: str, game: str, players: int | None = None, rules: dict[str, Any] | None = None,
                  clock: float | None = None) -> dict[str, Any]:
        """Challenge another bot account as this bot."""
        body: dict[str, Any] = {"game": game, "rules": rules or {}}
        if players is not None:
            body["players"] = players
        if clock is not None:
            body["clock"] = clock
        return self._post(f"/api/challenge/{bot}", body)

    def seek(self, game: str, players: int | None = None, rules: dict[str, Any] | None = None,
             clock: float | None = None) -> dict[str, Any]:
        """Post an open seek as this bot: the lobby lists it for a person to take, and other bots may take it."""
        body: dict[str, Any] = {"game": game, "rules": rules or {}}
        if players is not None:
            body["players"] = players
        if clock is not None:
            body["clock"] = clock
        return self._post("/api/seeks", body)

    def resign(self, table_id: str) -> dict[str, Any]:
        """Resign the game."""
        return self._post(f"/api/bot/game/{table_id}/resign")

    def chat(self, table_id: str, text: str) -> dict[str, Any]:
        """Say something at the table."""
        return self._post(f"/api/bot/game/{table_id}/chat", {"text": text})


def register(server: str, name: str, owner: str, games: list[str], description: str = "") -> dict[str, Any]:
    """Register a bot account on ``server``; the answer's ``token`` is shown only this once."""
    answer = httpx.post(server.rstrip("/") + "/api/bots/accounts",
                        json={"name": name, "owner": owner, "games": games, "description": description}, timeout=30)
    return BotClient._checked(answer)


class BotRunner:
    """Hosts one bot as a bot account: accepts challenges for its games and plays every game it is in.

    ``make_bot`` makes a fresh :class:`boneyard.bots.Bot` for each game. Each game is
    played on its own thread from its stream; a cut stream is opened again with
    ``?since=`` the last version seen, so no event is missed or read twice.
    """

    def __init__(self, client: BotClient, make_bot: Callable[[], Any], games: list[str] | None = None,
                 seed: int | None = None, say: Callable[[str], None] | None = None,
                 seek: dict[str, Any] | None = None) -> None:
        self.client = client
        # while no game is in play, keep an open seek (``{game, players?, rules?, clock?}``) in the lobby
        self.seek = seek
        self.seek_id: str | None = None
        self.make_bot = make_bot
        self.games = games
        self.rng = random.Random(seed)
        self.say = say or (lambda text: log.info("%s", text))
        self.playing: dict[str, threading.Thread] = {}
        self.finished: list[str] = []
        self.stop = threading.Event()

    def run(self, max_games: int | None = None) -> None:
        """Listen to the event stream until stopped (or ``max_games`` games finished); reconnect when cut."""
        if self.seek is not None:
            threading.Thread(target=self._keep_seeking, daemon=True).start()
        while not self.stop.is_set():
            try:
                for line in self.client.events():
                    self._on_event(line)
                    if max_games is not None and len(self.finished) >= max_games:
                        self.stop.set()
                    if self.stop.is_set():
                        return
            except (httpx.HTTPError, BotApiError) as err:
                if isinstance(err, BotApiError) and err.status in (401, 403):
                    raise
                self.say(f"event stream cut ({err}); reconnecting")
            time.sleep(0.5)

    def _keep_seeking(self) -> None:
        """Post the seek whenever the bot is idle and none of its seeks is open (taken, expired or refused)."""
        assert self.seek is not None
        while not self.stop.wait(SEEK_CHECK):
            busy = any(t.is_alive() for t in self.playing.values())
            if busy or self.seek_id is not None:
                continue
            try:
                made = self.client.seek(**self.seek)
            except (httpx.HTTPError, BotApiError) as err:
                self.say(f"could not post a seek: {err}")
                continue
            self.seek_id = made["challenge"]["id"]
            self.say(f"seeking a game of {self.seek['game']} in the lobby")

    def _on_event(self, line: dict[str, Any]) -> None:
        kind = line.get("type")
        if kind in ("challengeCanceled", "challengeDeclined") and line.get("challenge", {}).get("id") == self.seek_id:
            self.seek_id = None  # the seek expired or was refused: post another when idle
        if kind == "challenge":
            challenge = line["challenge"]
            if self.games is not None and challenge["game"] not in self.games:
                self.client.decline(challenge["id"], f"this bot plays {', '.join(self.games)}")
                return
            try:
                self.client.accept(challenge["id"])
                self.say(f"accepted {challenge['challenger']['name']}'s challenge at {challenge['game']}")
            except BotApiError as err:
                self.say(f"could not accept a challenge: {err.detail}")
        elif kind == "gameStart":
            self.seek_id = None  # a game began (a person took the seek, or a challenge): seek again once idle
            table_id = line["game"]["id"]
            thread = self.playing.get(table_id)
            if thread is None or not thread.is_alive():
                thread = threading.Thread(target=self.play, args=(table_id,), daemon=True)
                self.playing[table_id] = thread
                thread.start()
        elif kind == "gameFinish":
            table_id = line["game"]["id"]
            thread = self.playing.get(table_id)
            if thread is not None:
                thread.join(timeout=30)
            if table_id not in self.finished:
                self.finished.append(table_id)
            self.say(f"game {table_id} finished: winners {line['game']['winners']}")
        elif kind == "closed":
            self.say(f"the server closed the event stream: {line.get('reason')}")

    def play(self, table_id: str) -> None:
        """Play one game from its stream to its end, resuming a cut stream from the last version seen."""
        bot = self.make_bot()
        since: int | None = None
        game_class: Any = None
        decided = -1  # the last version decided at: a resumed stream repeats its present turn
        while not self.stop.is_set():
            try:
                for line in self.client.game(table_id, since):
                    if line["type"] == "gameFull":
                        state = line["state"]
                        game_class = type(boneyard.new_game(state["game"], players=len(state["seats"]), seed=0))
                        since = line["version"]
                        if state["is_over"]:
                            return
                        if line["version"] > decided and not state.get("between_hands"):
                            decided = line["version"]
                            self._decide(table_id, bot, game_class, state["view"], state["legal_actions"],
                                         line["version"])
                    elif line["type"] == "gameState":
                        since = line["version"]
                        if line["is_over"]:
                            return
                        if line["legal_actions"] and line["version"] > decided:
                            decided = line["version"]
                            self._decide(table_id, bot, game_class, line["view"], line["legal_actions"],
                                         line["version"])
                    elif line["type"] == "closed":
                        self.say(f"game {table_id}: stream closed ({line.get('reason')})")
                        if "another stream" in str(line.get("reason")):
                            return
                        break
                else:
                    return
            except (httpx.HTTPError, BotApiError) as err:
                if isinstance(err, BotApiError) and err.status in (401, 403, 404):
                    self.say(f"game {table_id}: {err.detail}")
                    return
                self.say(f"game {table_id}: stream cut ({err}); resuming from version {since}")
            time.sleep(0.3)

    def _decide(self, table_id: str, bot: Any, game_class: Any, view: dict[str, Any], legal: list[str],
                version: int) -> None:
        if not legal:
            return
        actions = [game_class.parse_action(a) for a in legal]
        try:
            choice = str(bot.choose(view, actions, self.rng))
        except Exception as err:  # a broken bot must not stall the table: it plays a legal action instead
            choice = str(self.rng.choice(actions))
            self.say(f"game {table_id}: the bot failed ({type(err).__name__}: {err}); played {choice!r} instead")
        try:
            self.client.act(table_id, choice, version)
        except BotApiError as err:
            if err.status in (400, 409):  # the table moved on (a clock's bot played): the stream says what now
                self.say(f"game {table_id}: {choice!r} refused: {err.detail}")
            else:
                raise
