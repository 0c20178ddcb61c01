"""The Ray backend, with Ray in local mode: every game, and the same results as the local backend.

Everything runs in one test so that only one pytest worker ever starts Ray (it takes seconds
and a few hundred MB).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

import boneyard
from boneyard.cli.main import app
from boneyard.sim import simulate

ray = pytest.importorskip("ray", reason="Ray is installed by 'make test' (the dev extra)")


def test_ray_backend_matches_local_for_every_game(tmp_path: Path) -> None:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for game in boneyard.games():
            local = simulate(game, games=3, seed=4, out=tmp_path / game / "local")
            on_ray = simulate(
                game, games=3, seed=4, workers=2, batch_size=1, backend="ray", out=tmp_path / game / "ray"
            )
            assert on_ray.records == local.records, game
            for name in ("results.jsonl", "summary.json"):
                assert (tmp_path / game / "ray" / name).read_bytes() == (tmp_path / game / "local" / name).read_bytes()
        # A Ray that was already running is used and left running.
        assert ray.is_initialized()
    finally:
        ray.shutdown()
    # With no Ray running, the command starts a local one and shuts it down at the end.
    out = tmp_path / "cli"
    result = CliRunner(env={"COLUMNS": "300"}).invoke(
        app,
        ["simulate", "eighty", "--games", "2", "--seed", "4", "--backend", "ray", "--workers", "1", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    assert not ray.is_initialized()
    simulate("eighty", games=2, seed=4, out=tmp_path / "cli-local")
    for name in ("results.jsonl", "summary.json"):
        assert (out / name).read_bytes() == (tmp_path / "cli-local" / name).read_bytes()
