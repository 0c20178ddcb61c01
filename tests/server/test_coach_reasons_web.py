"""The coach's reasons at the web table and in the terminal: one sentence for one decision.

A review's "why" (``reason``) is the line ``boneyard review`` prints for the same decision,
and a hint's is the line ``boneyard play`` prints when the player types "h" in the same
position: both are :class:`boneyard.words.coach.CoachWords` on the shared analysis
(capped in rounds here, so the figures depend on the position alone).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from rich.console import Console
from typer.testing import CliRunner

import boneyard
from boneyard.cli.main import app as cli_app
from boneyard.cli.play import ask_action
from boneyard.cli.views import default_names

from .conftest import auth
from .test_coach_web import _review, coach_of

NAMES = default_names(3)  # the terminal's names for a record's seats: the web table is given the same


def _table(client: TestClient, seed: int) -> tuple[str, list[str]]:
    """A one-hand three-player Rounce practice table, every seat human, joined as the terminal names them."""
    body = {"game": "rounce", "players": 3, "seats": ["human"] * 3, "seed": seed, "practice": True, "dealer": 2,
            "next_timeout": 0, "rules": {"max_hands": 1}}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    tokens = []
    for seat, name in enumerate(NAMES):
        j = client.post(f"/api/tables/{table}/join", json={"seat": seat, "name": name})
        assert j.status_code == 200, j.text
        tokens.append(j.json()["token"])
    return table, tokens


def _play(client: TestClient, table: str, tokens: list[str], until: Any = None) -> dict[str, Any]:
    """Seat 0 plays its last legal action, the others their first, until ``until(state)`` or the game's end."""
    for _ in range(100):
        state = client.get(f"/api/tables/{table}").json()
        if state["is_over"] or (until is not None and until(state)):
            return dict(state)
        seat = state["current_player"]
        legal = client.get(f"/api/tables/{table}", headers=auth(tokens[seat])).json()["legal_actions"]
        r = client.post(f"/api/tables/{table}/actions", json={"action": legal[-1] if seat == 0 else legal[0]},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200, r.text
    raise AssertionError("the scripted game did not end")


def test_a_reviews_why_is_the_same_sentence_on_the_web_and_in_the_terminal(client: TestClient,
                                                                           tmp_path: Path) -> None:
    coach_of(client, ms=60_000, rounds=6)
    table, tokens = _table(client, 7)
    _play(client, table, tokens)
    web, _ = _review(client, table, tokens[0])
    assert web["decisions"] and all(d["reason"] for d in web["decisions"])
    record = client.app.state.service.tables[table].record()  # type: ignore[attr-defined]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(cli_app, ["review", str(path), "--seat", "0", "--rounds", "6", "--all"],
                                env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for d in web["decisions"]:
        assert d["reason"].startswith("Why ")
        assert f"{d['number']}. {d['reason']}" in result.output  # the terminal's line, word for word
        assert d["reasons"]["better"] == d["best"][0]["action"]


def test_a_hints_why_is_the_same_sentence_on_the_web_and_in_the_terminal(client: TestClient) -> None:
    coach_of(client, ms=60_000, rounds=8)
    table, tokens = _table(client, 11)
    state = _play(client, table, tokens, until=lambda s: s["current_player"] == 0)
    assert not state["is_over"]
    hint = client.get(f"/api/tables/{table}/hint", headers=auth(tokens[0]))
    assert hint.status_code == 200, hint.text
    said = hint.json()["reason"]
    assert said.startswith(f"Why {hint.json()['action']}: ") and "what you could see" in said
    assert hint.json()["reasons"]["measure"] == "margin"
    # the same position in the terminal: the player types "h", then a move
    game = boneyard.replay(client.app.state.service.tables[table].record())  # type: ignore[attr-defined]
    out = io.StringIO()
    console = Console(file=out, width=300, color_system=None)
    answers = iter(["h", "1"])
    ask_action(game, 0, console, lambda _: next(answers), NAMES, hint_ms=None, hint_rounds=8)
    printed = out.getvalue()
    assert "Coach's hint" in printed and said in printed
