"""Summaries of a run: win rates with confidence intervals, score spreads, hands, game figures.

A :class:`Summary` is fed the records in game order (so its floating-point sums, and so
``summary.json``, are the same whatever the workers or backend). The generic part works
for any registered game; the game-specific figures read each game's hand results
(``last_result`` in its views); they live in :mod:`boneyard.sim.figures`, one module per
game, with a generic fallback for a game that has none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .. import api
from .figures import figures_for
from .runner import Plan
from .stats import Stat, rate, wilson

__all__ = ["Stat", "Summary", "describe", "figure_rows", "rate", "summarize", "wilson"]


class _Side:
    """Win and score tallies for one bot or one seat."""

    def __init__(self) -> None:
        self.games = 0
        self.wins = 0
        self.score = Stat()
        self.histogram: Counter[Any] = Counter()

    def add(self, won: bool, score: float) -> None:
        self.games += 1
        self.wins += int(won)
        self.score.add(score)
        self.histogram[score] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 6) if self.games else None,
            "win_rate_ci95": wilson(self.wins, self.games),
            "score": self.score.to_dict(),
        }


class Summary:
    """Accumulates the records of a run (in game order) into ``summary.json``'s content."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.games = 0
        self.by_bot = {label: _Side() for label in plan.labels()}
        self.by_seat = [_Side() for _ in range(plan.players)]
        self.scores = Stat()
        self.hands = Stat()
        self.hand_length = Stat()
        self.decisions = Stat()
        self.shared_wins = 0
        self.figures = figures_for(plan.game)
        # Partners winning together are not a shared win.
        self.teams = bool(api.game_info(plan.game)["teams"])

    def add(self, record: Mapping[str, Any]) -> None:
        """Take in one game's record."""
        self.games += 1
        winners = set(record["winners"])
        for seat, (label, score) in enumerate(zip(record["bots"], record["scores"], strict=True)):
            won = seat in winners
            self.by_bot[label].add(won, score)
            self.by_seat[seat].add(won, score)
            self.scores.add(score)
        self.shared_wins += int(len(winners) > 1 and not self.teams)
        self.hands.add(record["hands_played"])
        self.decisions.add(record["decisions"])
        for hand in record["hands"]:
            self.hand_length.add(hand["length"])
        self.figures.add(record)

    def result(self) -> dict[str, Any]:
        """The summary, JSON-ready and independent of how the run was executed."""
        plan = self.plan
        return {
            "game": plan.game,
            "players": plan.players,
            "rules": dict(plan.rules),
            "bots": plan.labels(),
            "rotate": plan.rotate,
            "seed": plan.seed,
            "games": self.games,
            "by_bot": [{"bot": label, **side.to_dict()} for label, side in self.by_bot.items()],
            "by_seat": [{"seat": seat, **side.to_dict()} for seat, side in enumerate(self.by_seat)],
            "scores": self.scores.to_dict(),
            "shared_wins": rate(self.shared_wins, self.games),
            "hands_per_game": self.hands.to_dict(),
            "hand_length": self.hand_length.to_dict(),
            "decisions_per_game": self.decisions.to_dict(),
            "score_histogram": {
                label: {str(k): v for k, v in sorted(side.histogram.items())} for label, side in self.by_bot.items()
            },
            "figures": self.figures.result(),
        }


def summarize(plan: Plan, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The summary of a list of records (in game order)."""
    summary = Summary(plan)
    for record in records:
        summary.add(record)
    return summary.result()


def describe(value: Any) -> str:
    """A summary value as short text: rates with their CI, stats as mean ± std, numbers."""
    if isinstance(value, Mapping):
        if "rate" in value and "ci95" in value:
            if value["rate"] is None:
                return "- (0 of 0)"
            lo, hi = value["ci95"]
            return f"{value['rate']:.3f} [{lo:.3f}, {hi:.3f}] ({value['count']:g} of {value['of']})"
        if "made_rate" in value and "bids" in value:
            return f"{value['bids']} bids, made {describe(value['made_rate'])}"
        if "mean" in value and "std" in value:
            return f"{value['mean']:.2f} ± {value['std']:.2f} (n {value['n']})"
    if isinstance(value, float):
        return f"{int(value):,}" if value.is_integer() else f"{value:.4g}"
    return str(value)


def figure_rows(figures: Mapping[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Flatten game-specific figures into (name, text) rows for a table."""
    rows: list[tuple[str, str]] = []
    for key, value in figures.items():
        name = f"{prefix}{key}"
        text = describe(value)
        if isinstance(value, Mapping) and text == str(value):
            rows.extend(figure_rows(value, f"{name} / "))
        else:
            rows.append((name.replace("_", " "), text))
    return rows
