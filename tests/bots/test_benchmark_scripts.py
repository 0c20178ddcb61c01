"""The benchmark scripts no other test exercises still run, on tiny arguments.

A benchmark is run by hand, rarely, so an API it leans on can change under it unnoticed
(the oracle script once failed on its first decision for that reason). Each one here is
run end to end on the smallest arguments it takes, and its report is checked for the rows
it promises; the figures themselves are not judged.
"""

from __future__ import annotations

import json
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


def _report(seed: int, games: list[tuple[int, bool, int]]) -> dict[str, Any]:
    """A made-up two-box arena report: per game its deal, whether the search won, its margin."""
    seats = ["ismcts:ms=200", "greedy", "ismcts:ms=200", "greedy"]
    results = [
        {"deal": deal, "seats": seats, "scores": [100 + margin, 100, 100 + margin, 100], "winners": [0 if won else 1]}
        for deal, won, margin in games
    ]
    return {"game": "twobox", "players": 4, "rules": {}, "bots": ["ismcts:ms=200", "greedy"], "seed": seed,
            "results": results}


def test_arena_paired_compares_two_runs_deal_by_deal(
    benchmark_module: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Each deal's seat orders are averaged, then the after-less-before differences are averaged over deals.

    Deal 0 goes from two wins (+10, +20) to one (+5, +5); deal 1 from two losses (-10, -10)
    to two wins (+20, +20): the win share changes by -0.5 and +1 (mean +0.25), the margin
    by -10 and +30 (mean +10). A run on other deals is refused by name, not compared.
    """
    bench = benchmark_module("arena_paired")
    before = _report(7, [(0, True, 10), (0, True, 20), (1, False, -10), (1, False, -10)])
    after = _report(7, [(0, True, 5), (0, False, 5), (1, True, 20), (1, True, 20), (2, True, 50)])
    found = bench.compare(before, after)
    assert found["deals"] == 2  # deal 2 is in one run only
    assert found["win_rate"]["before"] == 0.5 and found["win_rate"]["after"] == 0.75
    assert found["win_rate"]["difference"] == 0.25 and found["margin"]["difference"] == 10.0
    low, high = found["margin"]["interval"]
    assert low < 10.0 < high
    paths = []
    for name, report in (("before", before), ("after", after), ("other", _report(8, []))):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(report))
        paths.append(str(path))
    monkeypatch.setattr("sys.argv", ["arena_paired.py", paths[0], paths[1]])
    bench.main()
    out = capsys.readouterr().out
    assert "2 deals in both runs" in out and "+0.250" in out and "+10.00" in out
    monkeypatch.setattr("sys.argv", ["arena_paired.py", paths[0], paths[2]])
    with pytest.raises(SystemExit, match="differ in seed: 7 and 8"):
        bench.main()


def test_arena_paired_pools_pieces_of_one_arena_by_seed_and_deal(
    benchmark_module: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two pairs of runs with seeds 7 and 8 count as one arena: their deal 0s are two deals, not one.

    Seed 7's deal 0 goes from a win (+10) to a loss (-10): -1 and -20; seed 8's deal 0 from a
    loss (-10) to a win (+30): +1 and +40; pooled, the means are 0 and +10 over 2 deals. The
    reports are read gzipped and without records; a pair of other bots, a seed given twice,
    or an odd count of files, is refused by name.
    """
    import gzip

    bench = benchmark_module("arena_paired")
    runs = {"b7": _report(7, [(0, True, 10)]), "a7": _report(7, [(0, False, -10)]),
            "b8": _report(8, [(0, False, -10)]), "a8": _report(8, [(0, True, 30)])}
    paths = {}
    for name, report in runs.items():
        path = tmp_path / f"{name}.json.gz"
        path.write_bytes(gzip.compress(json.dumps(report).encode()))
        paths[name] = str(path)
    found = bench.compare_pairs([(runs["b7"], runs["a7"]), (runs["b8"], runs["a8"])])
    assert found["deals"] == 2 and found["seeds"] == 2
    assert found["win_rate"]["difference"] == 0.0 and found["margin"]["difference"] == 10.0
    assert found["win_rate"]["before"] == 0.5 and found["margin"]["after"] == 10.0
    other_bots = {**runs["b8"], "bots": ["ismcts:ms=400", "greedy"]}
    with pytest.raises(ValueError, match="the pairs differ in bots"):
        bench.compare_pairs([(runs["b7"], runs["a7"]), (other_bots, {**runs["a8"], "bots": other_bots["bots"]})])
    monkeypatch.setattr("sys.argv", ["arena_paired.py", paths["b7"], paths["a7"], paths["b8"], paths["a8"]])
    bench.main()
    assert "2 deals in both runs (2 seeds pooled)" in capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["arena_paired.py", paths["b7"], paths["a7"], paths["b7"], paths["a7"]])
    with pytest.raises(SystemExit, match="two pairs share seed 7"):
        bench.main()
    monkeypatch.setattr("sys.argv", ["arena_paired.py", paths["b7"], paths["a7"], paths["b8"]])
    with pytest.raises(SystemExit):
        bench.main()
    assert "odd count" in capsys.readouterr().err
