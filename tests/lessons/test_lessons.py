"""The lessons (boneyard/lessons/data/<game>.toml) played through the engines.

Every step of every lesson: its position deals as written, the moves before it are legal
and leave the learner to move, the move it teaches is legal and produces what its words
claim (the events in ``expect``: a claim won, the points scored), any other legal move is
refused with the step's friendly words, and a move against the rules with the engine's.
A lesson broken on purpose (a changed rule, a wrong tile, a move that no longer scores)
fails loudly, naming the lesson and step.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

import boneyard
from boneyard.errors import IllegalAction
from boneyard.lessons import LessonError, WrongMove, begin, lessons, load, play_step, start
from boneyard.lessons.model import Lesson, check, deck, destinations, explanation, parse, with_steps

ALL = [(lesson.game, lesson) for found in lessons().values() for lesson in found]


def test_every_game_has_lessons_of_four_to_seven_steps_ending_in_a_quiz() -> None:
    """All five games teach, each lesson short, each ending with a quiz."""
    assert set(lessons()) >= {"montana", "twobox", "rummikub", "eighty", "rounce"}
    for _game, lesson in ALL:
        assert 4 <= len(lesson.steps) <= 7, lesson.id
        assert lesson.steps[-1].quiz and not any(s.quiz for s in lesson.steps[:-1])


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=[f"{g}-{x.id}" for g, x in ALL])
def test_every_step_plays_through_the_engine(game: str, lesson: Lesson) -> None:
    """check() plays every step: positions, moves before, the move taught and its expected events."""
    check(lesson)


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=[f"{g}-{x.id}" for g, x in ALL])
def test_the_hands_are_dealt_as_written(game: str, lesson: Lesson) -> None:
    """Each seat's ``dealt`` event holds the tiles the lesson gives it: the deck is right."""
    for step in lesson.steps:
        game_at = start(step)
        story = boneyard.api.story(game_at.record(), seat=None)
        for seat, hand in enumerate(step.hands):
            dealt = next(e for _n, e in boneyard.api.story(game_at.record(), seat=seat)
                         if e["kind"] == "dealt" and e["seat"] == seat)
            assert not Counter(hand) - Counter(dealt["tiles"])
        assert story  # the record replays


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=[f"{g}-{x.id}" for g, x in ALL])
def test_any_other_legal_move_gets_the_steps_own_words(game: str, lesson: Lesson) -> None:
    """Every listed legal move that the step does not teach is refused with its explanation, and
    the step's per-move words reach the moves they name."""
    for step in lesson.steps:
        game_at = start(step)
        for action in [str(a) for a in game_at.legal_actions()]:
            if action in step.accept:
                continue
            with pytest.raises(WrongMove) as refused:
                play_step(step, action)
            assert str(refused.value) == explanation(game_at, step, action)
            assert str(refused.value).strip()
        for action, words in step.why_not.items():
            with pytest.raises(WrongMove, match=None) as refused:
                play_step(step, action)
            assert str(refused.value) == words


def test_a_move_against_the_rules_gets_the_engines_rule() -> None:
    """Rounce's first lead with three trumps must be a trump: 2-1 is refused with the rule, not the lesson's words."""
    step = load("rounce")[0].steps[1]
    with pytest.raises(IllegalAction, match="trump"):
        play_step(step, "play 2-1")
    with pytest.raises(IllegalAction):
        play_step(step, "no such move")


def test_the_move_taught_plays_on_and_the_moves_after_it() -> None:
    """Rounce, step 2: 6-5 is led, Ann and Bob answer, and the learner takes the trick."""
    outcome = play_step(load("rounce")[0].steps[1], "play 6-5")
    kinds = [e["kind"] for e in outcome.events]
    assert kinds == ["play", "play", "play", "trick"]
    assert outcome.events[-1]["seat"] == 0


def test_a_rummikub_table_written_in_another_order_is_the_move_taught() -> None:
    """The groups of a Rummikub play may come in any order, and tiles in a group too."""
    step = next(x for x in load("rummikub") if x.id == "groups").steps[2]
    outcome = play_step(step, "play 5-5 6-5 5-4 | 4-4 5-3 6-2")
    assert outcome.events[0]["kind"] == "play"


def test_begin_counts_the_events_of_the_steps_own_moves_before() -> None:
    """The page tells "so far" from the events the step's own moves before the learner's turn
    produced; a continued step's inherited moves were told at the end of the previous step."""
    first = load("rounce")[1].steps[3]  # a new deal: the two passes before the dealer's call
    game, told = begin(first)
    assert [e["kind"] for e in list(game.events(0))[-told:]] == ["pass", "pass"]
    continued = load("montana")[0].steps[1]  # Ann's discard and Bob's hidden answer, not the learner's own discard
    game, told = begin(continued)
    assert [(e["kind"], e["seat"]) for e in list(game.events(0))[-told:]] == [("discard", 1), ("answer", 2)]
    game, told = begin(load("rounce")[0].steps[1])  # nothing of its own before the learner's lead
    assert told == 0


def test_where_each_deck_position_goes_is_found_from_the_engine() -> None:
    """The probes find what docs/api.md promises for a fixed deck: seat 0 takes the first hand,
    seat 1 the next, and the rest stays with the game (Montana's dead hands included)."""
    for game, players, size in [("rounce", 3, 5), ("montana", 2, 10), ("twobox", 4, 7), ("eighty", 4, 10),
                                ("rummikub", 2, 8)]:
        found = destinations(game, players, "{}", 0)
        dealt = [s for s in range(players) for _ in range(size)]
        assert list(found) == dealt + [-1] * (len(found) - len(dealt)), game


def test_next_tiles_come_first_among_the_rest() -> None:
    """Rounce's ``next``: the turn-up, then the boneyard's top, as the engine takes them."""
    step = load("rounce")[1].steps[1]
    game = start(step)
    assert game.view(0)["turn_up"] == step.next[0]
    assert deck(step).count(step.next[0]) == 1


def broken(lesson: Lesson, number: int, **changes: Any) -> Lesson:
    """``lesson`` with step ``number`` (1-based) changed."""
    steps = list(lesson.steps)
    steps[number - 1] = dataclasses.replace(steps[number - 1], **changes)
    return with_steps(lesson, steps)


def test_a_lesson_broken_by_a_rules_change_fails_loudly() -> None:
    """Without the cutthroat rule the two-box stack steals nothing: the step's claim fails, by name."""
    lesson = load("twobox")[0]
    with pytest.raises(LessonError, match=r"twobox lesson 'count' step 4: .*steal"):
        check(broken(lesson, 4, rules={}))


@pytest.mark.parametrize(("what", "changes", "message"), [
    ("a move no longer scoring", {"expect": ({"kind": "score", "seat": 0, "points": 20},)}, "did not produce"),
    ("an illegal move taught", {"accept": ("play 2-0 to 4",)}, "not among the legal moves"),
    ("a tile dealt twice too often", {"hands": (("6-3", "6-3", "6-3"), ())}, "more often than the set holds"),
    ("a move before that cannot be played", {"before": ("play 6-6 to 1",)}, "cannot be played"),
    ("the wrong seat to move", {"before": ("play 6-3 to 1",)}, "is to move, not the learner"),
    ("why_not naming the move taught", {"why_not": {"play 6-3 to 1": "no"}}, "not another legal move"),
])
def test_a_broken_step_fails_loudly(what: str, changes: dict[str, Any], message: str) -> None:
    """Each way a step can stop matching the engine is caught, naming the step."""
    lesson = load("twobox")[0]
    with pytest.raises(LessonError, match=rf"twobox lesson 'count' step 1: .*{message}"):
        check(broken(lesson, 1, **changes))


def test_a_quiz_needs_a_choice() -> None:
    """A quiz whose only legal move is the answer teaches nothing: refused."""
    lesson = load("montana")[0]
    quiz = lesson.steps[-1]
    every = tuple(str(a) for a in start(quiz).legal_actions())
    with pytest.raises(LessonError, match="another legal move"):
        check(broken(lesson, len(lesson.steps), accept=every, why_not={}))


GOOD = {
    "names": ["Ann"],
    "lesson": [{"id": "a", "title": "T", "intro": "I", "players": 2, "hands": ["6-6 6-5", ""],
                "step": [{"text": "t", "accept": ["pass"], "wrong": "w", "done": "d", "quiz": True}]}],
}


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["lesson"][0]["step"][0].update(colour="red"), "unknown field"),
    (lambda d: d["lesson"][0]["step"][0].update(quiz=False), "must be a quiz"),
    (lambda d: d["lesson"][0]["step"][0].update(text=" "), "'text' must be a non-empty string"),
    (lambda d: d["lesson"][0]["step"][0].update(accept=[]), "at least one move"),
    (lambda d: d["lesson"][0].update(players=9), "players must be"),
    (lambda d: d["lesson"][0].update(hands=["6-6"]), "one string of tiles per seat"),
    (lambda d: d["lesson"][0].update(id="Bad Id"), "id must be"),
    (lambda d: d["lesson"][0].update(rules={"nonsense": 1}), "nonsense"),
    (lambda d: d["lesson"][0]["step"][0].update(expect=[{"seat": 0}]), "each with a 'kind'"),
    (lambda d: d["lesson"][0]["step"][0].update({"continue": True}), "cannot continue"),
    (lambda d: d.pop("names"), "'names'"),
])
def test_malformed_data_is_refused_as_it_loads(change: Any, message: str) -> None:
    """The loader checks the data's shape before anything is played."""
    import copy

    data = copy.deepcopy(GOOD)
    parse("twobox", data)  # the good one loads
    change(data)
    with pytest.raises(LessonError, match=message):
        parse("twobox", data)


def test_every_steps_words_are_for_a_newcomer() -> None:
    """No step speaks in seat numbers or action notation: names, tiles and the buttons' words."""
    for _game, lesson in ALL:
        for step in lesson.steps:
            for words in (step.text, step.wrong, step.done, *step.why_not.values()):
                assert "seat " not in words.lower(), words
                assert " to 1" not in words and "claim run" not in words, words


def test_step_public_words_hide_the_answer_in_a_quiz() -> None:
    """The page may show the move taught ("Show me"), except in a quiz."""
    for _game, lesson in ALL:
        for step in lesson.steps:
            assert step.public()["show"] == ([] if step.quiz else list(step.accept))
