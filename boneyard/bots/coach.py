"""The coach: every legal action valued for the seat, with an uncertainty, best first.

:func:`analyse` answers "how good is each of my actions here?" from the seat's view
alone. Each *round* deals the hidden tiles afresh (``boneyard.sample_game``, then the
game's ``explain`` knob, as the ``ismcts`` search draws them: in Rounce the other seats'
calls are replayed, see :mod:`boneyard.bots.inference`), and in that one world plays
every legal action followed by the same playout to the end of the hand (common random
numbers: two actions' results in a round differ only by what the actions
cause). The playout is the search's own loop, :func:`boneyard.bots.ismcts.play_out`, with
the search's default policy (:func:`~boneyard.bots.ismcts.playout_chooser`): the game's
``playout`` policy for every seat where its greedy module has one (Montana's cheaper one,
two-box's, Rummikub's that holds plays back), else the ``greedy`` bot, a stretch at a time
through the game's ``finish`` knob where it has one. Unlike the search, the coach plays
every round to the hand's end (no ``PLAYOUT_DEPTH`` estimate), and in Eighty and Rounce,
once at most :data:`ENDGAME_TRICKS` tricks are left, whatever the decision's phase, the
exact endgame solver plays the rest (:mod:`boneyard.bots.endgame`): a judge's accuracy
over a search's speed. An action's value is its mean over the rounds, its uncertainty the
standard error of that mean.

The value is the seat's **margin for the rest of the hand**, in the game's score points
and in the seat's favour: the seat's score change minus the mean change of its opponents
(the other side in Eighty, every other seat elsewhere), turned round for a game whose
declared ``lower_is_better`` (Rounce: points knocked off count for the seat). So in
Eighty it is the hand's points (marks, with the ``marks`` rule) of the seat's side less
the other side's; in Rounce, how many more points the seat takes off its count than the
others do on average; in Montana, Two-Box and Rummikub the seat's hand score less the
others' mean. A hand's margin, not the game's win probability: games run over many
hands, and a playout to the end of the game would bury each action's effect in noise.

:func:`marks` turns a value loss into *inaccuracy*, *mistake* or *blunder* with
per-game thresholds proportional to each game's typical hand swing (the ``MARGIN_SCALE``
knob beside its greedy heuristic): see :data:`MARK_SHARES` and ``docs/coach.md``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import IllegalAction
from ..games import game_class
from .greedy import policy
from .inference import Inference
from .ismcts import margin_scale, play_out, playout_chooser, playout_finisher

ENDGAME_TRICKS = {"eighty": 3, "rounce": 3}  # tricks left at which the exact solver takes over
DEFAULT_MS = 1000.0
MAX_SAMPLE_FAILURES = 5
# A loss counts as inaccuracy / mistake / blunder from these shares of the game's typical
# hand swing (its MARGIN_SCALE), and only when it is also SIGNIFICANT_Z standard errors.
MARK_SHARES = (("blunder", 0.5), ("mistake", 0.25), ("inaccuracy", 0.1))
SIGNIFICANT_Z = 2.0


@dataclass(frozen=True)
class Judgement:
    """One legal action as the coach judged it.

    ``value``: the mean margin for the rest of the hand (see the module docstring);
    ``error``: its standard error (``inf`` with fewer than two rounds); ``samples``: the
    margin in each round, in round order (the same worlds for every action of one
    analysis, so two actions' samples pair up).
    """

    action: Any
    value: float
    error: float
    samples: tuple[float, ...] = field(repr=False)

    @property
    def rounds(self) -> int:
        """The sampled worlds the action was played out in."""
        return len(self.samples)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the action's notation, value, error (``None`` if unknown) and rounds."""
        return {
            "action": str(self.action),
            "value": round(self.value, 3),
            "error": None if math.isinf(self.error) else round(self.error, 3),
            "rounds": self.rounds,
        }


def analyse(
    view: dict[str, Any],
    legal_actions: Sequence[Any],
    ms: float | None = DEFAULT_MS,
    rng: random.Random | int | None = None,
    rounds: int | None = None,
) -> list[Judgement]:
    """Every legal action of the seat with its estimated value and standard error, best first.

    ``view``: the seat's view (``game.view(seat)``); ``legal_actions``: its legal actions.
    The budget is ``ms`` wall-clock milliseconds, or ``rounds`` sampled worlds, or both
    (whichever ends first); at least one round is always played. With ``rounds`` alone
    (``ms=None``) the answer depends only on the view and ``rng``. Ties keep the order of
    ``legal_actions``. ``ValueError`` for a spectator's view, no legal actions or no
    budget.
    """
    seat = view.get("seat") if isinstance(view, dict) else None
    if not isinstance(view, dict) or "game" not in view:
        raise ValueError("analyse needs a view returned by game.view(seat)")
    if seat is None:
        raise ValueError("analyse needs a seat's view (a spectator has no actions to judge)")
    if not legal_actions:
        raise ValueError("analyse was given no legal actions")
    if ms is None and rounds is None:
        raise ValueError("analyse needs a budget: ms, rounds or both")
    if ms is not None and ms <= 0:
        raise ValueError(f"analyse ms must be a positive number of milliseconds, got {ms!r}")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1):
        raise ValueError(f"analyse rounds must be a whole number of at least 1, got {rounds!r}")
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    deadline = None if ms is None else time.perf_counter() + ms / 1000
    game_id = view["game"]
    opponents = _opponents(view, seat)
    sign = -1.0 if game_class(game_id).lower_is_better else 1.0
    results: list[list[float]] = [[] for _ in legal_actions]
    knobs = policy(game_id)
    chooser = playout_chooser(knobs)  # the search's default playout policy ...
    finish = playout_finisher(knobs)  # ... a stretch of its plays in one call where the game can: far cheaper
    hand = view.get("hand_number", 1)
    solve_at = ENDGAME_TRICKS.get(game_id, 0)
    sampler = Inference(view, 0)  # uniform worlds, through the game's explain knob where it is on by default
    done = failures = 0
    started = time.perf_counter()
    while True:
        if rounds is not None and done >= rounds:
            break
        if done and deadline is not None:
            per = (time.perf_counter() - started) / done
            if time.perf_counter() + per > deadline:
                break
        if failures >= MAX_SAMPLE_FAILURES:
            break
        try:
            world = sampler.draw(rng)
        except ValueError:
            failures += 1
            continue
        seed = rng.getrandbits(64)
        start = list(world.scores)
        margins: list[float] = []
        for action in legal_actions:
            game = world.clone()
            try:
                game.apply(action)
            except IllegalAction:
                break  # the world does not allow an action the view does: a sampler's slip, skip it
            play_out(game, hand, random.Random(seed), chooser, None, seat, solve_at, finish)
            gains = [float(a) - float(b) for a, b in zip(game.scores, start, strict=True)]
            margins.append(sign * (gains[seat] - sum(gains[s] for s in opponents) / len(opponents)))
        if len(margins) < len(legal_actions):
            failures += 1
            continue
        for i, margin in enumerate(margins):
            results[i].append(margin)
        done += 1
    if not done:
        raise ValueError(f"no world could be sampled from this {game_id} view where every action was legal")
    judged = [Judgement(a, *_mean_error(r), tuple(r)) for a, r in zip(legal_actions, results, strict=True)]
    order = sorted(range(len(judged)), key=lambda i: -judged[i].value)
    return [judged[i] for i in order]


def _opponents(view: dict[str, Any], seat: int) -> list[int]:
    """The seats whose gains the seat's margin is measured against."""
    players = int(view["players"])
    partners = view.get("partners")
    if partners:
        side = next(p for p in partners if seat in p)
        others = [s for s in range(players) if s not in side]
    else:
        others = [s for s in range(players) if s != seat]
    return others or [seat]


def _mean_error(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def thresholds(game_id: str) -> list[tuple[str, float]]:
    """The game's marks and the loss (score points of margin) from which each applies, worst first.

    Shares of the game's typical hand swing (:data:`MARK_SHARES` times ``MARGIN_SCALE``),
    so a mark means the same thing in every game whatever its score scale.
    """
    scale = margin_scale(game_id)
    return [(name, share * scale) for name, share in MARK_SHARES]


def mark(game_id: str, loss: float, error: float) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for a value loss and its standard error.

    A loss is marked only when it reaches the game's threshold (see :func:`thresholds`)
    and is :data:`SIGNIFICANT_Z` standard errors clear of zero: the coach does not blame a
    player for the noise of its own sampling. An unknown error (a single sampled deal,
    ``inf``) marks nothing.
    """
    if loss <= 0 or not math.isfinite(error) or loss < SIGNIFICANT_Z * error:
        return None
    for name, at in thresholds(game_id):
        if loss >= at:
            return name
    return None


def loss(best: Judgement, played: Judgement) -> tuple[float, float]:
    """How much worse ``played`` is than ``best`` (of one analysis), and the standard error of that.

    The rounds are shared (common random numbers), so the error is that of the mean of
    the paired per-round differences: much smaller than the two errors combined, because
    what a world gives both actions cancels.
    """
    diffs = [a - b for a, b in zip(best.samples, played.samples, strict=True)]
    return _mean_error(diffs)
