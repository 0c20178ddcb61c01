"""Rated means played (issue 37): each finding as a scripted game through the HTTP API, then
the rules of ``boneyard/server/rating.py`` on their own (``docs/api.md``, "Ratings")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from boneyard.server.db import Store

from .conftest import Server, auth
from .test_friends import create, join, own_moves, play_out, register, resign, room, state, wait_for


def claim(client: Any, table_id: str, token: str, code: str) -> Any:
    """Link a seat to a player code."""
    return client.post(f"/api/tables/{table_id}/claim", headers={**auth(token), "X-Player": code})


def board(client: Any, players: int | None = None) -> list[dict[str, Any]]:
    """The rounce leaderboard (one player count, or all of them)."""
    query = "" if players is None else f"?players={players}"
    out: list[dict[str, Any]] = client.get(f"/api/games/rounce/leaderboard{query}").json()
    return out


def log_texts(client: TestClient, table_id: str) -> list[str]:
    """The table's log lines."""
    return [e["text"] for e in room(client, table_id)["log"]]


def rated_game(client: TestClient, names: tuple[str, ...] = ("Ann", "Bob"), bots: tuple[str, ...] = (),
               **body: Any) -> tuple[str, dict[int, str]]:
    """A finished rounce game of claimed players (and ``bots``), each making their own moves."""
    codes = [register(client, n) for n in names]
    table_id, _host = create(client, ["human"] * len(names) + [f"bot:{b}" for b in bots],
                             rules={"max_hands": 6}, next_timeout=0, **body)
    tokens = {s: join(client, table_id, s, n) for s, n in enumerate(names)}
    for s, token in tokens.items():
        assert claim(client, table_id, token, codes[s]).status_code == 200
    own_moves(client, table_id, tokens)
    play_out(client, table_id, tokens)
    return table_id, tokens


def decisions(store: Any, table_id: str, seat: int) -> tuple[int, int]:
    """A seat's stored decisions: (its player's own, a bot's for it)."""
    from sqlalchemy import text

    with store.engine.connect() as conn:
        total = conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :t AND seat = :s"),
                             {"t": table_id, "s": seat}).scalar()
        by_bot = conn.execute(text("SELECT count(*) FROM standins WHERE table_id = :t AND seat = :s "
                                   "AND kind <> 'resign'"), {"t": table_id, "s": seat}).scalar()
    return int(total) - int(by_bot), int(by_bot)


def until_mostly_bot(client: Any, store: Any, table_id: str, token: str, seat: int = 1) -> None:
    """Ann (seat 0) plays on until the bot standing in for ``seat`` has made most of its decisions."""
    for _ in range(2000):
        own, by_bot = decisions(store, table_id, seat)
        if by_bot > own:
            return
        st = state(client, table_id)
        assert not st["is_over"], "the game ended before the bot made most of the seat's decisions"
        mine = state(client, table_id, token)
        legal = [a for a in mine["legal_actions"] if a != "fold"] or mine["legal_actions"]
        if legal:
            client.post(f"/api/tables/{table_id}/actions", headers=auth(token),
                        json={"action": legal[0], "expected_version": mine["version"]})
        else:
            time.sleep(0.01)
    raise AssertionError("the bot never made most of the seat's decisions")


# ----- the findings, through the HTTP API ------------------------------------------------


def test_a_second_code_resigning_at_move_0_farms_nothing(client: TestClient) -> None:
    farmer, shill = register(client, "Fay"), register(client, "Sam")
    for _ in range(3):
        table_id, _host = create(client, ["human", "human"])
        fay, sam = join(client, table_id, 0, "Fay"), join(client, table_id, 1, "Sam")
        claim(client, table_id, fay, farmer)
        claim(client, table_id, sam, shill)
        assert resign(client, table_id, sam).status_code == 200
        assert room(client, table_id)["decided"] == [0]
        wait_for(lambda tid=table_id: any("not rated" in t for t in log_texts(client, tid)))
        assert "this game is not rated: Fay and Sam each made fewer than 2 moves of their own, and a rated game " \
               "needs 2 moves from each player" in log_texts(client, table_id)
    assert board(client) == []
    assert all(s["rating"] is None for s in room(client, table_id)["seats"])


def test_a_game_played_by_a_stand_in_is_not_rated_for_the_absent_player(client: TestClient) -> None:
    # Bob leaves before his first move: the bot plays all of his game, which is aborted
    ann_code, bob_code = register(client, "Ann"), register(client, "Bob")
    table_id, _host = create(client, ["human", "human"], rules={"max_hands": 6}, next_timeout=0)
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    claim(client, table_id, ann, ann_code)
    claim(client, table_id, bob, bob_code)
    assert client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "greedy"},
                       headers=auth(bob)).status_code == 200
    play_out(client, table_id, {0: ann})
    wait_for(lambda: any("not rated" in t for t in log_texts(client, table_id)))
    assert "this game is not rated: Bob made 0 moves of their own, and a rated game needs 2 moves from each " \
           "player" in log_texts(client, table_id)
    assert board(client) == []

    # Bob makes his two moves, then leaves: the bot makes most of his decisions; Ann is rated, he is not
    table_id, _host = create(client, ["human", "human"], rules={"max_hands": 6}, next_timeout=0)
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    claim(client, table_id, ann, ann_code)
    claim(client, table_id, bob, bob_code)
    own_moves(client, table_id, {0: ann, 1: bob})
    client.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "greedy"}, headers=auth(bob))
    until_mostly_bot(client, client.app.state.service.store, table_id, ann)  # type: ignore[attr-defined]
    play_out(client, table_id, {0: ann})
    rows = wait_for(lambda: board(client))
    assert [r["name"] for r in rows] == ["Ann"] and rows[0]["games"] == 1
    said = [t for t in log_texts(client, table_id) if t.startswith("not rated for Bob")]
    assert said and "a bot made" in said[0] and "at most 50%" in said[0]
    seats = room(client, table_id)["seats"]
    assert seats[0]["rating"] is not None and seats[1]["rating"] is None


def test_the_host_cannot_hand_a_present_players_seat_to_a_bot(client: TestClient) -> None:
    ann_code, bob_code = register(client, "Ann"), register(client, "Bob")
    table_id, host = create(client, ["human", "human"], rules={"max_hands": 6}, next_timeout=0)
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    claim(client, table_id, ann, ann_code)
    claim(client, table_id, bob, bob_code)
    hand_off = lambda: client.post(f"/api/tables/{table_id}/standin",  # noqa: E731
                                   json={"seat": 1, "bot": "random"}, headers={"X-Host-Token": host})
    # Bob has just sat down and plays through the API (no friends socket): he is here
    own_moves(client, table_id, {0: ann, 1: bob})
    r = hand_off()
    assert r.status_code == 409
    assert r.json()["detail"] == ("Bob is at the table: the host can hand Bob's seat to a bot only once Bob's "
                                  "clock has run out or Bob has left")
    with client.websocket_connect(f"/ws/friends/{table_id}?token={bob}") as ws:
        ws.receive_text()
        assert hand_off().status_code == 409  # his page is open
        assert room(client, table_id)["seats"][1]["standin"] is None
    # Bob closed his page: he left, and the host may let a bot play for him
    r = hand_off()
    assert r.status_code == 200, r.text
    assert room(client, table_id)["seats"][1]["standin"] == "random"


def test_the_host_may_hand_over_the_seat_of_an_api_player_gone_quiet(client: TestClient,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from boneyard.server import social

    monkeypatch.setattr(social, "AWAY_AFTER", 0.5)
    table_id, host = create(client, ["human", "human"], rules={"max_hands": 6}, next_timeout=0)
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    own_moves(client, table_id, {0: ann, 1: bob})
    hand_off = lambda: client.post(f"/api/tables/{table_id}/standin",  # noqa: E731
                                   json={"seat": 1, "bot": "random"}, headers={"X-Host-Token": host})
    assert hand_off().status_code == 409  # Bob has just moved
    time.sleep(0.6)  # neither a socket nor a move from Bob since
    assert hand_off().status_code == 200


def test_the_host_may_hand_over_a_seat_whose_clock_ran_out(client: TestClient) -> None:
    table_id, host = create(client, ["human", "human"], clock=1, rules={"max_hands": 6}, next_timeout=0)
    ann, bob = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Bob")
    hand_off = lambda: client.post(f"/api/tables/{table_id}/standin",  # noqa: E731
                                   json={"seat": 1, "bot": "random"}, headers={"X-Host-Token": host})
    assert hand_off().status_code == 409
    # Ann plays her turns at once; Bob lets his clock run out
    deadline = time.monotonic() + 20
    while not any("Bob's clock ran out" in t for t in log_texts(client, table_id)):
        assert time.monotonic() < deadline, "Bob's clock never ran out"
        mine = state(client, table_id, ann)
        if mine["legal_actions"]:
            client.post(f"/api/tables/{table_id}/actions", headers=auth(ann),
                        json={"action": mine["legal_actions"][0], "expected_version": mine["version"]})
        time.sleep(0.05)
    r = hand_off()
    assert r.status_code == 200, r.text
    assert bob  # Bob's seat now plays by the random bot
    assert room(client, table_id)["seats"][1]["standin"] == "random"


def test_one_code_holds_one_seat_per_table(client: TestClient) -> None:
    code = register(client, "Ann")
    table_id, _host = create(client, ["human", "human"])
    ann, twin = join(client, table_id, 0, "Ann"), join(client, table_id, 1, "Annie")
    assert claim(client, table_id, ann, code).status_code == 200
    assert claim(client, table_id, ann, code).status_code == 200  # the same seat again is fine
    r = claim(client, table_id, twin, code)
    assert r.status_code == 409
    assert r.json()["detail"] == ("this player code already plays Ann's seat at this table: one code, one seat "
                                  "(a game against yourself would count for nobody)")
    mine = client.get("/api/players/me/tables", headers={"X-Player": code}).json()
    assert [(t["id"], t["seat"]) for t in mine["tables"]] == [(table_id, 0)]


def test_a_bot_in_several_seats_is_rated_once_per_game(client: TestClient) -> None:
    rated_game(client, names=("Ann",), bots=("random", "random", "random"))
    rows = wait_for(lambda: board(client, 4))
    games = {r["name"]: r["games"] for r in rows}
    assert games == {"Ann": 1, "random bot": 1}


class TiedEnd:
    """A real rounce game whose final scores are replaced, to script a tie for first place.

    Everything is the real game's (the moves are played and stored for real); only the
    result the ratings read at the end is chosen: the random and greedy bots tie for first,
    Ann is third and Bob last.
    """

    def __init__(self, game: Any, scores: list[int], winners: list[int]) -> None:
        self._game, self._scores, self._winners = game, scores, winners

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    @property
    def is_over(self) -> bool:
        return bool(self._game.is_over)

    @property
    def scores(self) -> list[int]:
        return self._scores if self._game.is_over else list(self._game.scores)

    @property
    def winners(self) -> list[int]:
        return self._winners if self._game.is_over else list(self._game.winners)

    @staticmethod
    def sides(players: int, rules: Any = None) -> list[list[int]]:
        return [[s] for s in range(players)]  # rounce: every seat alone


def test_a_third_place_is_rated_below_the_two_winners(client: TestClient) -> None:
    codes = {n: register(client, n) for n in ("Ann", "Bob")}
    table_id, _host = create(client, ["human", "bot:random", "bot:greedy", "human"], rules={"max_hands": 6},
                             next_timeout=0)
    tokens = {0: join(client, table_id, 0, "Ann"), 3: join(client, table_id, 3, "Bob")}
    claim(client, table_id, tokens[0], codes["Ann"])
    claim(client, table_id, tokens[3], codes["Bob"])
    service = client.app.state.service  # type: ignore[attr-defined]
    table = service.tables[table_id]
    table.game = TiedEnd(table.game, scores=[5, 0, 0, 9], winners=[1, 2])  # rounce: lower is better
    own_moves(client, table_id, tokens)
    play_out(client, table_id, tokens)
    rows = wait_for(lambda: board(client, 4))
    order = [r["name"] for r in rows]
    assert order == ["greedy bot", "random bot", "Ann", "Bob"] or order == ["random bot", "greedy bot", "Ann", "Bob"]
    shown = {r["name"]: r["rating"] for r in rows}
    assert shown["random bot"] == shown["greedy bot"] > shown["Ann"] > shown["Bob"]


def test_ratings_are_shown_on_a_familiar_scale_and_provisional(client: TestClient) -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    table_id, _tokens = rated_game(client)
    rows = wait_for(lambda: board(client))
    assert {r["name"] for r in rows} == {"Ann", "Bob"}
    for r in rows:
        assert set(r) >= {"name", "bot", "players", "games", "mu", "sigma", "ordinal", "rating", "provisional",
                          "board"}
        assert isinstance(r["rating"], int) and 1300 < r["rating"] < 1700  # not -2.3 or 3.2
        assert r["provisional"] is True and r["board"] == "2 players"
        assert r["rating"] == rating.shown(r["mu"], r["sigma"]) or abs(r["rating"] - rating.shown(
            r["mu"], r["sigma"])) <= 1  # mu and sigma are rounded for the answer
    assert rows[0]["rating"] >= rows[1]["rating"]
    seat = room(client, table_id)["seats"][0]["rating"]
    assert seat["provisional"] is True and isinstance(seat["rating"], int)
    page = client.get("/leaderboard/rounce").text
    assert f"<td>{rows[0]['rating']} <small class=muted>provisional</small></td>" in page


def test_each_player_count_has_its_own_labelled_board(client: TestClient) -> None:
    rated_game(client, names=("Ann", "Bob"))
    rated_game(client, names=("Ann", "Bob", "Cy"))
    wait_for(lambda: len(board(client)) == 5)
    two, three = board(client, 2), board(client, 3)
    assert sorted(r["name"] for r in two) == ["Ann", "Bob"] and {r["board"] for r in two} == {"2 players"}
    assert sorted(r["name"] for r in three) == ["Ann", "Bob", "Cy"] and {r["board"] for r in three} == {"3 players"}
    everyone = board(client)  # without ?players: every board, each row saying which
    assert sorted((r["name"], r["players"]) for r in everyone) == sorted(
        [(r["name"], 2) for r in two] + [(r["name"], 3) for r in three])
    page = client.get("/leaderboard/rounce?players=3")
    assert page.status_code == 200
    text = page.text
    assert "Rounce: leaderboard, 3 players" in text and "<caption>3 players</caption>" in text
    assert "<a href='/leaderboard/rounce?players=2'>2 players</a>" in text
    assert "<strong aria-current=page>3 players</strong>" in text
    assert text.count("<td>Ann</td>") == 1  # one row per name on a board
    assert "How games are rated" in text and "at least 2 moves of their own" in text
    empty = client.get("/leaderboard/rounce?players=4").text
    assert "No rated 4 players games yet." in empty
    r = client.get("/leaderboard/rounce?players=9")
    assert r.status_code == 400 and "Rounce is played by 2 to 4 players" in r.json()["detail"]
    assert client.get("/leaderboard/chess").status_code == 404
    assert client.get("/api/games/rounce/leaderboard?players=x").status_code == 422


def test_games_in_play_at_the_upgrade_are_never_rated(tmp_path: Path) -> None:
    """The database change is additive: an older database gains the stand-in records, and the
    games in play then (whose stand-ins were never recorded) are marked as counted."""
    from sqlalchemy import text

    from boneyard.server import create_app

    from .conftest import NO_LIMITS

    url = f"sqlite:///{tmp_path / 'old.db'}"
    with TestClient(create_app(url, bot_delay=0.0, limits=NO_LIMITS)) as c:
        live, _host = create(c, ["human", "human"])
        join(c, live, 0, "Ann")
    store = Store(url)
    with store.engine.begin() as conn:  # as a database from before the stand-in records
        conn.execute(text("DROP TABLE standins"))
        conn.execute(text("DELETE FROM rated_tables"))
    store.close()
    store = Store(url)
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT table_id FROM rated_tables")).scalars().all() == [live]
        assert conn.execute(text("SELECT count(*) FROM standins")).scalar() == 0
    store.close()


def test_stand_in_moves_survive_a_kill_9(tmp_path: Path) -> None:
    """The record of who made a decision is stored with the decision: a server killed (kill -9)
    and restarted still knows that a bot played most of Bob's game."""
    db = f"sqlite:///{tmp_path / 'kill.db'}"
    server = Server(db).start()
    try:
        http = httpx.Client(base_url=server.url, timeout=20)
        codes = {n: http.post("/api/players", json={"name": n}).json()["code"] for n in ("Ann", "Bob")}
        table_id = http.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "human"],
                                                  "rules": {"max_hands": 6}, "next_timeout": 0}).json()["id"]
        tokens = {s: http.post(f"/api/tables/{table_id}/join", json={"seat": s, "name": n}).json()["token"]
                  for s, n in enumerate(("Ann", "Bob"))}
        for s, n in enumerate(("Ann", "Bob")):
            assert claim(http, table_id, tokens[s], codes[n]).status_code == 200
        own_moves(http, table_id, tokens)  # type: ignore[arg-type]
        http.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "greedy"}, headers=auth(tokens[1]))
        store = Store(db)
        until_mostly_bot(http, store, table_id, tokens[0])
        before = decisions(store, table_id, 1)
        server.kill()
        server = Server(db, port=server.port).start()
        after = decisions(store, table_id, 1)  # what was played is known as the bot's after the kill
        assert after[0] == before[0] and after[1] >= before[1]  # (the bot may have moved once more meanwhile)
        store.close()
        http = httpx.Client(base_url=server.url, timeout=20)
        play_out(http, table_id, {0: tokens[0]})  # type: ignore[arg-type]
        rows = wait_for(lambda: http.get("/api/games/rounce/leaderboard").json())
        assert [r["name"] for r in rows] == ["Ann"]
        log = [e["text"] for e in http.get(f"/api/tables/{table_id}/friends").json()["log"]]
        assert any(t.startswith("not rated for Bob: a bot made") for t in log)
    finally:
        server.stop()


# ----- the rules on their own (rating.py) -------------------------------------------------


def test_a_game_is_aborted_until_every_human_made_two_moves() -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    names = {0: "Ann", 1: "Bob", 2: "the random bot"}
    plays = [rating.SeatPlay(True, own=5), rating.SeatPlay(True, own=1, resigned=True), rating.SeatPlay(False)]
    verdict = rating.judge(plays, names)
    assert verdict.aborted and verdict.rated == frozenset()
    assert verdict.reason == ("this game is not rated: Bob made 1 move of their own, and a rated game needs "
                              "2 moves from each player")
    both = rating.judge([rating.SeatPlay(True, own=0), rating.SeatPlay(True, own=1)], names)
    assert both.reason.startswith("this game is not rated: Ann and Bob each made fewer than 2 moves")
    fine = rating.judge([rating.SeatPlay(True, own=2), rating.SeatPlay(True, own=2), rating.SeatPlay(False)], names)
    assert not fine.aborted and fine.rated == frozenset({0, 1, 2}) and fine.unrated == {}


def test_a_seat_mostly_played_by_a_bot_is_unrated_for_its_player() -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    names = {0: "Ann", 1: "Bob"}
    verdict = rating.judge([rating.SeatPlay(True, own=10), rating.SeatPlay(True, own=4, standin=5)], names)
    assert not verdict.aborted and verdict.rated == frozenset({0})
    assert verdict.unrated == {1: "not rated for Bob: a bot made 5 of their 9 decisions (a rated game allows a "
                                  "bot at most 50% of them)"}
    half = rating.judge([rating.SeatPlay(True, own=10), rating.SeatPlay(True, own=5, standin=5)], names)
    assert half.rated == frozenset({0, 1})  # at most half is allowed


def test_ranks_put_winners_first_share_ties_and_put_resigned_sides_last() -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    singles = [[0], [1], [2], [3]]
    assert rating.ranks(singles, [5, 0, 0, 9], [1, 2], True, []) == [3, 1, 1, 4]
    assert rating.ranks(singles, [5, 0, 0, 9], [1], True, []) == [3, 1, 2, 4]  # the game broke the tie
    assert rating.ranks(singles, [7, 3, 3, 1], [], False, [3]) == [1, 2, 2, 4]
    assert rating.ranks([[0, 2], [1, 3]], [80, 20, 80, 20], [0, 2], False, []) == [1, 2]


def test_a_tie_for_first_never_lifts_the_third_above_the_winners() -> None:
    from openskill.models import BradleyTerryFull

    from boneyard.server import rating

    model = BradleyTerryFull()
    order = rating.ranks([[0], [1], [2], [3]], [5, 0, 0, 9], [1, 2], True, [])
    new = model.rate([[model.rating()] for _ in range(4)], ranks=[float(r) for r in order])
    shown = [rating.shown(team[0].mu, team[0].sigma) for team in new]
    assert shown[1] == shown[2] > shown[0] > shown[3]


def test_one_name_at_several_seats_moves_once_by_the_mean() -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    assert rating.combine([(30.0, 8.0)]) == (30.0, 8.0)
    assert rating.combine([(30.0, 8.0), (20.0, 7.0)]) == (25.0, 7.5)


def test_the_shown_rating_and_provisional() -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    assert rating.shown(25.0, 25.0 / 3) == 1500  # a new player
    assert rating.shown(27.6, 8.07) > 1500 > rating.shown(22.4, 8.07)
    assert rating.shown(30.0, 2.0) == 1500 + 30 * 24
    assert rating.shown(float("nan"), 1.0) == 1500
    assert [rating.provisional(n) for n in (0, 4, 5, 50)] == [True, True, False, False]
    assert rating.board_label(2) == "2 players"
    assert any("2 moves" in line for line in rating.rules_text())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_board_labels(players: int) -> None:
    from boneyard.server import rating  # imported here: the module is new, the other tests run anywhere

    assert rating.board_label(players) == f"{players} players"


def test_the_rules_hold_across_two_processes_on_postgresql(cluster: Any) -> None:
    """Two server processes on one PostgreSQL: a code's second seat is refused at the other
    process, the host there sees the move just made here, and the game is judged from what
    is stored (claims made at either process, the stand-in's decisions)."""
    a, b = Server(cluster.url).start(), Server(cluster.url).start()
    try:
        ha, hb = httpx.Client(base_url=a.url, timeout=20), httpx.Client(base_url=b.url, timeout=20)
        codes = {n: ha.post("/api/players", json={"name": n}).json()["code"] for n in ("Ann", "Bob")}
        made = ha.post("/api/tables", json={"game": "rounce", "players": 2, "seats": ["human", "human"],
                                            "rules": {"max_hands": 6}, "next_timeout": 0}).json()
        table_id, host = made["id"], made["host_token"]
        ann = ha.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Ann"}).json()["token"]
        bob = ha.post(f"/api/tables/{table_id}/join", json={"seat": 1, "name": "Bob"}).json()["token"]
        assert hb.get(f"/api/tables/{table_id}").status_code == 200  # B has the table before any claim
        assert claim(ha, table_id, ann, codes["Ann"]).status_code == 200
        r = claim(hb, table_id, bob, codes["Ann"])
        assert r.status_code == 409 and "one code, one seat" in r.json()["detail"]
        assert claim(hb, table_id, bob, codes["Bob"]).status_code == 200
        own_moves(ha, table_id, {0: ann, 1: bob})  # type: ignore[arg-type]
        r = hb.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "random"},
                    headers={"X-Host-Token": host})
        assert r.status_code == 409 and r.json()["detail"].startswith("Bob is at the table")
        assert ha.post(f"/api/tables/{table_id}/standin", json={"seat": 1, "bot": "greedy"},
                       headers=auth(bob)).status_code == 200  # Bob leaves
        store = Store(cluster.url)
        until_mostly_bot(ha, store, table_id, ann)
        store.close()
        play_out(ha, table_id, {0: ann})  # type: ignore[arg-type]
        rows = wait_for(lambda: ha.get("/api/games/rounce/leaderboard?players=2").json())
        time.sleep(0.5)
        assert [(r["name"], r["games"]) for r in hb.get("/api/games/rounce/leaderboard").json()] == [("Ann", 1)]
        assert rows[0]["name"] == "Ann"
    finally:
        a.stop()
        b.stop()
