"""Club events: a host's tournament of one game over several rounds of ordinary tables
(``docs/api.md``, "Tournaments").

An event is stored in three tables of its own: the event (its game, table size, format,
rounds, rules options and clock, state and the number of rounds made), its entrants (a
player code each, in join order: their seed) and its tables (which table each round
played, who sat where and, once the game is over, each seat's place). Who sits with whom
and the standings are the pure rules of ``pairing.py``.

The tables are ordinary tables: made by the table service, opened as friends' tables
(``social.py``) that wait until every entrant is seated, and rated by ``rating.py`` like
any other game. The table service calls :meth:`Tourney.changed` after every broadcast:
a table of the event whose game is over gets its result stored, and when every table of
the round has one, the next round is paired and made (or the event ends). A server that
starts again finds the same state in the database and goes on (:meth:`Tourney.resume`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, Float, ForeignKey, Integer, String, insert, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

import boneyard

from . import pairing, rating
from .clock import SlowClock
from .db import Base, hash_token
from .social import Social, clock_option
from .tables import (
    STORE_ERRORS,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    ServerError,
    Table,
    TableService,
    TooManyRequests,
    Unauthorized,
    Unavailable,
    check_rules,
    check_seat_bot,
    clean_name,
    quote,
)

log = logging.getLogger("boneyard.server")

FILL_BOT = "greedy"  # plays the seats no entrant fills
MAX_ENTRANTS = 64
MAX_ROUNDS = 30
MAX_CLOCK = 3600
RETRIES = 6  # tries to count a finished table while the database is away (0.5 s to 8 s apart)
CODE_RATE = parse("60/minute")  # player-code requests (join, me, seat) one address may make

OPEN, RUNNING, FINISHED = "open", "running", "finished"


class EventRow(Base):
    """A club event: one game, tables of ``size`` seats, ``rounds`` rounds in a format."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(32))
    size: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: a round robin's natural length
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock: Mapped[Any] = mapped_column(JSON, nullable=True)  # passed to each table as the lobby's "clock"
    bot: Mapped[str] = mapped_column(String(40))
    host_hash: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16))
    round: Mapped[int] = mapped_column(Integer, default=0)  # rounds made so far
    created: Mapped[float] = mapped_column(Float)
    final: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)  # the standings at the end


class EntrantRow(Base):
    """An entrant: ``number`` is their seed (join order, 0 first)."""

    __tablename__ = "event_entrants"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    name: Mapped[str] = mapped_column(String(64))


class EventTableRow(Base):
    """One table of an event's round: who sits at each seat (an entrant, or null for a bot) and,
    once its game is over, each seat's place."""

    __tablename__ = "event_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)  # 1 first
    number: Mapped[int] = mapped_column(Integer)  # the table's number in its round, 1 first
    seats: Mapped[list[int | None]] = mapped_column(JSON)
    ranks: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)


class CreateEvent(BaseModel):
    """``POST /api/events``: what the host chooses."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(max_length=400, description="the event's name, 1 to 40 printable characters")
    game: str = Field(max_length=40, description="a game id from GET /api/games")
    players: int | None = Field(default=None, ge=1, le=64, description="seats per table (default: the game's standard)")
    format: str = Field(default="swiss", max_length=16, description='"swiss" or "round_robin"')
    rounds: int | None = Field(default=None, ge=1, le=MAX_ROUNDS,
                               description="rounds to play (required for Swiss; a round robin's default: see the docs)")
    rules: dict[str, Any] = Field(default_factory=dict, description="the game's rules options for every table")
    clock: Annotated[float, Field(ge=1, le=MAX_CLOCK)] | SlowClock | None = Field(
        default=None, description='each table\'s clock, as POST /api/tables takes it: seconds per decision (real '
                                  'time) or {"per_move": S} / {"per_game": S} (a turn-based event); default none')
    bot: str = Field(default=FILL_BOT, max_length=40, description="the bot that fills seats no entrant takes")


def _stored_clock(clock: float | SlowClock | None) -> Any:
    """The event's clock as its row keeps it (JSON): a number, or the turn-based option as given."""
    if isinstance(clock, SlowClock):
        return clock.model_dump(exclude_none=True)
    return clock


def _table_clock(stored: Any) -> tuple[float | None, float | None]:
    """(seconds per decision, a player's bank for the game) of each table, read from the stored
    clock by the tables' own reader (:func:`~.social.clock_option`)."""
    return clock_option(SlowClock(**stored) if isinstance(stored, dict) else stored)


class HostBody(BaseModel):
    """``POST /api/events/{id}/start``: nothing but the host's token (in the header)."""

    model_config = ConfigDict(extra="forbid", strict=True)


def _fill_sentence(size: int, bot: str) -> str:
    """The event page's and the API's words for how seats are filled (``docs/api.md``)."""
    if size == 1:
        return "Each entrant plays alone."
    return (f"Each round has as many tables of {size} as the entrants need; seats left over go to the {bot} bot, "
            "at most one to a table where that is enough, starting from the last table. Bots are no entrants: "
            "they earn no points, but a table-mate's place against a bot counts like one against a person. "
            "There are no byes.")


class Tourney:
    """The club events of one server: their routes' work and the hook that moves them on."""

    def __init__(self, service: TableService, social: Social, limiter: Any = None) -> None:
        self.service = service
        # player-code tries by address: the server's shared window (ratelimit.Window) when given
        self._limiter = limiter if limiter is not None else MovingWindowRateLimiter(MemoryStorage())
        self.social = social
        self.rounds_of: dict[str, str] = {}  # table id -> event id, for the tables of current rounds
        self._locks: dict[str, asyncio.Lock] = {}
        service.hooks.append(self)

    # ----- hooks of the table service ------------------------------------------------

    def loaded(self, table: Table) -> None:
        """A stored table is rebuilt: nothing to do (:meth:`resume` reads the events)."""

    def changed(self, table: Table) -> None:
        """After every broadcast: a finished table of a running round is counted."""
        event_id = self.rounds_of.get(table.id)
        if event_id is not None and table.game.is_over:
            self.rounds_of.pop(table.id, None)
            self.service._spawn(self._retrying(event_id, table))

    async def _retrying(self, event_id: str, table: Table) -> None:
        """Count a finished table, trying again a few times while the database is away.

        Counting is safe to repeat: a stored result is not stored twice, and a round is
        made only by the change that moves the event from one round to the next. What fails
        for good is picked up by :meth:`resume` at the next start.
        """
        wait = 0.5
        for _ in range(RETRIES):
            try:
                await self._table_over(event_id, table)
                return
            except (Unavailable, *STORE_ERRORS):
                log.warning("event %s: table %s not counted yet, the database is away; again in %.1f s",
                            event_id, table.id, wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, 8.0)
            except Exception:
                break
        log.error("event %s: table %s could not be counted; the next start counts it", event_id, table.id)

    @staticmethod
    async def _quiet(coro: Any) -> None:
        try:
            await coro
        except Exception:
            log.exception("an event could not move on; the next start tries again")

    def _lock(self, event_id: str) -> asyncio.Lock:
        """The lock that makes one change of an event at a time; asked for only once the event is
        known to exist, so that requests naming made-up events leave nothing behind."""
        return self._locks.setdefault(event_id, asyncio.Lock())

    def _check_code(self, address: str) -> None:
        """Count one player-code try of ``address``: codes are secrets, so trying them is limited."""
        if not self._limiter.hit(CODE_RATE, "event-code", address):
            raise TooManyRequests("too many player codes tried from your address: wait a minute", 60)

    # ----- reading -------------------------------------------------------------------

    def _read(self, event_id: str) -> tuple[EventRow, list[EntrantRow], list[EventTableRow]]:
        with self.service.store.session() as s:
            event = s.get(EventRow, event_id)
            if event is None:
                raise NotFound(f"no event {quote(event_id)}")
            entrants = list(s.scalars(select(EntrantRow).where(EntrantRow.event_id == event_id)
                                      .order_by(EntrantRow.number)))
            tables = list(s.scalars(select(EventTableRow).where(EventTableRow.event_id == event_id)
                                    .order_by(EventTableRow.round, EventTableRow.number)))
            return event, entrants, tables

    async def read(self, event_id: str) -> tuple[EventRow, list[EntrantRow], list[EventTableRow]]:
        """An event, its entrants and its tables from the database (503 while it is away)."""
        try:
            return await self.service._run(self._read, event_id)
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached ({type(err).__name__})") from None

    @staticmethod
    def results(tables: list[EventTableRow]) -> list[pairing.TableResult]:
        """The finished tables as the pairing rules take them."""
        return [pairing.TableResult(tuple(t.seats), tuple(t.ranks)) for t in tables if t.ranks is not None]

    def view(self, event: EventRow, entrants: list[EntrantRow], tables: list[EventTableRow]) -> dict[str, Any]:
        """The event as ``GET /api/events/{id}`` shows it: facts, entrants, rounds and standings."""
        names = {e.number: e.name for e in entrants}
        bot_name = f"{event.bot} bot"
        rounds: list[dict[str, Any]] = []
        for t in tables:
            while len(rounds) < t.round:
                rounds.append({"round": len(rounds) + 1, "tables": []})
            points = pairing.placing_points(t.ranks) if t.ranks is not None else None
            seats = [{"seat": i, "entrant": e, "name": names.get(e, "?") if e is not None else bot_name,
                      "bot": e is None, "rank": t.ranks[i] if t.ranks is not None else None,
                      "points": points[i] if points is not None else None} for i, e in enumerate(t.seats)]
            rounds[t.round - 1]["tables"].append({"id": t.table_id, "number": t.number, "over": t.ranks is not None,
                                                  "seats": seats})
        if event.final is not None:
            table = event.final
        else:
            table = [{"place": s.place, "entrant": s.entrant, "name": names[s.entrant], "points": s.points,
                      "buchholz": s.buchholz, "head_to_head": s.head_to_head, "played": s.played}
                     for s in pairing.standings(len(entrants), self.results(tables))]
        info = boneyard.game_info(event.game)
        return {
            "id": event.id, "name": event.name, "game": event.game, "game_name": info["name"],
            "players": event.size, "format": event.format, "rounds": self._rounds(event, len(entrants)),
            "rules": event.rules, "clock": event.clock, "bot": event.bot, "state": event.state,
            "round": event.round, "created": event.created,
            "entrants": [{"entrant": e.number, "name": e.name} for e in entrants],
            "played": rounds, "standings": table, "seating": _fill_sentence(event.size, event.bot),
            "lower_is_better": bool(info.get("lower_is_better")),
        }

    @staticmethod
    def _rounds(event: EventRow, entrants: int) -> int | None:
        """The rounds the event plays; a round robin without a number plays its natural length
        (known once the entrants are: None before)."""
        if event.rounds is not None:
            return event.rounds
        return pairing.round_robin_rounds(entrants, event.size) if entrants >= 2 else None

    def listing(self) -> list[dict[str, Any]]:
        """Every event, newest first (at most 100): the events page's list."""
        with self.service.store.session() as s:
            rows = list(s.scalars(select(EventRow).order_by(EventRow.created.desc()).limit(100)))
            counts = {r.id: len(list(s.scalars(select(EntrantRow.number).where(EntrantRow.event_id == r.id))))
                      for r in rows}
        return [{"id": r.id, "name": r.name, "game": r.game, "game_name": boneyard.game_info(r.game)["name"],
                 "players": r.size, "format": r.format, "state": r.state, "round": r.round,
                 "rounds": self._rounds(r, counts[r.id]), "entrants": counts[r.id], "created": r.created}
                for r in rows]

    # ----- the host and the entrants ---------------------------------------------------

    async def create(self, body: CreateEvent) -> dict[str, Any]:
        """A new event, open for entries; answers its id and the host's secret token."""
        name = clean_name(body.name)
        if body.game not in boneyard.games():
            raise BadRequest(f"unknown game {quote(body.game)}; known games: {', '.join(boneyard.games())}")
        info = boneyard.game_info(body.game)
        span = info["players"]
        size = body.players if body.players is not None else span["default"]
        if not span["min"] <= size <= span["max"]:
            raise BadRequest(f"{info['name']} is played by {span['min']} to {span['max']} players, not {size}")
        if body.format not in pairing.FORMATS:
            raise BadRequest(f"format must be one of {', '.join(pairing.FORMATS)}, got {quote(body.format)}")
        if body.format == "swiss" and body.rounds is None:
            raise BadRequest("a Swiss event needs a number of rounds")
        rules = check_rules(body.rules)
        try:  # the options are checked once here, by the game itself, rather than at the first round
            rules = boneyard.new_game(body.game, players=size, seed=0, rules=rules).rules.to_dict()
        except ValueError as err:
            raise BadRequest(str(err)[:600]) from None
        check_seat_bot(body.bot, game=body.game, players=size)  # the bot fills this event's empty seats
        host = secrets.token_urlsafe(18)
        event_id = secrets.token_urlsafe(6)
        row = EventRow(id=event_id, name=name, game=body.game, size=size, format=body.format,
                       rounds=body.rounds, rules=rules, clock=_stored_clock(body.clock), bot=body.bot,
                       host_hash=hash_token(host),
                       state=OPEN, round=0, created=time.time(), final=None)
        await self._write(lambda s: s.add(row), "the event was not made")
        return {"id": event_id, "host_token": host}

    async def _write(self, fn: Any, not_done: str) -> None:
        try:
            await self.service.committer.write(fn)
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached, so {not_done} ({type(err).__name__})") from None

    async def join(self, event_id: str, code: str | None, address: str) -> dict[str, Any]:
        """Enter the player with ``code`` (before the start); entering again answers the same entry."""
        self._check_code(address)
        pid, name = await self.service._run(self.social.player, code)
        await self.read(event_id)  # 404 before any lock is made for it
        async with self._lock(event_id):
            event, entrants, _tables = await self.read(event_id)
            mine = next((e for e in entrants if e.player_id == pid), None)
            if mine is not None:
                return {"entrant": mine.number, "name": mine.name}
            if event.state != OPEN:
                raise Conflict("this event has started: entries are closed")
            if len(entrants) >= MAX_ENTRANTS:
                raise Conflict(f"this event is full ({MAX_ENTRANTS} entrants)")
            number = len(entrants)

            def write(s: Session) -> None:
                if s.get(EventRow, event_id) is None or s.scalar(
                        select(EventRow.state).where(EventRow.id == event_id)) != OPEN:
                    raise Conflict("this event has started: entries are closed")
                s.add(EntrantRow(event_id=event_id, number=number, player_id=pid, name=name))

            await self._write(write, "you did not join")
        return {"entrant": number, "name": name}

    async def me(self, event_id: str, code: str | None, address: str) -> dict[str, Any]:
        """The player's entry and their table in the current round (null where none)."""
        self._check_code(address)
        pid, name = await self.service._run(self.social.player, code)
        event, entrants, tables = await self.read(event_id)
        mine = next((e for e in entrants if e.player_id == pid), None)
        if mine is None:
            return {"entrant": None, "name": name, "table": None, "seat": None, "over": None}
        now = [t for t in tables if t.round == event.round and mine.number in t.seats]
        if not now:
            return {"entrant": mine.number, "name": mine.name, "table": None, "seat": None, "over": None}
        return {"entrant": mine.number, "name": mine.name, "table": now[0].table_id,
                "seat": now[0].seats.index(mine.number), "over": now[0].ranks is not None}

    async def seat(self, event_id: str, code: str | None, address: str) -> dict[str, Any]:
        """A fresh token of the player's seat at their table of the current round, to play it here."""
        mine = await self.me(event_id, code, address)
        if mine["entrant"] is None:
            raise Forbidden("this player has not entered this event")
        if mine["table"] is None:
            raise Conflict("you have no table now: the event has not started")
        table = await self.service.get(mine["table"])
        seat = mine["seat"]
        return {"table": table.id, "seat": seat, "token": await self.social.new_key(table, seat)}

    async def start(self, event_id: str, host: str | None) -> dict[str, Any]:
        """The host's Start: entries close and the first round is made."""
        if not host:
            raise Unauthorized("only the host can start the event: send the host token (header X-Host-Token)")
        await self.read(event_id)  # 404 before any lock is made for it
        async with self._lock(event_id):
            event, entrants, _tables = await self.read(event_id)
            if hash_token(host) != event.host_hash:
                raise Forbidden("this host token does not belong to this event")
            if event.state != OPEN:
                raise Conflict("the event has already started")
            if len(entrants) < 2:
                raise Conflict("an event needs at least two entrants")
            await self._make_round(event, entrants, [])
        return {"started": True}

    # ----- rounds --------------------------------------------------------------------

    async def _make_round(self, event: EventRow, entrants: list[EntrantRow], tables: list[EventTableRow]) -> None:
        """Pair round ``event.round + 1`` from the stored results and make its tables (the event's lock is held).

        The tables are made and their entrants seated first; then one transaction stores
        them with the round, on condition that nobody stored this round before (another
        server process): the loser's tables are left to expire unplayed.
        """
        index = event.round
        seats = pairing.pair_round(event.format, len(entrants), event.size, index, self.results(tables))
        made: list[dict[str, Any]] = []
        for number, line in enumerate(seats, start=1):
            table = await self._table(event, entrants, line)
            made.append({"table_id": table.id, "event_id": event.id, "round": index + 1, "number": number,
                         "seats": list(line), "ranks": None})
        advanced = [False]

        def write(s: Session) -> None:
            result = s.execute(update(EventRow).where(EventRow.id == event.id, EventRow.round == index)
                               .values(round=index + 1, state=RUNNING))
            advanced[0] = bool(result.rowcount)  # type: ignore[attr-defined]
            if advanced[0]:
                s.execute(insert(EventTableRow), made)

        await self._write(write, "the round was not stored")
        if advanced[0]:
            for row in made:
                self.rounds_of[row["table_id"]] = event.id
            event.round, event.state = index + 1, RUNNING

    async def _table(self, event: EventRow, entrants: list[EntrantRow], line: tuple[int | None, ...]) -> Table:
        """One table of a round: made, opened as a friends' table with the event's clock and the
        event's host as its host (who may hand an absent player's seat to a bot there, as any
        table's host may), and every entrant seated under their name and linked to their player
        code (for ratings and resuming)."""
        kinds = ["human" if e is not None else "bot:" + event.bot for e in line]
        table = await self.service.create(event.game, event.size, dict(event.rules), kinds)
        per_move, per_game = _table_clock(event.clock)
        await self.social.created(table, per_move, per_game, host_hash=event.host_hash)
        by_number = {e.number: e for e in entrants}
        for seat, e in enumerate(line):
            if e is None:
                continue
            entrant = by_number[e]
            await self.service.join(table.id, seat, entrant.name)
            await self.social.link(table, seat, entrant.player_id)
        return table

    async def _table_over(self, event_id: str, table: Table) -> None:
        """Store a finished table's places; when the round is complete, make the next one or end the event."""
        async with self._lock(event_id):
            event, entrants, tables = await self.read(event_id)
            row = next((t for t in tables if t.table_id == table.id), None)
            if row is None:
                return
            if row.ranks is None:  # else stored by an earlier try, whose next round may not have been made
                row.ranks = self.places(table)
                ranks = row.ranks

                def write(s: Session) -> None:
                    s.execute(update(EventTableRow).where(EventTableRow.table_id == table.id).values(ranks=ranks))

                await self._write(write, "the result was not stored")
            await self._advance(event, entrants, tables)

    def places(self, table: Table) -> list[int]:
        """Each seat's place at a finished table, by the rules of the ratings (``rating.ranks``):
        the winners first, then by score in the game's direction, seats that resigned last."""
        groups = self.social.sides(table)
        room = self.social.rooms.get(table.id)
        resigned = list(room.resigned) if room is not None else []
        info = boneyard.game_info(table.game_id)
        side_ranks = rating.ranks(groups, list(table.game.scores), list(table.game.winners),
                                  bool(info.get("lower_is_better")), resigned)
        out = [0] * table.players
        for side, place in zip(groups, side_ranks, strict=True):
            for s in side:
                out[s] = place
        return out

    async def _advance(self, event: EventRow, entrants: list[EntrantRow], tables: list[EventTableRow]) -> None:
        """With every table of the current round finished: the next round, or the end (the lock is held)."""
        if event.state != RUNNING or any(t.ranks is None for t in tables if t.round == event.round):
            return
        total = self._rounds(event, len(entrants))
        if total is not None and event.round < total:
            await self._make_round(event, entrants, tables)
            return
        names = {e.number: e.name for e in entrants}
        final = [{"place": s.place, "entrant": s.entrant, "name": names[s.entrant], "points": s.points,
                  "buchholz": s.buchholz, "head_to_head": s.head_to_head, "played": s.played}
                 for s in pairing.standings(len(entrants), self.results(tables))]

        def write(s: Session) -> None:
            s.execute(update(EventRow).where(EventRow.id == event.id, EventRow.state == RUNNING)
                      .values(state=FINISHED, final=final))

        await self._write(write, "the event's end was not stored")
        event.state = FINISHED

    async def resume(self) -> None:
        """At start: every running event's unfinished tables are watched again, results that came in
        while no server counted them are stored, and a complete round moves the event on."""
        wait = 0.25
        while True:
            try:
                ids = await self.service._run(self._running)
                break
            except STORE_ERRORS:
                log.warning("the database cannot list the running events; again in %.2f s", wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, 5.0)
        for event_id in ids:
            await self._quiet(self._resume_one(event_id))

    def _running(self) -> list[str]:
        with self.service.store.session() as s:
            return list(s.scalars(select(EventRow.id).where(EventRow.state == RUNNING)))

    async def _resume_one(self, event_id: str) -> None:
        async with self._lock(event_id):
            event, entrants, tables = await self.read(event_id)
            for row in tables:
                if row.round != event.round or row.ranks is not None:
                    continue
                try:
                    table = await self.service.get(row.table_id)
                except ServerError as err:
                    log.warning("event %s: table %s cannot be loaded (%s)", event_id, row.table_id, err)
                    continue
                if table.game.is_over:
                    row.ranks = self.places(table)
                    ranks, table_id = row.ranks, row.table_id

                    def write(s: Session, ranks: list[int] = ranks, table_id: str = table_id) -> None:
                        s.execute(update(EventTableRow).where(EventTableRow.table_id == table_id).values(ranks=ranks))

                    await self._write(write, "the result was not stored")
                else:
                    self.rounds_of[row.table_id] = event_id
            await self._advance(event, entrants, tables)


# ----- routes ----------------------------------------------------------------------------

STATIC = resources.files("boneyard.server").joinpath("static")


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def router(tourney: Tourney) -> APIRouter:
    """The events' routes (``docs/api.md``, "Tournaments") and their two pages."""
    r = APIRouter(tags=["events"])

    @r.post("/api/events", status_code=201)
    async def create(body: CreateEvent) -> dict[str, Any]:
        """Make an event, open for entries: answers its id and the host token (keep it: it starts the event)."""
        return await tourney.create(body)

    @r.get("/api/events")
    async def listing() -> list[dict[str, Any]]:
        """Every event, newest first (at most 100)."""
        return await tourney.service._run(tourney.listing)

    @r.get("/api/events/{event_id}")
    async def event(event_id: str) -> dict[str, Any]:
        """The event: its facts, entrants, every round's tables with places and points, and the standings."""
        return tourney.view(*await tourney.read(event_id))

    @r.post("/api/events/{event_id}/join")
    async def join(event_id: str, request: Request, x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """Enter the player whose code is in X-Player (before the start)."""
        return await tourney.join(event_id, x_player, _address(request))

    @r.get("/api/events/{event_id}/me")
    async def me(event_id: str, request: Request, x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """The X-Player's entry and their table in the current round."""
        return await tourney.me(event_id, x_player, _address(request))

    @r.post("/api/events/{event_id}/seat")
    async def seat(event_id: str, request: Request, x_player: str | None = Header(default=None)) -> dict[str, Any]:
        """A token of the X-Player's seat at their table of the current round (open the table with it)."""
        return await tourney.seat(event_id, x_player, _address(request))

    @r.post("/api/events/{event_id}/start")
    async def start(event_id: str, body: HostBody | None = None,
                    x_host_token: str | None = Header(default=None)) -> dict[str, Any]:
        """The host closes entries and the first round's tables are made and seated."""
        return await tourney.start(event_id, x_host_token)

    @r.get("/events", response_class=HTMLResponse, include_in_schema=False)
    def events_page() -> HTMLResponse:
        return HTMLResponse(STATIC.joinpath("events", "index.html").read_text(encoding="utf-8"))

    @r.get("/events/{event_id}", response_class=HTMLResponse, include_in_schema=False)
    def event_page(event_id: str) -> HTMLResponse:
        return HTMLResponse(STATIC.joinpath("events", "event.html").read_text(encoding="utf-8"))

    return r
