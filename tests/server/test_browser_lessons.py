"""Learn to play, in headless Chromium at 390x844 (a phone) and 1280x800 (a laptop): every lesson
of every game is played to its end by clicking, as a learner would, starting from the lobby's
"Learn to play" link; a wrong move gets the step's friendly words; each lesson ends "Lesson
complete". Screenshots of each step go to /tmp/shots/ for a person to look at.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boneyard.lessons import lessons, start
from boneyard.lessons.model import Lesson, Step, explanation

from .conftest import Server, artifact, free_port

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHOTS = Path("/tmp/shots")
TILE = re.compile(r"^\d+-\d+$")
QUOTED = re.compile(r"“([^”]+)”")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the whole module: lessons keep nothing, so every test can share it."""
    db = tmp_path_factory.mktemp("lessons") / "lessons.db"
    running = Server(f"sqlite:///{db}", port=free_port()).start()
    yield running
    running.stop()


def shot(page: Any, name: str) -> None:
    """Save a screenshot for a person to look at: /tmp/shots/NAME.png and the test artifacts."""
    SHOTS.mkdir(exist_ok=True)
    path = artifact(f"lessons-{name}.png")
    page.screenshot(path=str(path))
    shutil.copy(path, SHOTS / f"{name}.png")


def click_move(page: Any, action: str, seen: list[str] | None = None) -> None:
    """Play ``action`` as a learner would: its button, else its tile in the hand (then the
    tile's choice when the tile has several moves). ``seen`` collects the words of the
    player's area at each moment (the buttons and marks a learner is told to press)."""
    if seen is not None:
        seen.append(page.inner_text("#me"))
    answered = page.evaluate("document.body.dataset.answers || '0'")
    button = page.locator(f'#actions [data-action="{action}"], #board [data-board-action="{action}"]')
    bid = re.fullmatch(r"bid (\d+)", action)
    if button.count():
        button.first.click()
    elif bid:  # Eighty's bid stepper: "+" or "−" up to the number, then its "Bid N" button
        while (shown := int(page.get_attribute("#bid-go", "data-bid"))) != int(bid[1]):
            page.click("#bid-up" if shown < int(bid[1]) else "#bid-down")
        if seen is not None:
            seen.append(page.inner_text("#me"))
        page.click("#bid-go")
    else:
        tiles = [w for w in action.split() if TILE.match(w)]
        assert tiles, f"no button and no tile for {action!r}"
        page.locator(f'#hand [data-hand="{tiles[0]}"]').first.click()
        page.wait_for_function(f"() => (document.body.dataset.answers || '0') !== '{answered}' "
                               f"|| !!document.querySelector('#actions [data-action=\"{action}\"]')")
        if page.evaluate("document.body.dataset.answers || '0'") == answered:
            if seen is not None:
                seen.append(page.inner_text("#me"))
            page.locator(f'#actions [data-action="{action}"]').click()
    page.wait_for_function(f"() => (document.body.dataset.answers || '0') !== '{answered}'")


def a_wrong_move(step: Step) -> tuple[str, str] | None:
    """A legal move the step does not teach, as the page offers it, and the words it must get
    (None if every legal move is taught). A move with words of its own comes first."""
    game = start(step)
    others = [str(a) for a in game.legal_actions() if str(a) not in step.accept]
    if not others:
        return None
    others.sort(key=lambda m: explanation(game, step, m) == step.wrong)
    return others[0], explanation(game, step, others[0])


def play_lesson(page: Any, lesson: Lesson, size: str) -> None:
    """Play every step of ``lesson`` from the page it is on (its first step), checking the words."""
    for n, step in enumerate(lesson.steps, 1):
        page.wait_for_function(f"() => document.body.dataset.step === '{lesson.id}/{n}' "
                               "&& !document.body.dataset.complete")
        assert step.text[:40] in page.inner_text("#lesson-text")
        assert ("quiz" in page.inner_text("#lesson-progress")) == step.quiz
        if n == 1 or step.quiz:
            wrong = a_wrong_move(step)
            if wrong is not None:
                click_move(page, wrong[0])
                page.wait_for_selector("#lesson-feedback.wrong")
                said = page.inner_text("#lesson-feedback")
                assert wrong[1][:30] in said, said
                assert page.evaluate("document.body.dataset.complete") == ""
        if n == 1 and not step.quiz:
            page.click("#show-me")
            page.wait_for_selector(".showme")
        seen: list[str] = []
        click_move(page, step.accept[0], seen)
        said = " ".join([step.text, step.wrong, *step.why_not.values()])
        for label in QUOTED.findall(said):  # what the words say to press is on the page
            assert any(label in words for words in seen), (label, seen)
        page.wait_for_selector("#lesson-feedback.ok")
        assert step.done[:30] in page.inner_text("#lesson-feedback")
        shot(page, f"learn-{lesson.game}-{lesson.id}-{n}-{size}")
        if n < len(lesson.steps):
            page.click("#next-step")
    assert "Lesson complete" in page.inner_text("#lesson")


@pytest.mark.parametrize("size", SIZES)
def test_every_lesson_of_every_game_is_played_by_clicking(server: Server, browser: Any, size: str) -> None:
    """From the lobby's "Learn to play" link, each game's lessons are played to the end by clicking;
    a wrong move is explained and changes nothing; the page never throws."""
    context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    for game, found in lessons().items():
        page.goto(server.url + "/")
        page.locator(f'a[href="/learn/{game}"]').first.click()
        page.wait_for_selector("#picker [data-lesson]")
        if game == "rounce":
            shot(page, f"learn-{game}-picker-{size}")
        for i, lesson in enumerate(found):
            if i == 0:
                page.click(f'#picker [data-lesson="{lesson.id}"]')
            else:
                page.click("#next-lesson")
            play_lesson(page, lesson, size)
        page.click("#all-lessons")
        page.wait_for_selector("#picker [data-lesson]")
    assert not errors
    context.close()


def test_the_rules_page_links_to_the_lessons(server: Server, browser: Any) -> None:
    """Each game's rules page, as the app serves it, has a "Learn to play" link to its lessons."""
    page = browser.new_page()
    for game in lessons():
        page.goto(f"{server.url}/rules/{game}")
        page.click(f'a[href="/learn/{game}"]')
        page.wait_for_selector("#picker [data-lesson]")
    page.goto(f"{server.url}/learn/nosuchgame")
    page.wait_for_selector("text=There is no game")
    page.close()


def test_a_lesson_is_played_with_the_keyboard(server: Server, browser: Any) -> None:
    """The focus is always on what comes next: a playable tile at a step's start, "Next step"
    once the move is made; Enter plays both (Rounce: 6-5, then 5-5)."""
    context = browser.new_context(viewport=SIZES["laptop"])
    page = context.new_page()
    page.goto(f"{server.url}/learn/rounce#trumps/2")
    page.wait_for_function("() => document.body.dataset.step === 'trumps/2'")
    assert page.evaluate("document.activeElement.dataset.hand") == "6-5"
    page.keyboard.press("Enter")
    page.wait_for_selector("#lesson-feedback.ok")
    assert page.evaluate("document.activeElement.id") == "next-step"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.step === 'trumps/3' && !document.body.dataset.complete")
    assert page.evaluate("document.activeElement.dataset.hand") == "5-5"
    page.click("#show-me")
    assert page.evaluate("document.activeElement.classList.contains('showme')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#lesson-feedback.ok")
    context.close()
