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
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_server.url + "/")
    page.wait_for_selector("#games .card")
    yield page
    assert errors == []
    context.close()


def test_shared_files_hold_no_game_id() -> None:
    """No ``game === "rounce"`` dispatch (nor any game id) in the core, the lobby or the lessons' page."""
    shared = [*sorted((STATIC / "core").glob("*.js")), STATIC / "lobby.js", *sorted((STATIC / "learn").glob("*.js"))]
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


TINY_SERVER = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("tinygame", sys.argv[1] + "/__init__.py",
                                              submodule_search_locations=[sys.argv[1]])
module = importlib.util.module_from_spec(spec)
sys.modules["tinygame"] = module
spec.loader.exec_module(module)
from boneyard.games import register
register(module.GAME)
import uvicorn
from boneyard.server import create_app
uvicorn.run(create_app(sys.argv[2], bot_delay=0.0), host="127.0.0.1", port=int(sys.argv[3]), log_level="warning")
"""


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server (its own process) on which Tiny Block, a game living only under tests/, is registered."""
    import subprocess
    import sys
    import time

    from .conftest import free_port

    here = Path(__file__).resolve().parents[1] / "tinygame"
    db = f"sqlite:///{tmp_path_factory.mktemp('tiny') / 'tiny.db'}"
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-c", TINY_SERVER, str(here), db, str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "the server exited"
            try:
                if httpx.get(url + "/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_game_with_only_an_engine_is_played_in_the_browser(tiny_server: str, browser: Any) -> None:
    """Tiny Block has no front-end module: the generic one draws it and a whole game is clicked through."""
    assert "tinyblock" in [g["id"] for g in httpx.get(tiny_server + "/api/games").json()]
    assert httpx.get(tiny_server + "/static/games/tinyblock.js").status_code == 404
    phone = {"width": 390, "height": 844}
    context = browser.new_context(bypass_csp=True, viewport=phone, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(tiny_server + "/")
        page.fill("#name", "Ann")
        page.select_option("#game", "tinyblock")
        assert "Target" in page.inner_text("#options")
        page.click("#create-btn")
        page.wait_for_url("**/tables/*")
        page.wait_for_selector("#players tbody tr")
        assert "Tiny" in (page.text_content("#title") or "")
        for _ in range(400):
            if page.locator("#over:not([hidden])").count():
                break
            if page.locator("#next-hand").is_visible():
                page.click("#next-hand")
            elif (page.text_content("#status") or "").startswith("Your turn"):
                version = page.evaluate("document.body.dataset.version")
                if page.locator("#hand .handtile.playable").count():
                    page.locator("#hand .handtile.playable").first.tap()
                    if page.locator("#actions [data-cancel]").count():
                        page.locator("#actions [data-action]").first.tap()
                else:
                    page.locator("#actions [data-action]").first.tap()
                page.wait_for_function(f"document.body.dataset.version !== '{version}'"
                                       " || document.body.dataset.ending !== ''", timeout=10_000)
            else:
                page.wait_for_timeout(50)
        page.wait_for_selector("#over:not([hidden])")
        assert re.search(r"wins with \d+", page.inner_text("#over .ranking"))
        assert errors == []
    finally:
        context.close()
