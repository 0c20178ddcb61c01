"""Notices that reach a player away from the table: Web Push, and e-mail as the fallback.

A notice goes to a *player* (a player code, ``social.py``) for a seat that player has
claimed: "your turn", "someone joined your table", "a chat line at your table", "your
game is over". The table service calls :meth:`Notices.changed` after every broadcast
(it is one of ``TableService.hooks``) and the friends' layer hands over each chat line
(``Social.said``); from those the turn, joins and the game's end are found here, and the
public methods :meth:`Notices.turn_started`, :meth:`Notices.friend_joined`,
:meth:`Notices.chat_said` and :meth:`Notices.game_ended` are what any other part of the
server calls to send one.

Nothing is sent from a request or under a table's lock: a notice is put on a queue, and
a background task reads the player's settings, skips a player who is looking at the
table (a table socket of their seat open and the page visible), and sends it in a
thread of its own, with a timeout. A push service that answers 404 or 410 has dropped
the subscription, so it is deleted. E-mail goes through the SMTP server of the server's
options (``--smtp-host``), only to a confirmed address, each with an unsubscribe link.

Sending itself is in :mod:`.push` (the VAPID keys, kept in the database, and one
encrypted push) and :mod:`.mail` (one e-mail); the routes are in :mod:`.notices_api`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import JSON, Boolean, Float, String, delete, func, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

import boneyard

from ..words.notices import KINDS, chat_words, end_words, join_words, turn_words
from . import mail, push
from .db import Base, Store
from .mail import MailSettings
from .push import PushSubRow, keys_of

log = logging.getLogger("boneyard.server")

PUSH_TIMEOUT = 5.0  # seconds a push service or the SMTP server may take to answer
SENDERS = 4  # notices sent at once (each in a thread of its own)
LOG_KEPT = 200  # the newest decisions kept in memory (``Notices.log``: what happened to each notice)
SENT_KEPT = 7 * 86400  # seconds a sent notice's claim is kept (a table idle longer has expired)
PURGE_EVERY = 500  # notices sent between two purges of old claims
PRUNE_EVERY = 1000  # table changes between two prunes of the tables no longer in memory
MAX_ADDRESS = 254


# ----- stored facts --------------------------------------------------------------------


class NoticeSettingsRow(Base):
    """A player's choices: which kinds, by push and/or e-mail, the address and whether it is confirmed."""

    __tablename__ = "notice_settings"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kinds: Mapped[list[str]] = mapped_column(JSON, default=list)
    push: Mapped[bool] = mapped_column(Boolean, default=True)
    email: Mapped[bool] = mapped_column(Boolean, default=True)
    address: Mapped[str | None] = mapped_column(String(MAX_ADDRESS), nullable=True)
    confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    confirm_token: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    unsubscribe_token: Mapped[str] = mapped_column(String(64), index=True)
    origin: Mapped[str | None] = mapped_column(String(300), nullable=True)  # where the links in e-mails point


class NoticeSentRow(Base):
    """A notice claimed for sending: with several server processes holding one table, each sees the
    same change, and the first to store this row is the one that sends (the others find it there)."""

    __tablename__ = "notices_sent"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)  # kind:table:version:seat (chat: its time)
    at: Mapped[float] = mapped_column(Float, index=True)


@dataclass
class Settings:
    """A player's notice settings as the API shows them (defaults for a player who never chose)."""

    kinds: list[str] = field(default_factory=lambda: list(KINDS))
    push: bool = True
    email: bool = True
    address: str | None = None
    confirmed: bool = False
    unsubscribe_token: str = ""
    origin: str | None = None

    @classmethod
    def of(cls, row: NoticeSettingsRow | None) -> Settings:
        """The stored settings, or the defaults."""
        if row is None:
            return cls()
        return cls([k for k in KINDS if k in (row.kinds or [])], row.push, row.email, row.address, row.confirmed,
                   row.unsubscribe_token, row.origin)


@dataclass(frozen=True)
class Notice:
    """One notice for one player: its facts (data) and its words, made when it was queued."""

    kind: str
    player: str  # player id
    table: str
    game: str
    title: str
    body: str
    names: tuple[str, ...]
    you: str
    key: str  # what makes it one notice across the server's processes (``NoticeSentRow``)

    def payload(self) -> dict[str, Any]:
        """What a push carries (the service worker shows ``title`` and ``body`` and opens ``url``)."""
        return {"kind": self.kind, "title": self.title, "body": self.body, "table": self.table,
                "game": self.game, "url": f"/tables/{self.table}", "names": list(self.names), "you": self.you}


# ----- the notices ---------------------------------------------------------------------


class Notices:
    """The notices of one server: found from the tables' changes, queued, sent in the background.

    ``social`` is the friends' layer (whose ``rooms`` say which player claimed which seat);
    ``mail`` the SMTP server (None: no e-mail); ``public_url`` the address links in e-mails
    use (else the address the player set their e-mail from). ``push_loopback`` lets a
    subscription's endpoint be plain http on this machine: the tests' local push service.
    """

    def __init__(self, service: Any, social: Any, mail: MailSettings | None = None, public_url: str = "",
                 push_loopback: bool = False, timeout: float = PUSH_TIMEOUT) -> None:
        self.service = service
        self.social = social
        self.store: Store = service.store
        self.mail = mail
        self.public_url = public_url
        self.push_loopback = push_loopback
        self.timeout = timeout
        self.private_pem = ""
        self.public_key = ""
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_KEPT)
        self._turns: dict[str, set[int]] = {}  # table id -> the seats whose turn was last told
        self._joined: dict[str, set[int]] = {}  # table id -> the seats known to be taken
        self._ended: set[str] = set()  # tables whose end was told (or found over when loaded)
        self._hidden: set[tuple[str, int]] = set()  # (table, seat) whose page says it is not visible
        self._queue: asyncio.Queue[Notice] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._changes = 0  # table changes seen (every PRUNE_EVERY, tables gone from memory are forgotten)
        self._sent = 0  # notices claimed here (every PURGE_EVERY, the old claims are deleted)
        self._pool = ThreadPoolExecutor(SENDERS, thread_name_prefix="boneyard-notice")
        self._gate = asyncio.Semaphore(SENDERS)
        service.hooks.append(self)
        social.said.append(self._said)

    # ----- life ------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the sender; the VAPID keys are loaded (or made, the first time) in the background,
        retried while the database cannot be reached, as the tables are (the server answers meanwhile)."""
        with contextlib.suppress(SQLAlchemyError):  # the usual case: ready before the first request
            self.private_pem, self.public_key = await self._run(keys_of, self.store)
        self._queue = asyncio.Queue()
        self._worker = asyncio.get_running_loop().create_task(self._send_forever())

    async def _load_keys(self) -> None:
        backoff = 0.25
        while not self.public_key:
            try:
                self.private_pem, self.public_key = await self._run(keys_of, self.store)
            except SQLAlchemyError:
                log.warning("the database cannot give the push keys; retrying in %.2f s", backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 5.0)

    async def stop(self) -> None:
        """Stop sending (what is queued is dropped: a notice is worth little once it is late)."""
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
        for task in list(self._sending):
            task.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    @property
    def idle(self) -> bool:
        """Whether no notice is waiting or being sent (what a test waits for before it counts)."""
        return (self._queue is None or self._queue.empty()) and not self._sending

    @property
    def email_available(self) -> bool:
        """Whether this server can send e-mail at all (an SMTP server was given)."""
        return self.mail is not None

    # ----- hooks of the table service and the friends' layer ----------------------------

    def loaded(self, table: Any) -> None:
        """A stored table is rebuilt (worker thread): what it already is was told before the restart."""
        self._turns[table.id] = self.turn_seats(table)
        self._joined[table.id] = set(table.names)
        if table.game.is_over:
            self._ended.add(table.id)

    def changed(self, table: Any) -> None:
        """After every broadcast (on the loop, cheap): a new turn, a new player or the game's end is queued."""
        self._changes += 1
        if self._changes % PRUNE_EVERY == 0:
            self._prune()
        joined = set(table.names)
        before = self._joined.get(table.id)
        self._joined[table.id] = joined
        for seat in sorted(joined - (before or set())):
            if before is not None:  # the table's first change (its creation) joins nobody to tell
                self.friend_joined(table.id, seat)
        if table.game.is_over:
            self._turns.pop(table.id, None)
            if table.id not in self._ended:
                self._ended.add(table.id)
                self.game_ended(table.id)
            return
        now = self.turn_seats(table)
        fresh = now - self._turns.get(table.id, set())
        self._turns[table.id] = now
        if fresh:
            self.turn_started(table.id, sorted(fresh))

    def _prune(self) -> None:
        """Forget what was told about tables no longer in memory (a table loaded again is
        looked at afresh by :meth:`loaded`)."""
        live = self.service.tables
        for known in (self._turns, self._joined):
            for table_id in [t for t in known if t not in live]:
                del known[table_id]
        self._ended = {t for t in self._ended if t in live}
        self._hidden = {(t, seat) for t, seat in self._hidden if t in live}

    def _said(self, table: Any, entry: dict[str, Any]) -> None:
        if entry.get("kind") == "chat" and entry.get("seat") is not None:
            self.chat_said(table.id, entry["seat"], entry.get("text", ""), entry.get("at", time.time()))

    @staticmethod
    def turn_seats(table: Any) -> set[int]:
        """The seats that must decide now: none while the table waits (for its players, between
        hands) or is over. The engines give one seat a decision at a time (``current_player``);
        a game deciding several seats at once would list them all here."""
        game = table.game
        if table.held or table.hold is not None or game.is_over or game.current_player is None:
            return set()
        return {game.current_player}

    # ----- what others call ----------------------------------------------------------------

    def turn_started(self, table_id: str, seats: int | list[int]) -> None:
        """Tell the players of ``seats`` that it is their turn at ``table_id`` (once per turn: the
        caller says when a turn starts, not every version while it lasts)."""
        table = self.service.tables.get(table_id)
        if table is None:
            return
        actor = table.who(table.last_seat) if table.last_seat is not None else None
        for seat in [seats] if isinstance(seats, int) else seats:
            self._tell(table, seat, "turn", lambda game, you, names, a=actor: turn_words(game, you, names, a))

    def friend_joined(self, table_id: str, seat: int) -> None:
        """Tell the other players of ``table_id`` that someone took ``seat``."""
        table = self.service.tables.get(table_id)
        if table is None or seat in table.bots or table.seats[seat] != "human":
            return
        joiner = table.who(seat)
        for other in range(table.players):
            if other != seat:
                self._tell(table, other, "join", lambda game, you, names: join_words(game, you, names, joiner),
                           f"+{seat}")

    def chat_said(self, table_id: str, seat: int, text: str, at: float | None = None) -> None:
        """Tell the other players of ``table_id`` what the player of ``seat`` wrote (``at``: when, epoch s)."""
        table = self.service.tables.get(table_id)
        if table is None:
            return
        speaker = table.who(seat)
        for other in range(table.players):
            if other != seat:
                self._tell(table, other, "chat", lambda game, you, names: chat_words(game, you, speaker, text),
                           f"@{time.time() if at is None else at:.6f}")

    def game_ended(self, table_id: str) -> None:
        """Tell every player of ``table_id`` that the game is over, and who won."""
        table = self.service.tables.get(table_id)
        if table is None:
            return
        winners = [table.who(s) for s in table.game.winners]
        for seat in range(table.players):
            self._tell(table, seat, "end", lambda game, you, names: end_words(game, you, names, winners))

    def looking(self, table_id: str, seat: int, visible: bool) -> None:
        """The table page of ``seat`` says whether it is visible (``visibilitychange``)."""
        if visible:
            self._hidden.discard((table_id, seat))
        else:
            self._hidden.add((table_id, seat))

    def is_looking(self, table: Any, seat: int) -> bool:
        """Whether the player of ``seat`` is looking at the table: a table socket of the seat is
        open and the page has not said it is hidden."""
        if (table.id, seat) in self._hidden:
            return False
        return any(sub.seat == seat for sub in list(table.subscribers.values()))

    # ----- queueing ------------------------------------------------------------------------

    def _tell(self, table: Any, seat: int, kind: str, words: Any, at: str = "") -> None:
        """Queue one notice for the player who claimed ``seat``; bots, stand-ins, bot accounts and
        unclaimed seats get none, nor a player looking at the table now."""
        if seat in table.bots or seat in table.accounts or table.seats[seat] != "human":
            return
        room = self.social.rooms.get(table.id)
        player = room.claims.get(seat) if room is not None else None
        if player is None:
            return
        if self.is_looking(table, seat):
            self._note(kind, table.id, player, "looking")
            return
        if self._queue is None:
            return
        names = tuple(table.who(s) for s in range(table.players) if table.seats[s] != "human" or s in table.names)
        you = table.who(seat)
        game = boneyard.game_info(table.game_id)["name"]
        title, body = words(game, you, names)
        key = f"{kind}:{table.id}:{table.version}:{seat}{at}"
        self._queue.put_nowait(Notice(kind, player, table.id, table.game_id, title, body, names, you, key))

    def _note(self, kind: str, table: str, player: str, how: str) -> None:
        """Remember what became of a notice (``log``: the tests and an operator read it)."""
        self.log.append({"kind": kind, "table": table, "player": player, "how": how, "at": time.time()})

    async def _send_forever(self) -> None:
        assert self._queue is not None
        await self._load_keys()
        while True:
            notice = await self._queue.get()
            await self._gate.acquire()
            task = asyncio.get_running_loop().create_task(self._send(notice))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, notice: Notice) -> None:
        try:
            how = await self._run(self._deliver, notice)
        except Exception as err:  # a notice lost is no reason to stop the sender
            log.warning("a notice could not be sent (%s)", type(err).__name__)
            how = f"failed: {type(err).__name__}"
        finally:
            self._gate.release()
        self._note(notice.kind, notice.table, notice.player, how)

    # ----- sending (threads) ---------------------------------------------------------------

    def _deliver(self, notice: Notice) -> str:
        """Send one notice by push, else by e-mail; returns what was done, in a word or two."""
        try:
            with self.store.session() as s:
                s.add(NoticeSentRow(key=notice.key, at=time.time()))
        except IntegrityError:
            return "sent by another process"
        self._sent += 1
        if self._sent % PURGE_EVERY == 0:
            with self.store.session() as s:
                s.execute(delete(NoticeSentRow).where(NoticeSentRow.at < time.time() - SENT_KEPT))
        with self.store.session() as s:
            settings = Settings.of(s.get(NoticeSettingsRow, notice.player))
            subs = [(r.endpoint, r.p256dh, r.auth) for r in
                    s.scalars(select(PushSubRow).where(PushSubRow.player_id == notice.player))]
        if notice.kind not in settings.kinds:
            return "not wanted"
        if settings.push and subs:
            sent = sum(self._push(notice, *sub) for sub in subs)
            if sent:
                return "push"
        if settings.email and settings.address and settings.confirmed and self.mail is not None:
            self._mail_notice(notice, settings)
            return "email"
        return "no way to reach"

    def _push(self, notice: Notice, endpoint: str, p256dh: str, auth: str) -> bool:
        """One push; a subscription the service answers 404 or 410 for is deleted."""
        status = push.send(endpoint, p256dh, auth, notice.payload(), self.private_pem, self._contact(), self.timeout)
        if status in push.GONE:
            push.forget(self.store, endpoint)
            self._note(notice.kind, notice.table, notice.player, f"subscription gone ({status})")
        return status is None

    def _contact(self) -> str:
        """The VAPID ``sub`` claim: whom a push service may write to about this server."""
        if self.mail is not None:
            return f"mailto:{self.mail.sender}"
        if self.public_url.startswith("https://"):
            return self.public_url
        return "mailto:boneyard@localhost"

    def base_url(self, settings: Settings) -> str:
        """Where links in a player's e-mail point: the public address, else where they set their address."""
        return (self.public_url or settings.origin or "http://127.0.0.1:8000").rstrip("/")

    def _mail_notice(self, notice: Notice, settings: Settings) -> None:
        base = self.base_url(settings)
        unsubscribe = f"{base}/unsubscribe/{settings.unsubscribe_token}"
        text = (f"{notice.body}\n\nOpen the table: {base}/tables/{notice.table}\n\n"
                f"You get this because you asked boneyard for notices by e-mail.\n"
                f"To get no more e-mail from boneyard, open: {unsubscribe}\n")
        assert settings.address is not None
        self._mail(settings.address, notice.title, text, unsubscribe)

    def _mail(self, to: str, subject: str, text: str, unsubscribe: str | None) -> None:
        """Send one e-mail through the configured SMTP server, with a timeout."""
        assert self.mail is not None
        mail.send(self.mail, to, subject, text, unsubscribe, self.timeout)

    # ----- settings (threads) ----------------------------------------------------------------

    def settings_of(self, player: str) -> dict[str, Any]:
        """A player's settings as ``GET /api/players/me/notices`` shows them."""
        with self.store.session() as s:
            settings = Settings.of(s.get(NoticeSettingsRow, player))
            count = s.scalar(select(func.count()).select_from(PushSubRow).where(PushSubRow.player_id == player))
        return {"kinds": settings.kinds, "push": settings.push, "email": settings.email,
                "address": settings.address, "address_confirmed": settings.confirmed,
                "subscriptions": int(count or 0), "email_available": self.email_available}

    def save_settings(self, player: str, kinds: list[str], push: bool, email: bool, address: str | None,
                      origin: str) -> tuple[dict[str, Any], tuple[str, str] | None]:
        """Store a player's choices; a new address is unconfirmed until its link is opened (saving an
        unconfirmed address again makes a fresh link, the old one no longer works). Returns
        the settings and, for a new address on a server that sends e-mail, the confirmation to send
        (the address and its link): the caller sends it in the background (:meth:`confirm_later`)."""
        confirm: str | None = None
        with self.store.session() as s:
            row = s.get(NoticeSettingsRow, player)
            if row is None:
                row = NoticeSettingsRow(player_id=player, unsubscribe_token=secrets.token_urlsafe(24),
                                        confirmed=False)
                s.add(row)
            row.kinds = [k for k in KINDS if k in kinds]
            row.push = push
            row.email = email
            row.origin = origin
            if address != row.address or (address and not row.confirmed):  # saved again: a fresh link
                row.address = address
                row.confirmed = False
                row.confirm_token = secrets.token_urlsafe(24) if address else None
                confirm = row.confirm_token
            settings = Settings.of(row)
        pending = None
        if confirm and address and self.mail is not None:
            pending = (address, f"{self.base_url(settings)}/notices/confirm/{confirm}")
        return self.settings_of(player), pending

    def confirm_later(self, address: str, link: str) -> None:
        """Send the confirmation e-mail of a new address in the background (never in the request)."""
        async def send() -> None:
            try:
                await self._run(self._mail, address, "Confirm e-mail notices from boneyard",
                                "Someone (we hope you) asked boneyard to send notices of their games to this "
                                f"address.\nTo confirm, open: {link}\n\nIf it was not you, ignore this e-mail: "
                                "nothing more will be sent.\n", None)
                self._note("confirm", "", address, "email")
            except Exception as err:  # the SMTP server away: the player may save the address again
                log.warning("a confirmation e-mail could not be sent (%s)", type(err).__name__)
                self._note("confirm", "", address, f"failed: {type(err).__name__}")

        task = asyncio.get_running_loop().create_task(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def confirm(self, token: str) -> str | None:
        """Confirm the address a confirmation link was sent to; returns it (None: no such link)."""
        with self.store.session() as s:
            row = s.scalar(select(NoticeSettingsRow).where(NoticeSettingsRow.confirm_token == token))
            if row is None:
                return None
            row.confirmed = True
            row.email = True
            return row.address

    def stop_email(self, token: str) -> str | None:
        """The unsubscribe link: no more e-mail for its player; returns the address (None: no such link)."""
        with self.store.session() as s:
            row = s.scalar(select(NoticeSettingsRow).where(NoticeSettingsRow.unsubscribe_token == token))
            if row is None:
                return None
            row.email = False
            return row.address or "your address"



