"""The coach's words: values, verdicts, decisions and the reasons behind them, for every front end.

``boneyard review`` (the terminal) and the web app's hint and review both say what the
coach found through :class:`CoachWords`, so the same decision reads the same in both.
The sentences are made from typed figures only (:class:`boneyard.bots.review.Verdict`,
:class:`boneyard.bots.review.Decision`, :class:`boneyard.bots.reasons.Reasons`), never
from other text; the sentences about players come from the game's teller
(:mod:`boneyard.words`), with names, and "you" for the reader.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..games import game_class
from . import Words, words

if TYPE_CHECKING:
    from ..bots.reasons import Holding, Reasons
    from ..bots.review import Decision, Verdict

PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}
# How a phase's moves are spoken of in "before Bob and Cy called" (any other phase: "moved").
PHASE_VERBS = {"call": "called", "bid": "bid", "play": "played", "turn": "played", "discard": "discarded",
               "draw": "drew", "trump": "named trumps"}


def _number(x: float) -> str:
    """A size for reading: two decimals under 1, one above ("0.25", "1.5", "12")."""
    return (f"{abs(x):.2f}" if abs(x) < 1 else f"{abs(x):.1f}").rstrip("0").rstrip(".")


def points(x: float) -> str:
    """A number of points in words, unsigned: "1.5 points", "1 point", "0.25 points"."""
    shown = _number(x)
    return f"{shown} point" + ("" if shown == "1" else "s")


def percent(x: float) -> str:
    """A chance as a whole percentage: "62%"."""
    return f"{round(100 * x)}%"


class CoachWords:
    """The coach's figures in a player's words, for one table: its players' names and the reader.

    ``names`` and ``me`` are those of :class:`boneyard.words.Words` (the seat ``me`` is
    "you"); the sentences about players are made by the game's teller there.
    """

    def __init__(self, game_id: str, names: Sequence[str], me: int | None = None) -> None:
        self.game_id = game_id
        self.teller: Words = words(game_id, names, me)
        self.lower_is_better = bool(game_class(game_id).lower_is_better)

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
        """A verdict: "the coach's choice", "a mistake: 2 points worse than play 6-4", "a small difference: ...".

        Late in a game, when the chance of winning the game ranked the actions, the loss is
        that chance: "a blunder: wins the game 30% less often than pass".
        """
        if v.is_best:
            return "the coach's choice"
        best = str(v.best.action)
        by_win = getattr(v, "measure", "margin") == "win"
        worse = f"wins the game {percent(v.loss)} less often than {best}" if by_win else \
            f"{points(v.loss)} worse than {best}"
        if v.mark is not None:
            article = "an" if v.mark[0] in "aeiou" else "a"
            return f"{article} {v.mark}: {worse}"
        if not math.isfinite(v.error):
            return f"too few deals to tell it from {best}"
        if v.loss <= 0 or v.loss < 2 * v.error:
            return f"as good as {best}, within the coach's uncertainty"
        return f"a small difference: {worse}"

    def decision(self, d: Decision) -> str:
        """A decision in one sentence: "You played fold (−3 points ± 0.5), a blunder: 4 points worse than pass."

        Why is :meth:`why`, told after it where there is room.
        """
        figure = self.figure(d.value, d.mine.judgement.error)
        return self.teller.sentence(f"{self.teller.name(d.seat)} played {d.played} ({figure}), {self.compared(d.mine)}")

    def why(self, d: Decision) -> str | None:
        """Why the coach judged a reviewed decision so (:meth:`reasons` on its reasons); ``None`` without a choice.

        What came after the decision, and how the real deal went, are told where they
        matter: for a marked decision (the coach finds fault, so it says what it could
        not know), or when the real deal went better than the coach expected (so the line
        does not read as blame for a result that came out well). Elsewhere they would
        repeat the same words on every move.
        """
        if d.reasons is None:
            return None
        lucky = d.reasons.actual is not None and d.reasons.actual > d.value + 0.005
        return self.reasons(d.reasons, d.value, after=d.mark is not None or lucky)

    # ----- the reasons ---------------------------------------------------------------

    def gain(self, seat: int, amount: float, more: bool = False) -> str:
        """A seat's mean gain in this game's terms: "you gain 12 points", "Bob takes 1.5 more points off his count".

        In a game whose lower score is better (Rounce) a gain is points off the count.
        """
        size = points(amount).replace(" point", " more point") if more else points(amount)
        if self.lower_is_better:
            count = " your count" if seat == self.teller.me else ""
            if amount < 0:
                return f"{self.teller.does(seat, 'puts', start=False)} {size} back on{count}"
            return f"{self.teller.does(seat, 'takes', start=False)} {size} off{count}"
        if amount < 0:
            return f"{self.teller.does(seat, 'loses', start=False)} {size}"
        return f"{self.teller.does(seat, 'gains', start=False)} {size}"

    def holding(self, h: Holding, r: Reasons) -> str:
        """The others' likely holding that turns the decision: "the gap is widest where Bob holds 6-6 (...)"."""
        who = self.teller.does(h.seat, "holds", start=False)
        often = f"{self.teller.name(h.seat, start=False)} does in {percent(h.share)} of those deals"
        if h.where_held < 0:
            return f"{r.worse} would do better where {who} {h.tile} ({often})"
        if h.effect > 0:
            return f"the gap is widest where {who} {h.tile} ({often})"
        return f"the gap narrows where {who} {h.tile} ({often})"

    def later(self, r: Reasons) -> str:
        """What the decision could not see: "judged on what you could see then, before Bob and Cy called (...)"."""
        if not r.later:
            return ""
        movers: list[int] = []
        for m in r.later:
            if m.seat not in movers:
                movers.append(m.seat)
        verb = PHASE_VERBS.get(r.phase or "", "moved")
        told = [self._clause(m.seat, self.teller.tell(m.event)) for m in r.later]
        what = "; ".join(told)
        who = self.teller.names_of(movers, start=False)
        return (f"The coach judged it on what {self.teller.name(r.seat, start=False)} could see then, "
                f"before {who} {verb} (then: {what})")

    def _clause(self, seat: int, sentence: str) -> str:
        """A told event as a clause inside a sentence: no full stop, the name as written ("greedy bot 1 folds")."""
        text = sentence.rstrip(".")
        name = self.teller.name(seat, start=False)
        if text[: len(name)].lower() == name.lower():
            text = name + text[len(name):]
        return text

    def outcome(self, r: Reasons, value: float | None = None) -> str:
        """How the real deal went, beside the judgement: "as it happened, the real deal gave you +5 points...".

        ``value``: the coach's value of the action played; when the real deal did at least
        as well, the line says that a decision is judged on what could be seen, not on luck.
        """
        if r.actual is None:
            return ""
        said = (f"the real deal gave {self.teller.name(r.seat, start=False)} {self.figure(r.actual, math.inf)} "
                "over the rest of the hand")
        if value is not None and r.actual > value + 0.005:
            return (f"as it happened, {said}, but a decision is judged on the deals that fit what was seen, "
                    "not on the one that came")
        return said

    def reasons(self, r: Reasons, value: float | None = None, after: bool = True) -> str:
        """Why the better action is better, in one or two sentences built from the typed reasons.

        It says what ranked them (late in a game, the chance of winning it), the margin with
        its uncertainty, what each does with the seat's tiles, who gains, the others' likely
        holding that turns it and, in a review, what came after the decision and how the
        real deal went (``value``: the coach's value of the action played, see :meth:`outcome`;
        ``after=False`` leaves those two out).
        """
        who = self.teller.name(r.seat, start=False)
        parts: list[str] = []
        if r.late and r.win_better is not None and r.win_worse is not None:
            parts.append(f"late in the game the coach ranks by the chance of winning it: {who} "
                         f"{'win' if r.seat == self.teller.me else 'wins'} it in {percent(r.win_better)} of the "
                         f"deals after {r.better}, {percent(r.win_worse)} after {r.worse}")
        deals = f"{r.rounds} deal{'' if r.rounds == 1 else 's'} of the hidden tiles that fit what {who} could see"
        if not math.isfinite(r.gap_error):
            give = f"a single deal of the hidden tiles that fit what {who} could see: a rough guide"
        elif r.gap_error < 0.0005:
            give = f"the same in each of {deals}"
        else:
            give = f"give or take {_number(2 * r.gap_error)}, over {deals}"
        if abs(r.gap) >= 0.005:
            ahead = "better" if r.gap > 0 else "worse"
            parts.append(f"over the rest of the hand it comes out {points(r.gap)} {ahead} than {r.worse} ({give})")
        if r.keeps and r.spends:
            parts.append(f"it keeps {self.teller.tiles(list(r.keeps))} and uses {self.teller.tiles(list(r.spends))} "
                         "instead")
        elif r.keeps:
            parts.append(f"it keeps {self.teller.tiles(list(r.keeps))} in hand")
        elif r.spends:
            parts.append(f"it uses {self.teller.tiles(list(r.spends))} now")
        if abs(r.mine_better - r.mine_worse) >= 0.1 * r.scale:  # a tenth of a hand's swing: worth telling
            parts.append(f"on average, after {r.better} {self.gain(r.seat, r.mine_better)}; "
                         f"after {r.worse} {self.gain(r.seat, r.mine_worse)}")
        if r.helped is not None:
            parts.append(f"after {r.worse} {self.gain(r.helped, r.helped_by, more=True)}")
        if r.holding is not None:
            parts.append(self.holding(r.holding, r))
        if not parts:
            parts.append(f"{r.worse} does as well in the {deals}")
        line = self.teller.sentence(f"Why {r.better}: " + "; ".join(parts))
        came = [p for p in (self.later(r), self.outcome(r, value)) if p] if after else []
        if came:
            line = f"{line} {self.teller.sentence('; '.join(came))}".strip()
        return line

    # ----- counts and limits ------------------------------------------------------------

    @staticmethod
    def tally(marks: Mapping[str, int]) -> str:
        """How many decisions got each mark: "1 blunder, 0 mistakes, 0 inaccuracies"."""
        return ", ".join(f"{n} {name if n == 1 else PLURALS[name]}" for name, n in marks.items())

    def limits(self) -> str:
        """The marks by the loss each starts from, mildest first: "inaccuracy from 0.2 points, mistake from 0.5..."."""
        from ..bots.coach import thresholds

        marks = list(reversed(thresholds(self.game_id)))
        parts = [f"{name} from {_number(at)}" + (" points" if i == 0 else "") for i, (name, at) in enumerate(marks)]
        return ", ".join(parts)

    @staticmethod
    def late_limits() -> str:
        """The marks late in a game, by the chance of winning lost: "inaccuracy from 5%, mistake from 10%, ..."."""
        from ..bots.coach import WIN_MARKS

        return ", ".join(f"{name} from {percent(at)}" for name, at in reversed(WIN_MARKS))
