"""Greedy two-box on the engine's fast path: the one definition of greedy's value of a play, and its playouts.

:func:`values` is the heuristic ``greedy/twobox.py`` describes in words (score now, block
the count, keep doubles playable, keep a follow, lighten the hand), computed on a
:class:`~boneyard.games.twobox.engine.FastHand`: the greedy bot asks it about one view
(through :func:`~boneyard.games.twobox.engine.fast_view`), and :func:`outcomes` asks it
for every move of every seat to the hand's end on sampled deals, played by the engine's
fast path. The layout's rules (open ends, the count, what scores, a steal) are the
engine's functions; nothing here restates them. Compiled by mypyc with the engines.
"""

from __future__ import annotations

import random
from typing import Final

from ...draws import shuffle
from ...games.twobox.engine import (
    ARMS,
    DRAW_INDEX,
    PASS_INDEX,
    STACK,
    FastHand,
    count_after,
    end_points,
    layout_count,
    open_end,
    scored,
    steal_amount,
)


def pair(a: int, b: int) -> int:
    """The key of the tile with ends ``a`` and ``b``."""
    return a * 8 + b if a >= b else b * 8 + a


MAX_REMEMBERED: Final = 50_000  # layouts whose dangers are remembered (a few MB), then forgotten at once
_DANGERS: Final[dict[int, list[int]]] = {}


def dangers(spinner: int, has: list[bool], tile: list[int], outer: list[int], best: list[int],
            touched: list[int]) -> list[int]:
    """Every tile that would score if played next on this layout, with the most it would: ``[key, points, ...]``.

    The count after a play on an arm is the count with that arm holding a tile worth
    nothing, plus what the new end adds (:func:`~boneyard.games.twobox.engine.end_points`),
    so one count per open arm prices every tile that arm takes. ``best`` (64 zeros) and
    ``touched`` (28 slots) are scratch lists, given back as they came.
    """
    n = 0
    for a in range(ARMS):
        end = open_end(spinner, has, outer, a)
        if end < 0:
            continue
        base = count_after(spinner, has, tile, outer, a, 0, 0)  # the 0-0 showing 0 adds nothing
        for x in range(7):
            k = pair(end, x)
            score = scored(base + end_points(k, x))
            if score:
                was = best[k]
                if score > was:
                    if not was:
                        touched[n] = k
                        n += 1
                    best[k] = score
    found: list[int] = []
    for i in range(n):
        k = touched[i]
        found.append(k)
        found.append(best[k])
        best[k] = 0
    return found


def threat(spinner: int, has: list[bool], tile: list[int], outer: list[int], hidden: list[int], own: list[int],
           best: list[int], touched: list[int]) -> int:
    """The sum over the tiles a seat has not seen (with copies) of the most each could score if played next.

    What each tile could score depends on the layout alone (:func:`dangers`, remembered
    per layout); the copies of a tile the seat has not seen are ``hidden`` less ``own``
    (its hand).
    ``best`` (64 zeros) and ``touched`` (28 slots) are scratch lists for
    :func:`dangers`, given back as they came.
    """
    key = spinner  # the layout as threat sees it: each arm's outer end and whether its tile is a double
    for a in range(ARMS):
        key *= 16
        if has[a]:
            k = tile[a]
            key += 1 + 2 * outer[a] + (1 if k >> 3 == k & 7 else 0)
    found = _DANGERS.get(key)
    if found is None:
        found = dangers(spinner, has, tile, outer, best, touched)
        if len(_DANGERS) >= MAX_REMEMBERED:
            _DANGERS.clear()
        _DANGERS[key] = found
    total = 0
    for i in range(0, len(found), 2):
        k = found[i]
        total += found[i + 1] * (hidden[k] - own[k])
    return total


class Weights:
    """The heuristic's weights as plain floats (``greedy/twobox.py``'s ``Weights`` holds the values)."""

    def __init__(self, block: float, double: float, stranded: float, pip: float, out: float, follow: float) -> None:
        self.block = block
        self.double = double
        self.stranded = stranded
        self.pip = pip
        self.out = out
        self.follow = follow


def value(h: FastHand, move: int, p: float, w: Weights, best: list[int], touched: list[int]) -> float:
    """Greedy's value of one play or stack (an integer action) for the seat to move.

    ``best``, ``touched``: the scratch lists :func:`threat` takes. The layout is changed for the
    judgement and put back as it was.
    """
    seat = h.cur
    hand = h.hands[seat]
    has, tile, outer = h.has, h.tile, h.outer
    stack = move >= STACK
    rest = move - STACK if stack else move
    k = rest // 5
    arm = rest - k * 5
    double = k >> 3 == k & 7
    a = arm - 1
    was_has, was_tile, was_outer = False, 0, 0
    if stack:
        if h.cutthroat and h.steal_seat >= 0 and h.steal_points:
            score = steal_amount(h.steal_points, double) * 2  # gain plus the victim's loss
        else:
            score = scored(layout_count(h.spinner, has, tile, outer))
    else:
        end = open_end(h.spinner, has, outer, a)
        was_has, was_tile, was_outer = has[a], tile[a], outer[a]
        has[a] = True
        tile[a] = k
        outer[a] = k & 7 if k >> 3 == end else k >> 3
        score = scored(layout_count(h.spinner, has, tile, outer))
    danger = threat(h.spinner, has, tile, outer, h.hidden, hand, best, touched)
    v = score - w.block * (p * danger) + w.pip * ((k >> 3) + (k & 7))
    if double:
        v += w.double
    shown = 0  # the open numbers after the move, as bits
    for b in range(ARMS):
        e = open_end(h.spinner, has, outer, b)
        if e >= 0:
            shown |= 1 << e
    stranded = 0
    for x in range(7):
        d = x * 9
        copies = hand[d] - (1 if d == k else 0)
        if copies > 0 and not shown & (1 << x):
            stranded += copies
    v -= w.stranded * stranded
    if w.follow:  # off in the search's playouts: not counted there
        follow = 0
        for b in range(ARMS):
            e = open_end(h.spinner, has, outer, b)
            if e < 0:
                continue
            for x in range(7):
                u = pair(e, x)
                if hand[u] - (1 if u == k else 0) > 0:
                    follow += 1
                    break
        v += w.follow * follow
    if h.size[seat] == 1:
        v += w.out
    if not stack:
        has[a], tile[a], outer[a] = was_has, was_tile, was_outer
    return v


def above(a: int, b: int) -> bool:
    """Greedy's tie-break: whether move ``a``'s notation sorts after ``b``'s.

    "stack" sorts after "play", then the higher high end, low end and arm.
    """
    if (a >= STACK) != (b >= STACK):
        return a >= STACK
    ka, kb = (a % STACK) // 5, (b % STACK) // 5
    if ka >> 3 != kb >> 3:
        return ka >> 3 > kb >> 3
    if ka & 7 != kb & 7:
        return ka & 7 > kb & 7
    return a % 5 > b % 5


def values(h: FastHand, moves: list[int], w: Weights, scratch: list[list[int]] | None = None) -> list[float]:
    """Greedy's value of each of ``moves`` for the seat to move, judged from what that seat has seen.

    ``scratch``: :func:`new_scratch`'s lists, reused from one decision to the next by a playout.
    """
    seat = h.cur
    best, touched = new_scratch() if scratch is None else scratch
    total = -h.size[seat]  # the tiles it has not seen: the hidden ones less its own
    for c in h.hidden:
        total += c
    p = h.size[(seat + 1) % h.n] / max(1, total)
    return [value(h, m, p, w, best, touched) for m in moves]


def new_scratch() -> list[list[int]]:
    """The scratch lists :func:`threat` works in: 64 zeros (a score per tile) and 28 slots (tiles seen)."""
    return [[0] * 64, [0] * 28]


def pick(h: FastHand, moves: list[int], w: Weights, scratch: list[list[int]] | None = None) -> int:
    """The move greedy makes among ``moves`` (plays and stacks): the best value, ties to the later notation."""
    if len(moves) == 1:
        return moves[0]  # nothing to weigh
    found = values(h, moves, w, scratch)
    best = 0
    for i in range(1, len(moves)):
        if found[i] > found[best] or (found[i] == found[best] and above(moves[i], moves[best])):
            best = i
    return moves[best]


def play_out(h: FastHand, w: Weights, trace: list[int] | None = None) -> None:
    """Greedy for every seat to the end of the hand (or the game): play when it can, else draw, else pass."""
    scratch = new_scratch()
    while not h.over and not h.hand_over:
        moves = h.plays()
        if moves:
            move = pick(h, moves, w, scratch)
        else:
            move = DRAW_INDEX if h.boneyard else PASS_INDEX
        if trace is not None:
            trace.append(move)
        h.apply(move)


def outcomes(start: FastHand, candidates: list[int], rounds: int, seed: int, w: Weights) -> list[list[int]]:
    """Each candidate of each round played, then greedy to the hand's end: each seat's score, then the winner.

    Every round deals the boneyard in a fresh random order (the same for every candidate of
    the round: common random numbers). A row is the seats' final scores and the winner
    (-1 unless the game ended); rows are round by round, candidate by candidate.
    ``ValueError`` if a candidate is not legal in ``start``.
    """
    legal = start.legal()
    for c in candidates:
        if c not in legal:
            raise ValueError(f"candidate {c} is not a legal play, stack or draw")
    rng = random.Random(seed)
    rows: list[list[int]] = []
    for _ in range(rounds):
        deal = start.copy()
        shuffle(rng, deal.boneyard)
        for c in candidates:
            h = deal.copy()
            h.apply(c)
            play_out(h, w)
            row = h.points[:]
            row.append(h.winner if h.over else -1)
            rows.append(row)
    return rows
