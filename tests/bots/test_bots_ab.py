"""benchmarks/bots_ab.py: the bots' choices compared between two trees on seeded positions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import boneyard

REPO = Path(__file__).resolve().parents[2]


def test_positions_are_seeded_records_of_decisions_with_a_choice(benchmark_module: Any) -> None:
    bench = benchmark_module("bots_ab")
    records = bench.make_positions("twobox", 12, 5)
    assert records == bench.make_positions("twobox", 12, 5)
    assert len(records) == 12 and records != bench.make_positions("twobox", 12, 6)
    for record in records:
        game = boneyard.replay(record)
        assert not game.is_over and len(game.legal_actions()) > 1
    assert max(sum(r["seed"] == s for r in records) for s in {r["seed"] for r in records}) <= bench.PER_GAME


def test_choices_in_one_process_are_those_of_the_bots(benchmark_module: Any) -> None:
    """Every bot row has one choice per position, a legal one; Montana adds its reading row."""
    bench = benchmark_module("bots_ab")
    records = bench.make_positions("montana", 4, 1)
    specs = bench.bot_specs("montana", 20)
    answer = bench.choose_all("montana", records, specs)
    assert list(answer["choices"]) == [*specs, bench.READING]
    for spec in specs:
        assert all(c in legal for c, legal in zip(answer["choices"][spec], answer["legal"], strict=True))
    assert all(isinstance(json.loads(r), dict) for r in answer["choices"][bench.READING])


def test_compare_counts_agreement_only_where_the_question_is_the_same(benchmark_module: Any) -> None:
    bench = benchmark_module("bots_ab")
    records = [{"seed": 1, "actions": ["a"]}, {"seed": 2, "actions": ["a", "b"]}, {"seed": 3, "actions": []}]
    before = {"engines": "x", "legal": [["p", "q"], ["p", "q"], ["p"]], "choices": {"greedy": ["p", "p", "p"]}}
    after = {"engines": "y", "legal": [["p", "q"], ["p", "q"], None], "choices": {"greedy": ["p", "q", "error"]}}
    lines = bench.compare("twobox", records, before, after, show=5)
    assert lines[0].startswith("twobox: 3 positions, legal actions the same in 2")
    assert "1 / 2     agree (50.0%)" in lines[1]
    assert lines[2:] == ["    position 1 (seed 2, action 2):", "      before: p", "      after:  q"]


def test_a_tree_against_itself_agrees_everywhere(benchmark_module: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """End to end, through the subprocesses: this checkout against itself chooses the same everywhere."""
    bench = benchmark_module("bots_ab")
    code = bench.main(["--tree", str(REPO), "--games", "twobox,montana", "--positions", "3", "--iterations", "10"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("3 / 3     agree (100.0%)") == 6
