"""Why the coach prefers one action to another, as typed data: the reasons a hint or review line tells.

:func:`explain` reads one :class:`~boneyard.bots.coach.Analysis` (the same sampled worlds
for every action) and compares two of its actions, the better and the worse:

- what each does with the seat's tiles (``keeps``: tiles the worse action would play
  that the better one keeps in hand; ``spends``: tiles the better one uses instead);
- the seat's own mean score gain after each, and the opponent who does best out of the
  worse action (``helped``, by ``helped_by`` points), in each seat's favour;
- late in a game, the chance of winning the game after each (``win_better``,
  ``win_worse``), which then ranks them;
- the others' likely holdings: the tile whose holder turns the decision most
  (:class:`Holding`: in what share of the deals that fit the seat's view that player
  holds it, and how much the better action gains, or loses, where he does). Every deal
  was sampled from the seat's view, so the reasons use nothing the player could not see.

A review adds what the decision could not know (:func:`later_moves`: the other players'
moves after it, before the seat's next decision, in the same phase of the same hand) and
how the real deal turned out (``actual``), so that a line can say "judged before Bob and
Cy called" instead of blaming a player for what came later.

No words here: :class:`boneyard.words.coach.CoachWords` tells these fields, in the
terminal and the web alike.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import game_class
from .coach import BY_WIN, Analysis, Judgement, _mean_error
from .ismcts import margin_scale

TILE = re.compile(r"^\d+-\d+$")
MIN_GROUP = 3  # a holding is told only when both the deals with it and those without number this many
HOLDING_SHARE = 0.1  # ... and it moves the decision by at least this share of the game's hand swing
HOLDING_WIN = 0.05  # ... or, late in a game, by this much of the chance of winning it
HELPED_SHARE = 0.1  # an opponent's extra gain is told from this share of the game's hand swing


def tiles_of(action: str, hand: Sequence[str] | None = None) -> list[str]:
    """The tiles an action takes from the hand: what the page rings (``play 6-4`` -> ``["6-4"]``).

    An action naming tiles already on the table as well (Rummikub's whole-table plays)
    gives only those from ``hand``, each copy once; without a hand, or when none of its
    tiles is in the hand, every tile the action names.
    """
    named = [w for w in str(action).replace("|", " ").split() if TILE.match(w)]
    if not hand:
        return named
    left = list(hand)
    mine = []
    for t in named:
        if t in left:
            left.remove(t)
            mine.append(t)
    return mine or named


@dataclass(frozen=True)
class Holding:
    """An other player's likely tile that turns the decision.

    ``share``: the fraction of the sampled deals (all fitting the seat's view) in which
    ``seat`` holds ``tile``; ``effect``: how much more the better action gains over the
    worse in those deals than in the rest (negative: the gap narrows there), in the
    ranking's measure; ``where_held``: the better action's mean lead in those deals
    (negative: there the worse action is the better one).
    """

    seat: int
    tile: str
    share: float
    effect: float
    where_held: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"seat": self.seat, "tile": self.tile, "share": round(self.share, 3), "effect": round(self.effect, 3),
                "where_held": round(self.where_held, 3)}


@dataclass(frozen=True)
class Later:
    """A move another player made after the decision judged, which the decision could not see: its event."""

    seat: int
    event: Mapping[str, Any] = field(compare=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the seat and the event's kind."""
        return {"seat": self.seat, "kind": str(self.event.get("kind", ""))}


@dataclass(frozen=True)
class Reasons:
    """Why ``better`` beats ``worse`` for ``seat``: the typed facts a coach line is made of.

    ``measure``: what ranked them (``"win"`` late in a game, else ``"margin"``); ``gap`` and
    ``gap_error``: the better action's lead in the hand's margin (points) and its standard
    error over the paired deals; ``win_better``/``win_worse``: chances of winning the game
    (late only); ``keeps``/``spends``: see :mod:`boneyard.bots.reasons`; ``mine_better``/
    ``mine_worse``: the seat's mean score gain after each (in its favour: in Rounce,
    points off its count); ``helped``: the opponent who gains most from ``worse`` instead,
    by ``helped_by``; ``holding``: the others' holding that turns the decision most;
    ``scale``: the game's typical hand swing (points), for what is worth telling;
    ``phase``: the decision's phase; ``later``: moves after the decision it could not see;
    ``actual``: the margin the real deal gave the rest of the hand (a review only).
    """

    game: str
    seat: int
    better: str
    worse: str
    measure: str
    rounds: int
    gap: float
    gap_error: float
    win_better: float | None
    win_worse: float | None
    keeps: tuple[str, ...]
    spends: tuple[str, ...]
    mine_better: float
    mine_worse: float
    helped: int | None
    helped_by: float
    holding: Holding | None
    scale: float = 1.0
    phase: str | None = None
    later: tuple[Later, ...] = ()
    actual: float | None = None

    @property
    def late(self) -> bool:
        """Whether the game was late, so that the chance of winning it ranked the actions."""
        return self.measure == BY_WIN

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the figures rounded, the holding and the later moves as objects."""
        return {
            "better": self.better,
            "worse": self.worse,
            "measure": self.measure,
            "rounds": self.rounds,
            "gap": round(self.gap, 3),
            "gap_error": None if not math.isfinite(self.gap_error) else round(self.gap_error, 3),
            "win_better": None if self.win_better is None else round(self.win_better, 3),
            "win_worse": None if self.win_worse is None else round(self.win_worse, 3),
            "keeps": list(self.keeps),
            "spends": list(self.spends),
            "mine_better": round(self.mine_better, 3),
            "mine_worse": round(self.mine_worse, 3),
            "helped": self.helped,
            "helped_by": round(self.helped_by, 3),
            "holding": None if self.holding is None else self.holding.to_dict(),
            "scale": self.scale,
            "phase": self.phase,
            "later": [m.to_dict() for m in self.later],
            "actual": None if self.actual is None else round(self.actual, 3),
        }


def explain(
    analysis: Analysis,
    better: Judgement,
    worse: Judgement,
    later: Sequence[Later] = (),
    actual: float | None = None,
) -> Reasons:
    """The reasons ``better`` beats ``worse`` in ``analysis`` (both of its ranking).

    ``later`` and ``actual`` come from a review (what happened after the decision); a
    hint has neither. Only the analysis's sampled deals are read, each of them consistent
    with what the seat saw, so nothing here depends on a hidden tile.
    """
    view = analysis.view
    seat = analysis.seat
    hand = [str(t) for t in view.get("hand") or []]
    mine_b, mine_w = set(tiles_of(str(better.action), hand)), set(tiles_of(str(worse.action), hand))
    if not hand:  # no hand in the view: no tile is kept or spent
        mine_b = mine_w = set()
    gap, gap_error = _mean_error([a - b for a, b in zip(better.samples, worse.samples, strict=True)])
    helped, helped_by = _helped(analysis, better, worse)
    phase = view.get("phase")
    return Reasons(
        game=analysis.game,
        seat=seat,
        better=str(better.action),
        worse=str(worse.action),
        measure=analysis.measure,
        rounds=better.rounds,
        gap=gap,
        gap_error=gap_error,
        win_better=better.win,
        win_worse=worse.win,
        keeps=tuple(sorted(mine_w - mine_b, reverse=True)),
        spends=tuple(sorted(mine_b - mine_w, reverse=True)),
        mine_better=better.gains[seat] if better.gains else 0.0,
        mine_worse=worse.gains[seat] if worse.gains else 0.0,
        helped=helped,
        helped_by=helped_by,
        holding=holding(analysis, better, worse),
        scale=margin_scale(analysis.game),
        phase=None if phase is None else str(phase),
        later=tuple(later),
        actual=actual,
    )


def _opponents(analysis: Analysis) -> list[int]:
    """The seats playing against the analysed seat (not its partner)."""
    players = len(analysis.ranking[0].gains) if analysis.ranking and analysis.ranking[0].gains else 0
    partners = analysis.view.get("partners") or []
    side = next((list(p) for p in partners if analysis.seat in p), [analysis.seat])
    return [s for s in range(players) if s not in side]


def _helped(analysis: Analysis, better: Judgement, worse: Judgement) -> tuple[int | None, float]:
    """The opponent who gains most from ``worse`` instead of ``better``, and by how much (when it is worth telling)."""
    if not better.gains or not worse.gains:
        return None, 0.0
    best_seat, best_by = None, HELPED_SHARE * margin_scale(analysis.game)
    for s in _opponents(analysis):
        by = worse.gains[s] - better.gains[s]
        if by >= best_by:
            best_seat, best_by = s, by
    return best_seat, (best_by if best_seat is not None else 0.0)


def holding(analysis: Analysis, better: Judgement, worse: Judgement) -> Holding | None:
    """The other player's tile that turns the choice between ``better`` and ``worse`` most, if any does clearly.

    For each other seat and tile, the deals are split by whether that seat holds it; the
    holding told is the one whose split moves the paired difference most, when both
    groups have at least :data:`MIN_GROUP` deals, the move is two standard errors clear of
    zero, and it is worth telling (:data:`HOLDING_SHARE` of the game's hand swing, or
    :data:`HOLDING_WIN` of the chance of winning late in a game). Between holdings that
    move it as much, one where the better action gains is told (the plainer sentence).
    """
    measure = analysis.measure
    diffs = [a - b for a, b in zip(better.by(measure), worse.by(measure), strict=True)]
    rounds = len(diffs)
    if rounds < 2 * MIN_GROUP or len(analysis.hands) != rounds:
        return None
    floor = HOLDING_WIN if measure == BY_WIN else HOLDING_SHARE * margin_scale(analysis.game)
    found: Holding | None = None
    size = 0.0
    for s in range(len(analysis.hands[0])):
        if s == analysis.seat:
            continue
        tiles = sorted(set().union(*(h[s] for h in analysis.hands)))
        for tile in tiles:
            held = [d for d, h in zip(diffs, analysis.hands, strict=True) if tile in h[s]]
            if not MIN_GROUP <= len(held) <= rounds - MIN_GROUP:
                continue
            rest = [d for d, h in zip(diffs, analysis.hands, strict=True) if tile not in h[s]]
            m1, e1 = _mean_error(held)
            m0, e0 = _mean_error(rest)
            effect = m1 - m0
            if abs(effect) < floor or abs(effect) < 2 * math.hypot(e1, e0):
                continue
            # the largest move; between equal ones, a holding that favours the better action reads plainer
            if abs(effect) < size or (abs(effect) == size and (effect < 0 or (found and found.effect > 0))):
                continue
            size = abs(effect)
            found = Holding(s, tile, len(held) / rounds, effect, m1)
    return found


def later_moves(events: Sequence[Mapping[str, Any]], mover: int) -> list[Later]:
    """The events of one move by another player (``mover``) that name him: what a review says came later.

    ``events``: the events the move produced, as the reviewed seat saw them; those naming
    the mover (his call, his play, a trick he won with it) are kept, in order.
    """
    return [Later(mover, e) for e in events if e.get("seat") == mover]


def margin(game_id: str, start: Sequence[float], end: Sequence[float], seat: int,
           partners: Sequence[Sequence[int]] | None) -> float:
    """The seat's margin between two score lists, measured as the coach measures a hand (its favour)."""
    sign = -1.0 if game_class(game_id).lower_is_better else 1.0
    gains = [float(b) - float(a) for a, b in zip(start, end, strict=True)]
    side = next((list(p) for p in partners or [] if seat in p), [seat])
    others = [s for s in range(len(gains)) if s not in side] or [seat]
    return sign * (gains[seat] - sum(gains[s] for s in others) / len(others))
