"""Club events through the API (``docs/api.md``, "Tournaments"): a Swiss event of six people
and two bot seats over three rounds of four-player Rounce, with the server started again
twice, its pairings and standings checked against the documented rules computed here."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boneyard.server import create_app

from .conftest import NO_LIMITS, auth
from .pg import PgCluster
from .test_pairing import brute_force

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@contextmanager
def server(db: str, counting: bool = True) -> Iterator[TestClient]:
    """The app on ``db``; ``counting=False`` leaves the events' hook out, as if the server had died
    right after each game's last move, before the event counted it."""
    app = create_app(db, bot_delay=0.0, limits=NO_LIMITS)
    if not counting:
        app.state.service.hooks.remove(app.state.tourney)
    with TestClient(app) as c:
        yield c


def wait_for(c: TestClient, event: str, test: Any, within: float = 60.0) -> dict[str, Any]:
    """The event's view once ``test(view)`` holds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        view: dict[str, Any] = c.get(f"/api/events/{event}").json()
        if test(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"the event did not get there in {within} s: {view}")


def play(c: TestClient, event: str, codes: list[str], rng: random.Random, actions: int | None = None) -> None:
    """Every entrant plays random legal actions at their table of the current round, until
    every table's game is over (or ``actions`` actions in all have been played)."""
    seats = []
    for code in codes:
        got = c.post(f"/api/events/{event}/seat", headers={"X-Player": code})
        assert got.status_code == 200, got.text
        seats.append(got.json())
    played = 0
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        busy = False
        for s in seats:
            state = c.get(f"/api/tables/{s['table']}", headers=auth(s["token"])).json()
            if state["is_over"]:
                continue
            busy = True
            hold = state.get("between_hands")
            if hold and state["seat"] in hold["waiting"]:
                c.post(f"/api/tables/{s['table']}/next", json={"hand": hold["hand"]}, headers=auth(s["token"]))
            elif state["legal_actions"] and not hold:
                # a Rounce player who folds makes one move in a one-hand game, and such a game is
                # not rated ("rated means played"): these players keep their hands to be rated
                choices = [a for a in state["legal_actions"] if a != "fold"] or state["legal_actions"]
                c.post(f"/api/tables/{s['table']}/actions", headers=auth(s["token"]),
                       json={"action": rng.choice(choices), "expected_version": state["version"]})
                played += 1
                if actions is not None and played >= actions:
                    return
        if not busy:
            return
        time.sleep(0.01)
    raise AssertionError("the round's games did not end in 90 s")


def rated(c: TestClient, games: int, within: float = 30.0) -> None:
    """Wait until every entrant has ``games`` rated games of four-player Rounce (a rating lands a
    moment after its game's end)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        board = c.get("/api/games/rounce/leaderboard", params={"players": 4}).json()
        counts = {row["name"]: row["games"] for row in board}
        if all(counts.get(n) == games for n in NAMES):
            return
        time.sleep(0.05)
    raise AssertionError(f"not {games} rated games each: {counts}")


def places(state: dict[str, Any]) -> list[int]:
    """A finished Rounce table's places, worked out here: the winners first, then the lower score."""
    scores, winners = state["scores"], set(state["winners"])
    key = [(0 if s in winners else 1, scores[s]) for s in range(len(scores))]
    return [1 + sum(1 for other in key if other < mine) for mine in key]


def expected_standings(results: list[tuple[list[int | None], list[int]]], entrants: int) -> list[tuple[int, float]]:
    """The documented standings, computed here from the tables' places: (entrant, points), best first."""
    points: dict[int, float] = dict.fromkeys(range(entrants), 0.0)
    mates: dict[int, list[int]] = {e: [] for e in range(entrants)}
    for seats, ranks in results:
        for e, mine in zip(seats, ranks, strict=True):
            if e is None:
                continue
            points[e] += sum(1.0 for r in ranks if r > mine) + 0.5 * (ranks.count(mine) - 1)
            mates[e] += [m for m in seats if m is not None and m != e]
    buchholz = {e: sum(points[m] for m in mates[e]) for e in range(entrants)}

    def h2h(e: int, tied: set[int]) -> float:
        out = 0.0
        for seats, ranks in results:
            if e in seats:
                mine = ranks[seats.index(e)]
                out += sum(1.0 if r > mine else 0.5 for m, r in zip(seats, ranks, strict=True)
                           if m in tied and m != e and r >= mine)
        return out

    order = sorted(range(entrants), key=lambda e: (-points[e], -buchholz[e]))
    out: list[int] = []
    i = 0
    while i < len(order):
        level = [e for e in order if (points[e], buchholz[e]) == (points[order[i]], buchholz[order[i]])]
        out += sorted(level, key=lambda e: (-h2h(e, set(level)), e))
        i += len(level)
    return [(e, points[e]) for e in out]


def check_round(c: TestClient, view: dict[str, Any], results: list[tuple[list[int | None], list[int]]]) -> None:
    """The newest round's seats are the documented Swiss pairing of the results so far."""
    made = view["played"][-1]
    got = [[seat["entrant"] for seat in t["seats"]] for t in made["tables"]]
    if len(view["played"]) == 1:
        order = list(range(6))
    else:
        order = [e for e, _ in expected_standings(results, 6)]
    met = Counter[frozenset[int]]()
    for seats, _ranks in results:
        people = [e for e in seats if e is not None]
        for a in people:
            for b in people:
                if a < b:
                    met[frozenset((a, b))] += 1
    want = brute_force(order, [3, 3], met)
    assert got == [[*table, None] for table in want]
    for t in made["tables"]:
        bots = [s for s in t["seats"] if s["bot"]]
        assert len(bots) == 1 and bots[0]["name"] == "greedy bot"  # the two bot seats: one at each table


def finished(c: TestClient, view: dict[str, Any], results: list[tuple[list[int | None], list[int]]]) -> None:
    """Add the newest round's places, read from the tables themselves, to ``results``."""
    for t in view["played"][-1]["tables"]:
        state = c.get(f"/api/tables/{t['id']}").json()
        assert state["is_over"]
        results.append(([s["entrant"] for s in t["seats"]], places(state)))


def test_swiss_rounce_survives_restarts(tmp_path: Path) -> None:
    swiss_with_restarts(f"sqlite:///{tmp_path / 'events.db'}")


def test_swiss_rounce_survives_restarts_on_postgresql(cluster: PgCluster) -> None:
    swiss_with_restarts(cluster.url)


def swiss_with_restarts(db: str) -> None:
    """The Swiss event of the issue on the database at ``db``, from entries to its kept standings."""
    rng = random.Random(42)
    results: list[tuple[list[int | None], list[int]]] = []
    with server(db, counting=False) as c:
        codes = [c.post("/api/players", json={"name": n}).json()["code"] for n in NAMES]
        made = c.post("/api/events", json={"name": "Friday club", "game": "rounce", "players": 4, "format": "swiss",
                                           "rounds": 3, "rules": {"max_hands": 1}})
        assert made.status_code == 201, made.text
        event, host = made.json()["id"], made.json()["host_token"]
        for i, code in enumerate(codes):
            assert c.post(f"/api/events/{event}/join", headers={"X-Player": code}).json()["entrant"] == i
        assert c.post(f"/api/events/{event}/start").status_code == 401
        assert c.post(f"/api/events/{event}/start", headers={"X-Host-Token": "nope"}).status_code == 403
        assert c.post(f"/api/events/{event}/start", headers={"X-Host-Token": host}).status_code == 200
        assert c.post(f"/api/events/{event}/start", headers={"X-Host-Token": host}).status_code == 409
        late = c.post("/api/players", json={"name": "Gus"}).json()["code"]
        assert c.post(f"/api/events/{event}/join", headers={"X-Player": late}).status_code == 409
        view = c.get(f"/api/events/{event}").json()
        assert view["state"] == "running" and view["round"] == 1
        check_round(c, view, results)
        play(c, event, codes, rng)  # round 1 ends while nobody counts it
        view = c.get(f"/api/events/{event}").json()
        assert view["round"] == 1 and all(t["over"] is False for t in view["played"][0]["tables"])
        finished(c, view, results)
        rated(c, 1)  # the games are rated as they end, whether or not an event counts them
    # a new server finds round 1 over, stores its places and makes round 2
    with server(db) as c:
        view = wait_for(c, event, lambda v: v["round"] == 2)
        assert [t["over"] for t in view["played"][0]["tables"]] == [True, True]
        check_round(c, view, results)
        play(c, event, codes, rng, actions=5)  # round 2 under way...
    with server(db) as c:  # ...when the server stops and starts again
        play(c, event, codes, rng)
        view = wait_for(c, event, lambda v: v["round"] == 3)
        finished(c, {"played": view["played"][:2]}, results)
        check_round(c, view, results)
        play(c, event, codes, rng)
        view = wait_for(c, event, lambda v: v["state"] == "finished")
        finished(c, view, results)
        want = expected_standings(results, 6)
        got = [(s["entrant"], s["points"]) for s in view["standings"]]
        assert got == want
        assert [s["name"] for s in view["standings"]] == [NAMES[e] for e, _ in want]
        assert [s["place"] for s in view["standings"]] == [1, 2, 3, 4, 5, 6]
        assert all(s["played"] == 3 for s in view["standings"])
        assert sum(s["points"] for s in view["standings"]) <= 3 * 2 * 6  # the bots took the rest
        # the games inside are ordinary rated tables: every entrant has three rated games
        rated(c, 3)
        me = c.get(f"/api/events/{event}/me", headers={"X-Player": codes[0]}).json()
        assert me["entrant"] == 0 and me["over"] is True
    with server(db) as c:  # the standings are kept
        assert c.get(f"/api/events/{event}").json()["standings"] == view["standings"]
        listed = c.get("/api/events").json()
        assert listed[0]["id"] == event and listed[0]["state"] == "finished" and listed[0]["entrants"] == 6


@pytest.mark.parametrize("body, message", [
    ({"name": "x", "game": "chess"}, "unknown game"),
    ({"name": "x", "game": "rounce", "players": 5, "rounds": 2}, "2 to 4 players"),
    ({"name": "x", "game": "rounce"}, "needs a number of rounds"),
    ({"name": "x", "game": "rounce", "rounds": 2, "format": "knockout"}, "format must be"),
    ({"name": "x", "game": "rounce", "rounds": 2, "rules": {"max_hands": 0}}, "max_hands"),
    ({"name": "x", "game": "rounce", "rounds": 2, "bot": "nobody"}, "nobody"),
])
def test_refusals(tmp_path: Path, body: dict[str, Any], message: str) -> None:
    with server(f"sqlite:///{tmp_path / 'e.db'}") as c:
        got = c.post("/api/events", json=body)
        assert got.status_code == 400, got.text
        assert message in got.json()["detail"]


def test_round_robin_two_players_with_an_odd_number(tmp_path: Path) -> None:
    """Three entrants at two-player tables: three rounds by the circle method, each playing the bot once."""
    rng = random.Random(7)
    with server(f"sqlite:///{tmp_path / 'rr.db'}") as c:
        codes = [c.post("/api/players", json={"name": n}).json()["code"] for n in NAMES[:3]]
        made = c.post("/api/events", json={"name": "Duel night", "game": "rounce", "players": 2,
                                           "format": "round_robin", "rules": {"max_hands": 1}}).json()
        event = made["id"]
        for code in codes:
            c.post(f"/api/events/{event}/join", headers={"X-Player": code})
        assert c.post(f"/api/events/{event}/start", headers={"X-Host-Token": made["host_token"]}).status_code == 200
        # the event's host hosts its tables: a seat is handed to a bot by the table's rules
        # (409: its player sat down a moment ago), where another token is refused (403)
        table = c.get(f"/api/events/{event}").json()["played"][0]["tables"][0]["id"]
        wrong = c.post(f"/api/tables/{table}/standin", json={"seat": 0, "bot": "greedy"},
                       headers={"X-Host-Token": "not-the-host"})
        assert wrong.status_code == 403
        host = c.post(f"/api/tables/{table}/standin", json={"seat": 0, "bot": "greedy"},
                      headers={"X-Host-Token": made["host_token"]})
        assert host.status_code == 409 and "at the table" in host.json()["detail"], host.text
        for r in (1, 2, 3):
            wait_for(c, event, lambda v, r=r: v["round"] == r)
            play(c, event, codes, rng)
        view = wait_for(c, event, lambda v: v["state"] == "finished")
        assert view["rounds"] == 3
        seats = [[[s["entrant"] for s in t["seats"]] for t in r["tables"]] for r in view["played"]]
        assert seats == [[[1, 2], [0, None]], [[0, 2], [1, None]], [[0, 1], [2, None]]]


def test_making_events_counts_against_the_create_limit(tmp_path: Path) -> None:
    from boneyard.server.ratelimit import LimitSettings

    app = create_app(f"sqlite:///{tmp_path / 'lim.db'}", bot_delay=0.0, limits=LimitSettings.parse("create=2/minute"))
    with TestClient(app) as c:
        body = {"name": "x", "game": "rounce", "rounds": 1}
        assert [c.post("/api/events", json=body).status_code for _ in range(3)] == [201, 201, 429]


def test_player_codes_are_counted_and_made_up_events_leave_nothing(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'codes.db'}") as c:
        code = c.post("/api/players", json={"name": "Ann"}).json()["code"]
        event = c.post("/api/events", json={"name": "x", "game": "rounce", "rounds": 1}).json()["id"]
        assert c.post("/api/events/nope/join", headers={"X-Player": code}).status_code == 404
        assert c.post("/api/events/nope/start", headers={"X-Host-Token": "t"}).status_code == 404
        assert "nope" not in c.app.state.tourney._locks  # type: ignore[attr-defined]
        assert c.post(f"/api/events/{event}/join").status_code == 401
        assert c.post(f"/api/events/{event}/join", headers={"X-Player": "AAAA-BBBB-CCCC"}).status_code == 403
        # the three code requests above count: 57 more make 60 in a minute, and the next is refused
        answers = [c.get(f"/api/events/{event}/me", headers={"X-Player": code}).status_code for _ in range(57)]
        assert set(answers) == {200}
        assert c.get(f"/api/events/{event}/me", headers={"X-Player": code}).status_code == 429


@pytest.mark.parametrize("game", ["montana", "twobox", "rummikub", "eighty", "rounce"])
def test_every_game_seats_a_round(tmp_path: Path, game: str) -> None:
    """Five entrants at each game's standard table: the first round's tables are made, the
    entrants seated by seed under their names, the seats left over given to bots."""
    import boneyard

    size = boneyard.game_info(game)["players"]["default"]
    with server(f"sqlite:///{tmp_path / 'g.db'}") as c:
        codes = [c.post("/api/players", json={"name": n}).json()["code"] for n in NAMES[:5]]
        made = c.post("/api/events", json={"name": "x", "game": game, "rounds": 2}).json()
        for code in codes:
            c.post(f"/api/events/{made['id']}/join", headers={"X-Player": code})
        started = c.post(f"/api/events/{made['id']}/start", headers={"X-Host-Token": made["host_token"]})
        assert started.status_code == 200, started.text
        view = c.get(f"/api/events/{made['id']}").json()
        seats = [[s["entrant"] for s in t["seats"]] for t in view["played"][0]["tables"]]
        caps = [sum(e is not None for e in t) for t in seats]
        assert [e for t in seats for e in t if e is not None] == [0, 1, 2, 3, 4]
        assert all(len(t) == size for t in seats) and caps == sorted(caps, reverse=True)
        for t in view["played"][0]["tables"]:
            state = c.get(f"/api/tables/{t['id']}").json()
            assert [s["name"] for s in state["seats"]] == [s["name"] for s in t["seats"]]
            assert all(s["joined"] for s in state["seats"])  # seated, so the table plays at once


def test_a_round_is_made_when_the_database_comes_back(tmp_path: Path) -> None:
    """The next round's first table cannot be opened (the database away): counting the finished
    round is tried again, and the round is made a moment later, once."""
    from boneyard.server.tables import Unavailable

    rng = random.Random(5)
    with server(f"sqlite:///{tmp_path / 'away.db'}") as c:
        service = c.app.state.service  # type: ignore[attr-defined]
        codes = [c.post("/api/players", json={"name": n}).json()["code"] for n in NAMES[:2]]
        made = c.post("/api/events", json={"name": "x", "game": "rounce", "players": 2, "rounds": 2,
                                           "rules": {"max_hands": 1}}).json()
        event = made["id"]
        for code in codes:
            c.post(f"/api/events/{event}/join", headers={"X-Player": code})
        assert c.post(f"/api/events/{event}/start", headers={"X-Host-Token": made["host_token"]}).status_code == 200
        create = service.create
        failures = [2]

        async def flaky(*args: Any, **kwargs: Any) -> Any:
            if failures[0]:
                failures[0] -= 1
                raise Unavailable("the database cannot be reached, so no table was opened (OperationalError)")
            return await create(*args, **kwargs)

        service.create = flaky
        play(c, event, codes, rng)
        view = wait_for(c, event, lambda v: v["round"] == 2, within=20)
        assert failures == [0] and len(view["played"][1]["tables"]) == 1
        play(c, event, codes, rng)
        wait_for(c, event, lambda v: v["state"] == "finished")


@pytest.mark.parametrize(("clock", "per_move", "per_game"), [({"per_game": 604800}, None, 604800.0),
                                                              ({"per_move": 86400}, 86400.0, None),
                                                              (60, 60.0, None)])
def test_a_turn_based_event_seats_turn_based_tables(tmp_path: Path, clock: Any, per_move: Any, per_game: Any) -> None:
    """The event's clock reaches every table as ``POST /api/tables`` would set it, turn-based included."""
    with server(f"sqlite:///{tmp_path / 'slow.db'}") as c:
        codes = [c.post("/api/players", json={"name": n}).json()["code"] for n in NAMES[:2]]
        made = c.post("/api/events", json={"name": "A week of Rounce", "game": "rounce", "players": 2,
                                           "format": "round_robin", "clock": clock})
        assert made.status_code == 201, made.text
        event = made.json()["id"]
        for code in codes:
            c.post(f"/api/events/{event}/join", headers={"X-Player": code})
        assert c.post(f"/api/events/{event}/start",
                      headers={"X-Host-Token": made.json()["host_token"]}).status_code == 200
        view = c.get(f"/api/events/{event}").json()
        assert view["clock"] == clock
        table = view["played"][0]["tables"][0]["id"]
        room = c.app.state.social.rooms[table]  # type: ignore[attr-defined]
        assert (room.clock, room.per_game) == (per_move, per_game)
        assert c.app.state.social.turn_based(room) == (clock != 60)  # type: ignore[attr-defined]


def test_a_turn_based_clock_below_the_slow_minimum_is_refused_for_an_event(tmp_path: Path) -> None:
    with server(f"sqlite:///{tmp_path / 'bad.db'}") as c:
        got = c.post("/api/events", json={"name": "Too quick", "game": "rounce", "format": "swiss", "rounds": 1,
                                          "clock": {"per_move": 60}})
        assert got.status_code in (400, 422) and "per_move" in got.text, got.text
