"""Montana's reading of the table: how near each seat is to going out, and what its claims proved.

Two models weigh or shape the worlds the search samples: :func:`seat_weight`, how much
more often real play leaves a hand that many tiles from going out than the sampler deals
it (by stage of the hand), and :func:`held_requirements`, the pairs and runs the claim
windows a seat was asked in proved it holds, read from the events; :func:`explain` hands
those to the engine's ``conform``, which moves the tiles.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...games.montana import analysis as hands
from ...games.montana.engine import HAND, SEATS
from ...tiles import Tile, double_six, tile_of
from ..greedy.montana import unseen

_FULL = double_six(4)
tile = tile_of  # a tile from its notation (a table lookup)


_WOODPILE = len(_FULL) - SEATS * HAND  # the woodpile at the start of a hand
READING_STEP = 8  # pulls from the woodpile a stage of the hand spans (see reading_stage)
READING_STAGES = 5  # stages told apart; later pulls count as the last
READING_AWAY = 6  # tiles away told apart (0 to 5); farther counts as the last
# How much more often real play leaves a (not ready) hand this many tiles from going out
# than the sampler deals it, by stage of the hand: real hands over sampled ones, each as a
# share of its stage; 1 where the sampler too rarely deals such a hand to judge. Written by
# benchmarks/montana_reading.py (400 greedy self-play hands, the default run).
AWAY_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (1.0, 1.0, 2.47, 1.127, 0.685, 0.507),
    (1.0, 1.0, 5.0, 0.976, 0.291, 0.114),
    (1.0, 1.0, 6.056, 0.724, 0.144, 0.064),
    (1.0, 1.0, 6.86, 0.549, 0.066, 0.02),
    (1.0, 1.0, 6.323, 0.391, 0.038, 0.024),
)


def reading_stage(view: dict[str, Any]) -> int:
    """How far into the hand a view is, in :data:`READING_STEP` pulls from the woodpile.

    Hands grow nearer to going out as they are played, so real hands are compared with
    sampled ones at the same stage.
    """
    pulled = _WOODPILE - int(view["woodpile"])
    return min(max(pulled, 0) // READING_STEP, READING_STAGES - 1)


def hidden_away(hand: Sequence[Tile]) -> int:
    """Tiles a seat's concealed hand is from going out (capped at ``READING_AWAY - 1``)."""
    found = hands.tiles_away(hand)
    return READING_AWAY - 1 if found is None else min(found, READING_AWAY - 1)


def seat_weight(view: dict[str, Any], world: Any, seat: int) -> float:
    """The weight of ``seat``'s hand in a sampled ``world``, for inference from play.

    A uniform deal gives the other seats hands as scattered as chance makes them, but
    real players keep the tiles that fit and throw the rest: by the middle of a hand
    most real hands are two tiles from going out, most dealt ones three or four. A
    world is weighted by how much more often real play leaves a hand as far from going
    out as this one, at this stage of the hand (:data:`AWAY_WEIGHTS`). A ready seat's
    hand is already fixed by the sampler (weight 1).
    """
    if view["ready"][seat]:
        return 1.0
    return AWAY_WEIGHTS[reading_stage(view)][hidden_away(world.hands[seat])]


# ----- what the claim windows proved the others hold (read by ismcts; see explain) -----


# One requirement: the hand holds at least one of these multisets of tiles.
Requirement = list[Counter[Tile]]


def hand_events(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The view's events since the current hand was dealt: what a reading of this hand looks at.

    A view's events also keep the end of the previous hand (everything up to its
    ``hand_end``); the current hand is what follows the last ``deal`` event. A view with
    no ``deal`` (a game that has not dealt yet) gives all its events.
    """
    events: Sequence[Mapping[str, Any]] = view["events"]
    for i in range(len(events) - 1, -1, -1):
        if events[i]["kind"] == "deal":
            return list(events[i + 1 :])
    return list(events)


def _passed(seat: int, t: Tile, discarder: int, players: int) -> Requirement:
    """What a seat that passed on ``t`` held to be asked: a pair of it, or (next after the discarder) a run's two."""
    req = [Counter({t: 2})]
    if seat == (discarder + 1) % players and players > 2 and t.high >= 2:
        for first in range(max(0, t.low - 2), min(t.low, t.high - 2) + 1):
            run = [Tile(t.high, k) for k in range(first, first + 3) if k != t.low]
            req.append(Counter(run))
    return req


def _answered(answer: Mapping[str, Any], t: Tile, discarder: int, players: int) -> Requirement | None:
    """What one answer in a claim window proves its seat held (``None`` for out: nothing is read from it)."""
    claim = answer["claim"]
    if claim == "pass":
        return _passed(int(answer["seat"]), t, discarder, players)
    if claim == "triple":
        return [Counter({t: 2})]
    if claim == "quad":
        return [Counter({t: 3})]
    if claim == "run":
        return [Counter(tile(x) for x in answer["tiles"])]
    return None


def held_requirements(view: dict[str, Any]) -> dict[int, list[Requirement]]:
    """What this hand's claim windows proved each other seat still holds, read from its events.

    A seat is asked about a discard only when it has a claim on it, and everyone sees who
    was asked and, once all have answered, the answers (the ``answers`` event). So a seat
    that **lost a claim** held its tiles: a pair for a triple, three for a quad, the two
    other tiles of a run. A seat that **passed** held a pair of the tile, or (the seat
    just after the discarder) the other two tiles of a run with it, or a hand the tile
    completed; the last is left out, since a player who can go out on a discard nearly
    always does. Every tile the seat has shown since (``discard``, the hand's tiles laid
    in a ``claimed`` set, a ``quad`` or an ``add``) is taken off what it was proved to
    hold. Not read: ready seats (their hands are fixed by the sampler, tested against
    every pull and claim) and the seat itself. Returns, per seat, the requirements still
    standing: each a list of options, one of which the hand holds.
    """
    n = int(view["players"])
    reqs: dict[int, list[Requirement]] = {}
    ready: set[int] = set()

    def shown(seat: int, t: Tile, k: int = 1) -> None:
        for req in reqs.get(seat, ()):
            for option in req:
                option[t] = max(0, option[t] - k)
        reqs[seat] = [req for req in reqs.get(seat, ()) if all(+option for option in req)]

    for event in hand_events(view):
        kind = event["kind"]
        if kind == "discard":
            shown(event["seat"], tile(event["tile"]))
            if event["ready"]:
                ready.add(event["seat"])
        elif kind == "answers":
            t, discarder = tile(event["tile"]), int(event["discarder"])
            for answer in event["answers"]:
                seat = int(answer["seat"])
                req = None if seat in ready else _answered(answer, t, discarder, n)
                if req is not None:
                    reqs.setdefault(seat, []).append(req)
        elif kind == "claimed":
            # the set laid less the discard taken: the tiles that came from the hand (none for out)
            laid = Counter(tile(x) for x in event["tiles"])
            laid[tile(event["tile"])] -= 1
            for t, k in (+laid).items():
                shown(event["seat"], t, k)
        elif kind == "quad":
            shown(event["seat"], tile(event["tile"]), 4)
        elif kind == "add":
            shown(event["seat"], tile(event["tile"]))
    me = view["seat"]
    now_ready = view.get("ready") or []
    rest = unseen(view) if me is not None else Counter(_FULL)
    out: dict[int, list[Requirement]] = {}
    for s, found in reqs.items():
        if s == me or s in ready or (s < len(now_ready) and now_ready[s]):
            continue
        # an option the unseen tiles cannot make (the seat's reason was a hand the tile completed)
        kept = [[o for o in req if all(rest[t] >= k for t, k in o.items())] for req in found]
        kept = [req for req in kept if req]
        if kept:
            out[s] = kept
    return out


_held_cache: tuple[Any, int, dict[int, list[Requirement]]] | None = None


def _held(view: dict[str, Any]) -> dict[int, list[Requirement]]:
    """:func:`held_requirements` for ``view``, read once per decision (every world drawn asks)."""
    global _held_cache
    count = len(view["events"])
    if _held_cache is not None and _held_cache[0] is view and _held_cache[1] == count:
        return _held_cache[2]
    found = held_requirements(view)
    _held_cache = (view, count, found)
    return found


def explain(view: dict[str, Any], world: Any, rng: random.Random) -> Any:
    """The claim windows replayed in a sampled ``world`` (in the search profile).

    The sampler respects what the windows a seat was *not* asked in proved (it holds at
    most so many copies), but not what the windows it *was* asked in proved: that it
    holds a pair of the tile, or the two other tiles of a run, less what it has shown
    since (:func:`held_requirements`, read from the events). The engine's ``conform``
    gives each such seat the tiles, moving them within the rules. Returns the world, or
    ``None`` when it cannot be made to fit; the caller then draws another.
    """
    needs = _held(view)
    if not needs:
        return world
    return world.conform(view, needs, rng)


