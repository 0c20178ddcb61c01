"""The coach at the table: a hint in every game, and a review of a finished game.

Both ask the coach (``bots/coach.py``: :func:`~boneyard.bots.coach.analysis`), which sees
only the seat's view and its legal actions, so neither can reveal a hidden tile. Their
searches run in the server's compute pool (``compute.py``: worker processes, served in
turn by address), so a hint or a review never holds up play, and one client's many hints
wait behind each other, not in front of everyone else's. Each hint, and each review
started, counts against the address's ``coach`` limit (``ratelimit.py``).

- **Hint** (``GET /api/tables/{id}/hint``): every legal action of the seat to act, valued
  within :attr:`Coach.hint_ms`; the answer names the best three with their values and
  their standard errors, each said in words. A game with a hint module
  (``server/hints/<id>.py``: Rummikub's solver) adds that module's suggestion to the
  actions judged, so the solver's arrangement is the hint whenever the coach finds it
  best; its own answer is kept under ``solver``.
- **Review** (``GET /api/tables/{id}/review``): once the game is over, every decision of
  one seat that had a choice, each valued within :attr:`Coach.review_ms`: the review of
  :mod:`boneyard.bots.review` (the one ``boneyard review`` runs too), one decision a job
  on the pool (so progress can be reported and other work interleaves). The first
  request starts it and answers 202 with the progress; the finished review is kept per
  table and seat (the newest :data:`REVIEWS_KEPT`), so later requests answer at once, each
  told in its reader's words (the figures are worked out once, the words per reader).

The words of values, verdicts and reasons are :class:`boneyard.words.coach.CoachWords`'s
(the terminal's too), with the table's names; this module lays them out as JSON. A hint
and each reviewed decision carry why (``reason``, the sentence, and ``reasons``, the typed
facts of :mod:`boneyard.bots.reasons`).

**Hints are off at rated tables.** A table is *rated* when its deal is not fixed: those
are exactly the tables whose finished games ``social.py`` counts in the ratings (the other
condition there, every human seat linked to a player, can become true at any moment
during the game, since the table page links the seat by itself). A practice table with a
chosen seed or deck (the lobby's "Practice" box chooses a random seed) has a fixed deal,
is never rated, and gets hints. A review is open at every finished table: the game is
over, nothing can be gained from it any more.
"""

from __future__ import annotations

import asyncio
import collections
import copy
import functools
import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import APIRouter, Header, Query, Request, Response

from boneyard.bots.coach import Analysis, thresholds
from boneyard.bots.reasons import explain, tiles_of
from boneyard.bots.review import CoachWords, Decision, Reviewer, Verdict, counts, verdicts
from boneyard.bots.review import hint as shared_hint

from .tables import BadRequest, Conflict, Forbidden, Table, TableService
from .telling import reader_names

T = TypeVar("T")

HINT_MS = 1500.0  # the coach's thinking time for a hint (BONEYARD_HINT_MS)
REVIEW_MS = 400.0  # ... for each decision of a review (BONEYARD_REVIEW_MS)
MAX_COACH_MS = 60_000.0
SINGLE_MS = 300.0  # the thinking time for a hint where only one action is legal
HINT_TOP = 3  # actions a hint shows
REVIEW_TOP = 3  # better actions a reviewed decision shows
REVIEWS_KEPT = 64  # finished or running reviews kept in memory (the oldest go first)


def rated(table: Table) -> bool:
    """Whether the table's game counts for the ratings (its deal is not fixed): no hints there."""
    return not table.fixed_deal


def _ms_from_env(name: str, default: float) -> float:
    """A thinking time from the environment (``BONEYARD_HINT_MS``...), checked; ``ValueError`` names it."""
    text = os.environ.get(name)
    if text is None or not text.strip():
        return default
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number of milliseconds, got {text!r}") from None
    if not 0 < value <= MAX_COACH_MS:
        raise ValueError(f"{name} must be above 0 and at most {MAX_COACH_MS:g} milliseconds, got {text!r}")
    return value


def _entry(v: Verdict, words: CoachWords, seat: int, hand: list[str] | tuple[str, ...] | None) -> dict[str, Any]:
    """One judged action as JSON: its figures (``to_dict``), the tiles it takes, and its words."""
    j = v.judgement
    return {
        **j.to_dict(),
        "tiles": tiles_of(str(j.action), list(hand) if hand is not None else None),
        "words": words.value(j.value, j.error, seat),
        "loss": round(v.loss, 3),
        "loss_error": None if not math.isfinite(v.error) else round(v.error, 3),
        "mark": v.mark,
        "compared": words.compared(v),
    }


def decision_json(d: Decision, words: CoachWords) -> dict[str, Any]:
    """One reviewed decision as the page reads it (``static/core/coach.js``)."""
    entry = _entry(d.mine, words, d.seat, d.held)
    return {
        "number": d.number,
        "step": d.step,
        "seat": d.seat,
        "hand": d.hand,
        "played": d.played,
        "played_tiles": tiles_of(d.played, list(d.held) if d.held is not None else None),
        "value": entry["value"],
        "words": entry["words"],
        "loss": entry["loss"],
        "loss_error": entry["loss_error"],
        "mark": entry["mark"],
        "compared": entry["compared"],
        "says": words.decision(d),
        "reason": words.why(d),
        "reasons": d.reasons.to_dict() if d.reasons is not None else None,
        "measure": d.mine.measure,
        "rounds": d.rounds,
        "best": [_entry(v, words, d.seat, d.held) for v in d.ranking[:REVIEW_TOP]],
    }


def judge(view: dict[str, Any], legal: list[str], extra: list[str], ms: float,
          rounds: int | None = None) -> tuple[Analysis, int]:
    """The coach's analysis of ``legal`` plus ``extra`` actions (those not already listed), and the rounds played.

    A worker-thread job: the shared hint (``bots.review.hint``, the terminal's too) on the
    seat's view, so no hidden tile is ever read. The sampling is seeded from the view and
    the actions (``bots.review.seed_for``, as a review's decisions are), so the same
    question asked twice (or at two tables that look the same to the seat) meets the same
    deals.
    """
    candidates = list(legal) + [a for a in extra if a not in legal]
    found = shared_hint(view, candidates, ms, rounds)
    return found, found.ranking[0].rounds


def _next_only(reviewer: Reviewer) -> Reviewer:
    """A copy of ``reviewer`` holding only its next decision: what a worker is sent to judge."""
    one = copy.copy(reviewer)
    one.positions, one.decisions, one.skipped, one.done = [reviewer.positions[reviewer.done]], [], 0, 0
    return one


def step_one(reviewer: Reviewer) -> Reviewer:
    """A compute job: the shared :meth:`Reviewer.step` on a one-decision review; the review, judged."""
    reviewer.step()
    return reviewer


@dataclass
class Review:
    """One seat's review of one finished table: the shared :class:`Reviewer`, run a decision a job."""

    seat: int
    reviewer: Reviewer | None = None  # made on the pool (it replays the record), then stepped there
    error: str | None = None
    task: asyncio.Task[None] | None = None

    @property
    def finished(self) -> bool:
        """The review has judged every decision (or stopped on an error)."""
        return self.error is not None or (self.task is not None and self.task.done())

    def to_dict(self, table: Table, me: int | None) -> dict[str, Any]:
        """JSON for the client, told to the reader at seat ``me``: progress while it runs, then the decisions."""
        r = self.reviewer
        decisions = list(r.decisions) if r is not None and self.finished else []
        words = CoachWords(table.game_id, reader_names(table.seat_info()), me)
        return {
            "table": table.id,
            "game": table.game_id,
            "seat": self.seat,
            "status": "error" if self.error else ("done" if self.finished else "running"),
            "error": self.error,
            "total": r.total if r is not None else 0,
            "done": r.done if r is not None else 0,
            "skipped": r.skipped if r is not None else 0,
            "thresholds": [{"mark": n, "from": round(v, 3)} for n, v in thresholds(table.game_id)],
            "counts": counts(decisions),
            "decisions": [decision_json(d, words) for d in decisions],
        }


class Coach:
    """Hints and reviews for the tables of one :class:`TableService`."""

    def __init__(self, service: TableService, hint_ms: float | None = None, review_ms: float | None = None) -> None:
        self.service = service
        self.hint_ms = hint_ms if hint_ms is not None else _ms_from_env("BONEYARD_HINT_MS", HINT_MS)
        self.review_ms = review_ms if review_ms is not None else _ms_from_env("BONEYARD_REVIEW_MS", REVIEW_MS)
        # a cap on the sampled deals as well as the time (tests: answers that depend on nothing but the view)
        self.rounds: int | None = None
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="boneyard-coach")
        self.reviews: collections.OrderedDict[tuple[str, int], Review] = collections.OrderedDict()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.pool, functools.partial(fn, *args))

    def close(self) -> None:
        """Stop taking work (the running job finishes); pending reviews are dropped."""
        for review in self.reviews.values():
            if review.task is not None:
                review.task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)

    # ----- hints ---------------------------------------------------------------------

    async def _compute(self, address: str, table: Table, fn: Callable[..., T], *args: Any) -> T:
        """Run a coach job in the compute pool (worker processes, in ``address``'s turn: compute.py)."""
        return await self.service.compute.run(address, table.id, fn, *args)

    async def hint(self, table_id: str, token: str | None, address: str = "") -> dict[str, Any]:
        """The coach's best actions for the token's seat, which must be the seat to act.

        The coach's search runs in the compute pool, in the asking address's turn.

        401/403 for a missing or foreign token, 403 at a rated table, 409 when it is not
        the seat's turn, the game is over, or the table moved on while the coach thought.
        """
        from .hints import HINTS

        service = self.service
        table = await service.get(table_id)
        seat = await service.seat_for(table, token, required=True)
        assert seat is not None  # required=True refuses a missing token
        if rated(table):
            raise Forbidden("hints are off at rated tables (this game counts for the ratings); "
                            "open a practice table to play with hints")
        state = service.state(table, seat)
        if state["is_over"]:
            raise Conflict("the game is over: there is nothing to hint (the review judges your decisions)")
        if state["current_player"] != seat:
            raise Conflict(f"a hint is for the player to act: it is {table.who(state['current_player'])}'s turn")
        legal: list[str] = list(state["legal_actions"])
        if not legal:
            raise Conflict("there is no action to hint right now")
        view = state["view"]
        solver = HINTS.get(table.game_id)
        solved: dict[str, Any] | None = await self._compute(address, table, solver, view) if solver else None
        extra: list[str] = []
        if solved is not None and solved.get("action"):
            async with table.lock:  # the live game is read under its lock, as every engine call is
                if table.version != state["version"]:
                    raise Conflict("the table moved on while the coach thought: ask again")
                legal_now = await service._run(table.game.is_legal, solved["action"])
            if legal_now:
                extra.append(solved["action"])
            else:
                solved.update(action=None, why="the solver's play is not legal now under this table's rules")
        # a single action is still valued (briefly): the player sees where the hand stands;
        # with a cap on the rounds, the cap ends it, so the answer never depends on the clock
        brief = len(legal) + len(extra) == 1 and self.rounds is None
        ms = min(self.hint_ms, SINGLE_MS) if brief else self.hint_ms
        found, rounds = await self._compute(address, table, judge, view, legal, extra, ms, self.rounds)
        ranking = found.ranking
        if table.version != state["version"]:
            raise Conflict("the table moved on while the coach thought: ask again")
        words = CoachWords(table.game_id, reader_names(table.seat_info()), seat)
        top = [_entry(v, words, seat, view.get("hand"))
               for v in verdicts(ranking[:HINT_TOP], table.game_id, found.measure)]
        reasons = explain(found, ranking[0], ranking[1]) if len(ranking) > 1 else None
        if len(ranking) == 1:
            why = "it is your only legal action"
        elif rounds < 2:
            # said even on a busy machine, where one deal is all the time allowed: how far it was played
            reach = "the end of the game" if found.late else "the end of the hand"
            why = f"the coach had time for one sampled deal only, played out to {reach}: take this as a rough guide"
        elif found.late:
            why = (f"judged over {rounds} deals of the hidden tiles consistent with what you see, each action "
                   "played out to the end of the game: late in a game the chance of winning it ranks them")
        else:
            why = (f"judged over {rounds} deals of the hidden tiles consistent with what you see, "
                   "each action played out to the end of the hand")
        out: dict[str, Any] = {
            "table": table.id, "seat": seat, "version": state["version"], "game": table.game_id,
            "action": top[0]["action"], "tiles": top[0]["tiles"], "value": top[0]["value"],
            "error": top[0]["error"], "words": top[0]["words"], "why": why, "rounds": rounds,
            "judged": len(ranking), "best": top, "units": words.units(seat), "measure": found.measure,
            "reason": words.reasons(reasons) if reasons is not None else None,
            "reasons": reasons.to_dict() if reasons is not None else None,
        }
        if solved is not None:
            out["solver"] = solved
        return out

    # ----- reviews -------------------------------------------------------------------

    async def review(self, table_id: str, token: str | None, seat: int | None, address: str = "",
                     starting: Callable[[], None] | None = None) -> tuple[int, dict[str, Any]]:
        """The review of one seat's decisions at a finished table: (HTTP status, body).

        The seat is ``seat`` when given, else the token's. 202 while it runs (the body
        carries ``done`` of ``total``), 200 once it is done; 409 before the game's end.
        ``starting`` is called (and may refuse, raising) only when this request starts a
        review: asking again while it runs, or once it is done, costs nothing. The
        decisions are judged in the compute pool, in ``address``'s turn.
        """
        service = self.service
        table = await service.get(table_id)
        mine = await service.seat_for(table, token, required=False)
        if seat is None:
            seat = mine
        if seat is None:
            raise BadRequest(f"name the seat to review (seat=0 to {table.players - 1}) or send your seat's token")
        if not 0 <= seat < table.players:
            raise BadRequest(f"seat must be from 0 to {table.players - 1} at this table")
        if not table.game.is_over:
            raise Conflict("the review opens once the game is over")
        key = (table.id, seat)
        review = self.reviews.get(key)
        if review is None or review.error is not None:
            if starting is not None:
                starting()
            review = Review(seat)
            self.reviews[key] = review
            while len(self.reviews) > REVIEWS_KEPT:
                _, old = self.reviews.popitem(last=False)
                if old.task is not None:
                    old.task.cancel()
            review.task = asyncio.get_running_loop().create_task(self._work(table, review, address))
        self.reviews.move_to_end(key)
        return (200 if review.finished else 202), review.to_dict(table, mine)

    async def _work(self, table: Table, review: Review, address: str) -> None:
        """Run the shared review of ``table``'s record: the replay on the coach's thread, each decision a job
        in the compute pool (a worker gets the one position it judges, not the whole review)."""
        try:
            reviewer = await self._run(Reviewer, table.record(), review.seat, self.review_ms, None, self.rounds)
            review.reviewer = reviewer
            while not reviewer.finished:
                one = await self._compute(address, table, step_one, _next_only(reviewer))
                reviewer.decisions.extend(one.decisions)
                reviewer.skipped += one.skipped
                reviewer.done += 1
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a record that no longer replays, a sampler that gives up
            review.error = f"the review stopped: {err}"


def router(coach: Coach, hit: Callable[[str, str], None], address: Callable[[Request], str],
           bearer: Callable[[str | None], str | None]) -> APIRouter:
    """The coach's two routes; ``hit`` counts a request against the per-address limits."""
    api = APIRouter(tags=["tables"])

    @api.get("/api/tables/{table_id}/hint")
    async def hint(table_id: str, request: Request, authorization: str | None = Header(default=None)) -> dict[str, Any]:
        """The coach's best three actions for the token's seat, with their values (every game).

        Built only from that seat's view and legal actions. ``action`` is the best one
        (``tiles``: the tiles it names), ``best`` the top three, each with ``value`` (points
        of margin over the rest of the hand), ``error`` (its standard error), ``words`` and
        ``compared`` (the same in words). Rummikub adds its solver's play as ``solver``.
        401 without a token, 403 for another table's token or at a rated table, 409 when it
        is not this seat's turn or the game is over.
        """
        who = address(request)
        hit("act", who)
        hit("coach", who)  # each hint is seconds of search: its own, smaller limit
        return await coach.hint(table_id, bearer(authorization), who)

    @api.get("/api/tables/{table_id}/review")
    async def review(
        table_id: str,
        request: Request,
        response: Response,
        seat: int | None = Query(default=None, ge=0, le=64, description="the seat reviewed (default: the token's)"),
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """The coach's review of a seat's decisions in a finished game (202 while it runs, then 200).

        Each decision with a choice: the action played, its value, the best three, the
        estimated loss and its mark (inaccuracy, mistake, blunder; thresholds per game in
        ``thresholds``). The first request starts the work; poll until ``status`` is
        ``done``. 409 before the game is over.
        """
        who = address(request)
        hit("act", who)
        status, body = await coach.review(table_id, bearer(authorization), seat, who,
                                          starting=lambda: hit("coach", who))
        response.status_code = status
        return body

    return api
