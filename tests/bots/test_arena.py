"""The arena: duplicate seating, statistics, worker-independent results, and the CLI command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boneyard.bots.arena import Arena, game_outcome, parse_bot_spec, parse_bots, rotation_count, seating, summarize
from boneyard.cli.main import app


def test_bot_specs_parse_with_parameters() -> None:
    spec = parse_bot_spec("ismcts:iterations=50:rollout=random")
    assert spec.name == "ismcts"
    assert dict(spec.params) == {"iterations": 50, "rollout": "random"}
    assert spec.label == "ismcts:iterations=50:rollout=random"
    with pytest.raises(ValueError, match="unknown bot"):
        parse_bot_spec("nobody")
    with pytest.raises(ValueError, match="key=value"):
        parse_bot_spec("ismcts:50")
    with pytest.raises(ValueError, match="bad parameters"):
        parse_bot_spec("greedy:depth=3")
    with pytest.raises(ValueError, match="at least two"):
        parse_bots("greedy")
    with pytest.raises(ValueError, match="once"):
        parse_bots("greedy,greedy")


def test_rotations_seat_every_bot_everywhere() -> None:
    assert rotation_count(4, 2, False) == 2
    assert [seating(4, 2, r, False) for r in range(2)] == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert [seating(4, 2, r, True) for r in range(2)] == [[0, 1, 0, 1], [1, 0, 1, 0]]
    assert rotation_count(3, 3, False) == 3
    seats = [seating(3, 3, r, False) for r in range(3)]
    for position in range(3):
        assert sorted(s[position] for s in seats) == [0, 1, 2]


def test_outcome_counts_ties_and_low_scores() -> None:
    result = {"seats": ["a", "b", "a", "b"], "winners": [1, 2], "scores": [3, 10, 5, 12]}
    assert game_outcome(result, "a", lower_is_better=True) == (0.5, 7.0, 0.5)
    assert game_outcome(result, "b", lower_is_better=False) == (0.5, 7.0, 0.5)


def test_summary_intervals_cover_the_mean() -> None:
    specs = parse_bots("greedy,random")
    results = []
    for deal in range(5):
        for rotation in range(2):
            seats = ["greedy", "random"] if rotation == 0 else ["random", "greedy"]
            winner = seats.index("greedy") if deal != 3 else seats.index("random")
            results.append(
                {
                    "deal": deal,
                    "rotation": rotation,
                    "seats": seats,
                    "winners": [winner],
                    "scores": [1, 2],
                    "decisions": {s: {"count": 1, "total_ms": 1.0, "max_ms": 1.0} for s in seats},
                }
            )
    greedy, rand = summarize("twobox", specs, results)
    assert greedy["win_rate"] == pytest.approx(0.8)
    assert greedy["win_rate_ci"][0] < 0.8 < greedy["win_rate_ci"][1]
    assert rand["win_rate"] == pytest.approx(0.2)
    assert greedy["deals"] == 5 and greedy["games"] == 10


def test_results_do_not_depend_on_workers() -> None:
    specs = parse_bots("greedy,ismcts:iterations=3,random")
    one = Arena("rounce", specs, games=6, seed=4, workers=1, players=3).run()
    two = Arena("rounce", specs, games=6, seed=4, workers=2, players=3).run()
    strip = ("seconds", "workers")

    def plain(report: dict) -> dict:
        out = {k: v for k, v in report.items() if k not in strip}
        out["results"] = [{k: v for k, v in r.items() if k != "decisions"} for r in report["results"]]
        out["summary"] = [{k: v for k, v in s.items() if "ms" not in k} for s in report["summary"]]
        return out

    assert plain(one) == plain(two)
    assert one["games"] == 6 and one["deals"] == 2
    assert {tuple(r["seats"]) for r in one["results"]} == {
        ("greedy", "ismcts:iterations=3", "random"),
        ("ismcts:iterations=3", "random", "greedy"),
        ("random", "greedy", "ismcts:iterations=3"),
    }


def test_arena_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="games"):
        Arena("rounce", parse_bots("greedy,random"), games=0).tasks()
    with pytest.raises(ValueError, match="cannot all sit"):
        Arena("rounce", parse_bots("greedy,random,ismcts"), players=2).tasks()
    with pytest.raises(ValueError):
        Arena("rounce", parse_bots("greedy,random"), players=9).tasks()


def test_arena_command_writes_json_and_png(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    png = tmp_path / "arena.png"
    md = tmp_path / "arena.md"
    result = CliRunner().invoke(
        app,
        [
            "arena",
            "rounce",
            "--bots",
            "greedy,random",
            "--games",
            "4",
            "--seed",
            "1",
            "--json",
            str(out),
            "--plot",
            str(png),
            "--markdown",
            str(md),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output and "greedy" in result.output
    report = json.loads(out.read_text())
    assert report["games"] == 4 and len(report["results"]) == 4
    assert all(r["record"]["game"] == "rounce" and r["record"]["actions"] for r in report["results"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| greedy |" in md.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "nogame"], "unknown game"),
        (["arena", "rounce", "--bots", "greedy,nobody"], "unknown bot"),
        (["arena", "rounce", "--plot", "chart.jpg"], ".png"),
        (["arena", "rounce", "--games", "0"], "games"),
    ],
)
def test_arena_command_names_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code != 0
    assert message in result.output
