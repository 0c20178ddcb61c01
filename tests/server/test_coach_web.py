"""The coach in the web app: a hint in every game, refusals, no hidden tile revealed, the review.

The coach's budget is lowered for speed (a few sampled deals per question), and for the
comparisons capped in rounds as well, so that its answers depend on the seat's view alone.
The review is the one ``boneyard review`` runs (``bots/review.py``): a test reviews one
scripted game through both and compares.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import boneyard
from boneyard.bots import review as shared
from boneyard.bots.review import CoachWords
from boneyard.cli import review as terminal
from boneyard.cli.main import app as cli_app
from boneyard.games import game_class
from boneyard.server import coaching
from boneyard.server.coaching import Coach, rated, tiles_of
from boneyard.testing import hidden_swap, shuffled_deck

from .conftest import auth

GAMES = boneyard.games()


def coach_of(client: TestClient, ms: float = 150.0, rounds: int | None = None) -> Coach:
    """The app's coach, made quick (and, with ``rounds``, reproducible), its searches on this process's threads.

    The compute pool's threads (not its processes) see what a test replaces in the coach.
    """
    coach: Coach = client.app.state.coach  # type: ignore[attr-defined]
    coach.service.compute.processes = False
    coach.hint_ms = coach.review_ms = ms
    coach.rounds = rounds
    return coach


def seated(client: TestClient, body: dict[str, Any]) -> tuple[str, list[str]]:
    """A table from ``body`` with every human seat joined; its id and the tokens by seat ("" for bots)."""
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    tokens = []
    for seat, kind in enumerate(body["seats"]):
        if kind == "human":
            j = client.post(f"/api/tables/{table}/join", json={"seat": seat, "name": f"P{seat}"})
            assert j.status_code == 200, j.text
            tokens.append(j.json()["token"])
        else:
            tokens.append("")
    return table, tokens


def practice(game: str, seed: int = 4, **extra: Any) -> dict[str, Any]:
    """A practice table (a fixed deal: not rated) with every seat human."""
    players = boneyard.game_info(game)["players"]["default"]
    return {"game": game, "players": players, "seats": ["human"] * players, "seed": seed, "practice": True,
            "next_timeout": 0, **extra}


@pytest.mark.parametrize("game", GAMES)
def test_the_hint_is_a_legal_best_action_in_every_game(client: TestClient, game: str) -> None:
    """Three times in a row: the seat to act asks, the answer is legal, ranked, in words, and playable."""
    coach_of(client)
    table, tokens = seated(client, practice(game))
    for _ in range(3):
        state = client.get(f"/api/tables/{table}").json()
        if state["is_over"]:
            break
        seat = state["current_player"]
        own = client.get(f"/api/tables/{table}", headers=auth(tokens[seat])).json()
        r = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        hint = r.json()
        assert hint["seat"] == seat and hint["version"] == state["version"] and hint["game"] == game
        assert 1 <= len(hint["best"]) <= 3 and hint["best"][0]["action"] == hint["action"]
        values = [b["value"] for b in hint["best"]]
        assert values == sorted(values, reverse=True)
        for b in hint["best"]:
            listed = b["action"] in own["legal_actions"]
            solver = (hint.get("solver") or {}).get("action") == b["action"]
            assert listed or solver, (b["action"], own["legal_actions"][:5])
            assert b["words"] and b["compared"] and b["tiles"] == tiles_of(b["action"], own["view"].get("hand"))
        assert hint["best"][0]["compared"] == "the coach's choice" and hint["best"][0]["loss"] == 0
        played = client.post(f"/api/tables/{table}/actions", json={"action": hint["action"]},
                             headers=auth(tokens[seat]))
        assert played.status_code == 200, (hint["action"], played.text)


def test_hints_are_off_at_rated_tables(client: TestClient) -> None:
    coach_of(client)
    body = {"game": "rounce", "players": 3, "seats": ["human", "bot:random", "bot:random"], "next_timeout": 0}
    table, tokens = seated(client, body)
    state = client.get(f"/api/tables/{table}").json()
    assert state["fixed_deal"] is False
    r = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[0]))
    assert r.status_code == 403
    assert r.json()["detail"].startswith("hints are off at rated tables")
    service = client.app.state.service  # type: ignore[attr-defined]
    assert rated(service.tables[table])
    # a practice table without a chosen seed or deck still counts for the ratings: no hints
    table, tokens = seated(client, {**body, "practice": True})
    assert client.get(f"/api/tables/{table}/hint", headers=auth(tokens[0])).status_code == 403
    # with a chosen seed the deal is fixed: never rated, hints on
    table, tokens = seated(client, {**body, "practice": True, "seed": 9})
    assert not rated(service.tables[table])
    for _ in range(200):  # the bots play until it is seat 0's turn
        if client.get(f"/api/tables/{table}").json()["current_player"] == 0:
            break
        time.sleep(0.02)
    assert client.get(f"/api/tables/{table}/hint", headers=auth(tokens[0])).status_code == 200


def test_hint_refusals_name_the_problem(client: TestClient) -> None:
    coach_of(client)
    table, tokens = seated(client, practice("rounce", players=4, seats=["human"] * 4))
    assert client.get(f"/api/tables/{table}/hint").status_code == 401
    assert client.get(f"/api/tables/{table}/hint", headers=auth("nope")).status_code == 403
    assert client.get("/api/tables/nope/hint", headers=auth(tokens[0])).status_code == 404
    state = client.get(f"/api/tables/{table}").json()
    other = (state["current_player"] + 1) % 4
    r = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[other]))
    assert r.status_code == 409
    assert r.json()["detail"] == f"a hint is for the player to act: it is P{state['current_player']}'s turn"
    assert client.get(f"/api/tables/{table}").json()["version"] == state["version"]  # nothing changed


def _swapped_decks(game: str, seed: int) -> tuple[list[str], list[str], int] | None:
    """Two decks that differ by two tiles the first seat to act cannot see, and that seat (or None)."""
    players = boneyard.game_info(game)["players"]["default"]
    seat = boneyard.new_game(game, players=players, seed=1, deck=shuffled_deck(game, seed), dealer=0).current_player
    found = hidden_swap(game, players, seed, seat=seat)
    if found is None:
        return None
    g1 = boneyard.new_game(game, players=players, seed=1, deck=found.deck, dealer=0)
    g2 = boneyard.new_game(game, players=players, seed=1, deck=found.swapped, dealer=0)
    if g1.view(seat) != g2.view(seat):
        return None  # the swap shows (a turn-up, say): not hidden from the seat
    return found.deck, found.swapped, seat


@pytest.mark.parametrize("game", GAMES)
def test_the_hint_never_reveals_a_hidden_tile(client: TestClient, game: str) -> None:
    """Two tables whose deals differ only in tiles hidden from the seat get the same hint, to the digit."""
    coach_of(client, ms=60_000, rounds=3)
    found = None
    for seed in range(20):
        found = _swapped_decks(game, seed)
        if found is not None:
            break
    assert found is not None, "no deck pair with a hidden swap"
    deck, swapped, seat = found
    hints = []
    for d in (deck, swapped):
        table, tokens = seated(client, practice(game, seed=1, deck=d, dealer=0))
        assert client.get(f"/api/tables/{table}").json()["current_player"] == seat
        r = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        hints.append({k: v for k, v in r.json().items() if k != "table"})
    assert hints[0] == hints[1]
    assert hints[0]["rounds"] == 3  # the cap on the rounds ends the search, never the clock


def test_a_single_sampled_deal_marks_nothing() -> None:
    from boneyard.bots.coach import mark, thresholds

    blunder = thresholds("rounce")[0][1]
    assert mark("rounce", 10 * blunder, float("inf")) is None
    assert mark("rounce", 10 * blunder, 0.0) == "blunder"


def test_tiles_of_an_action_are_those_it_takes_from_the_hand() -> None:
    assert tiles_of("play 6-4 as 4") == ["6-4"] and tiles_of("play 1-0 1-1 2-1 | 6-1 5-2 4-3")[-1] == "4-3"
    # a whole-table play: only the tiles it takes from the hand (each copy once)
    assert tiles_of("play 1-0 1-1 2-1 | 6-1 5-2 4-3 | 3-3 3-3 3-3", ["4-3", "3-3", "6-6"]) == ["4-3", "3-3"]
    assert tiles_of("take", ["4-3"]) == [] and tiles_of("play 6-4", ["1-1"]) == ["6-4"]


def _finish(client: TestClient, table: str, token: str, seat: int, choose: Any) -> int:
    """Play ``seat`` with ``choose(legal)`` until the game is over (bots play the rest); the actions played."""
    played = 0
    for _ in range(400):
        state = client.get(f"/api/tables/{table}", headers=auth(token)).json()
        if state["is_over"]:
            return played
        if state["current_player"] == seat and state["legal_actions"]:
            r = client.post(f"/api/tables/{table}/actions", json={"action": choose(state["legal_actions"])},
                            headers=auth(token))
            assert r.status_code in (200, 409), r.text
            played += 1
        else:
            time.sleep(0.02)
    raise AssertionError("the game did not end")


def _review(client: TestClient, table: str, token: str, **params: Any) -> tuple[dict[str, Any], int]:
    """Poll the review until it is done; the body and how many 202s came first."""
    for waits in range(600):
        r = client.get(f"/api/tables/{table}/review", params=params, headers=auth(token))
        if r.status_code == 200:
            return r.json(), waits
        assert r.status_code == 202, r.text
        body = r.json()
        assert body["status"] == "running" and 0 <= body["done"] <= max(body["total"], 0)
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_the_review_judges_each_decision_once_and_is_cached(client: TestClient) -> None:
    coach_of(client, ms=80)
    body = practice("rounce", seats=["human", "bot:greedy", "bot:greedy"], players=3, rules={"max_hands": 1})
    table, tokens = seated(client, body)
    r = client.get(f"/api/tables/{table}/review", headers=auth(tokens[0]))
    assert r.status_code == 409 and r.json()["detail"] == "the review opens once the game is over"
    _finish(client, table, tokens[0], 0, lambda legal: legal[-1])
    review, waits = _review(client, table, tokens[0])
    assert waits >= 1  # it was worked out off the request, with progress meanwhile
    assert review["status"] == "done" and review["seat"] == 0 and review["done"] == review["total"] > 0
    record = client.app.state.service.tables[table].record()  # type: ignore[attr-defined]
    game = boneyard.replay({**record, "actions": []})
    steps = [d["step"] for d in review["decisions"]]
    for d in review["decisions"]:
        assert d["played"] == record["actions"][d["step"]] and d["played_tiles"] == tiles_of(d["played"])  # in hand
        assert d["best"][0]["loss"] == 0 and d["loss"] >= 0 and len(d["best"]) <= 3
        assert d["mark"] in (None, "inaccuracy", "mistake", "blunder")
    # every decision of seat 0 with a choice, and nothing else
    expected = []
    for step, text in enumerate(record["actions"]):
        if game.current_player == 0 and len(game.legal_actions()) > 1:
            expected.append(step)
        game.apply(text)
    assert steps == expected
    marks = [t["mark"] for t in review["thresholds"]]
    assert marks == ["blunder", "mistake", "inaccuracy"]
    assert sum(review["counts"].values()) == sum(1 for d in review["decisions"] if d["mark"])
    # a second request is answered at once from the cache, the same
    again = client.get(f"/api/tables/{table}/review", headers=auth(tokens[0]))
    assert again.status_code == 200 and again.json() == review
    # anyone may review a named seat; without a token a seat must be named
    r = client.get(f"/api/tables/{table}/review")
    assert r.status_code == 400 and "name the seat" in r.json()["detail"]
    assert client.get(f"/api/tables/{table}/review", params={"seat": 3}).status_code == 400
    assert client.get(f"/api/tables/{table}/review", params={"seat": "x"}).status_code in (400, 422)


# A three-player Rounce deal (as in tests/bots/test_coach.py): seat 0, first to call, holds
# the five highest trumps; folding that hand is the deliberate blunder.
STRONG = ["6-6", "6-5", "6-4", "6-3", "6-2"]
DECK = [*STRONG, "5-5", "5-4", "5-3", "5-2", "5-1", "4-4", "4-3", "4-2", "4-1", "4-0", "6-0"]


def test_the_review_marks_a_deliberate_blunder_and_names_the_better_move(client: TestClient) -> None:
    coach_of(client, ms=300)
    cls = game_class("rounce")
    deck = DECK + [str(t) for t in cls.full_set(cls.Rules()) if str(t) not in DECK]
    body = practice("rounce", players=3, seats=["human", "bot:greedy", "bot:greedy"], deck=deck, dealer=2,
                    rules={"max_hands": 1})
    table, tokens = seated(client, body)
    assert client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()["current_player"] == 0
    _finish(client, table, tokens[0], 0, lambda legal: "fold")
    review, _ = _review(client, table, tokens[0])
    first = review["decisions"][0]
    assert first["played"] == "fold" and first["mark"] == "blunder"
    assert first["best"][0]["action"] != "fold" and first["loss"] >= 1.0
    assert first["compared"].startswith("a blunder: ")
    assert first["compared"].endswith(f"worse than {first['best'][0]['action']}")
    assert first["says"].startswith("You played fold (") and review["counts"]["blunder"] >= 1


def test_a_decision_that_cannot_be_judged_is_left_out_not_fatal(client: TestClient,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A sampler that gives up on one decision (``ValueError``) leaves that one unjudged; the review finishes."""
    coach_of(client, ms=60)
    real = shared.analysis
    calls = {"n": 0}

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ValueError("no world could be sampled")
        return real(*args, **kwargs)

    monkeypatch.setattr(shared, "analysis", flaky)
    body = practice("rounce", seats=["human", "bot:greedy", "bot:greedy"], players=3, rules={"max_hands": 1})
    table, tokens = seated(client, body)
    _finish(client, table, tokens[0], 0, lambda legal: legal[0])
    review, _ = _review(client, table, tokens[0])
    assert review["status"] == "done" and review["skipped"] == 1
    assert len(review["decisions"]) == review["total"] - 1 and review["done"] == review["total"]


def _scripted_at_a_table(client: TestClient) -> tuple[str, list[str]]:
    """A one-hand Rounce game played through the API: seat 0 always its last legal action, the others their first.

    Every seat is human and played here, so the record is the same every time (two of
    seat 0's four decisions are blunders for the coach).
    """
    table, tokens = seated(client, practice("rounce", seed=7, players=3, seats=["human"] * 3, dealer=2,
                                            rules={"max_hands": 1}))
    for _ in range(100):
        state = client.get(f"/api/tables/{table}").json()
        if state["is_over"]:
            return table, tokens
        seat = state["current_player"]
        legal = client.get(f"/api/tables/{table}", headers=auth(tokens[seat])).json()["legal_actions"]
        r = client.post(f"/api/tables/{table}/actions", json={"action": legal[-1] if seat == 0 else legal[0]},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("the scripted game did not end")


def test_the_terminal_and_the_web_give_one_review(client: TestClient, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """One scripted game reviewed by ``boneyard review`` and by the web: the same shared review, the same answer."""
    assert coaching.Reviewer is shared.Reviewer and terminal.review is shared.review
    stepped: list[shared.Reviewer] = []
    real_step = shared.Reviewer.step

    def step(self: shared.Reviewer) -> bool:
        stepped.append(self)
        return real_step(self)

    monkeypatch.setattr(shared.Reviewer, "step", step)
    coach_of(client, ms=60_000, rounds=6)  # capped in rounds: the answer depends on the record alone
    table, tokens = _scripted_at_a_table(client)
    web, _ = _review(client, table, tokens[0])
    record = client.app.state.service.tables[table].record()  # type: ignore[attr-defined]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(cli_app, ["review", str(path), "--seat", "0", "--rounds", "6", "--all"],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    # the web's four decisions, each a job judged by the shared step; then the terminal's reviewer
    web_steps, at_terminal = stepped[:4], stepped[-1]
    assert [r.total for r in web_steps] == [1, 1, 1, 1] and all(r is at_terminal for r in stepped[4:])
    by_web = [d for r in web_steps for d in r.decisions]
    by_terminal = at_terminal.result()
    assert tuple(by_web) == by_terminal.decisions and by_terminal.total == web["total"] == 4
    assert [d["mark"] for d in web["decisions"]] == [d.mark for d in by_terminal.decisions] == [
        "blunder", None, "blunder", None]
    words = CoachWords("rounce", ["P0", "P1", "P2"], 0)
    for d, mine in zip(web["decisions"], by_terminal.decisions, strict=True):
        assert (d["number"], d["step"], d["played"], d["rounds"]) == (mine.number, mine.step, mine.played, 6)
        assert d["loss"] == round(mine.loss, 3) and d["value"] == round(mine.value, 3)
        assert [b["action"] for b in d["best"]] == [v.action for v in mine.ranking[:3]]
        assert d["compared"] == words.compared(mine.mine) and d["compared"] in result.output
        assert d["words"] == words.value(mine.value, mine.mine.judgement.error, 0)
    assert web["counts"] == by_terminal.counts() and "2 blunders, 0 mistakes, 0 inaccuracies" in result.output


def test_the_review_is_told_to_each_reader(client: TestClient) -> None:
    """The figures are worked out once; the words say "you" to the seat reviewed and its name to anyone else."""
    coach_of(client, ms=60_000, rounds=2)
    table, tokens = _scripted_at_a_table(client)
    mine, _ = _review(client, table, tokens[0])
    theirs = client.get(f"/api/tables/{table}/review", params={"seat": 0})
    assert theirs.status_code == 200
    other = theirs.json()
    assert len(other["decisions"]) == len(mine["decisions"]) == 4
    for a, b in zip(mine["decisions"], other["decisions"], strict=True):
        told = ("words", "says", "best", "reason")  # the words follow the reader, the figures do not
        assert {k: v for k, v in a.items() if k not in told} == {k: v for k, v in b.items() if k not in told}
        assert a["says"].startswith("You played ") and b["says"] == "P0" + a["says"][3:]
        assert "what you could see" in a["reason"] and "what P0 could see" in b["reason"]
        assert ("your favour" in a["words"]) == ("P0's favour" in b["words"])
        assert ("against you" in a["words"]) == ("against P0" in b["words"])
    assert client.get(f"/api/tables/{table}/review", headers=auth(tokens[0])).json() == mine  # cached, same words


def test_the_coachs_budgets_come_from_the_environment_checked(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from boneyard.server import create_app

    monkeypatch.setenv("BONEYARD_HINT_MS", "250")
    monkeypatch.setenv("BONEYARD_REVIEW_MS", " ")
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}")
    assert app.state.coach.hint_ms == 250 and app.state.coach.review_ms == 400
    for bad in ("soon", "0", "-5", "1e9"):
        monkeypatch.setenv("BONEYARD_REVIEW_MS", bad)
        with pytest.raises(ValueError, match="BONEYARD_REVIEW_MS must be"):
            create_app(f"sqlite:///{tmp_path / 'b.db'}")


def test_a_hint_from_one_sampled_deal_still_says_how_far_it_was_played(client: TestClient) -> None:
    """A busy machine may leave the coach time for one deal: the hint says so, and still whether it played the deal
    to the end of the hand or, late in a game, to the end of the game (what its figures are chances of)."""
    coach_of(client, ms=60_000, rounds=1)
    said: dict[str, str] = {}
    for name, rules in (("hand", {}), ("game", {"target": 30})):
        table, tokens = seated(client, {**practice("twobox", seed=3), "players": 2, "seats": ["human"] * 2,
                                        "rules": rules})
        for _ in range(40):  # the first decision with a choice (a lone draw or pass is played)
            seat = client.get(f"/api/tables/{table}", headers=auth(tokens[0])).json()["current_player"]
            actions = client.get(f"/api/tables/{table}", headers=auth(tokens[seat])).json()["legal_actions"]
            if len(actions) > 1:
                break
            client.post(f"/api/tables/{table}/actions", json={"action": actions[0]}, headers=auth(tokens[seat]))
        r = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
        assert r.json()["rounds"] == 1
        said[name] = r.json()["why"]
    assert said["hand"] == ("the coach had time for one sampled deal only, played out to the end of the hand: "
                            "take this as a rough guide")
    assert said["game"] == ("the coach had time for one sampled deal only, played out to the end of the game: "
                            "take this as a rough guide")
