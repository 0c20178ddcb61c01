"""A game that exists only under ``tests/`` plays through every layer once registered.

Tiny Block (``tests/tinygame/``) is registered by this module and unregistered after it;
nothing outside its folder knows it. The terminal, the web app's HTTP API, ``simulate``,
the arena and the ismcts bot must all take it through their generic parts.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import boneyard
from boneyard.bots.arena import Arena, parse_bots
from boneyard.cli.main import app as cli
from boneyard.games import game_class, register, unregister
from boneyard.server import create_app
from boneyard.server.ratelimit import LimitSettings
from boneyard.words import register as register_words
from boneyard.words import unregister as unregister_words

HERE = Path(__file__).parent / "tinygame"


def _load_tiny() -> Any:
    """Import ``tests/tinygame`` as a package, whatever pytest's import mode."""
    init = HERE / "__init__.py"
    spec = importlib.util.spec_from_file_location("tinygame", init, submodule_search_locations=[str(HERE)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tinygame"] = module
    spec.loader.exec_module(module)
    return module.GAME


@pytest.fixture(scope="module", autouse=True)
def tiny() -> Iterator[Any]:
    """Tiny Block registered for this module's tests only (its engine and its words)."""
    cls = register(_load_tiny())
    register_words(cls.id, importlib.import_module("tinygame.words").WORDS)
    yield cls
    unregister_words(cls.id)
    unregister(cls.id)
    assert "tinyblock" not in boneyard.games()


def test_it_is_listed_with_its_facts() -> None:
    assert boneyard.games()[-1] == "tinyblock"
    info = boneyard.game_info("tinyblock")
    assert info["name"] == "Tiny Block" and info["lower_is_better"] is False
    assert info["options"]["target"]["label"] == "Target"
    with pytest.raises(ValueError, match="already registered"):
        register(type("Other", (game_class("tinyblock"),), {}))


def test_registration_refuses_what_is_not_a_game() -> None:
    with pytest.raises(ValueError, match="Game subclass"):
        register(object)
    assert "tinyblock" in boneyard.games()


def test_random_games_keep_the_contract() -> None:
    for seed in range(30):
        g = boneyard.new_game("tinyblock", seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            places = g.tile_locations()
            assert Counter(t for ts in places.values() for t in ts) == Counter(type(g).full_set(g.rules))
            seat = g.current_player
            sampled = boneyard.sample_game(g.view(seat), rng)
            assert sampled.view(seat) == g.view(seat)
            g.apply(rng.choice(g.legal_actions()))
        assert boneyard.replay(g.record()).view(None) == g.view(None)


def test_the_terminal_plays_it() -> None:
    result = CliRunner().invoke(cli, ["play", "tinyblock", "--seed", "4"], input="1\n" * 200)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    watched = CliRunner().invoke(cli, ["play", "tinyblock", "--watch", "--bots", "greedy,ismcts", "--seed", "2"])
    assert watched.exit_code == 0, watched.output
    assert "Game over" in watched.output
    assert "tinyblock" in CliRunner().invoke(cli, ["games"]).output


def test_the_web_api_plays_it(tmp_path: Path) -> None:
    # the test plays as fast as it can: per-address rate limits (tested elsewhere) are off
    app = create_app(f"sqlite:///{tmp_path / 'tiny.db'}", bot_delay=0.0, limits=LimitSettings.parse("off"))
    with TestClient(app) as client:
        assert "tinyblock" in [g["id"] for g in client.get("/api/games").json()]
        made = client.post("/api/tables", json={"game": "tinyblock", "seats": ["human", "bot:random"]})
        assert made.status_code == 201, made.text
        table = made.json()["id"]
        joined = client.post(f"/api/tables/{table}/join", json={"seat": 0, "name": "Ann"})
        assert joined.status_code == 200, joined.text
        token = joined.json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        deadline = time.monotonic() + 60  # the bot plays on the server's own time
        while time.monotonic() < deadline:
            state = client.get(f"/api/tables/{table}", headers=headers).json()
            view = state["view"]
            if view["is_over"]:
                break
            legal = state.get("legal_actions") or []
            if state.get("between_hands"):  # a hand just ended: press "Next hand" as a player would
                assert client.post(f"/api/tables/{table}/next", headers=headers).status_code == 200
            elif view["current_player"] == 0 and legal:
                body = {"action": legal[0], "expected_version": state["version"]}
                r = client.post(f"/api/tables/{table}/actions", json=body, headers=headers)
                if r.status_code == 429:  # over the per-address action limit: wait, as a client would
                    time.sleep(1.0)
                    continue
                assert r.status_code == 200, r.text
            else:
                time.sleep(0.01)
        assert view["is_over"], "the table played to the end"
        assert client.get(f"/tables/{table}").status_code == 200


def test_simulate_and_arena_play_it(tmp_path: Path) -> None:
    report = boneyard.simulate("tinyblock", bots="random,greedy", games=12, seed=3, out=tmp_path)
    text = json.dumps(report, default=str)
    assert "tinyblock" in text
    arena = Arena("tinyblock", parse_bots("ismcts:iterations=30,random"), games=4, seed=1).run()
    assert arena["games"] == 4
    assert {row["bot"] for row in arena["summary"]} == {"ismcts:iterations=30", "random"}


def test_the_search_bot_chooses_legal_actions() -> None:
    bot = boneyard.bot("ismcts", iterations=40)
    g = boneyard.new_game("tinyblock", seed=8)
    rng = random.Random(8)
    while not g.is_over:
        action = bot.choose(g.view(g.current_player), g.legal_actions(), rng)
        assert g.is_legal(action)
        g.apply(action)
