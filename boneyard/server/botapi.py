"""The bot API: bot accounts, challenges, and the NDJSON streams programs play through.

A bot account is a program on its owner's machine. It holds a secret token (stored
hashed), opens ``GET /api/stream/event`` to hear of challenges and games, opens
``GET /api/bot/game/stream/{id}`` for each game (the full state for its seat, then every
change as the table's typed events, with its legal actions and clock on its turn) and
answers with ``POST /api/bot/game/{id}/action``. The protocol is documented in
``docs/api.md`` ("Bot API") and its lines have JSON Schemas in ``bot_protocol.schema.json``.

Everything else is the server's own machinery: a bot account's seat is a human seat of
the table service (``tables.py``: joined, acted for, subscribed to like a page's
WebSocket), so the move clock, stand-ins, resigning, chat and the ratings
(``social.py``, ``rating.py``) treat it as they treat a person. Its seat token is derived
from its account token (:func:`seat_token`), so the server stores no secret of its own
for it and a restarted server still knows the seat. The pages cannot play it: the
tables' action route refuses a bot account's seat (``TableService.act``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import StreamingResponse
from limits import parse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, Float, String, Text, select
from sqlalchemy.orm import Mapped, Session, mapped_column

import boneyard
from boneyard.api import story as story_of

from . import rating
from .clients import Subscriber
from .db import Base, TableRow, hash_token
from .hotpath import bearer
from .social import ClaimRow, Social
from .tables import (
    MAX_ACTION,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    TableService,
    TooManyRequests,
    Unauthorized,
    check_rules,
    check_seat_bot,
    clean_name,
    quote,
)

log = logging.getLogger("boneyard.server.bots")

PROTOCOL = 1  # the version every stream line and answer carries; bumped when a line changes meaning
HEARTBEAT = 10.0  # seconds between empty lines on a quiet stream (keeps proxies from closing it)
ACTION_RATE = "100/second"  # bot actions one account may post (a fast bot plays many games at once)
REFUSED_RATE = "10/second"  # refused actions (illegal, out of turn, stale) one account may post: a loop
OPEN_RATE = "120/minute"  # streams one account may open (one a game: the ladder starts many)
CHALLENGE_RATE = "30/minute"  # challenges one address (or bot) may make
AUTH_RATE = "20/minute"  # unknown bot tokens one address may try
CHALLENGE_TTL = 120.0  # seconds a challenge waits for its answer before it is cancelled
CHALLENGE_KEPT = 600.0  # seconds an answered challenge stays readable
FINISHED_KEPT = 10_000  # finished tables remembered as told (those still in memory are kept past it)
MAX_DESCRIPTION = 400
OTHERS_BOT = "greedy"  # the server bot that fills a challenge's seats beyond the two players
STREAM_QUEUE = 64  # lines a stream may fall behind before it is closed
ORPHAN_AFTER = 30.0  # seconds after which a stream whose answer never began is undone
LADDER = "ladder"  # the address the ladder's tables are opened under (their turn in the compute pool)
LADDER_MOST = 8  # ladder tables unfinished at once
LADDER_CLOCK = 30.0  # seconds a ladder game's bot has per decision before the server's stand-in plays it


def seat_token(account_key: str, table_id: str) -> str:
    """The seat token of a bot account at a table, derived from the account's stored key; never stored itself.

    Why: the table service knows a seat by the hash of its token. Deriving the token
    (``account_key`` is the hash of the account's secret, which the server keeps) lets the
    bot API act, resign and chat through the same service calls as a page, lets the
    ladder seat a bot whose secret it never saw, and lets a restarted server (which
    reloads the seats' hashes) still recognise the seat. Nobody is ever given this token:
    a bot authenticates with its account token, and the pages cannot act for its seat.
    """
    return hmac.new(account_key.encode(), ("seat:" + table_id).encode(), hashlib.sha256).hexdigest()


class BotAccountRow(Base):
    """A bot account: a name, its owner, what it plays, and the hash of its secret token."""

    __tablename__ = "bot_accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    owner: Mapped[str] = mapped_column(String(64))
    description: Mapped[str] = mapped_column(Text)
    games: Mapped[list[str]] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)


@dataclass(frozen=True)
class Account:
    """A bot account as the API shows it (never its token)."""

    id: str
    name: str
    owner: str
    description: str
    games: tuple[str, ...]
    key: str = field(default="", repr=False)  # the hash of its token: what its seat tokens derive from

    @property
    def player(self) -> str:
        """Its player id in the claims and ratings (``rating.BOT_ACCOUNT``)."""
        return rating.BOT_ACCOUNT + self.id

    def public(self) -> dict[str, Any]:
        """What anyone may read of it."""
        return {"id": self.id, "name": self.name, "owner": self.owner, "description": self.description,
                "games": list(self.games), "account": "bot"}


@dataclass
class Challenge:
    """A challenge to a bot account, or an open seek (``bot`` None until one takes it): the game it
    proposes, and who answers it with what."""

    id: str
    bot: Account | None
    game: str
    players: int
    rules: dict[str, Any]
    clock: float | None
    by_name: str
    by_bot: Account | None = None  # a bot challenger (another account, or the ladder's pairing)
    by_player: str | None = None  # a person's player id (their code), so the game can be rated
    key_hash: str = ""  # the challenger's secret to read the answer (a person)
    status: str = "created"  # created, accepted, declined, canceled
    reason: str | None = None
    table: str | None = None
    seat: int | None = None  # the challenger's seat once accepted
    token: str | None = None  # a person's seat token, handed to them once through ``status``
    created: float = field(default_factory=time.time)
    ladder: bool = False
    seek: bool = False  # an open seek: any online bot that plays the game may take it
    offered: set[str] = field(default_factory=set)  # the accounts told of it
    declined: set[str] = field(default_factory=set)  # the accounts that turned a seek down

    def public(self) -> dict[str, Any]:
        """The challenge as its line on the event stream and the answers show it."""
        return {"id": self.id, "game": self.game, "players": self.players, "rules": self.rules,
                "clock": self.clock, "challenger": {"name": self.by_name, "account": "bot" if self.by_bot else None},
                "bot": self.bot.name if self.bot else None, "status": self.status, "reason": self.reason,
                "table": self.table, "ladder": self.ladder, "seek": self.seek}


class Channel:
    """One open stream: the lines waiting to be sent, and whether a newer stream replaced it."""

    def __init__(self) -> None:
        self.lines: asyncio.Queue[dict[str, Any]] = asyncio.Queue(STREAM_QUEUE)
        self.closed = asyncio.Event()
        self.reason = ""
        self.started = False  # its answer's body began: from then on the stream's own end cleans up

    def unless_started(self, cleanup: Callable[[], None]) -> None:
        """Run ``cleanup`` in :data:`ORPHAN_AFTER` seconds if the stream's body never began.

        Why: a stream is registered before its answer starts (so a bot is online, and
        subscribed, once it has the headers), and a client gone before the first line
        never runs the body whose ``finally`` would undo that.
        """
        def check() -> None:
            if not self.started:
                self.close("the stream never started")
                cleanup()

        asyncio.get_running_loop().call_later(ORPHAN_AFTER, check)

    def send(self, line: dict[str, Any]) -> None:
        """Queue a line; a stream too far behind is closed (its bot reconnects and resumes)."""
        try:
            self.lines.put_nowait(line)
        except asyncio.QueueFull:
            self.close("too slow: this stream fell behind; open it again to resume")

    def close(self, reason: str) -> None:
        """End the stream with a last line saying why."""
        if not self.closed.is_set():
            self.reason = reason
            self.closed.set()


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every line of the bot streams (``bot_protocol.schema.json``, shipped in the package)."""
    text = resources.files("boneyard.server").joinpath("bot_protocol.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = orjson.loads(text)
    return schema


def _legal(state: dict[str, Any]) -> list[str]:
    """The actions the seat may send now: none while the table waits between hands (the people's
    "Next hand"), so that the line that ends the wait is the one that gives the bot its turn."""
    legal: list[str] = [] if state.get("between_hands") else state["legal_actions"]
    return legal


def _line(value: dict[str, Any]) -> bytes:
    return orjson.dumps(value) + b"\n"


class Bots:
    """The bot accounts of one server, their open streams and the challenges between them and people."""

    def __init__(self, service: TableService, social: Social, rate: Any, heartbeat: float = HEARTBEAT) -> None:
        self.service = service
        self.social = social
        self.rate = rate
        self.heartbeat = heartbeat
        self.action_rate = parse(ACTION_RATE)
        self.refused_rate = parse(REFUSED_RATE)
        self.open_rate = parse(OPEN_RATE)
        self.challenge_rate = parse(CHALLENGE_RATE)
        self.auth_rate = parse(AUTH_RATE)
        self._accounts: dict[str, Account] = {}  # token hash -> account
        self.online: dict[str, Channel] = {}  # account id -> its event stream
        self._games: dict[tuple[str, str], Channel] = {}  # (account id, table id) -> its game stream
        self.challenges: dict[str, Challenge] = {}
        self._finished: set[str] = set()  # tables whose gameFinish was told
        self._rng = random.Random()
        self._ladder: asyncio.Future[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        service.hooks.append(self)

    # ----- accounts ------------------------------------------------------------------

    async def register(self, name: Any, owner: Any, description: Any, games: Any) -> dict[str, Any]:
        """A new bot account; its token is answered once (only its hash is kept)."""
        name, owner = clean_name(name), clean_name(owner)
        if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
            raise BadRequest(f"description must be text of at most {MAX_DESCRIPTION} characters")
        known = boneyard.games()
        if not isinstance(games, list) or not games or any(g not in known for g in games):
            raise BadRequest(f"games must list the games the bot plays, from: {', '.join(known)}")
        token = "bot_" + secrets.token_urlsafe(24)
        account = Account(secrets.token_hex(8), name, owner, " ".join(description.split()),
                          tuple(dict.fromkeys(games)), hash_token(token))

        def write(s: Session) -> None:
            if s.scalar(select(BotAccountRow.id).where(BotAccountRow.name == name)) is not None:
                raise Conflict(f"a bot account is already called {quote(name)}: choose another name")
            s.add(BotAccountRow(id=account.id, token_hash=account.key, name=name, owner=owner,
                                description=account.description, games=list(account.games), created=time.time()))

        await self.service.committer.write(write)
        self._accounts[account.key] = account
        return {**account.public(), "token": token, "protocol": PROTOCOL}

    @staticmethod
    def _account(row: BotAccountRow) -> Account:
        return Account(row.id, row.name, row.owner, row.description, tuple(row.games), row.token_hash)

    async def account(self, authorization: str | None, address: str | None = None) -> tuple[Account, str]:
        """The account a request's ``Authorization: Bearer TOKEN`` names, and the token: 401/403 otherwise.

        Unknown tokens are counted per ``address``: one that tries many is answered 429.
        """
        token = bearer(authorization)
        if not token:
            raise Unauthorized("a bot token is required: send 'Authorization: Bearer BOT_TOKEN'")
        key = hash_token(token)
        account = self._accounts.get(key)
        if account is None:
            def read() -> BotAccountRow | None:
                with self.service.store.session() as s:
                    return s.scalar(select(BotAccountRow).where(BotAccountRow.token_hash == key))

            row = await self.service._run(read)
            if row is None:
                if address is not None:
                    self._limit(self.auth_rate, "botauth", address, "unknown bot tokens")
                raise Forbidden("no bot account has this token")
            account = self._accounts[key] = self._account(row)
        return account, token

    async def by_name(self, name: str) -> Account:
        """A bot account by its name (or id): 404 when there is none."""
        for account in self._accounts.values():
            if name in (account.name, account.id):
                return account

        def read() -> BotAccountRow | None:
            with self.service.store.session() as s:
                return s.scalar(select(BotAccountRow).where((BotAccountRow.name == name) | (BotAccountRow.id == name)))

        row = await self.service._run(read)
        if row is None:
            raise NotFound(f"no bot account is called {quote(name)}")
        return self._account(row)

    def online_accounts(self) -> list[dict[str, Any]]:
        """The bot accounts whose event stream is open now: those a challenge can reach."""
        known = {a.id: a for a in self._accounts.values()}
        return [known[i].public() for i in self.online if i in known]

    def _limit(self, item: Any, what: str, who: str, words: str) -> None:
        wait = self.rate.limited(item, what, who)
        if wait is not None:
            retry = max(1, math.ceil(wait))
            raise TooManyRequests(f"too many {words} (at most {item}): try again in {retry} s", retry)

    # ----- challenges ----------------------------------------------------------------

    async def challenge(self, bot_name: str | None, body: ChallengeBody, challenger: Account | None,
                        player_code: str | None, address: str, ladder: bool = False) -> dict[str, Any]:
        """Propose a game to an online bot account (``bot_name``), or to any that plays the game (None: an
        open seek); the bots hear it on their event streams.

        A person's answer carries a ``key`` to read the challenge's outcome (and, once it
        is accepted, their seat's token) from ``GET /api/challenge/{id}``.
        """
        self._limit(self.challenge_rate, "challenge", challenger.id if challenger else address, "challenges")
        if bot_name is None:
            known = {a.id: a for a in self._accounts.values()}
            takers = [known[i] for i in self.online if i in known and body.game in known[i].games
                      and (challenger is None or i != challenger.id)]
            # a person's seek goes to the online bots; a bot's seek goes to people: it is listed
            # in the lobby for a person to take (take_seek); bots meet bots by challenges and the ladder
            if challenger is not None:
                if body.game not in challenger.games:
                    raise BadRequest(f"{challenger.name} plays {', '.join(challenger.games)}, not {quote(body.game)}")
                takers = []
            elif not takers:
                raise Conflict(f"no online bot plays {quote(body.game)} now: try another game, or later")
            bot = None
        else:
            bot = await self.by_name(bot_name)
            if challenger is not None and challenger.id == bot.id:
                raise BadRequest("a bot cannot challenge itself")
            if bot.id not in self.online:
                raise Conflict(f"{bot.name} is not online: a bot can be challenged while its program is connected")
            if body.game not in bot.games:
                raise BadRequest(f"{bot.name} plays {', '.join(bot.games)}, not {quote(body.game)}")
            takers = [bot]
        info = boneyard.game_info(body.game)
        players = body.players or info["players"]["default"]
        if not info["players"]["min"] <= players <= info["players"]["max"]:
            raise BadRequest(f"{info['name']} is played by {info['players']['min']} to {info['players']['max']} "
                             f"players, not {players}")
        rules = check_rules(body.rules)
        boneyard.new_game(body.game, players=players, rules=rules, seed=0)  # a bad option is refused now
        player = None
        if player_code:
            player, _name = await self.service._run(self.social._player, player_code)
        self._forget_old()
        key = secrets.token_urlsafe(18)
        made = Challenge(id=secrets.token_urlsafe(6), bot=bot, game=body.game, players=players, rules=rules,
                         clock=body.clock, by_name=challenger.name if challenger else clean_name(body.name or "Guest"),
                         by_bot=challenger, by_player=player, key_hash=hash_token(key), ladder=ladder,
                         seek=bot is None, offered={a.id for a in takers})
        self.challenges[made.id] = made
        for taker in takers:
            self.online[taker.id].send({"type": "challenge", "protocol": PROTOCOL, "challenge": made.public()})
        asyncio.get_running_loop().call_later(CHALLENGE_TTL, self._expire, made.id)
        return {"challenge": made.public(), "key": key, "protocol": PROTOCOL}

    def _forget_old(self) -> None:
        """Drop answered challenges after :data:`CHALLENGE_KEPT` seconds (their challenger has read the answer)."""
        old = time.time() - CHALLENGE_KEPT
        answered = [c.id for c in self.challenges.values() if c.status not in ("created", "accepting")]
        for challenge_id in answered:
            if self.challenges[challenge_id].created < old:
                del self.challenges[challenge_id]
        if len(self._finished) > FINISHED_KEPT:
            self._finished = {t for t in self._finished if t in self.service.tables}

    def _expire(self, challenge_id: str) -> None:
        made = self.challenges.get(challenge_id)
        if made is not None and made.status == "created":
            self._cancel(made, "nobody answered in time")

    def _cancel(self, made: Challenge, reason: str) -> None:
        made.status, made.reason = "canceled", reason
        self._tell_canceled(made, {*made.offered, *([made.by_bot.id] if made.by_bot else [])})

    def _tell_canceled(self, made: Challenge, accounts: set[str]) -> None:
        for account_id in accounts:
            if account_id in self.online:
                self.online[account_id].send({"type": "challengeCanceled", "protocol": PROTOCOL,
                                              "challenge": made.public()})

    def _pending(self, challenge_id: str) -> Challenge:
        made = self.challenges.get(challenge_id)
        if made is None:
            raise NotFound(f"no challenge {quote(challenge_id)}")
        if made.status != "created":
            raise Conflict(f"this challenge is already {made.status}")
        return made

    async def accept(self, challenge_id: str, account: Account, address: str) -> dict[str, Any]:
        """The challenged bot (or, for a seek, the first bot told of it) accepts: the table is made, both
        players seated, and it starts; the other bots told of a seek hear it is taken."""
        made = self._pending(challenge_id)
        if account.id not in made.offered:
            raise Forbidden("only the challenged bot can accept this challenge")
        made.status, made.bot = "accepting", account
        try:
            table_id = await self._start(made, address)
        except BaseException:
            made.status, made.bot = "created", (None if made.seek else account)
            raise
        made.status = "accepted"
        if made.seek:
            made.reason = f"taken by {account.name}"
            self._tell_canceled(made, made.offered - {account.id})
        return {"challenge": made.public(), "table": table_id, "protocol": PROTOCOL}

    async def _start(self, made: Challenge, address: str) -> str:
        """Open the challenge's table: the challenger at seat 0, the bot at seat 1, server bots beyond."""
        others = [f"bot:{OTHERS_BOT}"] * (made.players - 2)
        if others:
            check_seat_bot(OTHERS_BOT)
        creator = LADDER if made.ladder else address
        table = await self.service.create(made.game, made.players, made.rules, ["human", "human", *others],
                                          creator=creator, next_timeout=0 if made.by_bot else None)
        await self.social.created(table, made.clock)
        if made.by_bot is not None:
            await self._seat(table.id, 0, made.by_bot)
        else:
            seat, seat_tok = await self.service.join(table.id, 0, made.by_name)
            made.token = seat_tok
            if made.by_player is not None:
                await self.social._claim(table, seat, made.by_player)
        assert made.bot is not None
        await self._seat(table.id, 1, made.bot)
        made.table, made.seat = table.id, 0
        for account in (made.bot, made.by_bot):
            if account is not None:
                self._tell_start(account, table.id)
        return table.id

    async def _seat(self, table_id: str, seat: int, account: Account) -> None:
        """Seat a bot account under its derived seat token, linked to its account for the ratings."""
        table = await self.service.get(table_id)
        await self.service.join(table_id, seat, account.name, token=seat_token(account.key, table_id),
                                account=account.id)
        await self.social._claim(table, seat, account.player)

    def _tell_start(self, account: Account, table_id: str) -> None:
        table = self.service.tables.get(table_id)
        if table is None or account.id not in self.online:
            return
        seat = next((s for s, a in table.accounts.items() if a == account.id), None)
        self.online[account.id].send({"type": "gameStart", "protocol": PROTOCOL,
                                      "game": {"id": table_id, "game": table.game_id, "seat": seat,
                                               "players": table.players}})

    async def decline(self, challenge_id: str, account: Account, reason: str | None) -> dict[str, Any]:
        """The challenged bot declines; a bot challenger hears it on its event stream, a person from the status.

        A seek is declined only once every bot told of it has turned it down.
        """
        made = self._pending(challenge_id)
        if account.id not in made.offered:
            raise Forbidden("only the challenged bot can decline this challenge")
        made.declined.add(account.id)
        if made.declined != made.offered:
            return {"challenge": made.public(), "protocol": PROTOCOL}
        made.status, made.reason = "declined", (reason or "declined")[:200]
        if made.by_bot is not None and made.by_bot.id in self.online:
            self.online[made.by_bot.id].send({"type": "challengeDeclined", "protocol": PROTOCOL,
                                              "challenge": made.public()})
        return {"challenge": made.public(), "protocol": PROTOCOL}

    def cancel(self, challenge_id: str, key: str | None) -> dict[str, Any]:
        """The challenger (a person, with the challenge's key) withdraws it before it is answered."""
        made = self._pending(challenge_id)
        if not key or hash_token(key) != made.key_hash:
            raise Forbidden("only the challenger can cancel a challenge (header X-Challenge-Key)")
        self._cancel(made, "the challenger withdrew it")
        return {"challenge": made.public(), "protocol": PROTOCOL}

    def open_seeks(self) -> list[dict[str, Any]]:
        """The seeks bots posted that are still open and whose bot is online: the lobby's to take."""
        return [{**made.public(), "by": made.by_bot.public()} for made in self.challenges.values()
                if made.seek and made.status == "created" and made.by_bot is not None
                and made.by_bot.id in self.online]

    async def take_seek(self, challenge_id: str, name: str, player_code: str | None,
                        address: str) -> dict[str, Any]:
        """A person takes a bot's open seek from the lobby: the table is made with them at seat 0 and the
        seeking bot at seat 1; the bot hears ``gameStart``, other bots told of the seek hear it is taken.

        The answer carries the person's seat and token (as a challenge's status does once
        accepted). 409 when the seek was taken, withdrawn or expired meanwhile, or its bot
        went offline.
        """
        self._limit(self.challenge_rate, "challenge", address, "challenges")
        made = self._pending(challenge_id)
        seeker = made.by_bot
        if not made.seek or seeker is None:
            raise BadRequest("only a bot's open seek can be taken from the lobby; challenge a bot to play it")
        if seeker.id not in self.online:
            raise Conflict(f"{seeker.name} is not online any more: its seek is closed")
        player = None
        if player_code:
            player, _name = await self.service._run(self.social._player, player_code)
        game = Challenge(id=secrets.token_urlsafe(6), bot=seeker, game=made.game, players=made.players,
                         rules=made.rules, clock=made.clock, by_name=clean_name(name), by_player=player,
                         status="accepted", offered={seeker.id})
        made.status = "accepting"
        try:
            table_id = await self._start(game, address)
        except BaseException:
            made.status = "created"
            raise
        made.status, made.reason, made.table = "accepted", f"taken by {game.by_name}", table_id
        self.challenges[game.id] = game
        self._tell_canceled(made, made.offered)
        return {"challenge": made.public(), "table": table_id, "seat": game.seat, "token": game.token,
                "protocol": PROTOCOL}

    def status(self, challenge_id: str, key: str | None) -> dict[str, Any]:
        """The challenge as it stands; for its challenger (the key) the seat and token once accepted."""
        made = self.challenges.get(challenge_id)
        if made is None:
            raise NotFound(f"no challenge {quote(challenge_id)}")
        out: dict[str, Any] = {"challenge": made.public(), "protocol": PROTOCOL}
        if key and hash_token(key) == made.key_hash and made.status == "accepted":
            out["seat"] = made.seat
            out["token"] = made.token
        return out

    # ----- the event stream ----------------------------------------------------------

    async def open_events(self, account: Account) -> Channel:
        """Open the account's event stream: online from now on; an older one is closed.

        The stream starts with every unfinished game the account plays (``gameStart``)
        and every challenge waiting for it, so a restarted program picks up where it was.
        """
        self._limit(self.open_rate, "botstream", account.id, "streams opened")
        old = self.online.get(account.id)
        if old is not None:
            old.close("another event stream was opened for this bot; this one is closed")
        channel = self.online[account.id] = Channel()
        channel.unless_started(lambda: self.close_events(account, channel))
        for table_id in await self.service._run(self._unfinished, account.player):
            with contextlib.suppress(Exception):
                await self.service.get(table_id)  # loads it: its accounts are known from here on
            self._tell_start(account, table_id)
        for made in list(self.challenges.values()):
            if made.status == "created" and (account.id in made.offered or (
                    made.seek and made.by_bot is None and made.game in account.games)):
                # a person's open seek reaches a bot that comes online; a bot's seek is for people
                made.offered.add(account.id)
                channel.send({"type": "challenge", "protocol": PROTOCOL, "challenge": made.public()})
        return channel

    def _unfinished(self, player: str) -> list[str]:
        with self.service.store.session() as s:
            rows = s.execute(select(TableRow.id).join(ClaimRow, ClaimRow.table_id == TableRow.id)
                             .where(ClaimRow.player_id == player, TableRow.is_over.is_(False),
                                    TableRow.expired.is_(False)).order_by(TableRow.created))
            return [r[0] for r in rows]

    def close_events(self, account: Account, channel: Channel) -> None:
        """The stream ended: the account is offline unless a newer stream replaced this one."""
        if self.online.get(account.id) is channel:
            del self.online[account.id]

    async def lines(self, channel: Channel, first: list[dict[str, Any]] | None = None) -> AsyncIterator[bytes]:
        """A channel's lines as NDJSON, an empty line every :attr:`heartbeat` seconds of quiet."""
        channel.started = True
        for line in first or []:
            yield _line(line)
        closed = asyncio.ensure_future(channel.closed.wait())
        try:
            while True:
                got = asyncio.ensure_future(channel.lines.get())
                done, _ = await asyncio.wait({got, closed}, timeout=self.heartbeat, return_when=asyncio.FIRST_COMPLETED)
                if got in done:
                    line = got.result()
                    yield _line(line)
                    continue
                got.cancel()
                if closed in done:
                    yield _line({"type": "closed", "protocol": PROTOCOL, "reason": channel.reason})
                    return
                yield b"\n"
        finally:
            closed.cancel()

    # ----- hooks of the table service ------------------------------------------------

    def loaded(self, table: Any) -> None:
        """A stored table is rebuilt (worker thread): which of its seats bot accounts play."""
        with self.service.store.session() as s:
            for claim in s.scalars(select(ClaimRow).where(ClaimRow.table_id == table.id)):
                if claim.player_id.startswith(rating.BOT_ACCOUNT):
                    table.accounts[claim.seat] = claim.player_id[len(rating.BOT_ACCOUNT):]

    def changed(self, table: Any) -> None:
        """After every change: a finished game is told to its bots' event streams once."""
        if not table.accounts or not table.game.is_over or table.id in self._finished:
            return
        self._finished.add(table.id)
        for seat, account_id in table.accounts.items():
            channel = self.online.get(account_id)
            if channel is not None:
                channel.send({"type": "gameFinish", "protocol": PROTOCOL,
                              "game": {"id": table.id, "game": table.game_id, "seat": seat,
                                       "winners": list(table.game.winners), "scores": list(table.game.scores)}})

    # ----- the game stream -----------------------------------------------------------

    async def seat_of(self, table_id: str, account: Account) -> tuple[Any, int]:
        """The table and the seat the account plays there: 404 when it plays none."""
        table = await self.service.get(table_id)
        seat = next((s for s, a in table.accounts.items() if a == account.id), None)
        if seat is None:
            raise NotFound(f"{account.name} plays no seat at table {quote(table_id)}")
        return table, seat

    def _clock(self, table: Any, seat: int) -> dict[str, Any] | None:
        room = self.social.rooms.get(table.id)
        if room is None or not room.clock:
            return None
        mine = table.game.current_player == seat and room.deadline is not None
        return {"seconds": room.clock, "deadline": round(room.deadline, 3) if mine and room.deadline else None,
                "left": round(max(0.0, room.deadline - self.social.clock.now()), 3) if mine and room.deadline else None}

    async def game_stream(self, table_id: str, account: Account, since: int | None) -> AsyncIterator[bytes]:
        """The game's NDJSON lines for the account's seat (see docs/api.md, "Bot API": the game stream)."""
        self._limit(self.open_rate, "botstream", account.id, "streams opened")
        table, seat = await self.seat_of(table_id, account)
        key = (account.id, table.id)
        old = self._games.get(key)
        if old is not None:
            old.close("another stream of this game was opened for this bot; this one is closed")
        channel = self._games[key] = Channel()
        pushes: asyncio.Queue[str] = asyncio.Queue(STREAM_QUEUE)
        sub = Subscriber(seat, pushes.put)
        sub_id = self.service.subscribe(table, sub)
        sender = asyncio.ensure_future(sub.run())

        def undo() -> None:
            sender.cancel()
            self.service.unsubscribe(table, sub_id)
            if self._games.get(key) is channel:
                del self._games[key]

        channel.unless_started(undo)
        return self._game_lines(table, seat, since, channel, pushes, sub, sub_id, sender, key)

    async def _game_lines(self, table: Any, seat: int, since: int | None, channel: Channel,
                          pushes: asyncio.Queue[str], sub: Subscriber, sub_id: int, sender: Any,
                          key: tuple[str, str]) -> AsyncIterator[bytes]:
        channel.started = True
        try:
            state = orjson.loads(pushes.get_nowait()) if not pushes.empty() else self.service.state(table, seat)
            version = state["version"]
            yield _line({"type": "gameFull", "protocol": PROTOCOL, "id": table.id, "seat": seat,
                         "version": version, "state": state, "clock": self._clock(table, seat)})
            told = state["view"]["events_from"] + len(state["view"]["events"])
            if since is not None:
                if not 0 <= since <= version:
                    yield _line({"type": "closed", "protocol": PROTOCOL,
                                 "reason": f"since must be a version from 0 to {version}"})
                    return
                record = {**table.record(), "actions": list(table.actions[:version])}
                story = await self.service._run(story_of, record, seat)
                yield _line(self._state_line(table, seat, state, [dict(e) for step, e in story if step > since]))
            last = (version, bool(_legal(state)), state["is_over"])
            if state["is_over"]:
                return
            closed = asyncio.ensure_future(channel.closed.wait())
            slow = asyncio.ensure_future(sub.too_slow.wait())
            try:
                while True:
                    got = asyncio.ensure_future(pushes.get())
                    done, _ = await asyncio.wait({got, closed, slow}, timeout=self.heartbeat,
                                                 return_when=asyncio.FIRST_COMPLETED)
                    if got not in done:
                        got.cancel()
                        if closed in done or slow in done:
                            reason = channel.reason or "too slow: open the stream again with ?since=VERSION"
                            yield _line({"type": "closed", "protocol": PROTOCOL, "reason": reason})
                            return
                        yield b"\n"
                        continue
                    state = orjson.loads(got.result())
                    now = (state["version"], bool(_legal(state)), state["is_over"])
                    if now == last:
                        continue
                    events, told = await self._new_events(table, seat, state, told, last[0])
                    last = now
                    yield _line(self._state_line(table, seat, state, events))
                    if state["is_over"]:
                        return
            finally:
                closed.cancel()
                slow.cancel()
        finally:
            sender.cancel()
            self.service.unsubscribe(table, sub_id)
            if self._games.get(key) is channel:
                del self._games[key]

    async def _new_events(self, table: Any, seat: int, state: dict[str, Any], told: int,
                          before: int) -> tuple[list[dict[str, Any]], int]:
        """The seat's events since the ``told`` first: the view's newest, or the record's when the view
        no longer lists them all (a new deal dropped some)."""
        view = state["view"]
        total = view["events_from"] + len(view["events"])
        fresh = total - told
        if fresh <= 0:
            return [], told
        if fresh <= len(view["events"]):
            return list(view["events"][len(view["events"]) - fresh:]), total
        record = {**table.record(), "actions": list(table.actions[:state["version"]])}
        story = await self.service._run(story_of, record, seat)
        return [dict(e) for _step, e in story[told:]], total

    def _state_line(self, table: Any, seat: int, state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
        """One change: the new events, and on the bot's turn its view, legal actions and clock."""
        legal = _legal(state)
        line = {"type": "gameState", "protocol": PROTOCOL, "id": table.id, "version": state["version"],
                "events": events, "current_player": state["current_player"],
                "legal_actions": legal, "clock": self._clock(table, seat),
                "scores": state["scores"], "is_over": state["is_over"], "winners": state["winners"],
                "between_hands": state.get("between_hands")}
        if legal:
            line["view"] = state["view"]  # what a bot decides from (bots see views, never the game)
        return line

    # ----- acting --------------------------------------------------------------------

    async def act(self, table_id: str, account: Account, action: str,
                  version: int | None) -> dict[str, Any]:
        """Play the account's action; an illegal one is refused with the engine's reason (its clock runs on)."""
        self._limit(self.action_rate, "botact", account.id, "actions")
        table, seat = await self.seat_of(table_id, account)
        try:
            await self.service.act(table.id, seat_token(account.key, table.id), action, version, bot_api=True)
        except (BadRequest, Conflict):
            # a bot that loops on a refused action is a flood: answered 429 past the limit, else the reason
            self._limit(self.refused_rate, "botrefused", account.id, "refused actions")
            raise
        state = self.service.state(table, seat)
        return {"protocol": PROTOCOL, "ok": True, "version": state["version"], "is_over": state["is_over"]}

    async def resign(self, table_id: str, account: Account) -> dict[str, Any]:
        """The account resigns its game (the resigning bot plays its seat to the end, as for a person)."""
        table, _seat = await self.seat_of(table_id, account)
        await self.social.resign(table.id, seat_token(account.key, table.id))
        return {"protocol": PROTOCOL, "ok": True}

    async def chat(self, table_id: str, account: Account, text: str) -> dict[str, Any]:
        """A chat line from the bot at its table (the chat's limits apply)."""
        table, _seat = await self.seat_of(table_id, account)
        await self.social.chat(table.id, seat_token(account.key, table.id), text)
        return {"protocol": PROTOCOL, "ok": True}

    # ----- the ladder ----------------------------------------------------------------

    def busy(self, account_id: str) -> bool:
        """Whether an account is at an unfinished table now (the ladder pairs only idle bots)."""
        return any(a == account_id and not t.game.is_over
                   for t in self.service.tables.values() for a in t.accounts.values())

    def ladder_tables(self) -> int:
        """The ladder's unfinished tables (its games run in the ``ladder`` address's turn of the compute pool)."""
        return sum(1 for t in self.service.tables.values() if t.creator == LADDER and not t.game.is_over)

    def started(self) -> None:
        """The server runs: remember its event loop, which :meth:`stopping` may be called from outside."""
        self._loop = asyncio.get_running_loop()

    def stopping(self) -> None:
        """The server was asked to stop (a signal handler, any thread): end every open stream.

        Why: a bot's streams never end by themselves, and the HTTP server waits for every
        open response before it stops, so without this a connected bot would hold the
        server up. Each stream ends with a ``closed`` line; the bot reconnects later.
        """
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._close_streams, "the server is stopping: reconnect in a moment")

    def _close_streams(self, reason: str) -> None:
        for channel in [*self.online.values(), *self._games.values()]:
            channel.close(reason)

    def start_ladder(self, period: float, rules: dict[str, Any] | None = None, most: int = LADDER_MOST) -> None:
        """Pair the online bots every ``period`` seconds (``--ladder``), so the bots' board fills by itself."""
        self._ladder = asyncio.ensure_future(self._ladder_forever(period, rules or {}, most))

    async def stop(self) -> None:
        """Stop the ladder and end every open stream (the server is stopping)."""
        task = self._ladder
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._close_streams("the server is stopping: reconnect in a moment")

    async def _ladder_forever(self, period: float, rules: dict[str, Any], most: int) -> None:
        while True:
            await asyncio.sleep(period)
            try:
                await self.ladder_round(rules, most)
            except Exception:  # a round that failed (the database away) is tried again next period
                log.exception("the ladder's round failed")

    async def ladder_round(self, rules: dict[str, Any], most: int = LADDER_MOST) -> list[str]:
        """One round of the ladder: idle online bots that play a game in common are paired and their game
        started at once (going online is the bot's consent); returns the tables opened.

        Bounded by the fair-compute budget: at most ``most`` ladder tables at once, and their
        server bots (beyond two players) are the greedy bot, which needs no search; the
        tables are opened under the ``ladder`` address, so the compute pool serves them in
        turn with every person's searches, never before them.
        """
        known = {a.id: a for a in self._accounts.values()}
        idle = [known[i] for i in self.online if i in known and not self.busy(i)]
        self._rng.shuffle(idle)
        opened: list[str] = []
        paired: set[str] = set()
        for first in idle:
            for second in idle:
                if self.ladder_tables() >= most:
                    return opened
                if first.id in paired or second.id in paired or first.id == second.id:
                    continue
                common = [g for g in first.games if g in second.games]
                if not common:
                    continue
                game = self._rng.choice(common)
                info = boneyard.game_info(game)
                options = {k: v for k, v in rules.items() if k in info["options"]}
                made = Challenge(id=secrets.token_urlsafe(6), bot=second, game=game, players=info["players"]["min"],
                                 rules=options, clock=LADDER_CLOCK, by_name=first.name, by_bot=first, ladder=True,
                                 status="accepted", offered={second.id})
                self.challenges[made.id] = made
                opened.append(await self._start(made, LADDER))
                paired.update((first.id, second.id))
        return opened


class AccountBody(BaseModel):
    """``POST /api/bots/accounts``: a bot account's name, its owner, a description and the games it plays."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=400, description="1 to 40 printable characters, unique among bots")
    owner: str = Field(max_length=400, description="who runs it: 1 to 40 printable characters")
    description: str = Field(default="", max_length=MAX_DESCRIPTION)
    games: list[str] = Field(max_length=16, description="game ids from GET /api/games")


class ChallengeBody(BaseModel):
    """``POST /api/challenge/{bot}``: the game, its player count, rules options and move clock."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(max_length=40)
    players: int | None = Field(default=None, ge=2, le=6, description="default: the game's standard count")
    rules: dict[str, Any] = Field(default_factory=dict)
    clock: float | None = Field(default=None, ge=1, le=3600, description="seconds per decision (default: none)")
    name: str | None = Field(default=None, max_length=400, description="a person challenger's name")


class TakeBody(BaseModel):
    """``POST /api/seeks/{id}/take``: the name of the person taking a bot's seek."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=400, description="1 to 40 printable characters")


class ActionBody(BaseModel):
    """``POST /api/bot/game/{id}/action``: the action and the version it was chosen at."""

    model_config = ConfigDict(extra="forbid", strict=True)

    action: str = Field(max_length=MAX_ACTION)
    version: int | None = Field(default=None, ge=0)


class DeclineBody(BaseModel):
    """``POST /api/challenge/{id}/decline``: an optional reason."""

    model_config = ConfigDict(extra="forbid", strict=True)

    reason: str | None = Field(default=None, max_length=200)


class BotChatBody(BaseModel):
    """``POST /api/bot/game/{id}/chat``: one chat line."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(max_length=400)


NDJSON = "application/x-ndjson"


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def authenticated(request: Request, authorization: str | None = Header(default=None)) -> Account:
    """The bot account of the request's bearer token (401, 403; 429 for an address trying many)."""
    bots: Bots = request.app.state.bots
    return (await bots.account(authorization, _address(request)))[0]


TheBot = Annotated[Account, Depends(authenticated)]  # a route's bot account, from its Authorization header


def router(bots: Bots) -> APIRouter:
    """The bot API's routes (docs/api.md, "Bot API")."""
    r = APIRouter(tags=["bots"])

    @r.post("/api/bots/accounts", status_code=201)
    async def register(body: AccountBody) -> dict[str, Any]:
        """Register a bot account; the answer's ``token`` is shown once: keep it secret."""
        return await bots.register(body.name, body.owner, body.description, body.games)

    @r.get("/api/bots/protocol")
    async def protocol() -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) of the streams' lines, version :data:`PROTOCOL`."""
        return protocol_schema()

    @r.get("/api/bots/online")
    async def online() -> list[dict[str, Any]]:
        """The bot accounts whose program is connected now (its event stream is open)."""
        return bots.online_accounts()

    @r.get("/api/bots/accounts/{name}")
    async def account(name: str) -> dict[str, Any]:
        """A bot account's public facts, and whether it is online."""
        found = await bots.by_name(name)
        return {**found.public(), "online": found.id in bots.online}

    @r.get("/api/stream/event")
    async def event_stream(found: TheBot) -> StreamingResponse:
        """NDJSON: challenge, challengeCanceled, challengeDeclined, gameStart, gameFinish; heartbeats."""
        channel = await bots.open_events(found)

        async def lines() -> AsyncIterator[bytes]:
            try:
                async for line in bots.lines(channel):
                    yield line
            finally:
                bots.close_events(found, channel)

        return StreamingResponse(lines(), media_type=NDJSON)

    @r.get("/api/bot/game/stream/{table_id}")
    async def game_stream(table_id: str, found: TheBot,
                          since: int | None = Query(default=None, ge=0, le=10**7)) -> StreamingResponse:
        """NDJSON: gameFull first, then a gameState per change (events, legal actions and clock); heartbeats."""
        return StreamingResponse(await bots.game_stream(table_id, found, since), media_type=NDJSON)

    @r.post("/api/bot/game/{table_id}/action")
    async def act(table_id: str, body: ActionBody, found: TheBot) -> dict[str, Any]:
        """Play the bot's action: 400 with the engine's reason when illegal, 409 when stale, 429 when flooding."""
        return await bots.act(table_id, found, body.action, body.version)

    @r.post("/api/bot/game/{table_id}/resign")
    async def resign(table_id: str, found: TheBot) -> dict[str, Any]:
        """The bot resigns (a server bot plays its seat to the end; it ranks last)."""
        return await bots.resign(table_id, found)

    @r.post("/api/bot/game/{table_id}/chat")
    async def chat(table_id: str, body: BotChatBody,
                   found: TheBot) -> dict[str, Any]:
        """A chat line at the bot's table."""
        return await bots.chat(table_id, found, body.text)

    @r.post("/api/challenge/{bot}", status_code=201)
    async def challenge(bot: str, body: ChallengeBody, request: Request,
                        authorization: str | None = Header(default=None),
                        x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """Challenge an online bot account: a person (optionally with their player code), or a bot (its token)."""
        by = (await bots.account(authorization, _address(request)))[0] if bearer(authorization) else None
        return await bots.challenge(bot, body, by, x_player, _address(request))

    @r.post("/api/seeks", status_code=201)
    async def seek(body: ChallengeBody, request: Request, authorization: str | None = Header(default=None),
                   x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """An open seek: the game goes to the first online bot that plays it and takes it (as a challenge)."""
        by = (await bots.account(authorization, _address(request)))[0] if bearer(authorization) else None
        return await bots.challenge(None, body, by, x_player, _address(request))

    @r.get("/api/seeks")
    async def seeks() -> list[dict[str, Any]]:
        """The open seeks online bots posted (``POST /api/seeks`` with a bot's token): the lobby lists them."""
        return bots.open_seeks()

    @r.post("/api/seeks/{challenge_id}/take")
    async def take(challenge_id: str, body: TakeBody, request: Request,
                   x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """A person takes a bot's open seek: the game starts, and the answer holds their seat and token."""
        return await bots.take_seek(challenge_id, body.name, x_player, _address(request))

    @r.get("/api/challenge/{challenge_id}")
    async def challenge_status(challenge_id: str, x_challenge_key: str | None = Header(default=None)) -> dict[str, Any]:
        """The challenge's status; its challenger (X-Challenge-Key) gets their seat and token once accepted."""
        return bots.status(challenge_id, x_challenge_key)

    @r.post("/api/challenge/{challenge_id}/accept")
    async def accept(challenge_id: str, request: Request,
                     found: TheBot) -> dict[str, Any]:
        """The challenged bot accepts: the game starts and both players hear gameStart."""
        return await bots.accept(challenge_id, found, _address(request))

    @r.post("/api/challenge/{challenge_id}/decline")
    async def decline(challenge_id: str, found: TheBot, body: DeclineBody | None = None) -> dict[str, Any]:
        """The challenged bot declines (with an optional reason)."""
        return await bots.decline(challenge_id, found, body.reason if body else None)

    @r.post("/api/challenge/{challenge_id}/cancel")
    async def cancel(challenge_id: str, x_challenge_key: str | None = Header(default=None)) -> dict[str, Any]:
        """The person who challenged withdraws the challenge before it is answered."""
        return bots.cancel(challenge_id, x_challenge_key)

    return r

