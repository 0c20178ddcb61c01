"""The terminal front end, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from boneyard.cli.main import app

runner = CliRunner(env={"COLUMNS": "300"})


def test_games_lists_every_game() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "rounce" in result.output and "Domino Rounce" in result.output


def test_rules_prints_the_page() -> None:
    result = runner.invoke(app, ["rules", "rounce"])
    assert result.exit_code == 0
    assert "Rounce" in result.output and "rounced" in result.output


def test_unknown_game_is_a_clean_error() -> None:
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    assert "Traceback" not in result.output


def test_bad_rules_option_is_a_clean_error() -> None:
    result = runner.invoke(app, ["play", "rounce", "--rules", "speed=9"])
    assert result.exit_code == 2 and "unknown rules option" in result.output


def test_watch_plays_to_the_end_and_saves(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = runner.invoke(app, ["play", "rounce", "--watch", "--seed", "4", "--save", str(path)])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Winner(s)" in result.output
    record = json.loads(path.read_text())
    assert record["game"] == "rounce" and record["seed"] == 4 and record["actions"]
    told = runner.invoke(app, ["replay", str(path)])
    assert told.exit_code == 0 and "game over" in told.output


def test_human_play_reasks_bad_input_and_quits_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    answers = "99\nplay 9-9\nfrobnicate\n1\n1\nq\n"
    result = runner.invoke(app, ["play", "rounce", "--players", "2", "--seed", "2", "--save", str(path)], input=answers)
    assert result.exit_code == 0, result.output
    assert "Choose a number from 1 to" in result.output
    assert "not a Rounce action" in result.output
    assert "Stopped." in result.output and "Traceback" not in result.output
    assert json.loads(path.read_text())["actions"]


def test_human_plays_a_whole_game_by_menu() -> None:
    result = runner.invoke(app, ["play", "rounce", "--players", "3", "--seat", "1", "--seed", "5"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output


def test_replay_rejects_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "rounce", "players": 3, "seed": 1, "actions": ["play 6-6 as 9"]}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not a valid record" in result.output
    path.write_text("{not json")
    assert runner.invoke(app, ["replay", str(path)]).exit_code == 2
