"""The review of a recorded game, one for every front end: the walk, the verdicts and their words.

``boneyard review`` (``cli/review.py``: a Rich table) and the web app's review
(``server/coaching.py``: JSON, one decision a job on the coach's thread) both ask this
module, and only lay out its answer:

- :class:`Reviewer` replays a record once, checking it, and lists the reviewed seat's
  decisions that had a choice (:class:`Position`: more than one legal action, or an
  action the legal list does not name, such as a Rummikub arrangement); :meth:`Reviewer.step`
  judges the next one with the coach (:func:`boneyard.bots.coach.analysis`, on the seat's
  view alone, the played action among the candidates) and keeps the :class:`Decision`
  with its reasons (:func:`boneyard.bots.reasons.explain`, with the other players' moves
  after the decision and the real deal's result), or counts it skipped when no deal of
  the hidden tiles could be sampled for it. :func:`review` runs it to the end with an
  optional progress callback.
- :func:`hint`: the same coach asked about one position, the web table's and the
  terminal's hint.
- :class:`Verdict`: one action of an analysis against the best of it: the paired loss,
  its standard error and its mark (:func:`boneyard.bots.coach.mark`), in points or, late
  in a game, in the chance of winning it.
- :class:`CoachWords` (from :mod:`boneyard.words.coach`, where every front end's coach
  words are made) says all that in a player's words, with the names the caller gives
  and "you" for the reader: a value ("about 1.5 points in your favour over the rest of
  this hand (give or take 0.4)", or in short "+1.5 points ± 0.4"), a verdict ("the
  coach's choice", "a mistake: 2 points worse than play 6-4"), a decision and why.
  Figures and words are kept apart so that one review, worked out once, can be told to
  every reader.

Each decision's sampling is seeded from what the seat saw there and the actions judged
(:func:`seed_for`), mixed with the review's ``seed`` when one is given: a decision gets
the same deals whatever was judged before it, in the terminal or the web, and the same
question asked at two tables that look the same to the seat meets the same deals.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from .. import api

# The words live in boneyard/words/coach.py, one place for the terminal and the web; they
# are re-exported here, where the review's callers have always found them.
from ..words.coach import CoachWords, points
from .coach import BY_MARGIN, Analysis, Judgement, analysis, loss, mark
from .reasons import Later, Reasons, explain, later_moves, margin

__all__ = [
    "CoachWords",
    "Decision",
    "Position",
    "Reviewed",
    "Reviewer",
    "Verdict",
    "counts",
    "hint",
    "points",
    "positions",
    "review",
    "seed_for",
    "verdict",
    "verdicts",
]

MARKS = ("blunder", "mistake", "inaccuracy")  # worst first, as :func:`boneyard.bots.coach.thresholds` lists them
PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


# ----- the figures ----------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """One action of an analysis measured against the best of that analysis.

    ``loss``: how much worse it is (0 for the best itself); ``error``: the standard error of
    that loss over the paired rounds (``inf`` after a single round); ``mark``:
    ``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None``.
    """

    judgement: Judgement
    best: Judgement = field(repr=False)
    loss: float
    error: float
    mark: str | None
    measure: str = BY_MARGIN  # what the loss is of: the hand's margin (points) or, late, the chance of winning

    @property
    def action(self) -> str:
        """The action's notation."""
        return str(self.judgement.action)

    @property
    def is_best(self) -> bool:
        """Whether this is the analysis's best action (the one the others are measured against)."""
        return self.judgement is self.best


def verdict(best: Judgement, other: Judgement, game_id: str, measure: str = BY_MARGIN) -> Verdict:
    """``other`` measured against ``best`` of the same analysis: its paired loss, error and mark.

    ``measure``: the analysis's (``Analysis.measure``): late in a game the loss is of the
    chance of winning the game, and so are the marks' thresholds.
    """
    if other is best:
        return Verdict(other, best, 0.0, 0.0, None, measure)
    gap, err = loss(best, other, measure)
    return Verdict(other, best, gap, err, mark(game_id, gap, err, measure), measure)


def verdicts(ranking: Sequence[Judgement], game_id: str, measure: str = BY_MARGIN) -> tuple[Verdict, ...]:
    """Every action of a ranking (best first, as :func:`analyse` returns it) against its best."""
    return tuple(verdict(ranking[0], j, game_id, measure) for j in ranking)


@dataclass(frozen=True)
class Position:
    """One decision of the reviewed seat, before the coach judges it.

    ``number``: its place among the seat's decisions that had a choice, from 1; ``step``:
    the actions played before it (where a replay shows it); ``hand``: the hand's number;
    ``view``: what the seat saw; ``candidates``: the legal actions, plus the action played
    when the legal list does not name it; ``played``: the action played; ``later``: the
    other players' moves after it that it could not see (in the same phase of the hand,
    before the seat's next decision); ``actual``: the seat's margin over the rest of the
    hand in the real deal (as the coach measures a hand).
    """

    number: int
    step: int
    seat: int
    hand: int
    view: dict[str, Any] = field(repr=False)
    candidates: tuple[Any, ...] = field(repr=False)
    played: Any
    later: tuple[Later, ...] = field(default=(), repr=False)
    actual: float | None = None


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: where it was, what was played, the coach's ranking and its verdict.

    ``ranking``: every candidate best first, each with its :class:`Verdict`; ``mine``: the
    played action's; ``held``: the seat's tiles before it (``None`` where the view has no
    hand); ``rounds``: the sampled deals it was judged on; ``reasons``: why the coach's
    choice beats the action played (or, when they are the same, the runner-up), with what
    came after the decision.
    """

    number: int
    step: int
    seat: int
    hand: int
    played: str
    held: tuple[str, ...] | None
    rounds: int
    ranking: tuple[Verdict, ...] = field(repr=False)
    mine: Verdict = field(repr=False)
    reasons: Reasons | None = field(default=None, repr=False)

    @property
    def value(self) -> float:
        """The played action's value (the seat's margin over the rest of the hand)."""
        return self.mine.judgement.value

    @property
    def loss(self) -> float:
        """How much worse the played action is than the coach's best (0 when it is the best)."""
        return self.mine.loss

    @property
    def error(self) -> float:
        """The standard error of :attr:`loss` (``inf`` after a single sampled deal)."""
        return self.mine.error

    @property
    def mark(self) -> str | None:
        """The played action's mark: ``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None``."""
        return self.mine.mark


@dataclass(frozen=True)
class Reviewed:
    """A finished review: the judged decisions and how many could not be judged."""

    game: str
    seat: int
    total: int
    decisions: tuple[Decision, ...]
    skipped: int

    def counts(self) -> dict[str, int]:
        """How many decisions got each mark, worst first (every mark listed, 0 included)."""
        return counts(self.decisions)


def counts(decisions: Sequence[Decision]) -> dict[str, int]:
    """How many of ``decisions`` got each mark, worst first (every mark listed, 0 included)."""
    found = collections.Counter(d.mark for d in decisions if d.mark)
    return {name: found.get(name, 0) for name in MARKS}


# ----- the walk ---------------------------------------------------------------------------


def seed_for(view: Mapping[str, Any], actions: Sequence[Any], seed: int | None = None) -> int:
    """The coach's sampling seed for one question: what the seat sees, the actions judged, and ``seed``.

    Without ``seed`` it depends on the view and the actions alone, so a restarted server,
    or a table whose hidden tiles differ, meets the same deals; a ``seed`` asks for other
    deals, still the same ones each time.
    """
    payload = [view, [str(a) for a in actions]] if seed is None else [seed, view, [str(a) for a in actions]]
    digest = hashlib.blake2b(orjson.dumps(payload, option=orjson.OPT_SORT_KEYS), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def hint(view: dict[str, Any], candidates: Sequence[Any], ms: float | None, rounds: int | None = None) -> Analysis:
    """The coach's answer to "what should I play here?": the hint of the web's table and the terminal's.

    :func:`boneyard.bots.coach.analysis` on the seat's view alone, seeded from the view and
    the actions (:func:`seed_for`), so the same question asked twice, in the terminal or
    at a web table that looks the same to the seat, meets the same deals (with a cap on
    the rounds, the same figures and so the same words).
    """
    return analysis(view, candidates, ms=ms, rng=seed_for(view, candidates), rounds=rounds)


def positions(record: dict[str, Any], seat: int) -> list[Position]:
    """Each decision of ``seat`` in ``record`` that had a choice, with what the seat saw there.

    The whole record is checked first (``boneyard.replay``: its ``ValueError``,
    ``IllegalAction`` or ``RulesError`` names what is wrong), then replayed once; a seat
    outside the game gives ``ValueError`` naming the seats there are.
    """
    api.replay(record)  # every check of a record, and every action, before any analysis
    game = api.replay({**record, "actions": []})
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"the seat reviewed must be one of this {game.players}-player game's: 0 to {game.players - 1}")
    out: list[Position] = []
    open_: list[tuple[Position, list[float]]] = []  # decisions whose hand has not ended: (position, scores then)
    watching: Position | None = None  # the latest decision, while others move after it in its phase
    told = game.events_from(seat) + len(game.events(seat))  # the seat's events so far
    for step, text in enumerate(record["actions"]):
        mover = game.current_player
        if mover == seat:
            watching = None
            legal = list(game.legal_actions())
            played = game.parse_action(text)
            listed = any(str(a) == str(played) for a in legal)
            if len(legal) > 1 or (legal and not listed):
                view = game.view(seat)
                candidates = tuple(legal) if listed else (*legal, played)
                position = Position(len(out) + 1, step, seat, int(view.get("hand_number", 1)), view, candidates,
                                    played)
                out.append(position)
                open_.append((position, [float(x) for x in game.scores]))
                watching = position
        game.apply(text)
        events = game.events(seat)
        total = game.events_from(seat) + len(events)
        new = events[len(events) - (total - told):] if total > told else []
        told = max(told, total)
        if watching is not None and mover != seat:
            later = later_moves(new, mover)
            if later:
                out[watching.number - 1] = watching = _with(watching, later=watching.later + tuple(later))
            if game.is_over or game.hand_number != watching.hand or \
                    game.view(seat).get("phase") != watching.view.get("phase"):
                watching = None  # what comes after the phase, or the hand, is another decision's
        _close_hands(game, seat, out, open_)
    return out


def _with(position: Position, **changes: Any) -> Position:
    """A copy of ``position`` with ``changes`` (it is frozen)."""
    return dataclasses.replace(position, **changes)


def _close_hands(game: Any, seat: int, out: list[Position], open_: list[tuple[Position, list[float]]]) -> None:
    """Give each decision whose hand has just ended the margin the real deal gave it over the rest of the hand."""
    if not open_ or not (game.is_over or game.hand_number != open_[0][0].hand):
        return
    partners = open_[0][0].view.get("partners")
    end = [float(x) for x in game.scores]
    for position, start in open_:
        current = out[position.number - 1]
        out[position.number - 1] = _with(current, actual=margin(str(game.id), start, end, seat, partners))
    open_.clear()


class Reviewer:
    """One seat's decisions in a record, judged one at a time: the review every front end runs.

    ``ms``: the coach's time per decision (milliseconds), ``rounds``: a cap on its sampled
    deals per decision (with ``ms=None``, the cap alone: the review then depends only on
    the record, the seat and ``seed``); ``seed``: mixed into each decision's sampling seed
    (see :func:`seed_for`). Building it checks and replays the record (:func:`positions`);
    :meth:`step` judges the next decision. The web app runs each step as a job of its
    own, so a hint elsewhere waits for one decision at most; :func:`review` runs them all.
    """

    def __init__(
        self, record: dict[str, Any], seat: int, ms: float | None, seed: int | None = None, rounds: int | None = None
    ) -> None:
        if ms is None and rounds is None:
            raise ValueError("a review needs a budget per decision: ms, rounds or both")
        if ms is not None and not ms > 0:
            raise ValueError(f"a review's ms must be a positive number of milliseconds, got {ms!r}")
        if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1):
            raise ValueError(f"a review's rounds must be a whole number of at least 1, got {rounds!r}")
        self.positions = positions(record, seat)
        self.game = str(record["game"])
        self.seat = seat
        self.ms = ms
        self.seed = seed
        self.rounds = rounds
        self.decisions: list[Decision] = []
        self.skipped = 0
        self.done = 0

    @property
    def total(self) -> int:
        """The decisions to judge."""
        return len(self.positions)

    @property
    def finished(self) -> bool:
        """Whether every decision has been judged (or skipped)."""
        return self.done >= len(self.positions)

    def judge(self, position: Position) -> Decision:
        """The coach's verdict on one decision, and why; ``ValueError`` when no deal could be sampled for it.

        The reasons compare the coach's choice with the action played or, when the
        player chose it, with the runner-up; they carry the moves that came after the
        decision and the real deal's margin, so a line can say what was not yet known.
        """
        found = analysis(position.view, position.candidates, ms=self.ms, rounds=self.rounds,
                         rng=seed_for(position.view, position.candidates, self.seed))
        ranking = found.ranking
        ranked = verdicts(ranking, self.game, found.measure)
        played = str(position.played)
        mine = next(v for v in ranked if v.action == played)
        held = position.view.get("hand")
        reasons = None
        if len(ranking) > 1:
            other = ranking[1] if mine.is_best else mine.judgement
            reasons = explain(found, ranking[0], other, position.later, position.actual)
        return Decision(position.number, position.step, position.seat, position.hand, played,
                        None if held is None else tuple(str(t) for t in held), ranking[0].rounds, ranked, mine,
                        reasons)

    def step(self) -> bool:
        """Judge the next decision (a skipped one is counted in :attr:`skipped`); whether any is left after it."""
        if self.finished:
            return False
        position = self.positions[self.done]
        try:
            self.decisions.append(self.judge(position))
        except ValueError:  # no deal consistent with the seat's view could be sampled: left unjudged
            self.skipped += 1
        self.done += 1
        return not self.finished

    def result(self) -> Reviewed:
        """The review so far (all of it once :attr:`finished`)."""
        return Reviewed(self.game, self.seat, self.total, tuple(self.decisions), self.skipped)


def review(
    record: dict[str, Any],
    seat: int,
    ms: float | None,
    seed: int | None = None,
    rounds: int | None = None,
    progress: Progress | None = None,
) -> Reviewed:
    """The coach's verdict on each decision of ``seat`` in ``record`` that had a choice.

    See :class:`Reviewer` for the budget and the seed. ``progress(done, total)`` is called
    before the first decision and after each one. ``ValueError`` (or the record's own
    ``IllegalAction``/``RulesError``) names what is wrong with the record or the seat.
    """
    reviewer = Reviewer(record, seat, ms, seed, rounds)
    if progress is not None:
        progress(0, reviewer.total)
    while not reviewer.finished:
        reviewer.step()
        if progress is not None:
            progress(reviewer.done, reviewer.total)
    return reviewer.result()


