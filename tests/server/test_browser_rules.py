"""The rules pages: rendered as real HTML and linked from every table, their worked examples
played against the engines, and the lobby's rules options shown with labels.

Each example below quotes the sentence of ``docs/rules/<id>.md`` it checks (the test
fails if the sentence is no longer on the page, so a reworded example is checked again)
and plays it through the public API with a fixed deck.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import httpx
import pytest

import boneyard
from boneyard.rulespages import rules_page

from .conftest import Server


def page_says(game_id: str, sentence: str) -> None:
    """The rules page holds ``sentence`` (whitespace and line breaks aside)."""
    flat = " ".join(rules_page(game_id).split())
    assert " ".join(sentence.split()) in flat, f"the {game_id} rules page no longer says: {sentence!r}"


def full_set(game_id: str) -> list[str]:
    game = boneyard.new_game(game_id, seed=0)
    return [str(t) for t in type(game).full_set(game.rules)]


def deck_with(game_id: str, front: list[str]) -> list[str]:
    """A whole deck that starts with ``front`` (the rest in the set's order)."""
    rest = full_set(game_id)
    for t in front:
        rest.remove(t)
    return front + rest


# ----- Rounce ------------------------------------------------------------------------------

def rounce_trick(lead_hand: list[str], follow_hand: list[str], turn_up: str, lead: str, follow: str) -> int:
    """Two players, seat 0 leads ``lead`` and seat 1 plays ``follow``: the trick's winner."""
    game = boneyard.new_game("rounce", players=2, seed=1, deck=deck_with("rounce", lead_hand + follow_hand + [turn_up]),
                             dealer=1)
    game.apply("pass")
    game.apply("pass")
    game.apply(lead)
    assert game.is_legal(follow), f"{follow} cannot be played to {lead}: {game.legal_actions()}"
    game.apply(follow)
    winner: int = game.view(0)["tricks"][0]["winner"]
    return winner


def test_rounce_a_double_ranks_by_its_other_end() -> None:
    page_says("rounce", "So (none of them being trumps) 6-4 and 5-4 played as 4s beat 4-4, and 4-4 beats 4-3, "
                        "4-2 and 4-1.")
    page_says("rounce", "with 6 trump, a 5-4 led as a 4 beats the 4-4 played to it.")
    follow = ["4-4", "3-3", "2-2", "1-1", "5-5"]  # 4-4 is its only 4
    plain = ["3-2", "3-1", "2-1", "5-3"]
    # blanks are trump (the turn-up 0-0): no tile below holds a blank
    for high in ("6-4", "5-4"):
        assert rounce_trick([high, *plain], follow, "0-0", f"play {high} as 4", "play 4-4") == 0
    for low in ("4-3", "4-2", "4-1"):
        lead_hand = [low, *[t for t in ["3-2", "3-1", "2-1", "5-3", "6-5"] if t != low]][:5]
        assert rounce_trick(lead_hand, follow, "0-0", f"play {low} as 4", "play 4-4") == 1
    # the page's ruling, with 6 trump
    assert rounce_trick(["5-4", *plain], ["4-4", "3-3", "2-2", "1-1", "0-0"], "6-0", "play 5-4 as 4", "play 4-4") == 0
    page_says("rounce", "A double (other than the trump double) belongs only to its own number's suit")
    assert "4-4 is the highest 4" not in rules_page("rounce")


def test_rounce_trumps_rank_as_the_page_lists_them() -> None:
    page_says("rounce", "With 5 trump, the trumps from high to low are 6-5, 5-5, 5-4, 5-3, 5-2, 5-1, 5-0.")
    order = ["6-5", "5-5", "5-4", "5-3", "5-2", "5-1"]
    filler = ["3-2", "3-1", "2-1", "1-0", "2-0", "4-1", "4-2", "3-0"]
    for high, low in itertools.pairwise(order):
        lead = [low, *filler[:4]]
        follow = [high, *filler[4:8]]
        assert rounce_trick(lead, follow, "5-0", f"play {low}", f"play {high}") == 1, f"{high} should beat {low}"


# ----- Two-box -----------------------------------------------------------------------------

def test_twobox_walk_through_scores_as_the_page_says() -> None:
    page_says("twobox", "the count is 12 (spinner) + 3 = **15**")
    page_says("twobox", "the spinner drops out and the count is 3 + 2 = **5**")
    page_says("twobox", "tip: 3 + 2 + 5 = **10**")
    page_says("twobox", "the cross is unchanged, so he scores **10** too")
    hands = [
        ["6-6", "6-5", "1-0", "2-0", "3-0", "4-0", "2-1"],
        ["6-3", "3-1", "4-1", "5-1", "3-2", "4-2", "5-2"],
        ["6-2", "4-3", "5-3", "5-4", "1-0", "2-0", "3-0"],
        ["6-5", "4-0", "2-1", "3-1", "4-1", "5-1", "3-2"],
    ]
    game = boneyard.new_game("twobox", players=4, seed=1, deck=deck_with("twobox", [t for h in hands for t in h]))
    assert game.view(0)["spinner"] == "6-6" and game.current_player == 1
    for seat, action, count, gained in ((1, "play 6-3 to 1", 15, 15), (2, "play 6-2 to 2", 5, 5),
                                        (3, "play 6-5 to 3", 10, 10), (0, "stack 6-5 on 3", 10, 10)):
        before = game.scores[seat]
        assert game.current_player == seat
        game.apply(action)
        assert game.view(0)["count"] == count, action
        assert game.scores[seat] - before == gained, action


# ----- Rummikub ----------------------------------------------------------------------------

@pytest.mark.parametrize(("group", "sentence", "rules", "legal"), [
    ("5-3 5-4 5-5", "`5-3 5-4 5-5` shares 5", {}, True),
    ("6-1 5-1 4-1", "`6-1 5-1 4-1` shares 1", {}, True),
    ("4-3 5-2 6-1", "`4-3 5-2 6-1` (7 pips each)", {}, True),
    ("4-3 4-3 5-2", "Identical tiles may sit together in a sum group (`4-3 4-3 5-2`)", {}, True),
    ("4-3 4-3 5-2", "Identical tiles may sit together in a sum group (`4-3 4-3 5-2`)", {"distinct_sums": True}, False),
    ("0-0 1-0 2-0", "so `0-0 1-0 2-0` is a run of 0s", {}, True),
])
def test_rummikub_groups_of_the_page(group: str, sentence: str, rules: dict[str, Any], legal: bool) -> None:
    page_says("rummikub", sentence)
    tiles = group.split()
    hand = tiles + [t for t in ["6-5", "6-4", "6-2", "3-1", "2-1"] if t not in tiles][: 8 - len(tiles)]
    game = boneyard.new_game("rummikub", players=2, seed=1, rules=rules, deck=deck_with("rummikub", hand), dealer=1)
    assert game.current_player == 0
    assert game.is_legal(f"play {group}") is legal


# ----- the pages in the browser ------------------------------------------------------------

def test_rules_pages_are_html_with_tables(live_server: Server, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        for game_id in boneyard.games():
            page.goto(f"{live_server.url}/rules/{game_id}")
            assert page.locator("main h1").count() == 1 and page.locator("main h2").count() >= 2
            text = page.inner_text("main")
            pipe_tables = len(re.findall(r"^\|.*\|\s*$\n^\|[ :|-]+\|\s*$", rules_page(game_id), flags=re.M))
            assert page.locator("main table").count() == pipe_tables, game_id
            assert "| ---" not in text and "|---" not in text, f"{game_id}: a table printed as text"
            assert page.locator("nav a[href='/']").count() == 1
        res = httpx.get(f"{live_server.url}/rules/chess")
        assert res.status_code == 404 and "href='/'" in res.text
    finally:
        context.close()


def test_every_table_page_links_to_its_rules(live_server: Server, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        for game_id in boneyard.games():
            table = httpx.post(f"{live_server.url}/api/tables", json={"game": game_id}).json()["id"]
            page.goto(f"{live_server.url}/tables/{table}")
            page.wait_for_selector("#players tbody tr")
            assert page.get_attribute("#rules-link", "href") == f"/rules/{game_id}"
            assert page.locator("#rules-link").is_visible()
    finally:
        context.close()


def test_lobby_options_have_labels_not_identifiers(live_server: Server, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.wait_for_selector("#games .card")
        for game_id in boneyard.games():
            page.select_option("#game", game_id)
            options = boneyard.game_info(game_id)["options"]
            text = page.inner_text("#options")
            for name, spec in options.items():
                if "_" in name:
                    assert name not in text, f"{game_id}: the option {name} shows as an identifier"
                label = spec.get("label") or name.replace("_", " ").capitalize()
                assert label in text
                if spec["type"] == "bool":
                    assert page.get_attribute(f"#opt-{name}", "type") == "checkbox"
            assert not re.search(r"\b(true|false)\b", text)
        # a box ticked in the form is the rules option the table gets
        page.select_option("#game", "twobox")
        page.fill("#name", "Ann")
        page.check("#opt-cutthroat")
        page.click("#create-btn")
        page.wait_for_url("**/tables/*")
        table = page.url.rstrip("/").split("/")[-1]
        assert httpx.get(f"{live_server.url}/api/tables/{table}").json()["view"]["rules"]["cutthroat"] is True
    finally:
        context.close()


def test_an_unknown_table_gets_a_page_with_the_lobby_link(live_server: Server, browser: Any) -> None:
    context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server.url}/tables/no-such-table")
        page.wait_for_selector(".notfound")
        assert "There is no table" in page.inner_text(".notfound")
        assert page.locator(".notfound a[href='/']").is_visible()
        assert page.title().startswith("No such table")
        assert errors == []
    finally:
        context.close()
