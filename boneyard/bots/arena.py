"""The arena: bots play each other in duplicate format, with statistics that mean something.

Duplicate format: every deal (a game seed) is played once per *rotation* of the bots
through the seats, so each bot meets the same tiles from every position; partners sit
together in team games (seats 0+2 and 1+3). A deal, averaged over its rotations, is one
independent sample; the 95% confidence intervals are Student-t intervals over deals.

Each game is one task, seeded only by (arena seed, deal, rotation), so results do not
depend on the number of worker processes (for bots budgeted by iterations; a
millisecond budget depends on the machine's speed and load).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from .. import api
from ..games import game_class
from .spec import BotSpec, parse_bot_spec, refusal

MAX_ACTIONS = 200_000
# Two-sided 95% Student-t quantiles by degrees of freedom (normal beyond 30).
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def parse_bots(text: str) -> list[BotSpec]:
    """A comma-separated list of bot specs (at least two)."""
    specs = [parse_bot_spec(p) for p in text.split(",") if p.strip()]
    if len(specs) < 2:
        raise ValueError(f"the arena needs at least two bots, got {text!r}")
    if len({s.label for s in specs}) != len(specs):
        raise ValueError(f"each bot may appear once in an arena, got {text!r}")
    return specs


def rotation_count(players: int, n_bots: int, teams: bool) -> int:
    """How many seatings make one duplicate set."""
    if teams:
        return 2
    return n_bots if players % n_bots == 0 else players


def seating(players: int, n_bots: int, rotation: int, teams: bool) -> list[int]:
    """The bot index in each seat for one rotation (partners share a bot in team games)."""
    if teams:
        return [(s % 2 + rotation) % 2 for s in range(players)]
    if players % n_bots == 0:
        return [(s + rotation) % n_bots for s in range(players)]
    return [((s + rotation) % players) % n_bots for s in range(players)]


@dataclass(frozen=True)
class Task:
    """One arena game: a deal played with one seating."""

    game: str
    players: int
    rules: Mapping[str, Any]
    deal: int
    deal_seed: int
    rotation: int
    specs: tuple[BotSpec, ...]
    seats: tuple[int, ...]


def play_task(task: Task) -> dict[str, Any]:
    """Play one arena game to the end; the JSON-ready result with the game's record."""
    game = api.new_game(task.game, players=task.players, seed=task.deal_seed, rules=dict(task.rules))
    made = [spec.make() for spec in task.specs]
    rngs = [random.Random(f"{task.deal_seed}:{task.rotation}:{s}") for s in range(task.players)]
    times: list[list[float]] = [[] for _ in task.specs]
    steps = 0
    while not game.is_over:
        seat = game.current_player
        index = task.seats[seat]
        legal = game.legal_actions()
        start = time.perf_counter()
        action = made[index].choose(game.view(seat), legal, rngs[seat])
        if len(legal) > 1:
            times[index].append((time.perf_counter() - start) * 1000)
        game.apply(action)
        steps += 1
        if steps > MAX_ACTIONS:
            raise RuntimeError(f"{task.game} deal {task.deal} did not end after {MAX_ACTIONS} actions")
    return {**task_result(task, game, times), "record": game.record()}


def task_result(task: Task, game: Any, times: Sequence[Sequence[float]]) -> dict[str, Any]:
    """A finished arena game's result as :func:`summarize` reads it (without the record).

    ``times``: per bot of the task, the milliseconds of each of its decisions with a
    choice. Shared with scripts that play arena tasks their own way (a benchmark's
    measuring-rod bot that is not in the registry).
    """
    return {
        "deal": task.deal,
        "rotation": task.rotation,
        "seats": [task.specs[i].label for i in task.seats],
        "scores": list(game.scores),
        "winners": list(game.winners),
        "decisions": {
            task.specs[i].label: {"count": len(t), "total_ms": round(sum(t), 3), "max_ms": round(max(t, default=0), 3)}
            for i, t in enumerate(times)
        },
    }


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% Student-t interval of independent samples (one per deal, say).

    Public so that a measurement outside the arena (an RL example's win rate over seeded
    deals) states its interval the way the arena's tables do.
    """
    n = len(values)
    mean = statistics.fmean(values)
    if n < 2:
        return mean, -math.inf, math.inf
    half = (_T95[n - 2] if n - 1 <= len(_T95) else 1.96) * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def game_outcome(result: Mapping[str, Any], label: str, lower_is_better: bool) -> tuple[float, float, float]:
    """A bot's (win share, score margin, seat fraction) in one game."""
    seats = result["seats"]
    mine = [s for s, b in enumerate(seats) if b == label]
    others = [s for s, b in enumerate(seats) if b != label]
    winners = result["winners"]
    win = sum(1 for w in winners if w in mine) / len(winners) if winners else 0.0
    scores = result["scores"]
    margin = statistics.fmean(scores[s] for s in mine) - statistics.fmean(scores[s] for s in others)
    if lower_is_better:
        margin = -margin
    return win, margin, len(mine) / len(seats)


def summarize(game_id: str, specs: Sequence[BotSpec], results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per bot: win rate, mean score margin (each with a 95% CI over deals) and decision times."""
    lower = bool(game_class(game_id).lower_is_better)
    out = []
    for spec in specs:
        label = spec.label
        per_deal: dict[int, list[tuple[float, float, float]]] = {}
        count = 0
        total = 0.0
        worst = 0.0
        for r in results:
            if label not in r["seats"]:
                continue
            per_deal.setdefault(r["deal"], []).append(game_outcome(r, label, lower))
            d = r["decisions"][label]
            count += d["count"]
            total += d["total_ms"]
            worst = max(worst, d["max_ms"])
        wins = [statistics.fmean(o[0] for o in v) for v in per_deal.values()]
        margins = [statistics.fmean(o[1] for o in v) for v in per_deal.values()]
        even = statistics.fmean(o[2] for v in per_deal.values() for o in v) if per_deal else 0.0
        win, win_lo, win_hi = mean_interval(wins) if wins else (0.0, 0.0, 0.0)
        win_lo, win_hi = max(win_lo, 0.0), min(win_hi, 1.0)  # a rate lies in [0, 1]
        margin, margin_lo, margin_hi = mean_interval(margins) if margins else (0.0, 0.0, 0.0)
        out.append(
            {
                "bot": label,
                "games": sum(len(v) for v in per_deal.values()),
                "deals": len(per_deal),
                "even_win_rate": even,
                "win_rate": win,
                "win_rate_ci": [win_lo, win_hi],
                "margin": margin,
                "margin_ci": [margin_lo, margin_hi],
                "decisions": count,
                "mean_decision_ms": total / count if count else 0.0,
                "max_decision_ms": worst,
            }
        )
    return out


@dataclass
class Arena:
    """An arena run's settings; :meth:`run` plays it and returns the JSON-ready report."""

    game: str
    specs: list[BotSpec]
    games: int = 20
    seed: int = 0
    workers: int = 1
    players: int | None = None
    rules: dict[str, Any] = field(default_factory=dict)

    def tasks(self) -> list[Task]:
        """Every game of the run, in order: deals, then rotations."""
        info = api.game_info(self.game)
        players = self.players or info["players"]["default"]
        teams = bool(info["teams"])
        if teams and len(self.specs) != 2:
            raise ValueError(f"{self.game} is a partnership game: the arena needs exactly two bots, one per side")
        if len(self.specs) > players:
            raise ValueError(f"{len(self.specs)} bots cannot all sit at a {players}-player {self.game} table")
        api.new_game(self.game, players=players, seed=0, rules=self.rules)  # bad counts/rules fail here
        for spec in self.specs:  # a bot that cannot play this game and size (no learned network) says so now
            why = refusal(spec.make(), self.game, players)
            if why is not None:
                raise ValueError(f"{spec.label} cannot play {self.game} with {players} players: {why}")
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, got {self.games}")
        rotations = rotation_count(players, len(self.specs), teams)
        deals = math.ceil(self.games / rotations)
        seeder = random.Random(self.seed)
        out = []
        for deal in range(deals):
            deal_seed = seeder.getrandbits(48)
            for rotation in range(rotations):
                seats = tuple(seating(players, len(self.specs), rotation, teams))
                out.append(Task(self.game, players, self.rules, deal, deal_seed, rotation, tuple(self.specs), seats))
        return out

    def run(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Play every game (``workers`` processes) and return settings, summary and results."""
        if self.workers < 1:
            raise ValueError(f"--workers must be at least 1, got {self.workers}")
        tasks = self.tasks()
        results: list[dict[str, Any]] = []
        started = time.perf_counter()
        if self.workers == 1:
            for task in tasks:
                results.append(play_task(task))
                if progress:
                    progress(len(results), len(tasks))
        else:
            with ProcessPoolExecutor(max_workers=self.workers) as pool:
                futures = [pool.submit(play_task, t) for t in tasks]
                for future in as_completed(futures):
                    results.append(future.result())
                    if progress:
                        progress(len(results), len(tasks))
        results.sort(key=lambda r: (r["deal"], r["rotation"]))
        return {
            "game": self.game,
            "players": tasks[0].players,
            "rules": self.rules,
            "bots": [s.label for s in self.specs],
            "seed": self.seed,
            "games": len(results),
            "deals": len({r["deal"] for r in results}),
            "workers": self.workers,
            "seconds": round(time.perf_counter() - started, 2),
            "summary": summarize(self.game, self.specs, results),
            "results": results,
        }


def markdown_table(report: Mapping[str, Any]) -> str:
    """The results table in Markdown, for ``docs/bots.md``."""
    lines = [
        f"{report['game']}, {report['players']} players: {report['games']} games ({report['deals']} deals), "
        f"seed {report['seed']}",
        "",
        "| bot | games | win rate [95% CI] | even | mean margin [95% CI] | ms/decision (max) |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for s in report["summary"]:
        lo, hi = s["win_rate_ci"]
        mlo, mhi = s["margin_ci"]
        lines.append(
            f"| {s['bot']} | {s['games']} | {s['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] | {s['even_win_rate']:.3f} "
            f"| {s['margin']:+.2f} [{mlo:+.2f}, {mhi:+.2f}] "
            f"| {s['mean_decision_ms']:.1f} ({s['max_decision_ms']:.0f}) |"
        )
    return "\n".join(lines) + "\n"


def plot(report: Mapping[str, Any], path: str) -> None:
    """A PNG chart of win rates and mean score margins with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = report["summary"]
    names = [s["bot"] for s in summary]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for axis, key, even, title in (
        (left, "win_rate", None, "win rate"),
        (right, "margin", 0.0, "mean score margin"),
    ):
        values = [s[key] for s in summary]
        lows = [s[key] - s[f"{key}_ci"][0] for s in summary]
        highs = [s[f"{key}_ci"][1] - s[key] for s in summary]
        axis.bar(names, values, yerr=[lows, highs], capsize=6, color="#4a7ab5")
        for i, s in enumerate(summary):
            line = s["even_win_rate"] if even is None else even
            axis.hlines(line, i - 0.4, i + 0.4, colors="#b54a4a", linestyles="dashed")
        axis.set_title(f"{title} (95% CI; dashed: even)")
        axis.tick_params(axis="x", labelrotation=15)
    fig.suptitle(f"{report['game']}: {report['games']} games, {report['deals']} deals, seed {report['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
