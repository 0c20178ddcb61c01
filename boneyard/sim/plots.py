"""PNG charts of a run's summary: score distributions and win rates with confidence intervals.

matplotlib is imported here only, when plots are asked for, with the Agg backend (no display).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _title(summary: Mapping[str, Any]) -> str:
    return f"{summary['game']}, {summary['players']} players: {summary['games']} games, seed {summary['seed']}"


def plot_scores(summary: Mapping[str, Any], path: Path) -> Path:
    """Final-score distribution of each bot (a step histogram per bot)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, histogram in summary["score_histogram"].items():
        if not histogram:
            continue
        points = sorted((float(k), v) for k, v in histogram.items())
        total = sum(v for _, v in points)
        xs = [x for x, _ in points]
        ys = [v / total for _, v in points]
        if len(xs) > 40:
            ax.hist(xs, bins=30, weights=ys, histtype="step", linewidth=1.5, label=label)
        else:
            ax.plot(xs, ys, marker="o", linewidth=1.2, label=label)
    ax.set_xlabel("final score")
    ax.set_ylabel("share of seat-games")
    ax.set_title(f"Score distribution — {_title(summary)}", fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_win_rates(summary: Mapping[str, Any], path: Path) -> Path:
    """Win rate by bot and by seat, with 95% Wilson intervals as error bars."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    groups = (
        ("by bot", [b["bot"] for b in summary["by_bot"]], summary["by_bot"]),
        ("by seat", [f"seat {s['seat']}" for s in summary["by_seat"]], summary["by_seat"]),
    )
    for ax, (name, labels, rows) in zip(axes, groups, strict=True):
        rates = [r["win_rate"] or 0.0 for r in rows]
        low = [max(0.0, rt - r["win_rate_ci95"][0]) for rt, r in zip(rates, rows, strict=True)]
        high = [max(0.0, r["win_rate_ci95"][1] - rt) for rt, r in zip(rates, rows, strict=True)]
        ax.bar(range(len(rows)), rates, yerr=[low, high], capsize=5, color="#4c72b0")
        ax.set_xticks(range(len(rows)), labels, rotation=20)
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% CI)")
        ax.set_title(f"Win rate {name}")
    fig.suptitle(_title(summary), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_plots(summary: Mapping[str, Any], folder: Path) -> list[Path]:
    """Write ``scores.png`` and ``win_rates.png`` into ``folder``; return their paths."""
    return [plot_scores(summary, folder / "scores.png"), plot_win_rates(summary, folder / "win_rates.png")]
