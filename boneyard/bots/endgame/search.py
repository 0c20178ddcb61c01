"""The alpha-beta search both trick-game endgame solvers share, with per-game hooks.

A solver values the rest of a hand with every hand known, for one seat: fail-soft
alpha-beta over the plays, minimax between the seats that play for the solver's seat
(``_maximising``) and the others, with a transposition table consulted where a trick
starts. The table keeps a lower and an upper bound of each position and its best lead, so
a re-search with another window reuses them and tries the best lead first.

What differs between the games is in the hooks a subclass supplies: the legal plays in
search order (``_moves``), playing a tile into the trick and taking it back (``_play``,
``_unplay``), whether the trick is full, who plays next, a trick's result (the solver's
gain and the next leader, or the hand's end: ``_close_trick``), opening the next trick and
restoring the closed one (``_open_trick``, ``_reopen_trick``), the position's table key
(``_key``, ``None`` once the hand is played out) and the engine action of a move.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Generic, TypeVar

INF = 1 << 20
M = TypeVar("M", bound=Hashable)


class TrickSearch(Generic[M]):
    """Alpha-beta with a transposition table over one hand's remaining tricks (see the module)."""

    table: dict[tuple[int, ...], tuple[int, int, Any]]
    trick: list[Any]
    to_move: int
    nodes: int

    # ----- the public answers ------------------------------------------------------

    def value(self) -> int:
        """The exact value of the position for the solver's seat (see the game's solver)."""
        return self._search(self.to_move, -INF, INF)

    def move_values(self) -> dict[Any, int]:
        """Every legal play of the seat to move (as the engine's action) with the value after it."""
        mover = self.to_move
        return {self._action(m): self._after_play(mover, m, -INF, INF) for m in self._moves(mover)}

    def best(self) -> Any:
        """The best play of the seat to move for its own side, by alpha-beta at the root."""
        mover = self.to_move
        maximise = self._maximising(mover)
        alpha, beta = -INF, INF
        best: M | None = None
        for m in self._moves(mover):
            v = self._after_play(mover, m, alpha, beta)
            if best is None or (v > alpha if maximise else v < beta):
                best = m
                if maximise:
                    alpha = v
                else:
                    beta = v
        assert best is not None
        return self._action(best)

    # ----- the hooks ---------------------------------------------------------------------

    def _maximising(self, seat: int) -> bool:
        """Whether ``seat`` plays for the solver's seat."""
        raise NotImplementedError

    def _moves(self, seat: int) -> list[M]:
        """The legal plays of ``seat`` now, best-first guesses first (a list the search may not change)."""
        raise NotImplementedError

    def _action(self, move: M) -> Any:
        """The engine's action for a move."""
        raise NotImplementedError

    def _play(self, seat: int, move: M) -> Any:
        """Put ``seat``'s ``move`` into the trick; returns what :meth:`_unplay` needs."""
        raise NotImplementedError

    def _unplay(self, seat: int, move: M, undo: Any) -> None:
        """Take ``move`` back into ``seat``'s hand."""
        raise NotImplementedError

    def _trick_full(self) -> bool:
        """Whether every playing seat has played to the trick."""
        raise NotImplementedError

    def _next(self, seat: int) -> int:
        """The seat that plays after ``seat`` within a trick."""
        raise NotImplementedError

    def _close_trick(self) -> tuple[int, int]:
        """The full trick's gain for the solver and the next leader (-1: the hand ends here)."""
        raise NotImplementedError

    def _open_trick(self) -> Any:
        """Clear the full trick to start the next; returns what :meth:`_reopen_trick` needs."""
        raise NotImplementedError

    def _reopen_trick(self, saved: Any) -> None:
        """Restore the trick :meth:`_open_trick` cleared."""
        raise NotImplementedError

    def _key(self, seat: int) -> tuple[int, ...] | None:
        """The table key of a trick's start with ``seat`` to lead; ``None``: the hand is played out."""
        raise NotImplementedError

    # ----- the search ------------------------------------------------------------------

    def _after_play(self, seat: int, move: M, alpha: int, beta: int) -> int:
        """The value after ``seat`` plays ``move`` (the position restored afterwards)."""
        self.nodes += 1
        undo = self._play(seat, move)
        if self._trick_full():
            v = self._finish_trick(alpha, beta)
        else:
            v = self._search(self._next(seat), alpha, beta)
        self._unplay(seat, move, undo)
        return v

    def _finish_trick(self, alpha: int, beta: int) -> int:
        """Score the full trick, then search on from its winner's lead."""
        gain, leader = self._close_trick()
        if leader < 0:
            return gain
        saved = self._open_trick()
        v = gain + self._search(leader, alpha - gain, beta - gain)
        self._reopen_trick(saved)
        return v

    def _search(self, seat: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta from a position where ``seat`` is to play."""
        maximise = self._maximising(seat)
        key: tuple[int, ...] | None = None
        first: Any = None
        if not self.trick:
            key = self._key(seat)
            if key is None:
                return 0  # every trick is played
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
        if first is not None and first in moves and moves[0] != first:
            moves = [first, *(m for m in moves if m != first)]
        best = -INF if maximise else INF
        best_move: M | None = None
        for m in moves:
            v = self._after_play(seat, m, alpha, beta)
            if maximise:
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_move = v, m
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
            self.table[key] = (lo, hi, best_move)
        return best
