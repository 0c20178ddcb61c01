"""The statistics and the game-specific figures, on hand-made records with exact answers."""

from __future__ import annotations

import math
from typing import Any

import pytest

from boneyard.sim import make_plan, summarize
from boneyard.sim.summary import Stat, figure_rows, wilson


def record(game: str, players: int, hands: list[dict[str, Any] | None], **extra: Any) -> dict[str, Any]:
    """A minimal record holding the given hand outcomes."""
    base: dict[str, Any] = {
        "index": 0,
        "seed": 1,
        "game": game,
        "players": players,
        "rules": {},
        "bots": ["random"] * players,
        "scores": [0] * players,
        "winners": [0],
        "hands_played": len(hands),
        "decisions": 10 * len(hands),
        "hands": [{"hand": i + 1, "length": 10, "outcome": h} for i, h in enumerate(hands)],
    }
    base.update(extra)
    return base


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.236593, abs=1e-6) and hi == pytest.approx(0.763407, abs=1e-6)
    assert wilson(0, 0) == [0.0, 1.0]
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0


def test_stat_mean_and_spread() -> None:
    s = Stat()
    for x in (2, 4, 4, 4, 5, 5, 7, 9):
        s.add(x)
    d = s.to_dict()
    assert d["mean"] == 5 and d["min"] == 2 and d["max"] == 9
    assert d["std"] == pytest.approx(math.sqrt(32 / 7), abs=1e-6)


def test_montana_drawn_rate_and_sets_by_kind() -> None:
    plan = make_plan("montana", players=2, games=1)
    drawn = {"hand": 1, "drawn": True, "sets": []}
    out = {
        "hand": 2,
        "drawn": False,
        "how": "claim",
        "value": 9,
        "sets": [{"kind": "pair"}, {"kind": "pair"}, {"kind": "run"}],
    }
    f = summarize(plan, [record("montana", 2, [drawn, out, drawn, None])])["figures"]
    assert f["hands"] == 3 and f["outs"] == 1
    assert f["drawn_hand_rate"]["count"] == 2 and f["drawn_hand_rate"]["rate"] == pytest.approx(2 / 3, abs=1e-6)
    assert f["sets_by_kind"]["pair"]["sets"] == 2 and f["sets_by_kind"]["pair"]["per_out"] == 2
    assert f["sets_by_kind"]["run"]["outs_holding"]["count"] == 1
    assert f["outs_by_how"]["claim"]["rate"] == 1


def test_twobox_points_split_into_counts_and_dominoes() -> None:
    plan = make_plan("twobox", games=1)
    hands = [
        {"hand": 1, "how": "domino", "award": 20, "scores": [35, 5, 0, 0]},  # 20 from the domino, 20 counts
        {"hand": 2, "how": "blocked", "award": 10, "scores": [35, 15, 10, 0]},  # 10 blocked, 10 counts
        {"hand": 3, "how": "target", "award": 0, "scores": [150, 15, 10, 0]},  # 115 counts
    ]
    f = summarize(plan, [record("twobox", 4, hands)])["figures"]
    assert f["points"] == {"counts": 145, "dominoes": 20, "blocked": 10}
    assert f["share"]["counts"] == pytest.approx(145 / 175, abs=1e-6)
    assert f["hand_ends"]["target"]["count"] == 1


def test_eighty_made_and_set_by_bid_level() -> None:
    plan = make_plan("eighty", games=1)
    hands = [
        {"hand": 1, "bid": 80, "made": True},
        {"hand": 2, "bid": 80, "made": False},
        {"hand": 3, "bid": 55, "made": True},
        {"hand": 4, "bid": "nel-o", "made": False},
    ]
    f = summarize(plan, [record("eighty", 4, hands, winners=[0, 2])])["figures"]
    assert list(f["by_bid"]) == ["55", "80", "nel-o"]
    assert f["by_bid"]["80"]["bids"] == 2 and f["by_bid"]["80"]["made"] == 1 and f["by_bid"]["80"]["set"] == 1
    assert f["by_bid"]["nel-o"]["set"] == 1
    rows = dict(figure_rows(f))
    assert rows["by bid / 80"].startswith("2 bids, made 0.500")


def test_rounce_rate_counts_seats_that_stood_in() -> None:
    plan = make_plan("rounce", players=4, games=1)
    hands = [
        {"hand": 1, "changes": [-3, -2, 5, 0]},  # seat 3 folded; seat 2 rounced
        {"hand": 2, "changes": [-5, 0, 0, 0]},
    ]
    f = summarize(plan, [record("rounce", 4, hands)])["figures"]
    assert f["rounce_rate"]["count"] == 1 and f["rounce_rate"]["of"] == 4
    assert f["hands_with_a_rounce"]["rate"] == 0.5


def test_generic_summary_by_bot_and_seat() -> None:
    plan = make_plan("rounce", players=3, games=2, bots="random,greedy")
    records = [
        record("rounce", 3, [None], bots=["random", "greedy", "random"], scores=[0, 4, 7], winners=[0]),
        record("rounce", 3, [None], bots=["greedy", "random", "greedy"], scores=[-1, 2, 3], winners=[0]),
    ]
    s = summarize(plan, records)
    by_bot = {row["bot"]: row for row in s["by_bot"]}
    assert by_bot["random"]["games"] == 3 and by_bot["random"]["wins"] == 1
    assert by_bot["greedy"]["games"] == 3 and by_bot["greedy"]["wins"] == 1
    assert s["by_seat"][0]["wins"] == 2 and s["by_seat"][0]["win_rate"] == 1
    assert s["score_histogram"]["greedy"] == {"-1": 1, "3": 1, "4": 1}
