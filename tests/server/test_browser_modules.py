"""The front end's module split, checked in the browser: each game's module is found by its
id, a game without one falls back on the generic module, and the shared files name no game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import boneyard

from .conftest import Server

STATIC = Path(boneyard.__file__).parent / "server" / "static"


@pytest.fixture(scope="module")
def lobby_page(live_server: Server, browser: Any) -> Iterator[Any]:
    """The lobby, whose origin serves the modules."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.wait_for_selector("#games .card")
    yield page
    assert errors == []
    context.close()


def test_shared_files_hold_no_game_id() -> None:
    """No ``game === "rounce"`` dispatch (nor any game id) in the core or the lobby."""
    shared = [*sorted((STATIC / "core").glob("*.js")), STATIC / "lobby.js"]
    ids = "|".join(boneyard.games())
    for path in shared:
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"\b({ids})\b", text), f"{path.name} names a game"
    for gid in boneyard.games():
        assert (STATIC / "games" / f"{gid}.js").exists(), f"no front-end module for {gid}"


def test_a_game_without_a_module_is_drawn_by_the_generic_one(lobby_page: Any) -> None:
    view = boneyard.new_game("rounce", players=3, seed=4).view(0)
    view["game"] = "tinygame"
    got = lobby_page.evaluate("""async (view) => {
      const { gameModule } = await import('/static/core/registry.js');
      const generic = await import('/static/core/generic.js');
      const mod = await gameModule('tinygame');
      const ctx = { seatName: (s) => 'P' + s, state: { view, legal_actions: ['pass'] }, boardWidth: 800 };
      const box = document.createElement('div');
      box.innerHTML = mod.board(view, ctx);
      return { same: mod.board === generic.board, text: box.textContent,
               backs: box.querySelectorAll('svg.tile.back').length, say: mod.describe('play 6-4 as 4', view),
               ask: mod.ask('call', view), list: mod.actionList(['pass', 'fold'], ctx) };
    }""", view)
    assert got["same"]
    assert "turn up" in got["text"] and "P1" in got["text"]  # public fields and the seats
    assert got["backs"] == sum(view["hand_sizes"]) - len(view["hand"])
    assert got["say"] == "Play 6-4 as 4" and got["ask"] == "call" and got["list"] == ["pass", "fold"]


def test_each_games_module_is_found_by_its_id(lobby_page: Any) -> None:
    for gid in boneyard.games():
        own = lobby_page.evaluate("""async (gid) => {
          const { gameModule } = await import('/static/core/registry.js');
          const generic = await import('/static/core/generic.js');
          return (await gameModule(gid)).board !== generic.board;
        }""", gid)
        assert own, f"{gid}'s module was not loaded"


def test_modules_are_served(live_server: Server) -> None:
    for path in ("/static/core/table.js", "/static/core/registry.js", "/static/games/rummikub.js"):
        res = httpx.get(live_server.url + path)
        assert res.status_code == 200 and "javascript" in res.headers["content-type"]
