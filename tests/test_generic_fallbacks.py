"""A game with no per-game bot, terminal or simulation module still plays everywhere.

The game here is Rounce under a new id (registered by the test): the registry knows it,
but no greedy heuristic, terminal view or simulation figures are written for it, so every
layer must take its generic path. A broken per-game module, on the other hand, must fail
loudly, not fall back.
"""

from __future__ import annotations

import importlib
import io
import random
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from rich.console import Console

import boneyard
from boneyard.bots import bot, greedy
from boneyard.bots.arena import Arena, parse_bots
from boneyard.bots.greedy import GreedyBot
from boneyard.cli import views
from boneyard.cli.play import run_game
from boneyard.games import game_class, register, unregister
from boneyard.sim import figures
from boneyard.words import Words

GAME = "plainrounce"


@pytest.fixture
def plain() -> Iterator[str]:
    """A registered game with nothing written for it outside its engine."""
    register(type("PlainRounce", (game_class("rounce"),), {"id": GAME}))
    try:
        yield GAME
    finally:
        unregister(GAME)


def _text(renderable: Any) -> str:
    console = Console(width=200, record=True)
    console.print(renderable)
    return console.export_text()


def test_greedy_falls_back_on_a_random_legal_action(plain: str) -> None:
    """No heuristic: greedy says so and plays uniformly among the legal actions."""
    assert not GreedyBot.has_policy(plain) and GreedyBot.has_policy("rounce")
    game = boneyard.new_game(plain, seed=3)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    view, legal = game.view(game.current_player), game.legal_actions()
    picks = {str(GreedyBot().choose(view, legal, random.Random(i))) for i in range(60)}
    assert picks == {str(a) for a in legal}


def test_a_registered_heuristic_is_used(plain: str) -> None:
    """A game living outside boneyard gives greedy its heuristic by id."""
    last = SimpleNamespace(choose=lambda view, legal, rng: legal[-1])
    greedy.register(plain, last)
    try:
        game = boneyard.new_game(plain, seed=3)
        while len(game.legal_actions()) < 2:
            game.apply(game.legal_actions()[0])
        legal = game.legal_actions()
        assert GreedyBot().choose(game.view(game.current_player), legal, random.Random(0)) is legal[-1]
    finally:
        greedy.unregister(plain)
    with pytest.raises(ValueError, match="choose"):
        greedy.register(plain, object())


def test_ismcts_and_the_arena_play_it(plain: str) -> None:
    """The search (greedy's random fallback as prior and playout) and the arena run whole games."""
    report = Arena(plain, parse_bots("ismcts:iterations=6,greedy"), games=1, seed=2, players=2).run()
    rows = {row["bot"]: row for row in report["summary"]}
    assert rows["greedy"]["games"] == rows["ismcts:iterations=6"]["games"] == 2


def test_the_terminal_uses_the_generic_renderer(plain: str) -> None:
    """Phase, player to act, scores by name, public state as plain text, the last hand, own tiles."""
    game = boneyard.new_game(plain, seed=3)
    seat = game.current_player
    view = game.view(seat)
    assert views.renderer(plain) is views.render_generic
    names = ["Ann", "Bob", "Cy", "Dee"][: game.players]
    text = _text(views.render(view, names))
    assert f"phase {view['phase']}" in text and "to act: you" in text
    assert "Your hand: " + "  ".join(view["hand"]) in text
    assert re.search(r"hand_sizes +" + ", ".join(str(n) for n in view["hand_sizes"]), text)
    scores = ", ".join(("you" if s == seat else names[s]) + f" {v}" for s, v in enumerate(view["scores"]))
    assert re.search(r"scores +" + scores, text)
    assert not re.search(r"\[\d|\['|seat \d|None", text), text
    finished = boneyard.new_game(plain, seed=3)
    rng = random.Random(0)
    while not finished.is_over:
        legal = finished.legal_actions()
        finished.apply(legal[rng.randrange(len(legal))])
    end = _text(views.render(finished.view(None), names))
    assert f"game over: {' and '.join(names[w] for w in finished.winners)} won" in end
    assert "Hand end." in end  # the last hand's end, in the plain words every game has
    assert not re.search(r"\[\d|\['|seat \d|None", end), end


def test_the_terminal_tells_it_in_plain_words(plain: str) -> None:
    """No words module: the play loop tells each event in the base class's plain sentences, by name."""
    game = boneyard.new_game(plain, players=3, seed=3)
    out = Console(width=300, record=True, file=io.StringIO())
    assert run_game(game, [bot("random") for _ in range(3)], out, watch_seat=2)
    lines = [line for line in out.export_text().splitlines() if line.strip() and not line.startswith("─")]
    dealt = next(e for e in game.view(2)["events"] if e["kind"] == "dealt")
    # dealt is a kind every game shares: the base class tells it in full
    assert f"You are dealt {Words(['Ann', 'Bob', 'Cy'], 2).tiles(dealt['tiles'])}." in lines
    assert "Deal." in lines and "Hand end." in lines
    assert any(line.startswith(("Ann: ", "Bob: ")) for line in lines)
    assert not any(re.search(r"seat \d|\[\d|\['", line) for line in lines)


def test_a_registered_renderer_is_used(plain: str) -> None:
    views.register(plain, lambda view, names: f"custom {view['game']} for {names[0]}")
    try:
        assert _text(views.render(boneyard.new_game(plain, seed=1).view(0))).strip() == f"custom {plain} for Ann"
    finally:
        views.unregister(plain)


def test_the_simulation_summary_has_generic_figures(plain: str) -> None:
    """No figures module: the hands with a result and how the results' text fields came out."""
    result = boneyard.simulate(plain, bots="random", games=3, seed=1, players=3)
    found = result.summary["figures"]
    assert found["hands_with_a_result"] == sum(
        sum(1 for h in r["hands"] if h["outcome"] is not None) for r in result.records
    )
    assert found["hands_with_a_result"] > 0
    assert figures.watcher_for(plain) is None
    # a two-box result says how each hand ended ("domino", "blocked", "target"): counted by value
    register(type("PlainTwobox", (game_class("twobox"),), {"id": "plaintwobox"}))
    try:
        result = boneyard.simulate("plaintwobox", bots="random", games=3, seed=1)
    finally:
        unregister("plaintwobox")
    found = result.summary["figures"]
    hows = [h["outcome"]["how"] for r in result.records for h in r["hands"] if h["outcome"] is not None]
    assert {k: v["count"] for k, v in found["results_by"]["how"].items()} == {h: hows.count(h) for h in set(hows)}


def test_registered_figures_and_watcher_are_used(plain: str) -> None:
    seen: list[int] = []

    class Count(figures.Figures):
        def add(self, record: Any) -> None:
            seen.append(len(record["hands"]))

        def result(self) -> dict[str, Any]:
            return {"games_seen": len(seen)}

    def watch(view: Any, memory: dict[str, Any], hand: dict[str, Any]) -> None:
        hand["views"] = hand.get("views", 0) + 1

    figures.register(plain, Count, watch)
    try:
        result = boneyard.simulate(plain, bots="random", games=2, seed=1, players=2)
        assert result.summary["figures"] == {"games_seen": 2}
        assert all("watched" in h for r in result.records for h in r["hands"])
    finally:
        figures.unregister(plain)


@pytest.mark.parametrize(
    ("module", "lookup", "fallback"),
    [
        ("boneyard.cli.views", views.renderer, lambda found: found is views.render_generic),
        ("boneyard.bots.greedy", greedy.policy, lambda found: found is None),
        ("boneyard.sim.figures", figures.figures_for, lambda found: isinstance(found, figures.GenericFigures)),
    ],
)
def test_a_broken_per_game_module_is_not_hidden(
    monkeypatch: pytest.MonkeyPatch, module: str, lookup: Any, fallback: Any
) -> None:
    """Only "no module for this game" falls back; a module whose own import fails raises."""
    real = importlib.import_module

    def broken(name: str, package: str | None = None) -> Any:
        if name == f"{module}.brokengame":
            raise ModuleNotFoundError("No module named 'missing_dependency'", name="missing_dependency")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(ModuleNotFoundError, match="missing_dependency"):
        lookup("brokengame")
    assert fallback(lookup("absentgame"))  # truly absent: the generic fallback
