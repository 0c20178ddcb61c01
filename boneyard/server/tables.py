"""Live tables: the authoritative games, seat tokens, bots and subscribers.

How work is spread so that no table can hold up another (``docs/deploy.md`` defends it):

- **The event loop only routes.** It parses requests, checks tokens, puts ready-made JSON
  into subscribers' queues (``clients.py``) and awaits futures. It never runs an engine,
  builds a view or talks to the database.
- **Engine work runs on a small thread pool** (``TableService.pool``): applying an action,
  choosing a bot's action, and building every seat's state after a change (its view, its
  legal actions, its JSON push), all in one hop. A per-table ``asyncio.Lock`` makes one
  table's work strictly sequential while other tables' work proceeds. Rare, long work (a
  replay step of a long game) runs on a separate pool, so a burst of it
  queues behind itself and never delays play.
- **Every write goes through the group committer** (``commits.py``): the writes of many
  tables share one transaction, and each request is answered and broadcast only after the
  transaction holding its own write committed. A failed commit refuses the action with 503
  and the game is rebuilt from what is stored, so the table is exactly as stored.
- **Readers never see an uncommitted state**: GET and the WebSocket read the table's
  :class:`Snapshot`, which is replaced only after a commit.

Tables leave memory when they are finished (after a short linger) or expire after a
configurable idle time; any request loads a stored table again on demand. Start-up loads
only live tables. A stored table that cannot be rebuilt, whatever broke it (a record that
no longer replays, a seat's bot this server cannot make), is quarantined: one log line, and
410 "this table could not be restored" with the reason on every request.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import difflib
import functools
import itertools
import logging
import math
import random
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

import boneyard
from boneyard.bots import Bot, bot, bots
from boneyard.errors import IllegalAction

from .clients import CLOSE_GONE, Subscriber
from .commits import Committer, ShuttingDown
from .compute import BOT_MS_CAP, ComputePool, SeatBot, choose_in_worker, make_seat_bot, searches
from .db import (
    ORIGIN,
    ActionWrite,
    Store,
    TableRow,
    announce,
    hash_token,
    new_table_row,
    write_expired,
    write_seat,
    write_table,
)
from .telling import Teller, reader_names, tell

log = logging.getLogger("boneyard.server")

T = TypeVar("T")

MAX_NAME = 40
MAX_ACTION = 2000
MAX_QUOTE = 200  # characters of a client's input an error message may quote
LOBBY_LIMIT = 200  # tables the lobby lists (newest first)
FINISHED_LINGER = 120.0  # seconds a finished table stays in memory after its last action
NEXT_TIMEOUT = 20.0  # seconds a table waits between hands for its humans to press "Next hand" (default)
LEASE = 6.0  # seconds a process holds the right to play a table's bots (PostgreSQL, several processes)
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
STORE_ERRORS = (SQLAlchemyError, ShuttingDown)  # a write that was not stored, through no fault of the request


class ServerError(Exception):
    """A refused request: ``status`` is the HTTP status, the message says why."""

    status = 400
    headers: dict[str, str] | None = None
    state: dict[str, Any] | None = None


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


class Stale(Conflict):
    """An action sent from an older version of the table: 409 carrying the current state."""

    def __init__(self, message: str, state: dict[str, Any]) -> None:
        super().__init__(message)
        self.state = state


class Gone(ServerError):
    """A table that cannot be played any more: quarantined or expired (410)."""

    status = 410


class TooManyRequests(ServerError):
    """A client over its rate limit or table cap (429, with ``Retry-After``)."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.headers = {"Retry-After": str(max(1, retry_after))}


class Unavailable(ServerError):
    """The database cannot be reached: nothing was stored (503)."""

    status = 503


def quote(value: Any) -> str:
    """``repr(value)`` cut to :data:`MAX_QUOTE` characters, for error messages that echo input."""
    text = repr(value)
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1] + "…"


def clean_name(name: Any) -> str:
    """A player's name: 1 to 40 printable characters after trimming, else ``BadRequest``."""
    if not isinstance(name, str) or not name.strip():
        raise BadRequest("name must be a non-empty string")
    name = name.strip()
    if len(name) > MAX_NAME:
        raise BadRequest(f"name must be at most {MAX_NAME} characters; this one has {len(name)}")
    if not name.isprintable():
        raise BadRequest("name must be printable characters only (no control characters or lone surrogates)")
    return name


_SERIALS = itertools.count(1)


@dataclass
class Hold:
    """A table between hands: bots wait and humans may not act until every joined human has
    pressed "Next hand" (``ready``) or ``until`` (wall-clock time) has passed."""

    hand: int  # the hand that ended
    until: float
    ready: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None


@dataclass
class Snapshot:
    """What readers see of a table at one committed version.

    ``states`` holds each seat's state (``None``: a spectator); :meth:`push` gives its
    JSON text, sent on the WebSocket and as an action's answer. The pushes that will
    surely be sent are encoded on the worker with the states; any other is encoded when
    first asked for (orjson: some microseconds).
    """

    version: int
    states: dict[int | None, dict[str, Any]]
    pushes: dict[int | None, str]
    serial: int = field(default_factory=lambda: next(_SERIALS))  # orders snapshots, joins included
    hand_ended: bool = False  # this position follows the end of a hand: ``hold`` is the table's new wait
    hold: Hold | None = None  # the table's ``hold`` as of this snapshot

    def push(self, seat: int | None) -> str:
        """The state of ``seat`` as JSON text."""
        text = self.pushes.get(seat)
        if text is None:
            text = self.pushes[seat] = encode(self.states[seat])
        return text


def encode(value: Any) -> str:
    """Compact JSON text (orjson)."""
    return orjson.dumps(value).decode()


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
    practice: bool = False
    fixed_deal: bool = False
    creator: str | None = None
    created: float = 0.0
    actions: list[str] = field(default_factory=list)
    last_seat: int | None = None  # the seat that played the last action
    last_sent: str | None = None  # the text that seat sent for it (before canonical form)
    names: dict[int, str] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)  # token hash -> seat
    bots: dict[int, Bot] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: dict[int, Subscriber] = field(default_factory=dict)
    bot_task: asyncio.Task[None] | None = None
    snapshot: Snapshot | None = None
    touched: float = field(default_factory=time.monotonic)
    next_timeout: float = NEXT_TIMEOUT
    hold: Hold | None = None  # set while the table waits between hands
    teller: Teller = field(init=False)  # the words of its events for each reader (the states' log)
    held: bool = False  # waiting for its players or the host's Start (social.py): no action, no bot
    # seat -> (name, until epoch s): a rematch's seat kept for the player of the last game (social.py)
    reserved: dict[int, tuple[str, float]] = field(default_factory=dict)
    # seat -> bot account id: seats played by a program through the bot API (botapi.py), never the page
    accounts: dict[int, str] = field(default_factory=dict)
    # a turn-based clock (social.py): days between moves are its pace, so it never expires or
    # reads "abandoned" for want of moves (its clock keeps the game going)
    turn_based: bool = False

    def __post_init__(self) -> None:
        self.teller = Teller(self.game_id)

    def humans(self) -> list[int]:
        """The joined human seats no bot plays for: the players a between-hands hold waits for.

        A seat handed to a bot (its player left, or the host gave it away) is not waited for,
        nor a bot account's seat (a program has no end of hand to look at).
        """
        return [s for s, kind in enumerate(self.seats)
                if kind == "human" and s in self.names and s not in self.bots and s not in self.accounts]

    @property
    def version(self) -> int:
        """The number of actions played (and stored)."""
        return len(self.actions)

    def record(self) -> dict[str, Any]:
        """What ``boneyard.replay`` needs to rebuild this table's game."""
        record: dict[str, Any] = {"game": self.game_id, "players": self.players, "seed": self.seed,
                                  "rules": self.rules, "actions": list(self.actions)}
        if self.deck is not None:
            record["deck"] = self.deck
        if self.dealer is not None:
            record["dealer"] = self.dealer
        return record

    def who(self, seat: int | None) -> str:
        """How a message names a seat's player: their name, the bot's name, or the seat."""
        if seat is None:
            return "nobody"
        if seat in self.names:
            return self.names[seat]
        kind = self.seats[seat]
        return f"the {kind[4:]} bot" if kind.startswith("bot:") else f"the player of seat {seat} (not joined yet)"

    def seat_info(self) -> list[dict[str, Any]]:
        """Public facts about each seat: human or bot, who sits there, and whom a free seat is kept for."""
        out = []
        for s, kind in enumerate(self.seats):
            is_bot = kind.startswith("bot:")
            kept = self.kept_for(s)
            out.append({
                "seat": s,
                "kind": "bot" if is_bot else "human",
                "bot": kind[4:] if is_bot else None,
                "name": self.names.get(s) or (kind[4:] + " bot" if is_bot else None),
                "joined": is_bot or s in self.names,
                "reserved_for": kept[0] if kept is not None and s not in self.names else None,
                # "bot": a bot account (a program on its owner's machine) holds this seat
                "account": "bot" if s in self.accounts else None,
            })
        return out

    def kept_for(self, seat: int) -> tuple[str, float] | None:
        """The player a rematch seat is still kept for and until when (epoch s); None once it is open."""
        kept = self.reserved.get(seat)
        if kept is None or kept[1] <= time.time():
            return None
        return kept


# A table that is not over, where nobody has moved or joined for this long (seconds) and
# no human player has the page open, is abandoned (the lobby says so; the sweep expires it
# after the service's idle timeout, 6 hours by default).
ABANDONED_AFTER = 600.0


def connected_players(table: Table) -> int:
    """How many of the table's human players have it open now (a live connection on their seat)."""
    open_seats = {sub.seat for sub in list(table.subscribers.values())}
    return sum(1 for s, kind in enumerate(table.seats) if kind == "human" and s in table.names and s in open_seats)


def abandoned(is_over: bool, idle: float, connected: int) -> bool:
    """Whether a table is abandoned: not over, no move or join for :data:`ABANDONED_AFTER` seconds, nobody connected.

    One definition for the lobby (``docs/web.md``): a table its players walked away from
    reads "abandoned", not "playing", until it is played again or expires.
    """
    return not is_over and idle >= ABANDONED_AFTER and connected == 0


@functools.cache
def _bot_states() -> tuple[tuple[str, str | None], ...]:
    """Each installed bot's name, and why it cannot play here (None: it can), found once per process.

    A seat's bot is made by name with no settings, so a bot that needs one (the policy
    bot's weights file) or an extra that is not installed cannot take a seat here.
    """
    out: list[tuple[str, str | None]] = []
    for name in bots():
        try:
            bot(name)
        except (ValueError, TypeError, ImportError, OSError) as err:
            out.append((name, str(err) or type(err).__name__))
        else:
            out.append((name, None))
    return tuple(out)


def seat_bots() -> list[str]:
    """The bots a seat can be given on this server (``GET /api/bots``): those that can be made here."""
    return [name for name, why in _bot_states() if why is None]


def seat_refusal(name: str, game: str, players: int) -> str | None:
    """Why bot ``name``, made with no settings, cannot sit at a ``game`` table of ``players`` seats (None: it can).

    A bot that plays only some games says so with a ``refuses(game, players)`` method (the
    policy bot: no network is shipped for that game and size), so that such a seat is
    refused in words when it is asked for, not at the bot's first decision.
    """
    try:
        refuses = getattr(bot(name), "refuses", None)
    except (ValueError, TypeError, ImportError, OSError):
        return None  # a bot this server cannot make: check_seat_bot says so
    return refuses(game, players) if callable(refuses) else None


def seat_tables(name: str) -> list[dict[str, Any]] | None:
    """The games and player counts bot ``name`` can sit at, where it plays only some (``None``: every table).

    Read from the bot's ``tables()`` method (the policy bot's shipped networks): what the
    lobby reads (``GET /api/bots/about``) to offer a bot only at tables it can play.
    """
    try:
        listed = getattr(bot(name), "tables", None)
    except (ValueError, TypeError, ImportError, OSError):
        return None
    return [{"game": g, "players": p} for g, p in listed()] if callable(listed) else None


def check_seat_bot(name: str, where: str = "", game: str | None = None, players: int | None = None) -> None:
    """``BadRequest`` naming why ``name`` cannot take a seat here: unknown, not playable on this server,
    or (given the table's ``game`` and ``players``) unable to play that game with that many (:func:`seat_refusal`)."""
    why = dict(_bot_states()).get(name, "")
    if why is None:
        refused = None if game is None or players is None else seat_refusal(name, game, players)
        if refused is not None:
            raise BadRequest(f"{where}the {quote(name)} bot cannot play {game} with {players} players: {refused}")
        return
    available = ", ".join(seat_bots())
    if why == "":
        raise BadRequest(f"{where}unknown bot {quote(name)}; available bots: {available}")
    raise BadRequest(f"{where}the {quote(name)} bot cannot play on this server ({why}); available bots: {available}")


def parse_seats(seats: Any, players: int, known: list[str] | None = None, game: str | None = None) -> list[str]:
    """Check a seats list (``"human"`` or ``"bot:NAME"`` per seat); ``BadRequest`` says what is wrong.

    ``known`` is the list of bot names (default: :func:`seat_bots`, which reads every installed
    package's metadata to find plugin bots: the server passes the list it made once).
    ``game``: the table's game, so that a bot that cannot play it with ``players`` seats
    is refused here (:func:`seat_refusal`).
    """
    known = seat_bots() if known is None else known
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
            if name not in known:
                check_seat_bot(name, f"seat {s}: ")
                raise BadRequest(f"seat {s}: unknown bot {quote(name)}; available bots: {', '.join(known)}")
            if game is not None:
                check_seat_bot(name, f"seat {s}: ", game, players)
            out.append(kind)
        else:
            raise BadRequest(f"seat {s}: {quote(kind)} is neither \"human\" nor \"bot:NAME\"")
    return out


def check_rules(rules: Any) -> dict[str, Any]:
    """Rules options as sent: an object of short names to plain values (the engine checks the rest)."""
    if rules is None:
        return {}
    if not isinstance(rules, dict):
        raise BadRequest("rules must be an object of option names to values")
    if len(rules) > 20:
        raise BadRequest("rules has too many options (at most 20)")
    for name, value in rules.items():
        if len(name) > 40:
            raise BadRequest(f"unknown rules option {quote(name)}")
        if not isinstance(value, bool | int | float | str) or (isinstance(value, str) and len(value) > 40):
            raise BadRequest(f"bad value {quote(value)} for rules option {quote(name)}: a number, true/false "
                             "or a short word is expected")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**9:
            raise BadRequest(f"bad value {quote(value)} for rules option {quote(name)}: out of range")
    return rules


def _scrub(message: str, sent: str) -> str:
    """An engine message whose echoes of the client's input are cut to :data:`MAX_QUOTE` characters."""
    if len(sent) <= MAX_QUOTE:
        return message
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(sent)
    piece = MAX_QUOTE // 2  # an engine message may echo two pieces of the input (its start and end)
    for _ in range(8):
        matcher.set_seq1(message)
        match = matcher.find_longest_match(0, len(message), 0, len(sent))
        if match.size <= piece:
            break
        message = message[: match.a + piece - 1] + "…" + message[match.a + match.size :]
    return message


class TableService:
    """All live tables of one server, backed by a :class:`Store` and its group committer."""

    def __init__(self, store: Store, bot_delay: float = 0.6, idle_timeout: float = 6 * 3600,
                 finished_linger: float = FINISHED_LINGER, workers: int = 2, compute_workers: int | None = None,
                 bot_ms_cap: float | None = BOT_MS_CAP, search_seats: int | None = None) -> None:
        # Discover the games here, on one thread: the registry fills itself on first use and
        # must not be first used by several table threads at once.
        for game_id in boneyard.games():
            boneyard.game_info(game_id)
        self.bot_names = seat_bots()  # once: listing plugin bots reads every installed package's metadata
        self.store = store
        self.bot_delay = bot_delay
        self.idle_timeout = idle_timeout
        self.finished_linger = finished_linger
        self.committer = Committer(store)
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="boneyard-table")
        self.slow_pool = ThreadPoolExecutor(1, thread_name_prefix="boneyard-slow")
        # searches and the coach: worker processes, served in turn by address (compute.py)
        self.compute = ComputePool(compute_workers)
        self.bot_ms_cap = bot_ms_cap  # the most a search bot thinks per move (--bot-ms-cap)
        self.search_seats = search_seats  # search-bot seats one address's open tables may hold (None: any)
        self.tables: dict[str, Table] = {}
        self.quarantined: dict[str, str] = {}  # table id -> why it cannot be replayed
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._next_sub = 0
        self._sweeper: asyncio.Task[None] | None = None
        # On PostgreSQL several processes may serve the same tables: bots need a lease, and
        # changes arrive from the others by LISTEN/NOTIFY (notify.py).
        self.shared = store.is_postgres
        self._listener: Any = None
        self._leases: dict[str, float] = {}  # table id -> when this process's lease runs out
        self._background: set[asyncio.Task[Any]] = set()
        self.lag = LagMonitor()
        self.loaded = asyncio.Event()  # set once the live tables are loaded after start
        # Listeners of table life (social.py): ``loaded(table)`` on a worker thread when a
        # stored table is rebuilt, ``changed(table)`` on the loop after every broadcast.
        self.hooks: list[Any] = []

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, functools.partial(fn, *args))

    async def _run_slow(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.slow_pool, functools.partial(fn, *args))

    # ----- loading -------------------------------------------------------------------

    async def start(self) -> None:
        """Start the sweeper and start loading the live tables (not finished or expired ones) and their bots."""
        loop = asyncio.get_running_loop()
        if self.shared:
            from .notify import Listener

            self._listener = Listener(self.store.url, loop, self._on_notice, self._on_reconnect)
            self._listener.start()
        self._sweeper = loop.create_task(self._sweep_forever())
        self.lag.start()
        self._spawn(self._load_live())

    async def _load_live(self) -> None:
        """Load the live tables in the background: the server answers meanwhile (any table on demand)."""
        backoff = 0.25
        while True:
            try:
                ids = await self._run(self.store.live_tables)
                break
            except SQLAlchemyError:
                log.warning("the database cannot list the live tables; retrying in %.2f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
        for table_id in ids:
            with contextlib.suppress(ServerError):
                await self.get(table_id)
        self.loaded.set()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _on_notice(self, what: str, table_id: str, origin: str, detail: str = "") -> None:
        """A change committed by another process (LISTEN/NOTIFY): load or catch up the table.

        A new version's notice carries the action that made it (``detail``, "SEAT:ACTION"):
        the next version is applied from it without reading the database back.
        """
        if origin == ORIGIN:
            return
        table = self.tables.get(table_id)
        if table is None:
            if what == "new":
                self._spawn(self._quiet(self.get(table_id)))
            elif table_id in self._loading:  # its load may have read the database before this change
                self._spawn(self._quiet(self._after_load(what, table_id, origin, detail)))
            return
        if what.startswith("ready."):  # a "Next hand" pressed at another process
            hand, _, seat = what[len("ready."):].partition(".")
            if hand.isdigit() and seat.isdigit():
                self._spawn(self._quiet(self._press(table, int(seat), int(hand), catch_up=True)))
            return
        if what.isdigit() and int(what) <= table.version:
            return
        known = None
        seat, _, action = detail.partition(":")
        if what.isdigit() and seat.isdigit() and action:
            known = (int(what), action, int(seat))
        # a new version needs only the new actions; a seat or anything else, the seats too
        self._spawn(self._quiet(self.catch_up(table, seats=not what.isdigit(), known=known)))

    async def _after_load(self, what: str, table_id: str, origin: str, detail: str) -> None:
        """Take a notice that came while its table was loading once the load is done.

        The load reads the database once; a change committed after that read would
        otherwise be lost until the next notice, and after a game's last action there is
        none. Handed on as it came, the notice is taken as any other: an action already
        loaded is skipped, a new one caught up, a "Next hand" press counted.
        """
        await self.get(table_id)
        self._on_notice(what, table_id, origin, detail)

    def _on_reconnect(self) -> None:
        """Notices were lost while the listener was away: catch every table up."""
        for table in list(self.tables.values()):
            self._spawn(self._quiet(self.catch_up(table)))

    @staticmethod
    async def _quiet(coro: Any) -> None:
        try:
            await coro
        except (ServerError, SQLAlchemyError):
            pass  # the next notice or request tries again
        except Exception:
            log.exception("catching up with another process failed")

    def _load(self, table_id: str) -> Table:
        """Rebuild a stored table (worker thread); quarantines one that cannot be rebuilt, whatever the cause,
        so that it answers 410 with the reason and every other table is served as usual."""
        row = self.store.table(table_id)
        if row is None:
            raise NotFound(f"no table {quote(table_id)}")
        if row.expired:
            raise Gone("this table expired: nobody played at it for too long")
        stage = ["its stored state is not valid here"]
        try:
            return self._rebuild_stored(row, stage)
        except (*STORE_ERRORS, Unavailable):
            raise  # the database is away: 503, and the next request tries again
        except Exception as err:
            # Whatever broke it (a record that no longer replays, a seat's bot this server
            # cannot make, a stored value of the wrong shape), the table alone is set aside.
            reason = f"this table could not be restored: {stage[0]} ({type(err).__name__}: {str(err)[:MAX_QUOTE]})"
            self.quarantined[table_id] = reason
            log.error("table %s quarantined: %s", table_id, reason)
            raise Gone(reason) from None

    def _rebuild_stored(self, row: TableRow, stage: list[str]) -> Table:
        """Replay a stored table's record and restore its seats, bots, hold and room (worker thread).

        ``stage[0]`` is kept saying what is being rebuilt, so that a failure can be told.
        """
        table = Table(id=row.id, game_id=row.game, players=row.players, seed=int(row.seed), rules=dict(row.rules),
                      seats=list(row.seats), game=None, deck=row.deck, dealer=row.dealer,
                      practice=bool(row.practice), fixed_deal=bool(row.fixed_deal), creator=row.creator,
                      created=row.created,
                      next_timeout=NEXT_TIMEOUT if row.next_timeout is None else row.next_timeout)
        stored = self.store.actions(table.id)
        table.actions = [a for a, _ in stored]
        table.last_seat = stored[-1][1] if stored else None
        for seat_row in self.store.seats(table.id):
            table.names[seat_row.seat] = seat_row.name
            table.tokens[seat_row.token_hash] = seat_row.seat
        # All but the last action, then the last one: if it ended a hand, the table is
        # between hands again (the views still hold that hand's end).
        stage[0] = "its record no longer replays"
        table.game = boneyard.replay({**table.record(), "actions": table.actions[:-1]})
        if table.actions:
            hand, was_over = table.game.hand_number, table.game.is_over
            table.game.apply(table.actions[-1])
            if table.game.hand_number != hand or table.game.is_over != was_over:
                at = self.store.last_action_time(table.id)
                table.hold = self._new_hold(table, hand, time.time() if at is None else at)
        stage[0] = "its seats cannot be set again here"
        if len(table.seats) != table.players:
            raise ValueError(f"{len(table.seats)} seats are stored for {table.players} players")
        for s, kind in enumerate(table.seats):
            if kind.startswith("bot:"):  # a bot that cannot play this game and size (BadRequest: quarantined)
                check_seat_bot(kind[4:], f"seat {s}: ", table.game_id, table.players)
        table.bots = {s: self.seat_bot(k[4:]) for s, k in enumerate(table.seats) if k.startswith("bot:")}
        for hook in self.hooks:
            hook.loaded(table)
        stage[0] = "its stored state is not valid here"
        table.snapshot = self._snapshot(table)
        return table

    async def get(self, table_id: str) -> Table:
        """A table, loaded on demand; ``NotFound``, ``Gone`` (quarantined, expired) or ``Unavailable``."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if table_id in self.quarantined:
            raise Gone(self.quarantined[table_id])
        if not TABLE_ID.fullmatch(table_id):
            raise NotFound(f"no table {quote(table_id)}")
        loading = self._loading.get(table_id)
        if loading is not None:
            return await asyncio.shield(loading)
        future: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            try:
                table = await self._run(self._load, table_id)
            except STORE_ERRORS as err:
                raise Unavailable(f"the database cannot be reached, try again in a moment ({type(err).__name__})") \
                    from None
            self.tables[table_id] = table
            self._arm_hold(table)
            future.set_result(table)
            self.kick(table)
            return table
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: waiters re-raise it, nobody else needs to
            raise
        finally:
            self._loading.pop(table_id, None)

    # ----- states --------------------------------------------------------------------

    def _state(self, table: Table, seat: int | None, version: int,
               seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        game = table.game
        legal = [str(a) for a in game.legal_actions()] if seat is not None and seat == game.current_player else []
        seats = table.seat_info() if seats is None else seats
        names = reader_names(seats)
        view = game.view(seat)
        return {
            "table": table.id,
            "game": table.game_id,
            "seat": seat,
            "version": version,
            "seats": seats,
            "names": names,
            "view": view,
            "log": table.teller.log(names, seat, view["events"]),
            "legal_actions": legal,
            "current_player": game.current_player,
            "scores": list(game.scores),
            "is_over": game.is_over,
            "winners": list(game.winners),
            "practice": table.practice,
            "fixed_deal": table.fixed_deal,
            "seed": str(table.seed) if game.is_over else None,
        }

    def _snapshot(self, table: Table, version: int | None = None, acting: int | None = None,
                  hold: Hold | None = None, hand_ended: bool = False) -> Snapshot:
        """The states readers can ask for at the game's present position, and the pushes sure to be sent
        (worker thread).

        Only the spectator's state and those of seats someone holds a token for (or that
        act or watch) are built: a bot's seat has no token, so nobody can ask for its state,
        and a seat that gets a token later (a join) gets a new snapshot then.
        ``hand_ended`` says this position follows a hand's end, ``hold`` being the wait
        after it; otherwise the table's own wait is shown.
        """
        version = table.version if version is None else version
        if not hand_ended:
            hold = table.hold
        watching = {sub.seat for sub in list(table.subscribers.values())}
        wanted = {None, acting, *table.tokens.values(), *watching}
        seats = table.seat_info()
        states = {seat: self._state(table, seat, version, seats) for seat in [None, *range(table.players)]
                  if seat in wanted}
        between = None
        if hold is not None:
            between = {"hand": hold.hand, "waiting": [s for s in table.humans() if s not in hold.ready],
                       "until": round(hold.until, 3)}
        for state in states.values():
            state["between_hands"] = between
        snapshot = Snapshot(version, states, {}, hand_ended=hand_ended, hold=hold)
        for seat in {acting, *watching}:
            if seat in states:
                snapshot.push(seat)
        return snapshot

    def state(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see now: its view and its log, and its legal actions when it is to act."""
        assert table.snapshot is not None
        return table.snapshot.states[seat]

    def push(self, table: Table, seat: int | None) -> str:
        """The JSON text of the state (the WebSocket's and an action's answer)."""
        assert table.snapshot is not None
        return table.snapshot.push(seat)

    def summary(self, table: Table) -> dict[str, Any]:
        """A lobby line for a table: public facts only.

        ``idle`` is the seconds since the last move or join; ``connected`` how many of its
        human players have the table open; ``abandoned`` says it is stalled for good (see
        :func:`abandoned`), so that the lobby stops calling it "playing".
        """
        seats = table.seat_info()
        idle = time.monotonic() - table.touched
        connected = connected_players(table)
        return {
            "id": table.id,
            "game": table.game_id,
            "players": table.players,
            "rules": table.rules,
            "seats": seats,
            "open_seats": [s["seat"] for s in seats if not s["joined"] and s["reserved_for"] is None],
            "actions": table.version,
            "is_over": table.game.is_over,
            "practice": table.practice,
            "fixed_deal": table.fixed_deal,
            "created": table.created,
            # seconds since the last move or join: the lobby tells a stalled table from a live one
            "idle": round(idle),
            "connected": connected,
            "abandoned": abandoned(bool(table.game.is_over), idle, connected) and not table.turn_based,
            "turn_based": table.turn_based,
            # whose decision the table waits for (null: over, not started, between hands): a
            # page that holds that seat's token puts the table first, marked "Your turn"
            "current_player": None if table.game.is_over or table.held or table.hold is not None
            else table.game.current_player,
        }

    def lobby(self) -> list[dict[str, Any]]:
        """The newest :data:`LOBBY_LIMIT` tables in memory (live, or recently finished)."""
        newest = sorted(self.tables.values(), key=lambda t: t.created, reverse=True)[:LOBBY_LIMIT]
        return [self.summary(t) for t in newest]

    def open_tables_of(self, creator: str) -> int:
        """How many unfinished tables a client address has opened."""
        return sum(1 for t in self.tables.values() if t.creator == creator and not t.game.is_over)

    # ----- compute -------------------------------------------------------------------

    def seat_bot(self, name: str) -> SeatBot:
        """The bot a seat named ``name`` gets here: a search bot's think time capped at :attr:`bot_ms_cap`."""
        return make_seat_bot(name, self.bot_ms_cap)

    def search_seats_of(self, creator: str) -> int:
        """Search-bot seats (their own or standing in) at the unfinished tables ``creator`` opened."""
        return sum(1 for t in self.tables.values() if t.creator == creator and not t.game.is_over
                   for b in t.bots.values() if getattr(b, "searches", False))

    def check_search_seats(self, creator: str | None, names: list[str], replacing: int = 0) -> None:
        """``TooManyRequests`` when seating the bots ``names`` would take ``creator`` past its search budget.

        The budget counts the search-bot seats of the unfinished tables an address opened,
        whoever asked for each (the host's seats, Start, a stand-in): those are the
        searches that address's tables make the server run. ``replacing`` search seats
        leave as these arrive (a stand-in swapped for another).
        """
        cap = self.search_seats
        adding = sum(1 for name in names if searches(name))
        if cap is None or creator is None or adding == 0:
            return
        now = self.search_seats_of(creator) - replacing
        if now + adding > cap:
            raise TooManyRequests(
                f"too many search bots: the tables opened from this address may seat at most {cap} search bots "
                f"(ismcts) at once, and {now} are seated; finish or leave a table that has them, or seat the "
                "greedy bot, which needs no search", 60)

    # ----- requests ------------------------------------------------------------------

    async def create(
        self, game_id: Any, players: Any, rules: Any, seats: Any, seed: Any = None, deck: Any = None,
        dealer: Any = None, practice: bool = False, creator: str | None = None, next_timeout: Any = None,
    ) -> Table:
        """Open a new table; ``BadRequest`` names a bad game, player count, rule, seat, deck or dealer.

        A chosen ``seed`` or ``deck`` makes the deal known to whoever chose it, so it is
        accepted only at a practice table, which says "fixed deal" wherever it is shown.
        ``next_timeout`` is how long the table waits between hands for its humans to press
        "Next hand" (seconds, 0 to 600; 0: it deals on at once; default :data:`NEXT_TIMEOUT`).
        """
        if next_timeout is not None and (isinstance(next_timeout, bool) or not isinstance(next_timeout, int | float)
                                         or not 0 <= next_timeout <= 600):
            raise BadRequest(f"next_timeout must be a number of seconds from 0 to 600, got {quote(next_timeout)}")
        if not isinstance(game_id, str) or game_id not in boneyard.games():
            raise BadRequest(f"unknown game {quote(game_id)}; known games: {', '.join(boneyard.games())}")
        rules = check_rules(rules)
        fixed = seed is not None or deck is not None
        if fixed and not practice:
            raise BadRequest("a seed or a deck can be chosen only at a practice table (send \"practice\": true); "
                             "such a table is shown as a fixed deal")
        if seed is None:
            seed = secrets.randbelow(2**63)
        if deck is not None and not (isinstance(deck, list) and all(isinstance(t, str) for t in deck)):
            raise BadRequest("deck must be a list of tile strings such as \"6-4\"")
        table = await self._run(self._new_table, game_id, players, rules, seats, seed, deck, dealer,
                                practice, fixed, creator)
        row = new_table_row(table.id, game_id, table.players, seed, table.rules, table.seats, table.deck,
                            table.dealer, practice=practice, fixed_deal=fixed, creator=creator,
                            next_timeout=next_timeout)
        row.created = table.created
        if next_timeout is not None:
            table.next_timeout = float(next_timeout)
        try:
            await self.committer.write(functools.partial(write_table, row=row))
        except STORE_ERRORS as err:
            raise Unavailable(f"the database cannot be reached, so no table was opened ({type(err).__name__})") \
                from None
        self.tables[table.id] = table
        self.kick(table)
        return table

    def _new_table(self, game_id: str, players: Any, rules: dict[str, Any], seats: Any, seed: int, deck: Any,
                   dealer: Any, practice: bool, fixed: bool, creator: str | None) -> Table:
        try:
            game = boneyard.new_game(game_id, players=players, seed=seed, rules=rules, deck=deck, dealer=dealer)
        except ValueError as err:
            raise BadRequest(str(err)[:600]) from None
        seat_kinds = parse_seats(seats, game.players, self.bot_names, game_id)
        record = game.record()
        table = Table(id=secrets.token_urlsafe(6), game_id=game_id, players=game.players, seed=seed,
                      rules=game.rules.to_dict(), seats=seat_kinds, game=game, deck=record.get("deck"),
                      dealer=record.get("dealer"), practice=practice, fixed_deal=fixed, creator=creator,
                      created=time.time())
        table.bots = {s: self.seat_bot(k[4:]) for s, k in enumerate(seat_kinds) if k.startswith("bot:")}
        table.snapshot = self._snapshot(table)
        return table

    async def join(self, table_id: str, seat: Any, name: Any, kept: bool = False,
                   token: str | None = None, account: str | None = None) -> tuple[int, str]:
        """Take a human seat (``None``: the first free one); returns the seat and its secret token.

        A rematch seat kept for the last game's player (``Table.reserved``) is refused to
        anyone else until its time is up; ``kept`` is that player taking it (social.py's accept).
        ``token`` and ``account`` seat a bot account (botapi.py): its seat token is derived
        from its account token, never handed out, and the seat is marked as the bot's.
        """
        table = await self.get(table_id)
        name = clean_name(name)
        async with table.lock:
            free = [s for s, k in enumerate(table.seats) if k == "human" and s not in table.names
                    and table.kept_for(s) is None]
            if seat is None:
                if not free:
                    raise Conflict("every human seat at this table is taken"
                                   + (" or kept for the last game's players" if table.reserved else ""))
                seat = free[0]
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
                raise BadRequest(f"seat must be a number from 0 to {table.players - 1}, got {quote(seat)}")
            if table.seats[seat] != "human":
                raise Conflict(f"seat {seat} is played by the {table.seats[seat][4:]} bot")
            if seat in table.names:
                raise Conflict(f"seat {seat} is already taken by {table.names[seat]}")
            held_for = table.kept_for(seat)
            if held_for is not None and not kept:
                left = max(1, math.ceil(held_for[1] - time.time()))
                raise Conflict(f"this seat is kept for {held_for[0]}, who played it in the last game, until they "
                               f"accept or decline the rematch (at most {left} s more)")
            token = token or secrets.token_urlsafe(24)
            try:
                await self.committer.write(functools.partial(write_seat, table_id=table.id, seat=seat, name=name,
                                                             token=token))
            except IntegrityError:
                raise Conflict(f"seat {seat} is already taken") from None
            except STORE_ERRORS as err:
                raise Unavailable(f"the database cannot be reached, so you did not join; try again in a moment "
                                  f"({type(err).__name__})") from None
            table.names[seat] = name
            table.tokens[hash_token(token)] = seat
            if account is not None:
                table.accounts[seat] = account
            table.reserved.pop(seat, None)
            table.touched = time.monotonic()
            table.snapshot = await self._run(self._snapshot, table)
        self.broadcast(table)
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

    async def seat_for(self, table: Table, token: str | None, required: bool) -> int | None:
        """:meth:`seat_of`, but a token this process does not know yet is looked up in the database
        first when processes share it: the seat may have been taken at another process a moment ago."""
        try:
            return self.seat_of(table, token, required)
        except Forbidden:
            if not self.shared:
                raise
            await self.catch_up(table)
            return self.seat_of(table, token, required)

    async def act(self, table_id: str, token: str | None, action: Any,
                  expected_version: int | None = None, *, bot_api: bool = False) -> tuple[Table, int]:
        """Play a seat's action; refused actions leave the table unchanged. Returns the table and seat.

        With ``expected_version`` (the version the client's view shows), a repeat of the
        action that made the current version is answered with the current state without
        playing it again, and any other stale version is refused with 409 and the state.
        A bot account's seat acts only through the bot API (``bot_api``, botapi.py): the
        pages' requests for it are refused 403, so a bot is never played by hand.
        """
        table = await self.get(table_id)
        seat = await self.seat_for(table, token, required=True)
        assert seat is not None
        if seat in table.accounts and not bot_api:
            raise Forbidden("this seat belongs to a bot account: a bot plays only through the bot API "
                            "(POST /api/bot/game/{id}/action), never from the web page")
        if not isinstance(action, str) or not action.strip():
            raise BadRequest("action must be a non-empty string in the action notation, e.g. \"play 6-4\"")
        if len(action) > MAX_ACTION:
            raise BadRequest(f"action must be at most {MAX_ACTION} characters; this one has {len(action)}")
        async with table.lock:
            if self.shared and expected_version is not None and expected_version > table.version:
                await self._caught_up_to_act(table)  # the client saw a version another process committed
            version = table.version
            if expected_version is not None and expected_version != version:
                if expected_version == version - 1 and table.last_seat == seat and self._repeats(table, action):
                    return table, seat
                raise Stale(f"the table has moved on: your view is of version {expected_version}, the table is at "
                            f"version {version}; here is the current state", self.state(table, seat))
            if table.held and self.shared:
                # the last seat may have been taken at another process, whose notice has not
                # come yet: read the seats before refusing (taking them starts the game here too)
                await self._caught_up_to_act(table)
            game = table.game
            if table.hold is not None:
                raise Conflict(self._holding(table))
            if game.is_over:
                raise BadRequest("the game is over: no action can be played")
            if table.held:
                raise Conflict("the game has not started: it starts when every seat is taken or the host presses "
                               "Start")
            if game.current_player != seat:
                raise BadRequest(f"not your turn: it is {table.who(game.current_player)}'s turn")
            await self._play(table, seat, functools.partial(self._advance, table, action, seat), sent=action)
        self.broadcast(table)
        self.kick(table)
        return table, seat

    @staticmethod
    def _holding(table: Table) -> str:
        """Why an action waits: the hand is over and who has still to press "Next hand"."""
        hold = table.hold
        assert hold is not None
        waiting = [table.who(s) for s in table.humans() if s not in hold.ready]
        names = ", ".join(waiting[:-1]) + f" and {waiting[-1]}" if len(waiting) > 1 else "".join(waiting)
        left = max(1, round(hold.until - time.time()))
        return (f"hand {hold.hand} has just ended: the next hand starts when {names or 'everyone'} "
                f"{'has' if len(waiting) == 1 else 'have'} pressed Next hand, or in {left} s")

    async def next_hand(self, table_id: str, token: str | None, hand: int | None = None) -> tuple[Table, int]:
        """A human's "Next hand": the table deals on once every joined human has pressed it.

        Idempotent: pressing again, pressing when the table is not between hands, or
        pressing for another ``hand`` than the one that ended changes nothing.
        """
        table = await self.get(table_id)
        seat = await self.seat_for(table, token, required=True)
        assert seat is not None
        pressed = await self._press(table, seat, hand)
        if pressed is not None and self.shared:
            # the other processes count this press too (their own hold of this hand)
            self._spawn(self._quiet(self.committer.write(
                functools.partial(announce, table_id=table.id, what=f"ready.{pressed}.{seat}"))))
        return table, seat

    async def _press(self, table: Table, seat: int, hand: int | None, catch_up: bool = False) -> int | None:
        """Count ``seat``'s "Next hand" for ``hand`` (None: the hand that ended); the hand counted, or
        None when the press changes nothing. ``catch_up``: a press made at another process, whose
        hand end this process may not have applied yet."""
        async with table.lock:
            if catch_up and (table.hold is None or (hand is not None and table.hold.hand < hand)):
                await self._catch_up_locked(table)
            hold = table.hold
            if hold is None or (hand is not None and hand != hold.hand) or seat in hold.ready:
                return None
            hold.ready.add(seat)
            if all(s in hold.ready for s in table.humans()):
                self._end_hold(table)
            table.snapshot = await self._run(self._snapshot, table)
        self.broadcast(table)
        self.kick(table)
        return hold.hand

    async def reseat(self, table: Table, change: Callable[[], None]) -> None:
        """Change who plays a seat (``change``, under the table's lock: social.py's stand-ins), then push.

        A between-hands hold that now waits for nobody (its last unready human handed their
        seat to a bot) ends at once.
        """
        async with table.lock:
            change()
            if table.hold is not None and all(s in table.hold.ready for s in table.humans()):
                self._end_hold(table)
            table.snapshot = await self._run(self._snapshot, table)
        self.broadcast(table)
        self.kick(table)

    @staticmethod
    def _end_hold(table: Table) -> None:
        if table.hold is not None and table.hold.timer is not None:
            table.hold.timer.cancel()
        table.hold = None

    async def _release(self, table: Table, hand: int) -> None:
        """The hold's timeout: deal on whoever has not pressed "Next hand"."""
        async with table.lock:
            if table.hold is None or table.hold.hand != hand:
                return
            self._end_hold(table)
            table.snapshot = await self._run(self._snapshot, table)
        self.broadcast(table)
        self.kick(table)

    @staticmethod
    def _repeats(table: Table, action: str) -> bool:
        sent = " ".join(action.split())
        return bool(table.actions) and sent in (table.actions[-1], " ".join((table.last_sent or "").split()))

    def _advance(self, table: Table, action: str, seat: int | None = None) -> tuple[str, Snapshot]:
        """Apply ``seat``'s action to the game (worker thread) and build the states it leads to."""
        game = table.game
        hand, was_over = game.hand_number, game.is_over
        try:
            game.apply(action)
        except IllegalAction as err:
            raise BadRequest(_scrub(str(err), action)) from None
        text = game.record()["actions"][-1]
        if game.hand_number == hand and game.is_over == was_over:
            return text, self._snapshot(table, table.version + 1, acting=seat)
        hold = self._new_hold(table, hand, time.time())
        return text, self._snapshot(table, table.version + 1, acting=seat, hold=hold, hand_ended=True)

    @staticmethod
    def _new_hold(table: Table, hand: int, ended_at: float) -> Hold | None:
        """The wait after ``hand`` ended at ``ended_at`` (wall clock): None at a finished game, a
        table with no joined human or no wait, or when the wait is already over."""
        if table.game.is_over or table.next_timeout <= 0 or not table.humans():
            return None
        until = ended_at + table.next_timeout
        return Hold(hand, until) if until > time.time() else None

    def _arm_hold(self, table: Table) -> None:
        """Start the timer that deals on when the table's hold runs out (on the event loop)."""
        hold = table.hold
        if hold is None or hold.timer is not None:
            return
        hand = hold.hand
        hold.timer = asyncio.get_running_loop().call_later(
            max(0.0, hold.until - time.time()), lambda: self._spawn(self._release(table, hand)))

    async def _play(self, table: Table, seat: int, compute: Callable[[], tuple[str, Snapshot]],
                    sent: str | None, by: str | None = None) -> None:
        """Apply an action on the pool (``compute``), commit it, then publish it; the caller holds the lock.

        The pool thread hands the write straight to the group committer, whose commit wakes
        this coroutine: one trip from the event loop and one back, however busy the
        machine. On a failed commit the game is rebuilt as stored and the action refused.
        ``by`` marks a human seat's decision made by a bot ("standin", "clock"), stored with
        the action for the ratings.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[str, Snapshot]] = loop.create_future()
        number = table.version

        def work() -> None:
            try:
                text, snapshot = compute()
            except BaseException as err:
                loop.call_soon_threadsafe(_fail, done, err)
                return
            write = ActionWrite(table.id, number, text, seat, bool(table.game.is_over), result=(text, snapshot),
                                by=by)
            self.committer.enqueue(write, done, loop)

        self.pool.submit(work)
        try:
            text, snapshot = await done
        except BadRequest:
            raise  # refused by the engine: the game is as it was
        except IntegrityError:
            # Another process stored this version first: take its actions and refuse ours.
            await self._run(self._rebuild, table)
            await self._catch_up_locked(table)
            raise Stale("the table has moved on: another action was played first; here is the current state",
                        self.state(table, seat)) from None
        except Exception as err:
            await self._run(self._rebuild, table)
            if isinstance(err, STORE_ERRORS):
                log.warning("table %s: commit failed (%s); action refused", table.id, type(err).__name__)
                raise Unavailable("the database cannot be reached, so this action was not played; the table is "
                                  "as it was: try again in a moment") from None
            raise
        table.actions.append(text)
        table.last_seat, table.last_sent = seat, sent
        table.snapshot = snapshot
        table.touched = time.monotonic()
        if snapshot.hand_ended:
            table.hold = snapshot.hold
            self._arm_hold(table)

    def _rebuild(self, table: Table) -> None:
        """Rebuild the game from the stored actions (after a refused commit)."""
        table.game = boneyard.replay(table.record())

    async def catch_up(self, table: Table, seats: bool = True, known: tuple[int, str, int] | None = None) -> None:
        """Apply the actions (and, with ``seats``, the joins) another process stored for this table,
        then push them. ``known`` is ``(version, action, seat)`` from a notice: when it is the
        table's next version, it is applied as it is, without reading the database."""
        async with table.lock:
            changed = await self._catch_up_locked(table, seats, known)
        if changed:
            self.kick(table)

    async def _caught_up_to_act(self, table: Table) -> None:
        """:meth:`_catch_up_locked` before an action; the database away is a 503 naming the action, not a 500."""
        try:
            await self._catch_up_locked(table)
        except STORE_ERRORS:
            raise Unavailable("the database cannot be reached, so this action was not played; the table is as it "
                              "was: try again in a moment") from None

    async def _catch_up_locked(self, table: Table, seats: bool = True,
                               known: tuple[int, str, int] | None = None) -> bool:
        hold = table.hold
        changed = await self._run(self._catch_up, table, seats, known)
        if table.hold is not hold and hold is not None and hold.timer is not None:
            hold.timer.cancel()  # play went on elsewhere: this hold is over
        self._arm_hold(table)
        if changed:
            self.broadcast(table)
        return changed

    def _catch_up(self, table: Table, with_seats: bool = True, known: tuple[int, str, int] | None = None) -> bool:
        """Apply what other processes stored (worker thread): the actions, and the seats if asked.

        ``known`` (version, action, seat) is the table's next action as a notice told it;
        any other gap is read from the database. A hand that ended there is between hands
        here too (the wait counted from now), and an action played after it ends that wait.
        """
        if known is not None and known[0] == table.version + 1:
            stored = [(known[1], known[2])]
        else:
            stored = self.store.actions(table.id, start=table.version)
        seats = self.store.seats(table.id) if with_seats else []
        changed = bool(stored) or (with_seats and len(seats) != len(table.names))
        for text, seat in stored:
            game = table.game
            hand, was_over = game.hand_number, game.is_over
            game.apply(text)
            table.actions.append(text)
            table.last_seat, table.last_sent = seat, None
            table.hold = None
            if game.hand_number != hand or game.is_over != was_over:
                table.hold = self._new_hold(table, hand, time.time())
        for row in seats:
            table.names[row.seat] = row.name
            table.tokens[row.token_hash] = row.seat
        if changed:
            table.snapshot = self._snapshot(table)
            table.touched = time.monotonic()
        return changed

    async def replay_state(self, table: Table, seat: int | None, step: int) -> dict[str, Any]:
        """A finished game as ``seat`` saw it after ``step`` actions (the replay viewer)."""
        if not table.game.is_over:
            raise Conflict("the replay opens once the game is over")
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= table.version:
            raise BadRequest(f"step must be from 0 to {table.version}")
        return await self._run_slow(self._replay_state, table, seat, step)

    def _replay_state(self, table: Table, seat: int | None, step: int) -> dict[str, Any]:
        game = boneyard.replay({**table.record(), "actions": table.actions[:max(0, step - 1)]})
        ends_hand = None
        if step:
            hand, was_over = game.hand_number, game.is_over
            game.apply(table.actions[step - 1])
            if game.hand_number != hand or game.is_over != was_over:
                ends_hand = hand
        seats = table.seat_info()
        names = reader_names(seats)
        view = game.view(seat)
        return {
            "table": table.id,
            "game": table.game_id,
            "seat": seat,
            "step": step,
            "steps": table.version,
            "action": table.actions[step - 1] if step else None,
            "ends_hand": ends_hand,
            "seats": seats,
            "names": names,
            "view": view,
            "log": tell(table.game_id, names, seat, view["events"]),
            "legal_actions": [],
            "current_player": game.current_player,
            "scores": list(game.scores),
            "is_over": game.is_over,
            "winners": list(game.winners),
        }

    # ----- subscribers ---------------------------------------------------------------

    def subscribe(self, table: Table, sub: Subscriber) -> int:
        """Register a live client and queue the current state for it; returns the id to unsubscribe with."""
        self._next_sub += 1
        table.subscribers[self._next_sub] = sub
        assert table.snapshot is not None
        sub.offer(table.snapshot.push(sub.seat), table.snapshot.serial)
        return self._next_sub

    def unsubscribe(self, table: Table, sub: int) -> None:
        """Forget a live client."""
        table.subscribers.pop(sub, None)

    def broadcast(self, table: Table) -> None:
        """Queue every subscriber's own push (built from its own view); never waits on a socket."""
        snapshot = table.snapshot
        assert snapshot is not None
        for sub in list(table.subscribers.values()):
            sub.offer(snapshot.push(sub.seat), snapshot.serial)
        for hook in self.hooks:
            hook.changed(table)

    # ----- bots ----------------------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Start the table's bot loop if a bot is to act and none is running."""
        game = table.game
        if game.is_over or table.held or game.current_player not in table.bots or table.hold is not None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet: start() kicks every loaded table
        table.bot_task = loop.create_task(self._bot_loop(table))

    async def _bot_loop(self, table: Table) -> None:
        """Play the bots' turns; a failure (the database down) is retried with backoff, never fatal."""
        backoff = 0.25
        while True:
            await asyncio.sleep(self.bot_delay)
            try:
                if not await self._bot_step(table):
                    return
                backoff = 0.25
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if isinstance(err, Unavailable | SQLAlchemyError):
                    log.warning("table %s: bot move not stored (%s); retrying in %.2f s", table.id, err, backoff)
                else:
                    log.exception("table %s: bot loop failed; retrying in %.2f s", table.id, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def _has_lease(self, table: Table) -> bool:
        """Whether this process may play the table's bots now (always, on a database of its own)."""
        if not self.shared:
            return True
        if self._leases.get(table.id, 0.0) - time.time() > LEASE / 2:
            return True
        until = time.time() + LEASE
        if await self._run(self.store.take_lease, table.id, ORIGIN, LEASE):
            self._leases[table.id] = until
            return True
        self._leases.pop(table.id, None)
        return False

    async def _bot_step(self, table: Table) -> bool:
        """Play one bot action if a bot is to act; False when the turn is a human's or the game is over.

        On a shared database, a process that does not hold the table's lease waits a lease's
        length before asking again: the holder's moves reach it by notice, and when the
        holder dies its lease runs out. A process that has just taken the lease first reads
        what it may have missed.
        """
        if self.shared:
            fresh = table.id not in self._leases
            if not await self._has_lease(table):
                await asyncio.sleep(LEASE)
                game = table.game
                return table.id in self.tables and not game.is_over and game.current_player in table.bots
            if fresh:
                await self.catch_up(table)
        game = table.game
        if (table.id not in self.tables or table.held or game.is_over or game.current_player not in table.bots
                or table.hold is not None):
            return False
        seat = game.current_player
        by = "standin" if table.seats[seat] == "human" else None  # a bot plays a player's seat
        player = table.bots[seat]
        if await self._bot_move(table, seat, player, table.version, by) is None:
            return True  # the table moved on meanwhile (or another process played): look again
        self.broadcast(table)
        return True

    async def _bot_move(self, table: Table, seat: int, player: Bot, version: int, by: str | None) -> str | None:
        """Play ``player``'s decision for ``seat`` at ``version``; the action, or None if the table moved on.

        A search bot decides in the compute pool (compute.py), in its address's turn and
        without the table's lock, so the table can be read, chatted at and left meanwhile;
        the action is played only if nothing changed. Any other bot decides on the
        tables' threads, as part of the move.
        """
        chosen: str | None = None
        if isinstance(player, SeatBot) and player.searches:
            async with table.lock:
                if not self._turn_of(table, seat, player, version, by):
                    return None
                view, legal = await self._run(lambda: (table.game.view(seat), table.game.legal_actions()))
            try:
                chosen = await self.compute.run(table.creator or "", table.id, choose_in_worker, player.name,
                                                player.params, view, legal, f"{table.seed}:{version}")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot at table %s seat %s failed in the compute pool; playing a random legal action",
                              table.id, seat)
                chosen = ""  # _bot_advance plays a random legal action for an illegal choice
        async with table.lock:
            if not self._turn_of(table, seat, player, version, by):
                return None
            try:
                await self._play(table, seat, functools.partial(self._bot_advance, table, seat, player, chosen),
                                 sent=None, by=by)
            except Stale:
                return None
        return table.actions[-1]

    def _turn_of(self, table: Table, seat: int, player: Bot, version: int, by: str | None) -> bool:
        """Whether ``player`` is still to decide for ``seat`` at ``version`` (checked under the table's lock).

        A seat's own bot or stand-in must still hold the seat; the clock's bot (``by="clock"``)
        plays once for a player whose time ran out, so the version alone says it is still due.
        """
        game = table.game
        return (table.id in self.tables and not table.held and table.hold is None and not game.is_over
                and table.version == version and game.current_player == seat
                and (by == "clock" or table.bots.get(seat) is player))

    async def play_for(self, table: Table, seat: int, player: Bot, version: int) -> bool:
        """Let ``player`` (a bot) make ``seat``'s decision at ``version``: the move clock ran out.

        False, with nothing played, when the table has moved on, is held (before the start or
        between hands), or it is not that seat's turn any more.
        """
        if await self._bot_move(table, seat, player, version, "clock") is None:
            return False
        self.broadcast(table)
        self.kick(table)
        return True

    def _bot_advance(self, table: Table, seat: int, player: Bot | None = None,
                     chosen: str | None = None) -> tuple[str, Snapshot]:
        """Apply the bot's decision (``chosen`` if made in the pool, else made here); a failing bot plays at random.

        The legal actions are listed only where they are needed (a decision made here, or
        the random fallback): a decision from the pool is checked with ``is_legal`` alone,
        so Rummikub's solver does not list the plays a second time.
        """
        game = table.game
        rng = random.Random(f"{table.seed}:{table.version}")
        try:
            if chosen is None:
                chosen = str((player or table.bots[seat]).choose(game.view(seat), game.legal_actions(), rng))
            text = chosen
            if not game.is_legal(text):
                raise IllegalAction(f"bot chose {text!r}")
        except Exception:
            log.exception("bot at table %s seat %s failed; playing a random legal action", table.id, seat)
            legal = game.legal_actions()
            text = str(legal[rng.randrange(len(legal))])
        return self._advance(table, text)

    # ----- housekeeping --------------------------------------------------------------

    async def _sweep_forever(self) -> None:
        interval = max(0.05, min(30.0, self.idle_timeout / 4, self.finished_linger / 2))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep()
            except Exception:
                log.exception("table sweep failed")

    async def sweep(self) -> None:
        """Drop finished tables nobody watches from memory, and expire tables idle too long."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            idle = now - table.touched
            if table.game.is_over:
                if not table.subscribers and idle > self.finished_linger:
                    self.tables.pop(table.id, None)
                    self._leases.pop(table.id, None)
            elif idle > self.idle_timeout and not table.turn_based and not table.lock.locked():
                try:
                    await self.committer.write(functools.partial(write_expired, table_id=table.id))
                except STORE_ERRORS:
                    continue  # the database is down: try again at the next sweep
                self.tables.pop(table.id, None)
                if table.bot_task is not None:
                    table.bot_task.cancel()
                for sub in table.subscribers.values():
                    sub.close_code = CLOSE_GONE
                    sub.too_slow.set()
                log.info("table %s expired after %.0f s without an action", table.id, idle)

    async def health(self) -> dict[str, Any]:
        """The database's state (``SELECT 1`` within 3 s) and the number of tables in memory."""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.store.ping), 3.0)
            database = "ok"
            error = None
        except Exception as err:
            database = "unavailable"
            error = f"{type(err).__name__}: {str(err).splitlines()[0][:MAX_QUOTE] if str(err) else ''}"
        out: dict[str, Any] = {"database": database, "loaded": self.loaded.is_set(), "tables": len(self.tables),
                               "quarantined": len(self.quarantined), "loop_lag_ms": self.lag.summary(),
                               "commits": {"transactions": self.committer.batches, "writes": self.committer.writes},
                               "compute": {"workers": self.compute.workers, "running": self.compute.running,
                                           "waiting": self.compute.waiting, "served": self.compute.served}}
        if error:
            out["error"] = error
        return out

    async def stop(self) -> None:
        """Cancel the bot loops and the sweeper, then let the writer finish (at shutdown)."""
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        if self.lag.task is not None:
            tasks.append(self.lag.task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._listener is not None:
            self._listener.stop()
        self.committer.close()
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.slow_pool.shutdown(wait=False, cancel_futures=True)
        self.compute.close()


def _fail(future: asyncio.Future[Any], err: BaseException) -> None:
    if not future.done():
        future.set_exception(err)


class LagMonitor:
    """How late the event loop wakes a timer: the delay every request and push is also waiting.

    A task asks to wake every ``period`` seconds and records how much later it woke; the
    last ``window`` seconds of samples give the p50, p99 and maximum that ``/healthz`` shows.
    """

    def __init__(self, period: float = 0.05, window: float = 30.0) -> None:
        self.period = period
        self.samples: collections.deque[float] = collections.deque(maxlen=int(window / period))
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sampling on the running loop."""
        self.task = asyncio.get_running_loop().create_task(self._sample())

    async def _sample(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(self.period)
            self.samples.append(max(0.0, loop.time() - asked - self.period) * 1000)

    def summary(self) -> dict[str, float]:
        """p50, p99 and max of the recent lags, in milliseconds."""
        ordered = sorted(self.samples)
        if not ordered:
            return {"p50": 0.0, "p99": 0.0, "max": 0.0}
        pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)  # noqa: E731
        return {"p50": pick(0.5), "p99": pick(0.99), "max": round(ordered[-1], 2)}
