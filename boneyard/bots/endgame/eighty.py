"""Exact Eighty endgames: alpha-beta over the tricks left, every hand known.

Eighty is a game of two sides, so a perfect-information position has one exact value:
the points (2 a trick plus the count tiles in it) the solver's side takes in the rest of
the hand, one side maximising and the other minimising. A hand's score margin is an
increasing function of the bidding side's points (more points never lose a made bid,
and shrink the other side's), so the play that maximises points is also the play that
maximises the score: :func:`boneyard.bots.endgame.finish_hand` plays the solver's moves
through the engine and reads the engine's own score. In Nel-O the value is +1 / -1 / 0:
whether the bidder is forced to take a trick (the hand ends there) or escapes.

The rules come from the engine module: its lookup :func:`~boneyard.games.eighty.engine.tables`
(the suit a tile leads, which tiles follow a suit) and its
:func:`~boneyard.games.eighty.engine.trick_winner`; the count from ``COUNT_BY_KEY``.

Speed: hands are lists of ``Tile.key`` ints, each seat's hand also an int code (two bits
a tile key: two copies of each tile exist), so the transposition table, consulted where a
trick starts, keys on ``(leader, codes)``. It stores lower and upper bounds and the best
lead, for fail-soft alpha-beta. Moves are ordered by the tile's power in the led suit,
strongest first. The classes use plain typed attributes so mypyc can compile the module.
"""

from __future__ import annotations

from typing import Any

from ...games.eighty.engine import COUNT_BY_KEY, PLAYS, SEATS, TRICK_POINTS, EightyAction, Tables, tables, trick_winner
from ...tiles import Tile, double_six

INF = 1 << 20
_TILE: list[Tile | None] = [None] * 64
for _t in double_six():
    _TILE[_t.key] = _t

# A transposition-table entry: (lower bound, upper bound, best move key or -1).
Entry = tuple[int, int, int]


class EightySolver:
    """The exact value of one Eighty play position with every hand known (see the module).

    Build it from a game in the play phase: ``EightySolver(game, seat)`` values the rest
    of the hand for ``seat``'s side. ``table`` lets several solvers of the same deal (the
    positions of one hand as it is played on) share what they learnt.
    """

    def __init__(self, game: Any, seat: int, table: dict[tuple[int, ...], Entry] | None = None) -> None:
        if str(game.phase) != "play":
            raise ValueError(f"the endgame solver needs a game in the play phase, not {game.phase}")
        self.tabs: Tables = tables(game.trump or 0, game.rules.doubles_suit)
        self.side = seat & 1
        self.nello_bidder = game.bidder if game.nello else -1
        after = [1, 2, 3, 0]
        if game.sitting_out is not None:
            # a Nel-O partner sits out: play passes over his seat
            after[(game.sitting_out - 1) % SEATS] = (game.sitting_out + 1) % SEATS
        self.after = after
        self.size = SEATS if game.sitting_out is None else SEATS - 1
        self.hands: list[list[int]] = [sorted((t.key for t in h), reverse=True) for h in game.hands]
        self.codes: list[int] = [0] * SEATS
        for s in range(SEATS):
            if s != game.sitting_out:
                for k in self.hands[s]:
                    self.codes[s] += 1 << (2 * k)
        self.trick: list[tuple[int, int]] = [(s, t.key) for s, t in game.trick]
        self.led = self.tabs.lead_suit[self.trick[0][1]] if self.trick else 0
        self.to_move: int = game.current_player
        self.table: dict[tuple[int, ...], Entry] = {} if table is None else table
        self.nodes = 0

    # ----- the public answers ------------------------------------------------------

    def value(self) -> int:
        """The exact value of the position for the solver's side (points, or Nel-O's +1/0/-1)."""
        return self._search(self.to_move, -INF, INF)

    def move_values(self) -> dict[EightyAction, int]:
        """Every legal play of the seat to move with the exact value of the position after it."""
        seat = self.to_move
        out: dict[EightyAction, int] = {}
        for k in self._moves(seat):
            out[PLAYS[k]] = self._after_play(seat, k, -INF, INF)
        return out

    def best(self) -> EightyAction:
        """The best play of the seat to move (for its own side), by alpha-beta at the root."""
        seat = self.to_move
        maximise = (seat & 1) == self.side
        alpha, beta = -INF, INF
        best_key = -1
        for k in self._moves(seat):
            v = self._after_play(seat, k, alpha, beta)
            if best_key < 0 or (v > alpha if maximise else v < beta):
                best_key = k
                if maximise:
                    alpha = v
                else:
                    beta = v
        return PLAYS[best_key]

    # ----- the search ------------------------------------------------------------------

    def _moves(self, seat: int) -> list[int]:
        """The distinct legal tile keys of ``seat``, strongest in the led suit first."""
        hand = self.hands[seat]
        if self.trick:
            member = self.tabs.member[self.led]
            follow = [k for k in hand if member[k]]
            if follow:
                hand = follow
            power = self.tabs.power[self.led]
        else:
            power = self.tabs.power[0]  # unused below for leads: rank by each tile's own suit
        out: list[int] = []
        for k in hand:
            if k not in out:
                out.append(k)
        if self.trick:
            out.sort(key=lambda k: -power[k])
        else:
            lead_suit = self.tabs.lead_suit
            pw = self.tabs.power
            out.sort(key=lambda k: -pw[lead_suit[k]][k])
        return out

    def _after_play(self, seat: int, k: int, alpha: int, beta: int) -> int:
        """The value after ``seat`` plays tile key ``k`` (the position restored afterwards)."""
        self.nodes += 1
        hand = self.hands[seat]
        at = hand.index(k)
        del hand[at]
        self.codes[seat] -= 1 << (2 * k)
        trick = self.trick
        led = self.led
        if not trick:
            self.led = self.tabs.lead_suit[k]
        trick.append((seat, k))
        if len(trick) < self.size:
            v = self._search(self.after[seat], alpha, beta)
        else:
            v = self._finish_trick(alpha, beta)
        trick.pop()
        self.led = led
        hand.insert(at, k)
        self.codes[seat] += 1 << (2 * k)
        return v

    def _finish_trick(self, alpha: int, beta: int) -> int:
        """Score the full trick, then search on from its winner's lead."""
        trick = self.trick
        plays = [(s, _TILE[k]) for s, k in trick]
        winner = trick_winner(plays, self.tabs)[0]  # type: ignore[arg-type]
        ours = (winner & 1) == self.side
        if self.nello_bidder >= 0:
            if winner == self.nello_bidder:
                return -1 if ours else 1  # the bidder took a trick: Nel-O is set, the hand ends
            gain = 0
        else:
            gain = TRICK_POINTS
            for _, k in trick:
                gain += COUNT_BY_KEY[k]
            if not ours:
                gain = 0
        saved = list(trick)
        trick.clear()
        led = self.led
        self.led = 0
        v = gain + self._search(winner, alpha - gain, beta - gain)
        self.led = led
        trick.extend(saved)
        return v

    def _search(self, seat: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta from a position where ``seat`` is to play."""
        hands = self.hands
        maximise = (seat & 1) == self.side
        key: tuple[int, ...] | None = None
        first = -1
        if not self.trick:
            if not hands[seat]:
                return 0  # every trick is played
            codes = self.codes
            key = (seat, codes[0], codes[1], codes[2], codes[3])
            entry = self.table.get(key)
            if entry is not None:
                lo, hi, first = entry
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        a0, b0 = alpha, beta
        moves = self._moves(seat)
        if first >= 0 and first in moves:
            moves.remove(first)
            moves.insert(0, first)
        best = -INF if maximise else INF
        best_key = -1
        for k in moves:
            v = self._after_play(seat, k, alpha, beta)
            if maximise:
                if v > best:
                    best, best_key = v, k
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_key = v, k
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        if key is not None:
            old = self.table.get(key)
            lo, hi = (-INF, INF) if old is None else (old[0], old[1])
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.table[key] = (lo, hi, best_key)
        return best
