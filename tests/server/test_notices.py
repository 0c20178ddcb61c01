"""Notices over Web Push and e-mail, in-process against a local push service and a local SMTP
server (``tests/server/pushkit.py``): what a push carries (decrypted as the browser would), the
fallback to e-mail with its confirm and unsubscribe links, no notice to a player looking at the
table, one notice per turn, and a subscription the push service has dropped deleted."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import create_app
from boneyard.server.mail import MailSettings
from boneyard.server.notices import Notice

from .conftest import NO_LIMITS, auth
from .pushkit import LocalPush, Mailbox, decrypt, new_subscription, text_of, wait_for


@pytest.fixture
def push() -> Iterator[LocalPush]:
    """A push service on 127.0.0.1."""
    service = LocalPush()
    yield service
    service.close()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    """An SMTP server on 127.0.0.1."""
    box = Mailbox()
    yield box
    box.close()


@pytest.fixture
def client(tmp_path: Path, mailbox: Mailbox) -> Iterator[TestClient]:
    """The app on a temporary SQLite file, sending e-mail to the local SMTP server and pushes to
    plain-http endpoints on this machine (``push_loopback``)."""
    app = create_app(f"sqlite:///{tmp_path / 'notices.db'}", bot_delay=0.0, limits=NO_LIMITS,
                     mail=MailSettings("127.0.0.1", mailbox.port, "tables@boneyard.test"), push_loopback=True)
    with TestClient(app, base_url="http://boneyard.test") as c:
        yield c


class Player:
    """A player with a code, seated at a table with a token, as the pages would make them."""

    def __init__(self, client: TestClient, table: str, seat: int, name: str) -> None:
        self.client = client
        self.name = name
        self.seat = seat
        self.code = client.post("/api/players", json={"name": name}).json()["code"]
        joined = client.post(f"/api/tables/{table}/join", json={"seat": seat, "name": name})
        assert joined.status_code == 200, joined.text
        self.token = joined.json()["token"]
        claimed = client.post(f"/api/tables/{table}/claim", headers={**auth(self.token), "X-Player": self.code})
        assert claimed.status_code == 200, claimed.text

    @property
    def me(self) -> dict[str, str]:
        """The header that names the player."""
        return {"X-Player": self.code}

    def settings(self) -> dict[str, Any]:
        """The player's notice settings."""
        out: dict[str, Any] = self.client.get("/api/players/me/notices", headers=self.me).json()
        return out


def two_players(client: TestClient, seed: int = 1) -> tuple[str, Player, Player]:
    """A one-hand, two-player Rounce table with Ann and Bob, both with codes and claimed seats: a
    practice table, whose deal ``seed`` fixes, so that every run plays the same game."""
    fixed = {"practice": True, "seed": seed}
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "human"],
                                         "rules": {"max_hands": 1}, **fixed})
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    return table, Player(client, table, 0, "Ann"), Player(client, table, 1, "Bob")


def state(client: TestClient, table: str, token: str | None = None) -> dict[str, Any]:
    """The table as a seat (or a spectator) sees it."""
    out: dict[str, Any] = client.get(f"/api/tables/{table}", headers=auth(token) if token else {}).json()
    return out


def play_until_turn_of(client: TestClient, table: str, players: list[Player], seat: int, rng: random.Random,
                       moves: int = 1) -> int:
    """Play random legal actions until ``seat`` has got the turn from another seat ``moves`` times;
    returns how many times that happened (it may happen again on the last move)."""
    by_seat = {p.seat: p for p in players}
    came = 0
    last = state(client, table)["current_player"]
    for _ in range(400):
        st = state(client, table)
        assert not st["is_over"], "the game ended before the turn came round"
        now = st["current_player"]
        if now == seat and last != seat:
            came += 1
            if came >= moves:
                return came
        last = now
        mine = state(client, table, by_seat[now].token)
        r = client.post(f"/api/tables/{table}/actions", headers=auth(by_seat[now].token),
                        json={"action": rng.choice(mine["legal_actions"]), "expected_version": mine["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("the turn never came")


def notices_log(client: TestClient) -> list[dict[str, Any]]:
    """What became of each notice (the server's in-memory log)."""
    return list(client.app.state.notices.log)  # type: ignore[attr-defined]


def test_the_key_is_made_once_and_kept_in_the_database(tmp_path: Path) -> None:
    """The VAPID public key is the same after a restart (kept in the database, not made anew)."""
    url = f"sqlite:///{tmp_path / 'keys.db'}"
    with TestClient(create_app(url, limits=NO_LIMITS)) as c:
        first = c.get("/api/push/key").json()
    with TestClient(create_app(url, limits=NO_LIMITS)) as c:
        second = c.get("/api/push/key").json()
    assert first["key"] == second["key"] and len(first["key"]) == 87  # 65 bytes, base64url
    assert first["email_available"] is False  # no --smtp-host


def test_your_turn_reaches_the_push_service_encrypted_for_the_subscription(client: TestClient,
                                                                           push: LocalPush) -> None:
    """A subscription gets one push each time the turn passes to its player, encrypted for its keys,
    whose JSON says "Your turn" with the table and the players' names."""
    table, ann, bob = two_players(client)
    sub = new_subscription(push.url + "/ann")
    r = client.post("/api/players/me/push", headers=ann.me, json=sub.json())
    assert r.status_code == 201, r.text
    assert ann.settings()["subscriptions"] == 1
    rng = random.Random(3)
    came = play_until_turn_of(client, table, [ann, bob], 0, rng, moves=3)
    wait_for(lambda: len(push.at("/ann")) >= came)
    notes = [decrypt(r, sub) for r in push.at("/ann")]
    turns = [n for n in notes if n["kind"] == "turn"]
    assert turns, notes
    last = turns[-1]
    assert last["title"] == "Your turn in Domino Rounce"
    assert last["table"] == table and last["url"] == f"/tables/{table}"
    assert last["names"] == ["Ann", "Bob"] and last["you"] == "Ann"
    assert last["body"] == "Bob has played. It is your turn, Ann, in Domino Rounce with Bob."
    # one notice per turn, not one per version: as many pushes as times the turn came to Ann
    # (the first may be the deal's, when Ann leads)
    assert len(turns) in (came, came + 1), (len(turns), came)
    # signed with the server's VAPID key
    assert push.at("/ann")[-1].headers["authorization"].startswith("vapid t=")
    # Bob has no subscription and no address: nothing reaches him, and it is said so
    assert any(e["player"] != ann_id(client, ann) and e["how"] == "no way to reach" for e in notices_log(client))


def ann_id(client: TestClient, player: Player) -> str:
    """The stored id of a player's code."""
    from boneyard.server.social import player_id

    return player_id(player.code)


def test_no_notice_while_the_player_looks_at_the_table(client: TestClient, push: LocalPush) -> None:
    """With the table's socket open and the page visible, the turn is not pushed; once the page
    says it is hidden, it is."""
    table, ann, bob = two_players(client)
    sub = new_subscription(push.url + "/ann")
    client.post("/api/players/me/push", headers=ann.me, json=sub.json())
    rng = random.Random(5)
    me = ann_id(client, ann)
    with client.websocket_connect(f"/ws/tables/{table}?token={ann.token}") as ws:
        ws.receive_text()
        play_until_turn_of(client, table, [ann, bob], 0, rng)
        wait_for(lambda: any(e["player"] == me and e["kind"] == "turn" and e["how"] == "looking"
                             for e in notices_log(client)))
        assert not [n for n in map(lambda r: decrypt(r, sub), push.at("/ann")) if n["kind"] == "turn"]
        # the page goes to the background: the socket stays open, the next turn is pushed
        r = client.post(f"/api/tables/{table}/looking", headers=auth(ann.token), json={"visible": False})
        assert r.status_code == 200, r.text
        play_until_turn_of(client, table, [ann, bob], 0, rng)
        wait_for(lambda: [n for n in map(lambda r: decrypt(r, sub), push.at("/ann")) if n["kind"] == "turn"])
    # only the seat's own token may say so
    assert client.post(f"/api/tables/{table}/looking", json={"visible": False}).status_code == 401


def test_a_chat_line_and_a_subscription_the_service_dropped(client: TestClient, push: LocalPush) -> None:
    """Bob's chat line is pushed to Ann; a push service answering 410 has its subscription deleted."""
    table, ann, bob = two_players(client)
    live, dropped = new_subscription(push.url + "/phone"), new_subscription(push.url + "/old-laptop")
    push.status["/old-laptop"] = 410
    for sub in (live, dropped):
        assert client.post("/api/players/me/push", headers=ann.me, json=sub.json()).status_code == 201
    assert ann.settings()["subscriptions"] == 2
    r = client.post(f"/api/tables/{table}/chat", headers=auth(bob.token), json={"text": "good luck, Ann"})
    assert r.status_code == 200, r.text
    chat = wait_for(lambda: [n for n in map(lambda r: decrypt(r, live), push.at("/phone")) if n["kind"] == "chat"])
    assert chat[0]["title"] == "Bob wrote at your Domino Rounce table" and chat[0]["body"] == "Bob: good luck, Ann"
    assert push.at("/old-laptop"), "the dropped subscription was tried"
    wait_for(lambda: ann.settings()["subscriptions"] == 1)
    assert any(e["how"] == "subscription gone (410)" for e in notices_log(client))
    # Bob's own line is not told to Bob, and a kind Ann turned off is not sent
    r = client.put("/api/players/me/notices", headers=ann.me,
                   json={"kinds": ["turn", "end"], "push": True, "email": True, "address": None})
    assert r.status_code == 200 and r.json()["kinds"] == ["turn", "end"]
    before = len(push.at("/phone"))
    client.post(f"/api/tables/{table}/chat", headers=auth(bob.token), json={"text": "your move"})
    wait_for(lambda: sum(e["how"] == "not wanted" for e in notices_log(client)) >= 1)
    assert len(push.at("/phone")) == before
    # the subscription can be removed by its player
    gone = client.request("DELETE", "/api/players/me/push", headers=ann.me, json={"endpoint": live.endpoint})
    assert gone.status_code == 200 and ann.settings()["subscriptions"] == 0


def test_email_for_a_player_without_a_subscription_with_a_working_unsubscribe_link(
        client: TestClient, mailbox: Mailbox) -> None:
    """Bob gives an address, confirms it with the link he is sent, and his turn reaches him by
    e-mail (names, the table's link, a List-Unsubscribe header); the link stops the e-mail."""
    table, ann, bob = two_players(client)
    r = client.put("/api/players/me/notices", headers=bob.me,
                   json={"kinds": ["turn", "join", "chat", "end"], "push": True, "email": True,
                         "address": "bob@example.org"})
    assert r.status_code == 200, r.text
    assert r.json()["address_confirmed"] is False and r.json()["email_available"] is True
    confirm = wait_for(lambda: mailbox.to("bob@example.org"))[0]
    link = next(w for w in text_of(confirm).split() if "/notices/confirm/" in w)
    assert link.startswith("http://boneyard.test/notices/confirm/")
    page = client.get(link.removeprefix("http://boneyard.test"))
    assert page.status_code == 200 and "bob@example.org" in page.text
    assert bob.settings()["address_confirmed"] is True
    rng = random.Random(7)
    play_until_turn_of(client, table, [ann, bob], 1, rng, moves=2)
    turn = "Your turn in Domino Rounce"
    mail = wait_for(lambda: [m for m in mailbox.to("bob@example.org") if m["Subject"] == turn])[0]
    body = text_of(mail)
    assert "It is your turn, Bob, in Domino Rounce with Ann." in body
    assert f"http://boneyard.test/tables/{table}" in body
    unsubscribe = "".join(mail["List-Unsubscribe"].split()).strip("<>")  # unfolded
    assert unsubscribe in body and mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    stopped = client.get(unsubscribe.removeprefix("http://boneyard.test"))
    assert stopped.status_code == 200 and "no more e-mail to bob@example.org" in stopped.text
    assert bob.settings()["email"] is False
    count = len(mailbox.to("bob@example.org"))
    play_until_turn_of(client, table, [ann, bob], 1, rng)
    wait_for(lambda: sum(e["how"] == "no way to reach" for e in notices_log(client)) >= 1)
    assert len(mailbox.to("bob@example.org")) == count
    assert client.get("/unsubscribe/not-a-token").status_code == 404


def test_bad_requests_are_refused_in_words(client: TestClient) -> None:
    """No code, an unknown code, an endpoint that is no push service, keys that are no keys, a bad address."""
    assert client.get("/api/players/me/notices").status_code == 401
    assert client.get("/api/players/me/notices", headers={"X-Player": "AAAA-BBBB-CCCC"}).status_code == 403
    code = client.post("/api/players", json={"name": "Cy"}).json()["code"]
    me = {"X-Player": code}
    sub = new_subscription("http://10.0.0.1/push").json()
    r = client.post("/api/players/me/push", headers=me, json=sub)
    assert r.status_code == 400 and "https://" in r.json()["detail"]
    sub = new_subscription("https://push.example/x").json()
    sub["keys"]["p256dh"] = "AAAA"
    r = client.post("/api/players/me/push", headers=me, json=sub)
    assert r.status_code == 400 and "P-256" in r.json()["detail"]
    r = client.put("/api/players/me/notices", headers=me,
                   json={"kinds": ["turn"], "push": True, "email": True, "address": "not an address"})
    assert r.status_code == 400 and "e-mail address" in r.json()["detail"]
    r = client.put("/api/players/me/notices", headers=me,
                   json={"kinds": ["weather"], "push": True, "email": True, "address": None})
    assert r.status_code == 400 and "turn, join, chat, end" in r.json()["detail"]


def test_a_notice_is_sent_once_whichever_process_sees_the_change(client: TestClient, push: LocalPush) -> None:
    """Processes holding the same table all see its change: the first to claim the notice in the
    database sends it, the others do not (here: the same notice handed to the sender twice)."""
    table, ann, _bob = two_players(client)
    sub = new_subscription(push.url + "/once")
    client.post("/api/players/me/push", headers=ann.me, json=sub.json())
    notices = client.app.state.notices  # type: ignore[attr-defined]
    notice = Notice("chat", ann_id(client, ann), table, "rounce", "Bob wrote", "Bob: hi", ("Ann", "Bob"), "Ann",
                    f"chat:{table}:0:0@1.0")
    assert notices._deliver(notice) == "push"
    assert notices._deliver(notice) == "sent by another process"
    assert len(push.at("/once")) == 1


def test_the_game_end_is_told_to_its_player_and_a_bot_seat_gets_nothing(client: TestClient, push: LocalPush) -> None:
    """A game against a bot, played to its end: Ann is told it is over and who won, in names; the
    bot's seat, which no player holds, is never told anything."""
    r = client.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "bot:random"],
                                         "rules": {"max_hands": 1}})
    table = r.json()["id"]
    ann = Player(client, table, 0, "Ann")
    sub = new_subscription(push.url + "/end")
    client.post("/api/players/me/push", headers=ann.me, json=sub.json())
    rng = random.Random(2)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        st = state(client, table, ann.token)
        if st["is_over"]:
            break
        if st["legal_actions"]:
            client.post(f"/api/tables/{table}/actions", headers=auth(ann.token),
                        json={"action": rng.choice(st["legal_actions"]), "expected_version": st["version"]})
        else:
            time.sleep(0.02)  # the bot's move
    assert st["is_over"]
    ends = wait_for(lambda: [n for n in map(lambda r: decrypt(r, sub), push.at("/end")) if n["kind"] == "end"])
    assert len(ends) == 1 and ends[0]["title"] == "Your Domino Rounce game is over"
    winners = ["you" if w == 0 else "the random bot" for w in st["winners"]]
    assert ends[0]["body"].startswith("The game of Domino Rounce with the random bot is over: ")
    assert winners[0] in ends[0]["body"]
    seats = {e["player"] for e in notices_log(client)}
    assert seats <= {ann_id(client, ann)}


def test_tables_gone_from_memory_are_forgotten(client: TestClient) -> None:
    """What the notices remember of a table goes when the table leaves memory (no growth forever)."""
    table, _ann, _bob = two_players(client)
    notices = client.app.state.notices  # type: ignore[attr-defined]
    assert table in notices._joined
    notices.looking(table, 0, False)
    service = client.app.state.service  # type: ignore[attr-defined]
    held = service.tables.pop(table)
    try:
        notices._prune()
        assert table not in notices._joined and table not in notices._turns and not notices._hidden
    finally:
        service.tables[table] = held


SEED = 1  # a deal (with the moves of random.Random(1)) where Ann decides twice in a row


def test_one_notice_per_turn_even_with_two_decisions_in_a_row(client: TestClient, push: LocalPush) -> None:
    """When Ann decides twice in a row (she takes a trick and leads the next), she gets one notice
    for that turn, not one per decision: as many pushes as times the turn came to her from Bob."""
    table, ann, bob = two_players(client, seed=SEED)
    sub = new_subscription(push.url + "/count")
    client.post("/api/players/me/push", headers=ann.me, json=sub.json())
    by_seat = {0: ann, 1: bob}
    rng = random.Random(1)
    # the deal's turn was told before the subscription: only the turns that come after it count
    came, in_a_row, last = 0, 0, state(client, table)["current_player"]
    first = True
    for _ in range(400):
        st = state(client, table)
        if st["is_over"] or (in_a_row >= 1 and came >= 2):
            break
        now = st["current_player"]
        if now == 0 and last != 0:
            came += 1
        elif now == 0 and last == 0 and not first:
            in_a_row += 1
        last, first = now, False
        mine = state(client, table, by_seat[now].token)
        client.post(f"/api/tables/{table}/actions", headers=auth(by_seat[now].token),
                    json={"action": rng.choice(mine["legal_actions"]), "expected_version": mine["version"]})
    assert in_a_row >= 1, "this deal never gave Ann two decisions in a row: pick another seed"
    wait_for(lambda: len(push.at("/count")) >= came)
    client.post(f"/api/tables/{table}/chat", headers=auth(bob.token), json={"text": "done"})
    wait_for(lambda: any(n["kind"] == "chat" for n in map(lambda r: decrypt(r, sub), push.at("/count"))))
    wait_for(lambda: client.app.state.notices.idle)  # type: ignore[attr-defined]
    turns = [n for n in map(lambda r: decrypt(r, sub), push.at("/count")) if n["kind"] == "turn"]
    assert len(turns) == came, (len(turns), came)
