"""The coach: every legal action valued for the seat, with an uncertainty, best first.

:func:`analyse` answers "how good is each of my actions here?" from the seat's view
alone. Each *round* deals the hidden tiles afresh (``boneyard.sample_game``, then the
game profile's ``explain``, as the ``ismcts`` search draws them: in Rounce the other seats'
calls are replayed, see :mod:`boneyard.bots.inference`), and in that one world plays
every legal action followed by the same playout to the end of the hand (common random
numbers: two actions' results in a round differ only by what the actions
cause). The playout is the search's own loop, :func:`boneyard.bots.ismcts.play_out`, with
the search's default policy (:func:`~boneyard.bots.ismcts.playout_chooser`): the game
profile's ``playout`` policy for every seat where it has one (Montana's cheaper one,
two-box's, Rummikub's that holds plays back), else the ``greedy`` bot, a stretch at a time
through the profile's ``finish`` where it has one. Unlike the search, the coach plays
every round to the hand's end (no ``playout_depth`` estimate), and in Eighty and Rounce,
once at most the profile's ``endgame_tricks`` tricks are left, whatever the decision's phase, the
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

**Late in a game** (:func:`is_late`: a seat, or side, within :data:`LATE_SWINGS` typical
hand swings of the game's target; in Montana, which has no target, the last deal) a
hand's margin is not what matters: the coach then plays each
round on past the hand, to the game's end (at most :data:`LATE_EXTRA_HANDS` more hands;
the leader then counts as the winner), keeps each action's share of the win
(``Judgement.wins``), and ranks by the estimated chance of winning the game, the margin
breaking ties. :func:`analysis` returns that ranking with what the reasons need
(:mod:`boneyard.bots.reasons`): each round's hands of every seat, so the others' likely
holdings can be told, and each action's mean score gain per seat.

:func:`marks` turns a value loss into *inaccuracy*, *mistake* or *blunder* with
per-game thresholds proportional to each game's typical hand swing (its search profile's
``margin_scale``, beside its greedy heuristic): see :data:`MARK_SHARES` and ``docs/coach.md``.
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
from .inference import Inference
from .ismcts import margin_scale, play_out, playout_chooser, playout_finisher
from .profile import profile

DEFAULT_MS = 1000.0
MAX_SAMPLE_FAILURES = 5
# A loss counts as inaccuracy / mistake / blunder from these shares of the game's typical
# hand swing (its profile's margin_scale), and only when it is also SIGNIFICANT_Z standard errors.
MARK_SHARES = (("blunder", 0.5), ("mistake", 0.25), ("inaccuracy", 0.1))
SIGNIFICANT_Z = 2.0
# Late in a game the marks are losses of the chance of winning it (a share, 0 to 1).
WIN_MARKS = (("blunder", 0.2), ("mistake", 0.1), ("inaccuracy", 0.05))
LATE_SWINGS = 2.0  # late: a seat (or side) within this many typical hand swings of the target
LATE_MARKS = 2  # ... or, playing for marks (Eighty's rule), within this many marks
LATE_EXTRA_HANDS = 2  # late: a round plays on for at most this many hands after the current one
BY_MARGIN = "margin"
BY_WIN = "win"


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
    # each seat's mean score gain over the rounds, in that seat's favour (so larger is better for it)
    gains: tuple[float, ...] = field(default=(), repr=False, compare=False)
    # late in a game: the seat's share of the game's win in each round (1 won, 0 lost), else None
    wins: tuple[float, ...] | None = field(default=None, repr=False, compare=False)

    @property
    def rounds(self) -> int:
        """The sampled worlds the action was played out in."""
        return len(self.samples)

    @property
    def win(self) -> float | None:
        """The estimated chance of winning the game after this action (late in a game only, else ``None``)."""
        return None if not self.wins else sum(self.wins) / len(self.wins)

    @property
    def win_error(self) -> float | None:
        """The standard error of :attr:`win` (``inf`` after a single round; ``None`` when not late)."""
        return None if not self.wins else _mean_error(list(self.wins))[1]

    def by(self, measure: str) -> tuple[float, ...]:
        """The per-round figures a ranking by ``measure`` (``"margin"`` or ``"win"``) compares."""
        if measure == BY_WIN:
            if self.wins is None:
                raise ValueError("this action was not judged by the chance of winning the game")
            return self.wins
        return self.samples

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the action's notation, value, error (``None`` if unknown) and rounds; late, its win chance."""
        out: dict[str, Any] = {
            "action": str(self.action),
            "value": round(self.value, 3),
            "error": None if math.isinf(self.error) else round(self.error, 3),
            "rounds": self.rounds,
        }
        if self.wins:
            err = self.win_error
            out["win"] = round(self.win or 0.0, 3)
            out["win_error"] = None if err is None or math.isinf(err) else round(err, 3)
        return out


@dataclass(frozen=True)
class Analysis:
    """One question answered: the ranking, how it was ranked, and the sampled hands behind it.

    ``ranking``: every action best first; ``late``: ranked by the chance of winning the
    game (see :func:`is_late`), else by the hand's margin; ``hands``: for each round, each
    seat's tiles in that round's world (the seat's own are the ones it holds), so that the
    others' likely holdings, and which of them turn the decision, can be read
    (:mod:`boneyard.bots.reasons`); ``view``: the seat's view the question was asked on.
    """

    game: str
    seat: int
    late: bool
    ranking: tuple[Judgement, ...]
    hands: tuple[tuple[frozenset[str], ...], ...] = field(repr=False)
    view: dict[str, Any] = field(repr=False, compare=False)

    @property
    def measure(self) -> str:
        """What the ranking compares: ``"win"`` late in a game, else ``"margin"``."""
        return BY_WIN if self.late else BY_MARGIN


def to_target(view: dict[str, Any]) -> float | None:
    """How far the seat or side nearest the game's target still is from it (``None``: no score target).

    Rounce counts down to 0; Eighty's target is in its rules (in marks with the ``marks``
    rule); Two-Box and Rummikub carry ``target`` in their rules; Montana has none (its game
    ends when the deal has gone round).
    """
    scores = [float(x) for x in view.get("scores") or []]
    if not scores:
        return None
    rules = view.get("rules") or {}
    if game_class(view["game"]).lower_is_better:
        return min(scores)
    target = rules.get("marks_target") if rules.get("marks") else rules.get("target")
    if target is None:
        return None
    return float(target) - max(scores)


def is_late(view: dict[str, Any]) -> bool:
    """Whether the game may well end with this hand, so that the coach ranks by the chance of winning it.

    Late means, from the scores and the game's target: a seat (or side) within
    :data:`LATE_SWINGS` typical hand swings (the profile's ``margin_scale``) of the target
    (:data:`LATE_MARKS` marks when Eighty is played for marks). Montana has no target: its
    game ends when the deal has gone round, so its last deal is late. The hand limit
    (``max_hands``) is not read: it is a cap on a game's length, and a game cut short by it
    is judged hand by hand like any other.
    """
    rules = view.get("rules") or {}
    if "deal_passes" in view and "target" not in rules:  # Montana: the deal goes round the table once
        return int(view["deal_passes"]) >= int(view["players"]) - 1
    gap = to_target(view)
    if gap is None:
        return False
    near = LATE_MARKS if rules.get("marks") else LATE_SWINGS * margin_scale(view["game"])
    return gap <= near


def _win_share(game: Any, seat: int, side: Sequence[int], lower_is_better: bool) -> float:
    """The seat's share of the win at the end of a late playout: the winners, else the leaders by score."""
    winners = list(game.winners) if game.is_over else []
    if not winners:
        scores = [float(x) for x in game.scores]
        best = min(scores) if lower_is_better else max(scores)
        winners = [s for s, x in enumerate(scores) if x == best]
    if not winners:
        return 0.0
    return sum(1 for s in winners if s in side) / len(winners)


def analyse(
    view: dict[str, Any],
    legal_actions: Sequence[Any],
    ms: float | None = DEFAULT_MS,
    rng: random.Random | int | None = None,
    rounds: int | None = None,
    late: bool | None = None,
) -> list[Judgement]:
    """Every legal action of the seat with its estimated value and standard error, best first.

    The ranking of :func:`analysis` (which see for the arguments), without the sampled
    hands: what a caller that only wants the order and the figures needs.
    """
    return list(analysis(view, legal_actions, ms, rng, rounds, late).ranking)


def analysis(
    view: dict[str, Any],
    legal_actions: Sequence[Any],
    ms: float | None = DEFAULT_MS,
    rng: random.Random | int | None = None,
    rounds: int | None = None,
    late: bool | None = None,
) -> Analysis:
    """Every legal action of the seat judged, best first, with the sampled hands the reasons read.

    ``view``: the seat's view (``game.view(seat)``); ``legal_actions``: its legal actions.
    The budget is ``ms`` wall-clock milliseconds, or ``rounds`` sampled worlds, or both
    (whichever ends first); at least one round is always played. With ``rounds`` alone
    (``ms=None``) the answer depends only on the view and ``rng``. Ties keep the order of
    ``legal_actions``. ``late``: rank by the chance of winning the game (``None``: when
    :func:`is_late` says the game is late). ``ValueError`` for a spectator's view, no legal
    actions or no budget.
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
    lower = bool(game_class(game_id).lower_is_better)
    sign = -1.0 if lower else 1.0
    late = is_late(view) if late is None else late
    side = _side(view, seat)
    players = int(view["players"])
    results: list[list[float]] = [[] for _ in legal_actions]
    totals: list[list[float]] = [[0.0] * players for _ in legal_actions]
    won: list[list[float]] = [[] for _ in legal_actions]
    hands: list[tuple[frozenset[str], ...]] = []
    prof = profile(game_id)
    chooser = playout_chooser(prof)  # the search's default playout policy ...
    finish = playout_finisher(prof)  # ... a stretch of its plays in one call where the game can: far cheaper
    hand = view.get("hand_number", 1)
    solve_at = prof.endgame_tricks  # the coach always lets the exact solver finish where the game has one
    sampler = Inference(view, 0)  # uniform worlds, through the game's explain where it is on by default
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
        gained: list[list[float]] = []
        shares: list[float] = []
        for action in legal_actions:
            game = world.clone()
            try:
                game.apply(action)
            except IllegalAction:
                break  # the world does not allow an action the view does: a sampler's slip, skip it
            play_out(game, hand, random.Random(seed), chooser, None, seat, solve_at, finish)
            gains = [float(a) - float(b) for a, b in zip(game.scores, start, strict=True)]
            margins.append(sign * (gains[seat] - sum(gains[s] for s in opponents) / len(opponents)))
            gained.append([sign * g for g in gains])
            if late:  # on past the hand to the game's end (a few hands at most): who wins it
                more = random.Random(seed ^ 0x5EED)
                for _ in range(LATE_EXTRA_HANDS):
                    if game.is_over:
                        break
                    play_out(game, game.hand_number, more, chooser, None, seat, solve_at, finish)
                shares.append(_win_share(game, seat, side, lower))
        if len(margins) < len(legal_actions):
            failures += 1
            continue
        for i, margin in enumerate(margins):
            results[i].append(margin)
            totals[i] = [t + g for t, g in zip(totals[i], gained[i], strict=True)]
            if late:
                won[i].append(shares[i])
        hands.append(_hands(world, players))
        done += 1
    if not done:
        raise ValueError(f"no world could be sampled from this {game_id} view where every action was legal")
    judged = [
        Judgement(a, *_mean_error(r), tuple(r), tuple(t / done for t in total), tuple(w) if late else None)
        for a, r, total, w in zip(legal_actions, results, totals, won, strict=True)
    ]
    if late:
        order = sorted(range(len(judged)), key=lambda i: (-(judged[i].win or 0.0), -judged[i].value))
    else:
        order = sorted(range(len(judged)), key=lambda i: -judged[i].value)
    return Analysis(game_id, seat, late, tuple(judged[i] for i in order), tuple(hands), view)


def _hands(world: Any, players: int) -> tuple[frozenset[str], ...]:
    """Each seat's tiles in a sampled world, read through each seat's own view."""
    out = []
    for s in range(players):
        held = world.view(s).get("hand")
        out.append(frozenset(str(t) for t in held) if held else frozenset())
    return tuple(out)


def _side(view: dict[str, Any], seat: int) -> list[int]:
    """The seats that win together with ``seat`` (its partners and itself)."""
    partners = view.get("partners")
    if partners:
        return list(next(p for p in partners if seat in p))
    return [seat]


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


def thresholds(game_id: str, measure: str = BY_MARGIN) -> list[tuple[str, float]]:
    """The game's marks and the loss from which each applies, worst first.

    By the hand's margin (score points): shares of the game's typical hand swing
    (:data:`MARK_SHARES` times the profile's ``margin_scale``), so a mark means the same thing in every
    game whatever its score scale. Late in a game (``measure="win"``): losses of the chance
    of winning the game, :data:`WIN_MARKS`, the same in every game.
    """
    if measure == BY_WIN:
        return list(WIN_MARKS)
    scale = margin_scale(game_id)
    return [(name, share * scale) for name, share in MARK_SHARES]


def mark(game_id: str, loss: float, error: float, measure: str = BY_MARGIN) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for a value loss and its standard error.

    A loss is marked only when it reaches the game's threshold (see :func:`thresholds`)
    and is :data:`SIGNIFICANT_Z` standard errors clear of zero: the coach does not blame a
    player for the noise of its own sampling. An unknown error (a single sampled deal,
    ``inf``) marks nothing.
    """
    if loss <= 0 or not math.isfinite(error) or loss < SIGNIFICANT_Z * error:
        return None
    for name, at in thresholds(game_id, measure):
        if loss >= at:
            return name
    return None


def loss(best: Judgement, played: Judgement, measure: str = BY_MARGIN) -> tuple[float, float]:
    """How much worse ``played`` is than ``best`` (of one analysis), and the standard error of that.

    ``measure``: the hand's margin (points) or, late in a game, the chance of winning it.
    The rounds are shared (common random numbers), so the error is that of the mean of
    the paired per-round differences: much smaller than the two errors combined, because
    what a world gives both actions cancels.
    """
    diffs = [a - b for a, b in zip(best.by(measure), played.by(measure), strict=True)]
    return _mean_error(diffs)
