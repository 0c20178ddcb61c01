"""The benchmark scripts no other test exercises still run, on tiny arguments.

A benchmark is run by hand, rarely, so an API it leans on can change under it unnoticed
(the oracle script once failed on its first decision for that reason). Each one here is
run end to end on the smallest arguments it takes, and its report is checked for the rows
it promises; the figures themselves are not judged.
"""

from __future__ import annotations

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
