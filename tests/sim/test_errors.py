"""Bad options fail with a clear error before any game is played or any file written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import boneyard.sim.runner as runner
from boneyard.cli.main import app
from boneyard.sim import SimulationError, simulate

cli = CliRunner(env={"COLUMNS": "300"})


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any game is played."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was played before the options were checked")

    monkeypatch.setattr(runner, "play_game", refuse)


BAD: list[tuple[dict[str, Any], str]] = [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": "rounce", "bots": "random,wizard"}, "unknown bot 'wizard'"),
    ({"game": "rounce", "bots": "random:depth=3"}, "bad parameters for bot 'random' in 'random:depth=3'"),
    ({"game": "rounce", "bots": "random:depth"}, "name:key=value"),
    ({"game": "rounce", "bots": ""}, "at least one bot"),
    ({"game": "rounce", "rules": {"speed": 9}}, "unknown rules option 'speed'"),
    ({"game": "twobox", "rules": {"target": -1}}, "bad value -1 for rules option 'target'"),
    ({"game": "montana", "rules": {"mode": "blitz"}}, "bad value 'blitz' for rules option 'mode'"),
    ({"game": "eighty", "players": 3}, "eighty is played by 4 to 4 players"),
    ({"game": "rounce", "games": 0}, "number of games must be a positive int"),
    ({"game": "rounce", "workers": 0}, "workers must be a positive int"),
    ({"game": "rounce", "backend": "spark"}, "unknown backend 'spark'"),
    ({"game": "rounce", "address": "ray://x:10001"}, "only with the ray backend"),
    ({"game": "rounce", "batch_size": 0}, "batch size must be a positive int"),
    ({"game": "rounce", "plot": True, "out": None}, "give an output folder"),
]


@pytest.mark.parametrize(("options", "message"), BAD, ids=[m for _, m in BAD])
@pytest.mark.usefixtures("no_games")
def test_bad_option_is_named_before_any_work(options: dict[str, Any], message: str, tmp_path: Path) -> None:
    out = tmp_path / "out"
    kwargs = {"out": out, **options}
    game = kwargs.pop("game")
    with pytest.raises(SimulationError) as err:
        simulate(game, **kwargs)
    assert message in str(err.value)
    assert not out.exists()


def test_errors_are_value_errors() -> None:
    assert issubclass(SimulationError, ValueError)


@pytest.mark.usefixtures("no_games")
def test_cli_bad_bot_is_a_clean_usage_error(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli.invoke(app, ["simulate", "rounce", "--bots", "random,wizard", "--out", str(out)])
    assert result.exit_code == 2
    assert "unknown bot 'wizard'" in result.output and "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.usefixtures("no_games")
def test_cli_bad_players_and_rules_are_clean_usage_errors(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli.invoke(app, ["simulate", "rounce", "--players", "9", "--out", str(out)])
    assert result.exit_code == 2 and "rounce is played by" in result.output
    result = cli.invoke(app, ["simulate", "rounce", "--rules", "speed=9", "--out", str(out)])
    assert result.exit_code == 2 and "unknown rules option" in result.output
    result = cli.invoke(app, ["simulate", "chess", "--out", str(out)])
    assert result.exit_code == 2 and "unknown game 'chess'" in result.output
    assert not out.exists()


def test_cli_runs_writes_and_prints_the_summary(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = cli.invoke(
        app,
        ["simulate", "rounce", "--games", "4", "--bots", "random,greedy", "--seed", "3", "--out", str(out), "--plot"],
    )
    assert result.exit_code == 0, result.output
    for text in ("Win rate and score by bot", "Win rate and score by seat", "rounce rate", "hands per game"):
        assert text in result.output
    for name in ("results.jsonl", "summary.json", "scores.png", "win_rates.png"):
        assert (out / name).is_file(), name
