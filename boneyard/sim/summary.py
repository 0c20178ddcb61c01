"""Summaries of a run: win rates with confidence intervals, score spreads, hands, game figures.

A :class:`Summary` is fed the records in game order (so its floating-point sums, and so
``summary.json``, are the same whatever the workers or backend). The generic part works
for any registered game; the game-specific figures read each game's hand results
(``last_result`` in its views) and are registered in :data:`FIGURES`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import api
from .runner import Plan

Z95 = 1.959963984540054


def wilson(successes: float, trials: int, z: float = Z95) -> list[float]:
    """The Wilson score interval (95% by default) of a proportion; ``[0, 1]`` with no trials."""
    if trials <= 0:
        return [0.0, 1.0]
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return [round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)]


def rate(successes: float, trials: int) -> dict[str, Any]:
    """A proportion with its count, trials and 95% Wilson interval, JSON-ready."""
    return {
        "count": successes,
        "of": trials,
        "rate": round(successes / trials, 6) if trials else None,
        "ci95": wilson(successes, trials),
    }


class Stat:
    """Running count, mean, standard deviation, min and max (Welford's method)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self._m2 = 0.0
        self.lo: float | None = None
        self.hi: float | None = None

    def add(self, x: float) -> None:
        """Add one value."""
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self._m2 += delta * (x - self.mean)
        self.lo = x if self.lo is None or x < self.lo else self.lo
        self.hi = x if self.hi is None or x > self.hi else self.hi

    @property
    def std(self) -> float:
        """The sample standard deviation (0 with fewer than two values)."""
        return math.sqrt(self._m2 / (self.n - 1)) if self.n > 1 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Count, mean, std, 95% CI of the mean, min and max, JSON-ready."""
        half = Z95 * self.std / math.sqrt(self.n) if self.n > 1 else 0.0
        return {
            "n": self.n,
            "mean": round(self.mean, 6),
            "std": round(self.std, 6),
            "mean_ci95": [round(self.mean - half, 6), round(self.mean + half, 6)],
            "min": self.lo,
            "max": self.hi,
        }


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


class Figures:
    """Game-specific figures: fed every record, reported as a JSON-ready dict."""

    def add(self, record: Mapping[str, Any]) -> None:
        """Take in one game's record."""

    def result(self) -> dict[str, Any]:
        """The figures so far."""
        return {}


def _outcomes(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The hand results of a record (hands that ended with a result)."""
    return [h["outcome"] for h in record["hands"] if isinstance(h.get("outcome"), Mapping)]


class MontanaFigures(Figures):
    """Drawn-hand rate, outs by how they were won, and the sets of winning hands by kind."""

    def __init__(self) -> None:
        self.hands = 0
        self.drawn = 0
        self.outs = 0
        self.how: Counter[str] = Counter()
        self.sets: Counter[str] = Counter()
        self.outs_with: Counter[str] = Counter()
        self.value = Stat()

    def add(self, record: Mapping[str, Any]) -> None:
        """Count the record's hands."""
        for out in _outcomes(record):
            self.hands += 1
            if out.get("drawn"):
                self.drawn += 1
                continue
            self.outs += 1
            self.how[str(out.get("how"))] += 1
            kinds = [str(s.get("kind")) for s in out.get("sets", [])]
            self.sets.update(kinds)
            self.outs_with.update(set(kinds))
            self.value.add(out.get("value", 0))

    def result(self) -> dict[str, Any]:
        """Drawn-hand rate (95% CI), outs by pull/claim, sets by kind per out, hand value."""
        return {
            "hands": self.hands,
            "drawn_hand_rate": rate(self.drawn, self.hands),
            "outs": self.outs,
            "outs_by_how": {k: rate(v, self.outs) for k, v in sorted(self.how.items())},
            "sets_by_kind": {
                kind: {
                    "sets": n,
                    "per_out": round(n / self.outs, 6) if self.outs else None,
                    "outs_holding": rate(self.outs_with[kind], self.outs),
                }
                for kind, n in sorted(self.sets.items())
            },
            "hand_value": self.value.to_dict(),
        }


class TwoboxFigures(Figures):
    """Where the points come from: counts during play against dominoes and blocked hands.

    A hand's points from counts are the net change of all scores over the hand less the
    hand-end award (cutthroat steals move points between seats, so they net to zero; they
    are counted apart, from the watcher's per-hand tallies).
    """

    def __init__(self) -> None:
        self.hands = 0
        self.ends: Counter[str] = Counter()
        self.count_points = 0.0
        self.domino_points = 0.0
        self.blocked_points = 0.0
        self.per_hand_counts = Stat()
        self.steals = 0
        self.stolen_points = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """Split each hand's points into counts and hand-end awards."""
        for hand in record["hands"]:
            watched = hand.get("watched") or {}
            self.steals += watched.get("steals", 0)
            self.stolen_points += watched.get("stolen_points", 0)
        before = [0] * record["players"]
        for out in _outcomes(record):
            after = list(out.get("scores", before))
            how = str(out.get("how"))
            award = out.get("award", 0) or 0
            counts = sum(after) - sum(before) - award
            self.hands += 1
            self.ends[how] += 1
            self.count_points += counts
            self.per_hand_counts.add(counts)
            if how == "domino":
                self.domino_points += award
            elif how == "blocked":
                self.blocked_points += award
            before = after

    def result(self) -> dict[str, Any]:
        """Totals and shares of count, domino and blocked points; how hands ended; cutthroat steals."""
        total = self.count_points + self.domino_points + self.blocked_points
        share = {
            "counts": round(self.count_points / total, 6) if total else None,
            "dominoes": round(self.domino_points / total, 6) if total else None,
            "blocked": round(self.blocked_points / total, 6) if total else None,
        }
        return {
            "hands": self.hands,
            "hand_ends": {k: rate(v, self.hands) for k, v in sorted(self.ends.items())},
            "points": {"counts": self.count_points, "dominoes": self.domino_points, "blocked": self.blocked_points},
            "share": share,
            "count_points_per_hand": self.per_hand_counts.to_dict(),
            "cutthroat_steals": {
                "steals": self.steals,
                "per_hand": round(self.steals / self.hands, 6) if self.hands else None,
                "points_moved": self.stolen_points,
            },
        }


class EightyFigures(Figures):
    """Bids made and set, by bid level (Nel-O as its own level)."""

    def __init__(self) -> None:
        self.levels: dict[str, list[int]] = {}
        self.hands = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """Tally each hand's winning bid and whether it was made."""
        for out in _outcomes(record):
            self.hands += 1
            level = str(out.get("bid"))
            made_set = self.levels.setdefault(level, [0, 0])
            made_set[0 if out.get("made") else 1] += 1

    def result(self) -> dict[str, Any]:
        """For each bid level: bids, made, set, and the made rate with a 95% CI."""

        def order(level: str) -> tuple[int, str]:
            return (0, f"{int(level):04d}") if level.isdigit() else (1, level)

        out = {}
        for level in sorted(self.levels, key=order):
            made, set_ = self.levels[level]
            out[level] = {"bids": made + set_, "made": made, "set": set_, "made_rate": rate(made, made + set_)}
        return {"hands": self.hands, "by_bid": out}


class RounceFigures(Figures):
    """The rounce rate: how often a seat that stood in takes no trick."""

    def __init__(self) -> None:
        self.hands = 0
        self.hands_with_rounce = 0
        self.played = 0
        self.rounced = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """A seat played when its points changed; it was rounced when they went up."""
        for out in _outcomes(record):
            changes = out.get("changes", [])
            self.hands += 1
            played = [c for c in changes if c != 0]
            rounced = [c for c in played if c > 0]
            self.played += len(played)
            self.rounced += len(rounced)
            self.hands_with_rounce += int(bool(rounced))

    def result(self) -> dict[str, Any]:
        """Rounce rate per seat that played a hand, and per hand."""
        return {
            "hands": self.hands,
            "rounce_rate": rate(self.rounced, self.played),
            "hands_with_a_rounce": rate(self.hands_with_rounce, self.hands),
        }


class RummikubFigures(Figures):
    """Tiles left in hand: at each hand's end where the results show them, and at the game's end."""

    def __init__(self) -> None:
        self.at_end = Stat()
        self.losers_at_end = Stat()
        self.per_hand = Stat()
        self.hands = 0

    def add(self, record: Mapping[str, Any]) -> None:
        """Tally tiles left by seat, from the hand results and the final view."""
        for out in _outcomes(record):
            self.hands += 1
            sizes = _hand_sizes(out)
            for n in sizes:
                self.per_hand.add(n)
        left = record.get("tiles_left") or []
        for seat, n in enumerate(left):
            self.at_end.add(n)
            if seat not in record["winners"]:
                self.losers_at_end.add(n)

    def result(self) -> dict[str, Any]:
        """Tiles left per seat at hand ends and at the end of the game (all seats and losers)."""
        return {
            "hands": self.hands,
            "tiles_left_per_seat_at_hand_end": self.per_hand.to_dict(),
            "tiles_left_per_seat_at_game_end": self.at_end.to_dict(),
            "tiles_left_per_losing_seat_at_game_end": self.losers_at_end.to_dict(),
        }


def _hand_sizes(outcome: Mapping[str, Any]) -> list[int]:
    """Tiles left per seat in a hand result, whichever way the engine lists them."""
    for key in ("tiles_left", "hand_sizes"):
        value = outcome.get(key)
        if isinstance(value, list) and all(isinstance(v, int) for v in value):
            return list(value)
    hands = outcome.get("hands")
    if isinstance(hands, list) and all(isinstance(h, list) for h in hands):
        return [len(h) for h in hands]
    return []


FIGURES: dict[str, Callable[[], Figures]] = {
    "montana": MontanaFigures,
    "twobox": TwoboxFigures,
    "rummikub": RummikubFigures,
    "eighty": EightyFigures,
    "rounce": RounceFigures,
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
        self.figures = FIGURES.get(plan.game, Figures)()
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
