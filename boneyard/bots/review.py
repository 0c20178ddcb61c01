"""The review of a recorded game, one for every front end: the walk, the verdicts and their words.

``boneyard review`` (``cli/review.py``: a Rich table) and the web app's review
(``server/coaching.py``: JSON, one decision a job on the coach's thread) both ask this
module, and only lay out its answer:

- :class:`Reviewer` replays a record once, checking it, and lists the reviewed seat's
  decisions that had a choice (:class:`Position`: more than one legal action, or an
  action the legal list does not name, such as a Rummikub arrangement); :meth:`Reviewer.step`
  judges the next one with the coach (:func:`boneyard.bots.coach.analyse`, on the seat's
  view alone, the played action among the candidates) and keeps the :class:`Decision`, or
  counts it skipped when no deal of the hidden tiles could be sampled for it.
  :func:`review` runs it to the end with an optional progress callback.
- :class:`Verdict`: one action of an analysis against the best of it: the paired loss,
  its standard error and its mark (:func:`boneyard.bots.coach.mark`).
- :class:`CoachWords` says all that in a player's words, with the names the caller gives
  and "you" for the reader: a value ("about 1.5 points in your favour over the rest of
  this hand (give or take 0.4)", or in short "+1.5 points ± 0.4"), a verdict ("the
  coach's choice", "a mistake: 2 points worse than play 6-4"), a decision. Figures and
  words are kept apart so that one review, worked out once, can be told to every reader.

Each decision's sampling is seeded from what the seat saw there and the actions judged
(:func:`seed_for`), mixed with the review's ``seed`` when one is given: a decision gets
the same deals whatever was judged before it, in the terminal or the web, and the same
question asked at two tables that look the same to the seat meets the same deals.
"""

from __future__ import annotations

import collections
import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from .. import api
from ..words import Words, words
from .coach import Judgement, analyse, loss, mark, thresholds

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

    @property
    def action(self) -> str:
        """The action's notation."""
        return str(self.judgement.action)

    @property
    def is_best(self) -> bool:
        """Whether this is the analysis's best action (the one the others are measured against)."""
        return self.judgement is self.best


def verdict(best: Judgement, other: Judgement, game_id: str) -> Verdict:
    """``other`` measured against ``best`` of the same analysis: its paired loss, error and mark."""
    if other is best:
        return Verdict(other, best, 0.0, 0.0, None)
    gap, err = loss(best, other)
    return Verdict(other, best, gap, err, mark(game_id, gap, err))


def verdicts(ranking: Sequence[Judgement], game_id: str) -> tuple[Verdict, ...]:
    """Every action of a ranking (best first, as :func:`analyse` returns it) against its best."""
    return tuple(verdict(ranking[0], j, game_id) for j in ranking)


@dataclass(frozen=True)
class Position:
    """One decision of the reviewed seat, before the coach judges it.

    ``number``: its place among the seat's decisions that had a choice, from 1; ``step``:
    the actions played before it (where a replay shows it); ``hand``: the hand's number;
    ``view``: what the seat saw; ``candidates``: the legal actions, plus the action played
    when the legal list does not name it; ``played``: the action played.
    """

    number: int
    step: int
    seat: int
    hand: int
    view: dict[str, Any] = field(repr=False)
    candidates: tuple[Any, ...] = field(repr=False)
    played: Any


@dataclass(frozen=True)
class Decision:
    """One reviewed decision: where it was, what was played, the coach's ranking and its verdict.

    ``ranking``: every candidate best first, each with its :class:`Verdict`; ``mine``: the
    played action's; ``held``: the seat's tiles before it (``None`` where the view has no
    hand); ``rounds``: the sampled deals it was judged on.
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
    for step, text in enumerate(record["actions"]):
        if game.current_player == seat:
            legal = list(game.legal_actions())
            played = game.parse_action(text)
            listed = any(str(a) == str(played) for a in legal)
            if len(legal) > 1 or (legal and not listed):
                view = game.view(seat)
                candidates = tuple(legal) if listed else (*legal, played)
                out.append(Position(len(out) + 1, step, seat, int(view.get("hand_number", 1)), view, candidates,
                                    played))
        game.apply(text)
    return out


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
        """The coach's verdict on one decision; ``ValueError`` when no deal could be sampled for it."""
        ranking = analyse(position.view, position.candidates, ms=self.ms, rounds=self.rounds,
                          rng=seed_for(position.view, position.candidates, self.seed))
        ranked = verdicts(ranking, self.game)
        played = str(position.played)
        mine = next(v for v in ranked if v.action == played)
        held = position.view.get("hand")
        return Decision(position.number, position.step, position.seat, position.hand, played,
                        None if held is None else tuple(str(t) for t in held), ranking[0].rounds, ranked, mine)

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


# ----- the words --------------------------------------------------------------------------


def _number(x: float) -> str:
    """A size for reading: two decimals under 1, one above ("0.25", "1.5", "12")."""
    return (f"{abs(x):.2f}" if abs(x) < 1 else f"{abs(x):.1f}").rstrip("0").rstrip(".")


def points(x: float) -> str:
    """A number of points in words, unsigned: "1.5 points", "1 point", "0.25 points"."""
    shown = _number(x)
    return f"{shown} point" + ("" if shown == "1" else "s")


class CoachWords:
    """The coach's figures in a player's words, for one table: its players' names and the reader.

    ``names`` and ``me`` are those of :class:`boneyard.words.Words` (the seat ``me`` is
    "you"); the sentences about players are made by the game's teller there.
    """

    def __init__(self, game_id: str, names: Sequence[str], me: int | None = None) -> None:
        self.game_id = game_id
        self.teller: Words = words(game_id, names, me)

    def value(self, value: float, error: float, seat: int) -> str:
        """A value for ``seat``: "about 1.5 points in your favour over the rest of this hand (give or take 0.4)".

        "Give or take" is two standard errors: the range the true value very likely lies in.
        """
        give = "" if not math.isfinite(error) else f" (give or take {_number(2 * error)})"
        if abs(value) < 0.005:
            return f"even over the rest of this hand{give}"
        who = self.teller.name(seat, start=False)
        side = f"in {self.teller.whose(seat)} favour" if value > 0 else f"against {who}"
        return f"about {points(value)} {side} over the rest of this hand{give}"

    @staticmethod
    def figure(value: float, error: float) -> str:
        """A value in short, for tables: "+1.5 points ± 0.4" (± two standard errors, as "give or take")."""
        shown = _number(value)
        sign = "" if shown == "0" else "+" if value > 0 else "−"
        give = "" if not math.isfinite(error) else f" ± {_number(2 * error)}"
        return f"{sign}{points(value)}{give}"

    def units(self, seat: int) -> str:
        """What a value counts: "points of margin over the other players for the rest of this hand, in your favour"."""
        return f"points of margin over the other players for the rest of this hand, in {self.teller.whose(seat)} favour"

    @staticmethod
    def compared(v: Verdict) -> str:
        """A verdict: "the coach's choice", "a mistake: 2 points worse than play 6-4", "a small difference: ..."."""
        if v.is_best:
            return "the coach's choice"
        best = str(v.best.action)
        if v.mark is not None:
            article = "an" if v.mark[0] in "aeiou" else "a"
            return f"{article} {v.mark}: {points(v.loss)} worse than {best}"
        if not math.isfinite(v.error):
            return f"too few deals to tell it from {best}"
        if v.loss <= 0 or v.loss < 2 * v.error:
            return f"as good as {best}, within the coach's uncertainty"
        return f"a small difference: {points(v.loss)} worse than {best}"

    def decision(self, d: Decision) -> str:
        """A decision in one sentence: "You played fold (−3 points ± 0.5), a blunder: 4 points worse than pass."."""
        figure = self.figure(d.value, d.mine.judgement.error)
        return self.teller.sentence(f"{self.teller.name(d.seat)} played {d.played} ({figure}), {self.compared(d.mine)}")

    @staticmethod
    def tally(marks: Mapping[str, int]) -> str:
        """How many decisions got each mark: "1 blunder, 0 mistakes, 0 inaccuracies"."""
        return ", ".join(f"{n} {name if n == 1 else PLURALS[name]}" for name, n in marks.items())

    def limits(self) -> str:
        """The marks by the loss each starts from, mildest first: "inaccuracy from 0.2 points, mistake from 0.5..."."""
        marks = list(reversed(thresholds(self.game_id)))
        parts = [f"{name} from {_number(at)}" + (" points" if i == 0 else "") for i, (name, at) in enumerate(marks)]
        return ", ".join(parts)
