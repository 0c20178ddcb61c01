"""The lessons' HTTP routes (boneyard/server/lessons.py): the lists, a step's start shaped like a
table's state, the move taught, a wrong legal move (422 with the step's words), a move against
the rules (400 with the engine's), and every bad request a 4xx with a message, never a 5xx."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import boneyard
from boneyard.lessons import lessons, load


def test_the_lists_of_lessons(client: TestClient) -> None:
    """/api/lessons names every game with lessons; /api/lessons/{game} lists one game's."""
    every = client.get("/api/lessons").json()
    assert [x["game"] for x in every] == [g for g in boneyard.games() if load(g)]
    one = client.get("/api/lessons/rounce").json()
    assert one["name"] == "Domino Rounce"
    assert [x["id"] for x in one["lessons"]] == [x.id for x in load("rounce")]
    assert all(x["steps"] >= 4 and x["title"] and x["intro"] for x in one["lessons"])


def test_a_step_starts_as_a_table_state_with_its_words(client: TestClient) -> None:
    """The state a table page would draw (view, log, legal moves, seats by name), plus the lesson."""
    s = client.get("/api/lessons/rounce/trumps/2").json()
    assert s["seat"] == 0 and s["current_player"] == 0
    assert s["names"] == ["You", "Ann", "Bob"]
    assert s["legal_actions"] == ["play 6-5", "play 5-5", "play 5-1"]
    assert len(s["log"]) == len(s["view"]["events"])
    lesson = s["lesson"]
    assert lesson["step"] == 2 and lesson["steps"] == 6 and not lesson["complete"] and not lesson["quiz"]
    assert lesson["show"] == ["play 6-5"]
    assert lesson["new_events"] == 0  # it continues step 1, whose end told the passes
    fresh = client.get("/api/lessons/rounce/trumps/4").json()  # a new deal, played up to the learner's turn
    told = fresh["log"][-fresh["lesson"]["new_events"]:]
    assert told == ["Ann passes and plays the hand.", "Bob passes and plays the hand.", "You pass and play the hand.",
                    "Ann leads 6-4 as a six.", "Bob plays 6-1."]


def test_the_move_taught_answers_the_table_after_it(client: TestClient) -> None:
    """6-5 led: the others answer, the trick is the learner's, the step is complete, no move is offered."""
    r = client.post("/api/lessons/rounce/trumps/2", json={"action": "play 6-5"})
    assert r.status_code == 200
    s = r.json()
    assert s["lesson"]["complete"] and s["legal_actions"] == []
    assert s["log"][-1] == "You win trick 1 with 6-5."
    assert s["lesson"]["new_events"] == 4


def test_a_quiz_does_not_give_its_answer_away(client: TestClient) -> None:
    """A quiz's state has no move to show."""
    last = len(load("rounce")[0].steps)
    s = client.get(f"/api/lessons/rounce/trumps/{last}").json()
    assert s["lesson"]["quiz"] and s["lesson"]["show"] == []


def test_a_wrong_legal_move_is_a_422_with_the_steps_words(client: TestClient) -> None:
    """Another legal move: 422, the step's explanation for it, and the position unchanged (stateless)."""
    r = client.post("/api/lessons/rounce/trumps/2", json={"action": "play 5-1"})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("5-1 is a trump, but it ranks as a 1")
    assert client.get("/api/lessons/rounce/trumps/2").json()["legal_actions"] == ["play 6-5", "play 5-5", "play 5-1"]


def test_a_move_against_the_rules_is_a_400_with_the_rule(client: TestClient) -> None:
    """A move the rules forbid: 400 naming the rule broken."""
    r = client.post("/api/lessons/rounce/trumps/2", json={"action": "play 2-1"})
    assert r.status_code == 400
    assert "trump" in r.json()["detail"]


@pytest.mark.parametrize(("method", "path", "body", "status", "words"), [
    ("get", "/api/lessons/nosuchgame", None, 404, "unknown game"),
    ("get", "/api/lessons/nosuchgame/a/1", None, 404, "unknown game"),
    ("get", "/api/lessons/rounce/nosuchlesson/1", None, 404, "no lesson"),
    ("get", "/api/lessons/rounce/trumps/0", None, 404, "steps 1 to"),
    ("get", "/api/lessons/rounce/trumps/99", None, 404, "steps 1 to"),
    ("get", "/api/lessons/rounce/trumps/x", None, 422, "step"),
    ("post", "/api/lessons/rounce/trumps/2", {}, 422, "action"),
    ("post", "/api/lessons/rounce/trumps/2", {"action": 5}, 422, "action"),
    ("post", "/api/lessons/rounce/trumps/2", {"action": "play 6-5", "x": 1}, 422, "x"),
    ("post", "/api/lessons/rounce/trumps/2", {"action": "x" * 3000}, 422, "action"),
    ("post", "/api/lessons/rounce/trumps/2", {"action": ""}, 400, "notation"),
    ("post", "/api/lessons/rounce/trumps/2", {"action": "fly away"}, 400, ""),
    ("post", "/api/lessons/rounce/trumps/99", {"action": "pass"}, 404, "steps 1 to"),
])
def test_bad_requests_are_4xx_with_a_message(client: TestClient, method: str, path: str, body: Any, status: int,
                                             words: str) -> None:
    """Every bad game, lesson, step or body is refused with a 4xx that says why."""
    r = client.get(path) if method == "get" else client.post(path, json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]


def test_every_step_of_every_lesson_answers_without_a_5xx(client: TestClient) -> None:
    """Each step's start, its move taught, and each other legal move: 200, 200 and 422."""
    for game, found in lessons().items():
        for lesson in found:
            for n, step in enumerate(lesson.steps, 1):
                path = f"/api/lessons/{game}/{lesson.id}/{n}"
                start = client.get(path)
                assert start.status_code == 200, (path, start.text)
                assert client.post(path, json={"action": step.accept[0]}).status_code == 200
                for other in [a for a in start.json()["legal_actions"] if a not in step.accept][:3]:
                    assert client.post(path, json={"action": other}).status_code in (200, 422), other


def test_the_learn_page_is_served_for_every_game_path(client: TestClient) -> None:
    """/learn/{game} serves the page (it says itself when the game is unknown)."""
    for game in [*boneyard.games(), "nosuchgame"]:
        r = client.get(f"/learn/{game}")
        assert r.status_code == 200 and "learn.js" in r.text


def test_the_rules_page_offers_the_lessons(client: TestClient) -> None:
    """Each game's rules page, as served, links to its lessons."""
    for game in lessons():
        assert f"href='/learn/{game}'" in client.get(f"/rules/{game}").text


def test_a_lesson_the_engine_no_longer_plays_is_closed_with_its_reason(client: TestClient,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules change that breaks a lesson (the lesson tests catch it first) answers 410 with why, never a 500."""
    import boneyard.server.lessons as routes
    from boneyard.lessons import LessonError

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise LessonError("step 2 expects play 6-5, which is no longer legal")

    monkeypatch.setattr(routes, "begin", broken)
    monkeypatch.setattr(routes, "play_step", broken)
    r = client.get("/api/lessons/rounce/trumps/2")
    assert r.status_code == 410 and "no longer plays with the rules" in r.json()["detail"]
    r = client.post("/api/lessons/rounce/trumps/2", json={"action": "play 6-5"})
    assert r.status_code == 410 and "play 6-5" in r.json()["detail"]
