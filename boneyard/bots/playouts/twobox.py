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


MAX_REMEMBERED: Final = 50_000  # layouts remembered (a few MB), then all forgotten at once
LAYOUTS: Final = 16**ARMS  # layout keys (:func:`layout_key`): a nibble per arm
_BITS: Final = [bin(i).count("1") for i in range(128)]  # set bits of each 7-bit number set


class Memory:
    """What each layout met so far around one spinner is worth (:func:`layout`), by key.

    Filled as layouts are met; forgotten when full or when the spinner changes (a new hand).
    """

    def __init__(self) -> None:
        self.at: list[list[int] | None] = []  # made on first use: most processes never play out two-box
        self.spinner = -1
        self.size = 0

    def forget(self, spinner: int) -> None:
        """Start afresh for layouts around ``spinner``."""
        self.at = [None] * LAYOUTS
        self.spinner = spinner
        self.size = 0


_MEMORY: Final = Memory()


def arm_nibble(has: bool, key: int, outer: int) -> int:
    """An arm as the layout's worth sees it: 0 empty, else 1 + twice its outer end, plus 1 for a double."""
    if not has:
        return 0
    return 1 + 2 * outer + (1 if key >> 3 == key & 7 else 0)


def layout_key(has: list[bool], tile: list[int], outer: list[int]) -> int:
    """The layout around a spinner as its worth depends on it: each arm's :func:`arm_nibble`.

    The count, the open ends and what each tile would score next all follow from these and
    the spinner's number (an arm adds its outer end, twice for a double), so equal keys
    around one spinner mean equal worth.
    """
    key = 0
    for a in range(ARMS):
        key = key * 16 + arm_nibble(has[a], tile[a], outer[a])
    return key


def worth(spinner: int, has: list[bool], tile: list[int], outer: list[int], best: list[int],
          touched: list[int]) -> list[int]:
    """What a layout is worth to a play, through the engine's rules: ``[score, shown, end0..end3, key, points, ...]``.

    ``score``: what a play leaving this layout scores (the count, when it scores);
    ``shown``: the open numbers as bits; ``end0..end3``: each arm's open number (-1: a tip
    not open yet); then every tile that would score if played next, with the most it would.
    The count after a play on an arm is the count with that arm holding a tile worth
    nothing, plus what the new end adds (:func:`~boneyard.games.twobox.engine.end_points`),
    so one count per open arm prices every tile that arm takes. ``best`` (64 zeros) and
    ``touched`` (28 slots) are scratch lists, given back as they came.
    """
    found = [scored(layout_count(spinner, has, tile, outer)), 0, -1, -1, -1, -1]
    shown = 0
    n = 0
    for a in range(ARMS):
        end = open_end(spinner, has, outer, a)
        found[2 + a] = end
        if end < 0:
            continue
        shown |= 1 << end
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
    found[1] = shown
    for i in range(n):
        k = touched[i]
        found.append(k)
        found.append(best[k])
        best[k] = 0
    return found


def layout(spinner: int, has: list[bool], tile: list[int], outer: list[int], key: int, best: list[int],
           touched: list[int]) -> list[int]:
    """:func:`worth` of the layout whose :func:`layout_key` is ``key``, remembered."""
    memory = _MEMORY
    if memory.spinner != spinner:
        memory.forget(spinner)
    found = memory.at[key]
    if found is None:
        found = worth(spinner, has, tile, outer, best, touched)
        if memory.size >= MAX_REMEMBERED:
            memory.forget(spinner)
        memory.at[key] = found
        memory.size += 1
    return found


def threat(spinner: int, has: list[bool], tile: list[int], outer: list[int], hidden: list[int], own: list[int],
           best: list[int], touched: list[int]) -> int:
    """The sum over the tiles a seat has not seen (with copies) of the most each could score if played next.

    What each tile could score depends on the layout alone (:func:`worth`, remembered per
    layout); the copies of a tile the seat has not seen are ``hidden`` less ``own`` (its
    hand). ``best`` (64 zeros) and ``touched`` (28 slots) are scratch lists for
    :func:`worth`, given back as they came.
    """
    found = layout(spinner, has, tile, outer, layout_key(has, tile, outer), best, touched)
    return unseen_sum(found, hidden, own)


def unseen_sum(found: list[int], hidden: list[int], own: list[int]) -> int:
    """The dangers of a :func:`worth` list weighed by the copies unseen: ``hidden`` less ``own``."""
    total = 0
    for i in range(2 + ARMS, len(found), 2):
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


class Judge:
    """One decision of greedy's, for the seat to move: what every move shares, worked out once.

    The layout now (its key, each arm's nibble and its :func:`worth`), the doubles in hand
    and the chance weight ``p``; :meth:`value` then judges a move from the worth of the
    layout it leaves, remembered by key, without changing the hand. A playout keeps one and
    :meth:`reset` it at every decision.
    """

    def __init__(self, w: Weights, best: list[int], touched: list[int]) -> None:
        self.w = w
        self.best = best
        self.touched = touched
        self.nibbles = [0] * ARMS
        self.h = FastHand(0, 0)
        self.hand: list[int] = []
        self.p = 0.0
        self.key = 0
        self.now: list[int] = []
        self.one = 0
        self.two = 0
        self.last = False

    def reset(self, h: FastHand, p: float) -> None:
        """Judge the seat to move in ``h`` now, ``p`` its chance weight (:func:`judge`)."""
        self.h = h
        self.p = p
        seat = h.cur
        hand = h.hands[seat]
        self.hand = hand
        has, tile, outer = h.has, h.tile, h.outer
        nibbles = self.nibbles
        key = 0
        for a in range(ARMS):
            n = arm_nibble(has[a], tile[a], outer[a])
            nibbles[a] = n
            key = key * 16 + n
        self.key = key
        self.now = layout(h.spinner, has, tile, outer, key, self.best, self.touched)
        held = h.held[seat]
        one = 0  # numbers of the doubles held: at least one copy, two copies
        two = 0
        for x in range(7):
            if held >> (x * 9) & 1:
                one |= 1 << x
                if hand[x * 9] > 1:
                    two |= 1 << x
        self.one = one
        self.two = two
        self.last = h.size[seat] == 1

    def after(self, move: int) -> list[int]:
        """The :func:`worth` of the layout ``move`` leaves (a stack leaves it as it is)."""
        if move >= STACK:
            return self.now
        k = move // 5
        a = move - k * 5 - 1
        h = self.h
        end = self.now[2 + a]
        out = k & 7 if k >> 3 == end else k >> 3
        shift = 4 * (ARMS - 1 - a)
        key = self.key + ((arm_nibble(True, k, out) - self.nibbles[a]) << shift)
        memory = _MEMORY
        found = memory.at[key]
        if found is not None:
            return found
        has, tile, outer = h.has, h.tile, h.outer
        was_has, was_tile, was_outer = has[a], tile[a], outer[a]
        has[a], tile[a], outer[a] = True, k, out
        found = layout(h.spinner, has, tile, outer, key, self.best, self.touched)
        has[a], tile[a], outer[a] = was_has, was_tile, was_outer
        return found

    def value(self, move: int) -> float:
        """Greedy's value of one play or stack (an integer action)."""
        h = self.h
        w = self.w
        hand = self.hand
        stack = move >= STACK
        k = (move - STACK if stack else move) // 5
        double = k >> 3 == k & 7
        found = self.after(move)
        if stack and h.cutthroat and h.steal_seat >= 0 and h.steal_points:
            score = steal_amount(h.steal_points, double) * 2  # gain plus the victim's loss
        else:
            score = found[0]
        danger = unseen_sum(found, h.hidden, hand)
        v = score - w.block * (self.p * danger) + w.pip * ((k >> 3) + (k & 7))
        shown = found[1]
        hidden = 127 ^ shown  # numbers on no open end after the move
        stranded = _BITS[self.one & hidden] + _BITS[self.two & hidden]
        if double:
            v += w.double
            if hidden & (1 << (k & 7)):
                stranded -= 1  # the double played is not left in hand
        v -= w.stranded * stranded
        if w.follow:  # off in the search's playouts: not counted there
            follow = 0
            for b in range(ARMS):
                e = found[2 + b]
                if e < 0:
                    continue
                for x in range(7):
                    u = pair(e, x)
                    if hand[u] - (1 if u == k else 0) > 0:
                        follow += 1
                        break
            v += w.follow * follow
        if self.last:
            v += w.out
        return v


def chance(h: FastHand, unseen: int = -1) -> float:
    """The weight of the next seat's threat: its tiles over the tiles the seat to move has not seen.

    ``unseen``: that count, when the caller keeps it (a playout does); else counted here.
    """
    seat = h.cur
    if unseen < 0:
        unseen = -h.size[seat]  # the hidden tiles less its own
        for c in h.hidden:
            unseen += c
    return h.size[(seat + 1) % h.n] / max(1, unseen)


def judge(h: FastHand, w: Weights, scratch: list[list[int]] | None = None) -> Judge:
    """A :class:`Judge` of the seat to move in ``h``."""
    best, touched = new_scratch() if scratch is None else scratch
    j = Judge(w, best, touched)
    j.reset(h, chance(h))
    return j


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
    j = judge(h, w, scratch)
    return [j.value(m) for m in moves]


def new_scratch() -> list[list[int]]:
    """The scratch lists :func:`worth` works in: 64 zeros (a score per tile) and 28 slots (tiles seen)."""
    return [[0] * 64, [0] * 28]


def pick(h: FastHand, moves: list[int], w: Weights, scratch: list[list[int]] | None = None) -> int:
    """The move greedy makes among ``moves`` (plays and stacks): the best value, ties to the later notation."""
    if len(moves) == 1:
        return moves[0]  # nothing to weigh
    return best_of(judge(h, w, scratch), moves)


def best_of(j: Judge, moves: list[int]) -> int:
    """The move of ``moves`` ``j`` values most, ties to the later notation (greedy's choice)."""
    best = moves[0]
    top = j.value(best)
    for i in range(1, len(moves)):
        m = moves[i]
        v = j.value(m)
        if v > top or (v == top and above(m, best)):
            best = m
            top = v
    return best


def play_out(h: FastHand, w: Weights, trace: list[int] | None = None, j: Judge | None = None) -> None:
    """Greedy for every seat to the end of the hand (or the game): play when it can, else draw, else pass.

    ``j``: a :class:`Judge` to reuse (a search's many playouts keep one).
    """
    if j is None:
        best, touched = new_scratch()
        j = Judge(w, best, touched)
    hidden = 0  # tiles in the hands and the boneyard: one fewer for each play or stack
    for c in h.hidden:
        hidden += c
    moves: list[int] = []
    while not h.over and not h.hand_over:
        h.plays_into(moves)
        if not moves:
            move = DRAW_INDEX if h.boneyard else PASS_INDEX
        elif len(moves) == 1:
            move = moves[0]
        else:
            j.reset(h, chance(h, hidden - h.size[h.cur]))
            move = best_of(j, moves)
        if move < DRAW_INDEX:
            hidden -= 1
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
    best, touched = new_scratch()
    j = Judge(w, best, touched)
    deal = start.copy()  # the start with this round's boneyard order: only the order changes
    h = start.copy()
    for _ in range(rounds):
        deal.boneyard[:] = start.boneyard
        shuffle(rng, deal.boneyard)
        for c in candidates:
            h.copy_from(deal)
            h.apply(c)
            play_out(h, w, None, j)
            row = h.points[:]
            row.append(h.winner if h.over else -1)
            rows.append(row)
    return rows
