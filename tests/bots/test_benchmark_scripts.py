"""The benchmark scripts no other test exercises still run, on tiny arguments.

A benchmark is run by hand, rarely, so an API it leans on can change under it unnoticed
(the oracle script once failed on its first decision for that reason). Each one here is
run end to end on the smallest arguments it takes, and its report is checked for the rows
it promises; the figures themselves are not judged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize(
    ("name", "argv", "expected"),
    [
        ("bots_speed", ["--decisions", "2", "--games", "rounce,montana"], ["rounce", "montana", "greedy ms/decision"]),
        ("endgame_speed", ["--positions", "2", "--max-eighty", "1", "--max-rounce", "1"], ["eighty", "rounce"]),
        ("montana_analysis", ["--seconds", "0.05"], ["waiting checks", "distances"]),
        ("montana_widest", ["--deals", "2"], ["widest against greedy", "| widest |"]),
        ("rummikub_hold", ["--deals", "2", "--hold-until", "0"], ["HOLD_UNTIL", "| 0 |"]),
        (
            "sim_speed",
            ["--rounds", "1", "--seconds", "0.1", "--play-seconds", "0.1", "--games", "rounce"],
            ["| rounce |", "simulate gain"],
        ),
    ],
)
def test_a_benchmark_runs_and_prints_its_rows(
    benchmark_module: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
    argv: list[str],
    expected: list[str],
) -> None:
    """The script's ``main`` runs on tiny arguments and its report names what it measured."""
    bench = benchmark_module(name)
    monkeypatch.setattr("sys.argv", [f"{name}.py", *argv])
    bench.main()
    out = capsys.readouterr().out
    for word in expected:
        assert word in out


def test_before_after_compares_a_tree_with_itself(
    benchmark_module: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``before_after.py --before .`` (no build) measures every measure in both trees and prints one table.

    The probes run against the public API only, in subprocesses; this checks that they
    start, find this tree's boneyard and answer, and that the table has a row per measure.
    """
    bench = benchmark_module("before_after")
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    argv = ["--before", ".", "--games", "rounce", "--rounds", "1", "--seconds", "0.05"]
    monkeypatch.setattr("sys.argv", ["before_after.py", *argv, "--positions", "2", "--iterations", "2"])
    bench.main()
    out = capsys.readouterr().out
    assert "| game | measure | unit | before | after | after ÷ before" in out
    for measure in bench.MEASURES.values():
        assert f"| rounce | {measure.label} |" in out
    engine_row = next(line for line in out.splitlines() if line.startswith("| rounce | engine, random play |"))
    assert "failed" not in engine_row and "×" in engine_row  # figures on both sides, and their ratio
    assert "- before:" in out and "- after:" in out


@pytest.mark.parametrize("game_id", ["montana", "eighty", "rounce"])
def test_bots_speed_switches_off_the_fast_playouts_where_the_profile_lives(benchmark_module: Any, game_id: str) -> None:
    """The last column (playouts through the engine) needs the profile's ``finish`` gone, then put back.

    These games keep their profile in ``bots/profiles/<id>.py``, not in the greedy module,
    so a switch that looked in the greedy module alone would leave the compiled playouts on
    and report their speed as the engine's.
    """
    from boneyard.bots.profile import profile

    bench = benchmark_module("bots_speed")
    before = profile(game_id)
    assert before.finish is not None
    with bench.engine_playouts(game_id) as had:
        assert had
        assert profile(game_id).finish is None and profile(game_id).outcomes is None
    assert profile(game_id) is before


def test_bots_speed_measures_a_tree_beside_this_checkout(
    benchmark_module: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``bots_speed.py --before .``: both trees measured in subprocesses, a row per game with both figures.

    This checkout stands in for the base tree (no build): the row must show iterations on
    both sides and their ratio, not a failure of either probe.
    """
    bench = benchmark_module("bots_speed")
    root = Path(__file__).resolve().parents[2]
    monkeypatch.setattr("sys.argv", ["bots_speed.py", "--before", str(root), "--games", "rounce,twobox",
                                     "--decisions", "2", "--rounds", "2"])
    bench.main()
    out = capsys.readouterr().out
    assert "iterations in 200 ms, before" in out and "before: " in out and "after: " in out
    for game_id in ("rounce", "twobox"):
        row = next(line for line in out.splitlines() if line.startswith(game_id))
        assert "not measured" not in row and row.count("x (") == 2, row  # both ratios, with their range
