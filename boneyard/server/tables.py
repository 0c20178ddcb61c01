"""Live tables: the authoritative games, seat tokens, bots and subscribers.

Each table holds its game in memory, rebuilt from the database with ``boneyard.replay``
when the server starts. One ``asyncio.Lock`` per table makes the server handle one action
at a time per table. Every action is written to the database before it is acknowledged or
broadcast. Clients only ever receive :meth:`TableService.state`, which is built from
``view(seat)`` (``view(None)`` for spectators) and, for the seat to act, its legal actions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

import boneyard
from boneyard.bots import Bot, bot, bots
from boneyard.errors import IllegalAction

from .db import Store, hash_token

log = logging.getLogger("boneyard.server")

MAX_NAME = 40


class ServerError(Exception):
    """A refused request: ``status`` is the HTTP status, the message says why."""

    status = 400


class BadRequest(ServerError):
    """Malformed or invalid input (400)."""

    status = 400


class Unauthorized(ServerError):
    """No seat token where one is needed (401)."""

    status = 401


class Forbidden(ServerError):
    """A token that does not belong to this table (403)."""

    status = 403


class NotFound(ServerError):
    """An unknown table (404)."""

    status = 404


class Conflict(ServerError):
    """A well-formed request that the table's state refuses: a taken seat, out of turn (409)."""

    status = 409


# A subscriber receives each new state for its seat (None: spectator).
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class Table:
    """One live table: its stored facts, the game, its joined seats and subscribers."""

    id: str
    game_id: str
    players: int
    seed: int
    rules: dict[str, Any]
    seats: list[str]
    game: Any
    deck: list[str] | None = None
    dealer: int | None = None
    actions: list[str] = field(default_factory=list)
    names: dict[int, str] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)  # token hash -> seat
    bots: dict[int, Bot] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: dict[int, tuple[int | None, Send]] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None

    def record(self) -> dict[str, Any]:
        """What ``boneyard.replay`` needs to rebuild this table's game."""
        record: dict[str, Any] = {"game": self.game_id, "players": self.players, "seed": self.seed,
                                  "rules": self.rules, "actions": list(self.actions)}
        if self.deck is not None:
            record["deck"] = self.deck
        if self.dealer is not None:
            record["dealer"] = self.dealer
        return record

    def seat_info(self) -> list[dict[str, Any]]:
        """Public facts about each seat: human or bot, and who sits there."""
        out = []
        for s, kind in enumerate(self.seats):
            is_bot = kind.startswith("bot:")
            out.append({
                "seat": s,
                "kind": "bot" if is_bot else "human",
                "bot": kind[4:] if is_bot else None,
                "name": self.names.get(s) or (kind[4:] + " bot" if is_bot else None),
                "joined": is_bot or s in self.names,
            })
        return out


def parse_seats(seats: Any, players: int) -> list[str]:
    """Check a seats list (``"human"`` or ``"bot:NAME"`` per seat); ``BadRequest`` says what is wrong."""
    if seats is None:
        return ["human"] * players
    if not isinstance(seats, list) or len(seats) != players:
        raise BadRequest(f"seats must be a list of {players} entries, one per seat, each \"human\" or \"bot:NAME\"")
    out = []
    for s, kind in enumerate(seats):
        if kind == "human":
            out.append(kind)
        elif isinstance(kind, str) and kind.startswith("bot:"):
            name = kind[4:]
            if name not in bots():
                raise BadRequest(f"seat {s}: unknown bot {name!r}; available bots: {', '.join(bots())}")
            out.append(kind)
        else:
            raise BadRequest(f"seat {s}: {kind!r} is neither \"human\" nor \"bot:NAME\"")
    return out


class TableService:
    """All live tables of one server, backed by a :class:`Store`."""

    def __init__(self, store: Store, bot_delay: float = 0.6) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self._next_sub = 0

    # ----- loading -------------------------------------------------------------------

    def load_all(self) -> None:
        """Rebuild every stored table from its record (at server start)."""
        for row in self.store.tables():
            try:
                self._load(row.id)
            except Exception:  # a table the current engines cannot rebuild stays offline
                log.exception("table %s could not be restored", row.id)

    def _load(self, table_id: str) -> Table:
        row = self.store.table(table_id)
        if row is None:
            raise NotFound(f"no table {table_id!r}")
        table = Table(id=row.id, game_id=row.game, players=row.players, seed=int(row.seed), rules=dict(row.rules),
                      seats=list(row.seats), game=None, deck=row.deck, dealer=row.dealer,
                      actions=self.store.actions(table_id))
        table.game = boneyard.replay(table.record())
        for seat_row in self.store.seats(table_id):
            table.names[seat_row.seat] = seat_row.name
            table.tokens[seat_row.token_hash] = seat_row.seat
        table.bots = {s: bot(k[4:]) for s, k in enumerate(table.seats) if k.startswith("bot:")}
        self.tables[table_id] = table
        return table

    def get(self, table_id: str) -> Table:
        """A live table; ``NotFound`` if there is none with that id."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._load(table_id)
        return table

    # ----- requests ------------------------------------------------------------------

    def create(
        self, game_id: Any, players: Any, rules: Any, seats: Any, seed: Any = None, deck: Any = None, dealer: Any = None
    ) -> Table:
        """Open a new table; ``BadRequest`` names a bad game, player count, rule, seat, deck or dealer."""
        if not isinstance(game_id, str) or game_id not in boneyard.games():
            raise BadRequest(f"unknown game {game_id!r}; known games: {', '.join(boneyard.games())}")
        if rules is None:
            rules = {}
        if not isinstance(rules, dict):
            raise BadRequest("rules must be an object of option names to values")
        if seed is None:
            seed = secrets.randbelow(2**62)
        try:
            if deck is not None and not (isinstance(deck, list) and all(isinstance(t, str) for t in deck)):
                raise ValueError("deck must be a list of tile strings such as \"6-4\"")
            game = boneyard.new_game(game_id, players=players, seed=seed, rules=rules, deck=deck, dealer=dealer)
        except ValueError as err:
            raise BadRequest(str(err)) from None
        seat_kinds = parse_seats(seats, game.players)
        table_id = secrets.token_urlsafe(6)
        rules_dict = game.rules.to_dict()
        record = game.record()
        deck, dealer = record.get("deck"), record.get("dealer")
        self.store.add_table(table_id, game_id, game.players, seed, rules_dict, seat_kinds, deck, dealer)
        table = Table(id=table_id, game_id=game_id, players=game.players, seed=seed, rules=rules_dict,
                      seats=seat_kinds, game=game, deck=deck, dealer=dealer)
        table.bots = {s: bot(k[4:]) for s, k in enumerate(seat_kinds) if k.startswith("bot:")}
        self.tables[table_id] = table
        self.kick(table)
        return table

    async def join(self, table_id: str, seat: Any, name: Any) -> tuple[int, str]:
        """Take a human seat (``None``: the first free one); returns the seat and its secret token."""
        table = self.get(table_id)
        if not isinstance(name, str) or not name.strip():
            raise BadRequest("name must be a non-empty string")
        name = name.strip()[:MAX_NAME]
        async with table.lock:
            free = [s for s, k in enumerate(table.seats) if k == "human" and s not in table.names]
            if seat is None:
                if not free:
                    raise Conflict("every human seat at this table is taken")
                seat = free[0]
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
                raise BadRequest(f"seat must be a number from 0 to {table.players - 1}, got {seat!r}")
            if table.seats[seat] != "human":
                raise Conflict(f"seat {seat} is played by the {table.seats[seat][4:]} bot")
            if seat in table.names:
                raise Conflict(f"seat {seat} is already taken by {table.names[seat]}")
            token = secrets.token_urlsafe(24)
            try:
                self.store.add_seat(table.id, seat, name, token)
            except IntegrityError:
                raise Conflict(f"seat {seat} is already taken") from None
            table.names[seat] = name
            table.tokens[hash_token(token)] = seat
        await self.broadcast(table)
        return seat, token

    def seat_of(self, table: Table, token: str | None, required: bool) -> int | None:
        """The seat a token belongs to; None for no token unless ``required``."""
        if not token:
            if required:
                raise Unauthorized("a seat token is required: send 'Authorization: Bearer TOKEN' from your join")
            return None
        seat = table.tokens.get(hash_token(token))
        if seat is None:
            raise Forbidden("this token does not belong to any seat at this table")
        return seat

    def state(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now: its view, and its legal actions when it is to act."""
        game = table.game
        legal = [str(a) for a in game.legal_actions()] if seat is not None and seat == game.current_player else []
        return {
            "table": table.id,
            "game": table.game_id,
            "seat": seat,
            "version": len(table.actions),
            "seats": table.seat_info(),
            "view": game.view(seat),
            "legal_actions": legal,
            "current_player": game.current_player,
            "scores": list(game.scores),
            "is_over": game.is_over,
            "winners": list(game.winners),
        }

    def summary(self, table: Table) -> dict[str, Any]:
        """A lobby line for a table: public facts only."""
        seats = table.seat_info()
        return {
            "id": table.id,
            "game": table.game_id,
            "players": table.players,
            "rules": table.rules,
            "seats": seats,
            "open_seats": [s["seat"] for s in seats if not s["joined"]],
            "actions": len(table.actions),
            "is_over": table.game.is_over,
        }

    async def act(self, table_id: str, token: str | None, action: Any) -> dict[str, Any]:
        """Play a seat's action; refused actions leave the table unchanged."""
        table = self.get(table_id)
        seat = self.seat_of(table, token, required=True)
        if not isinstance(action, str) or not action.strip():
            raise BadRequest("action must be a non-empty string in the action notation, e.g. \"play 6-4\"")
        async with table.lock:
            game = table.game
            if game.is_over:
                raise BadRequest("the game is over: no action can be played")
            if seat is None or game.current_player != seat:
                raise BadRequest(f"not your turn: seat {game.current_player} is to act, you are seat {seat}")
            self._apply(table, seat, action)
            state = self.state(table, seat)
        self.kick(table)
        await self.broadcast(table)
        return state

    def _apply(self, table: Table, seat: int, action: str) -> None:
        """Apply and persist one action; ``BadRequest`` (the engine's message) if illegal."""
        game = table.game
        try:
            game.apply(action)
        except IllegalAction as err:
            raise BadRequest(str(err)) from None
        text = game.record()["actions"][-1]
        try:
            self.store.add_action(table.id, len(table.actions), text, seat, game.is_over)
        except Exception:
            # Not persisted, so not played: rebuild the game as the database has it.
            table.game = boneyard.replay(table.record())
            raise
        table.actions.append(text)

    async def hint(self, table_id: str, token: str | None) -> dict[str, Any]:
        """The solver's best play for the token's seat (rummikub), built from that seat's view only."""
        from .hints import rummikub_hint

        table = self.get(table_id)
        seat = self.seat_of(table, token, required=True)
        if table.game_id != "rummikub":
            raise BadRequest(f"hints are given at rummikub tables only; this table plays {table.game_id}")
        async with table.lock:
            game = table.game
            if game.is_over:
                raise Conflict("the game is over: there is nothing to hint")
            if seat is None or game.current_player != seat:
                raise Conflict(
                    f"a hint is for the seat to play: seat {game.current_player} is to act, you are seat {seat}"
                )
            view = game.view(seat)
            found = await asyncio.to_thread(rummikub_hint, view)
            if found["action"] is not None and not game.is_legal(found["action"]):
                found.update(action=None, why="the solver's play is not legal now under this table's rules")
            return {"table": table.id, "seat": seat, "version": len(table.actions), **found}

    def replay_state(self, table: Table, seat: int | None, step: int) -> dict[str, Any]:
        """A finished game as ``seat`` saw it after ``step`` actions (the replay viewer)."""
        if not table.game.is_over:
            raise Conflict("the replay opens once the game is over")
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(table.actions):
            raise BadRequest(f"step must be from 0 to {len(table.actions)}")
        game = boneyard.replay({**table.record(), "actions": table.actions[:step]})
        return {
            "table": table.id,
            "game": table.game_id,
            "seat": seat,
            "step": step,
            "steps": len(table.actions),
            "action": table.actions[step - 1] if step else None,
            "seats": table.seat_info(),
            "view": game.view(seat),
            "legal_actions": [],
            "current_player": game.current_player,
            "scores": list(game.scores),
            "is_over": game.is_over,
            "winners": list(game.winners),
        }

    # ----- subscribers ---------------------------------------------------------------

    def subscribe(self, table: Table, seat: int | None, send: Send) -> int:
        """Register a live client; returns the id to unsubscribe with."""
        self._next_sub += 1
        table.subscribers[self._next_sub] = (seat, send)
        return self._next_sub

    def unsubscribe(self, table: Table, sub: int) -> None:
        """Forget a live client."""
        table.subscribers.pop(sub, None)

    async def broadcast(self, table: Table) -> None:
        """Send every subscriber its own state (built from its own view)."""
        for sub, (seat, send) in list(table.subscribers.items()):
            try:
                await send(self.state(table, seat))
            except Exception:
                self.unsubscribe(table, sub)

    # ----- bots ----------------------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Start the table's bot loop if a bot is to act and none is running."""
        game = table.game
        if game.is_over or game.current_player not in table.bots:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (startup): resume_bots starts it
        table.bot_task = loop.create_task(self._bot_loop(table))

    def resume_bots(self) -> None:
        """Start the bot loops of every table waiting on a bot (after a restart)."""
        for table in self.tables.values():
            self.kick(table)

    async def _bot_loop(self, table: Table) -> None:
        while True:
            await asyncio.sleep(self.bot_delay)
            async with table.lock:
                game = table.game
                seat = game.current_player
                if game.is_over or seat is None or seat not in table.bots:
                    return
                view, legal = game.view(seat), game.legal_actions()
                rng = random.Random(f"{table.seed}:{len(table.actions)}")
                try:
                    choice = await asyncio.to_thread(table.bots[seat].choose, view, legal, rng)
                    text = str(choice)
                    if not game.is_legal(text):
                        raise IllegalAction(f"bot chose {text!r}")
                except Exception:
                    log.exception("bot at table %s seat %s failed; playing a random legal action", table.id, seat)
                    text = str(legal[rng.randrange(len(legal))])
                self._apply(table, seat, text)
            await self.broadcast(table)

    async def stop(self) -> None:
        """Cancel the bot loops (at shutdown)."""
        for table in self.tables.values():
            task = table.bot_task
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
