"""``boneyard.simulate`` on the local backend: every game, the files' schema, determinism."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import boneyard
from boneyard.sim import game_seed, load_records, make_plan, play_game, simulate
from boneyard.sim.runner import bot_seed

GAMES = boneyard.games()

RECORD_KEYS = {
    "index": int,
    "seed": int,
    "game": str,
    "players": int,
    "rules": dict,
    "bots": list,
    "scores": list,
    "winners": list,
    "hands_played": int,
    "decisions": int,
    "hands": list,
}


def check_record(record: dict[str, Any], index: int, game: str) -> None:
    """A results.jsonl line has the documented fields, types and consistent counts."""
    for key, kind in RECORD_KEYS.items():
        assert isinstance(record[key], kind), (key, record[key])
    assert record["index"] == index and record["game"] == game
    players = record["players"]
    assert len(record["bots"]) == len(record["scores"]) == players
    assert record["winners"] and all(0 <= w < players for w in record["winners"])
    assert record["hands_played"] == len(record["hands"]) >= 1
    assert sum(h["length"] for h in record["hands"]) == record["decisions"]
    for hand in record["hands"]:
        assert {"hand", "length", "outcome"} <= set(hand) <= {"hand", "length", "outcome", "watched"}
        assert isinstance(hand["hand"], int) and hand["length"] >= 0
        assert hand["outcome"] is None or isinstance(hand["outcome"], dict)
    numbers = [h["hand"] for h in record["hands"]]
    assert numbers == sorted(numbers)


def check_summary(summary: dict[str, Any], games: int) -> None:
    """summary.json holds the documented sections, with rates inside their intervals."""
    for key in ("game", "players", "rules", "bots", "seed", "games", "by_bot", "by_seat", "scores",
                "hands_per_game", "hand_length", "decisions_per_game", "score_histogram", "figures"):
        assert key in summary, key
    assert summary["games"] == games
    assert sum(s["games"] for s in summary["by_seat"]) == games * summary["players"]
    for row in summary["by_bot"] + summary["by_seat"]:
        lo, hi = row["win_rate_ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1
        assert row["score"]["n"] == row["games"]
    assert summary["hands_per_game"]["n"] == games


@pytest.mark.parametrize("game", GAMES)
def test_every_game_runs_and_writes_the_files(game: str, tmp_path: Path) -> None:
    result = simulate(game, games=3, seed=11, out=tmp_path)
    assert [p.name for p in result.files] == ["results.jsonl", "summary.json"]
    records = load_records(tmp_path / "results.jsonl")
    assert records == result.records and len(records) == 3
    for i, record in enumerate(records):
        check_record(record, i, game)
        assert record["seed"] == game_seed(11, i)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary == result.summary
    check_summary(summary, 3)
    assert summary["figures"], f"{game} has no game-specific figures"


def test_same_seed_same_files_whatever_the_workers_and_batches(tmp_path: Path) -> None:
    one = simulate("twobox", games=8, seed=5, workers=1, out=tmp_path / "one")
    two = simulate("twobox", games=8, seed=5, workers=2, batch_size=3, out=tmp_path / "two")
    for name in ("results.jsonl", "summary.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert one.summary == two.summary and one.records == two.records
    other = simulate("twobox", games=8, seed=6)
    assert other.records != one.records


def test_a_prefix_of_a_run_is_the_same_games() -> None:
    """Game i depends on (seed, i) only: a shorter run is the start of a longer one."""
    short = simulate("rounce", games=3, seed=2, bots="random,greedy")
    long = simulate("rounce", games=5, seed=2, bots="random,greedy", batch_size=2)
    assert long.records[:3] == short.records


def test_bots_rotate_round_the_seats() -> None:
    result = simulate("rounce", players=3, games=3, seed=1, bots="random,greedy")
    assert [r["bots"] for r in result.records] == [
        ["random", "greedy", "random"],
        ["greedy", "random", "greedy"],
        ["random", "greedy", "random"],
    ]
    fixed = simulate("rounce", players=3, games=2, seed=1, bots="random,greedy", rotate=False)
    assert all(r["bots"] == ["random", "greedy", "random"] for r in fixed.records)
    by_bot = {row["bot"]: row["games"] for row in result.summary["by_bot"]}
    assert by_bot == {"random": 5, "greedy": 4}


def test_hands_match_a_game_watched_move_by_move() -> None:
    """The per-hand lengths and outcomes equal those seen by watching view(None) after every move."""
    plan = make_plan("rounce", games=1, seed=9, bots="random")
    record = play_game(plan, 0)
    game = boneyard.new_game("rounce", players=plan.players, seed=record["seed"])
    rngs = [random.Random(bot_seed(record["seed"], s)) for s in range(plan.players)]
    bot = boneyard.bot("random")
    hands: list[tuple[int, dict[str, Any]]] = []
    moves = 0
    seen = None
    while not game.is_over:
        seat = game.current_player
        game.apply(bot.choose(game.view(seat), game.legal_actions(), rngs[seat]))
        moves += 1
        result = game.view(None)["last_result"]
        if result is not None and result != seen:
            hands.append((moves, result))
            seen = result
    ends = [end for end, _ in hands]
    lengths = [b - a for a, b in zip([0, *ends], ends, strict=False)]
    assert [h["length"] for h in record["hands"]] == lengths
    assert [h["outcome"] for h in record["hands"]] == [r for _, r in hands]
    assert record["scores"] == game.scores and record["winners"] == game.winners


def test_cutthroat_steals_are_watched() -> None:
    plain = simulate("twobox", games=6, seed=7)
    cut = simulate("twobox", games=6, seed=7, rules={"cutthroat": True})
    assert plain.summary["figures"]["cutthroat_steals"]["steals"] == 0
    steals = cut.summary["figures"]["cutthroat_steals"]
    watched = [h["watched"] for r in cut.records for h in r["hands"] if "watched" in h]
    assert steals["steals"] == sum(w["steals"] for w in watched) > 0
    assert steals["points_moved"] == sum(w["stolen_points"] for w in watched) > 0


def test_progress_hook_sees_every_game() -> None:
    seen: list[tuple[int, int]] = []
    simulate("eighty", games=4, seed=1, batch_size=2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 4), (4, 4)]


def test_records_can_be_dropped_for_huge_runs(tmp_path: Path) -> None:
    result = simulate("eighty", games=2, seed=1, keep_records=False, out=tmp_path)
    assert result.records == [] and len(load_records(tmp_path / "results.jsonl")) == 2


def test_plots_are_png_files(tmp_path: Path) -> None:
    result = simulate("rounce", games=4, seed=1, bots="random,greedy", out=tmp_path, plot=True)
    pngs = [p for p in result.files if p.suffix == ".png"]
    assert [p.name for p in pngs] == ["scores.png", "win_rates.png"]
    for path in pngs:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_package_exposes_simulate() -> None:
    assert boneyard.simulate is simulate
    assert "simulate" in boneyard.__all__
