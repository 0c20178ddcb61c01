"""Exact Rounce endgames for one seat: paranoid alpha-beta over the tricks left.

Rounce is scored per seat (each trick a point off, a rounce +5), so a position of three
or four players has no single minimax value. The solver takes the *paranoid* view: the
solver's seat maximises the tricks it takes in the rest of the hand, and every other seat
plays together to minimise them. That makes it a two-sided game with an exact value and
full alpha-beta pruning, and the value is what the seat can *guarantee*, whatever the
others do: a lower bound on its tricks. (Max-n, each seat maximising its own tricks, is
the other standard choice; it allows only shallow pruning and its value depends on how
ties between the others are broken, so it is not a guarantee of anything.) In Rounce the
paranoid assumption is close to the truth at the end of a hand: a trick taken by anyone
else is a trick the seat did not take, and each other seat wants tricks too.

A seat's hand score is a decreasing function of its tricks (-1 a trick, +5 for none), so
the plays that maximise tricks are the plays that minimise the seat's points:
:func:`boneyard.bots.endgame.finish_hand` plays the solver's moves through the engine and
reads the engine's own score.

The rules come from the engine module: :func:`~boneyard.games.rounce.engine.legal_plays`
(leading and following), :func:`~boneyard.games.rounce.engine.placement` (the suit and
rank a play counts as) and :func:`~boneyard.games.rounce.engine.trick_winner`. Legal play
lists are cached per (hand, led suit, first trick). The transposition table, consulted
where a trick starts, keys on the leader, whether the first trick is over, and each
seat's hand as a bit set of ``Tile.key``; it keeps lower and upper bounds and the best
lead.
"""

from __future__ import annotations

from typing import Any

from ...games.rounce.engine import TRICKS, Placed, RounceAction, legal_plays, placement, trick_winner
from ...tiles import Tile

INF = 1 << 20
Entry = tuple[int, int, int]  # lower bound, upper bound, index of the best lead in the move list


class RounceSolver:
    """The paranoid value of one Rounce play position for ``seat`` (see the module).

    ``RounceSolver(game, seat)``: the game must be in the play phase. ``table`` lets the
    solvers of the positions of one hand, played on, share what they learnt (the table
    belongs to one deal and one solver seat).
    """

    def __init__(self, game: Any, seat: int, table: dict[tuple[int, ...], Entry] | None = None) -> None:
        if str(game.phase) != "play":
            raise ValueError(f"the endgame solver needs a game in the play phase, not {game.phase}")
        n = game.players
        self.seat = seat
        self.trump: int = game.trump
        playing = [s for s in range(n) if game.calls[s] != "fold"]
        self.after: list[int] = [0] * n
        for i, s in enumerate(playing):
            self.after[s] = playing[(i + 1) % len(playing)]
        self.playing = playing
        self.size = len(playing)
        self.hands: list[list[Tile]] = [list(h) for h in game.hands]
        self.codes: list[int] = [0] * n
        for s in playing:
            for t in self.hands[s]:
                self.codes[s] |= 1 << t.key
        self.trick: list[tuple[int, Placed]] = [(p.seat, (p.suit, p.rank)) for p in game.trick]
        self.done = len(game.tricks)
        self.to_move: int = game.current_player
        self.table: dict[tuple[int, ...], Entry] = {} if table is None else table
        self._legal: dict[tuple[int, int, int, bool], list[RounceAction]] = {}
        self.nodes = 0

    # ----- the public answers ------------------------------------------------------

    def value(self) -> int:
        """The tricks the solver's seat is sure to take in the rest of the hand."""
        return self._search(self.to_move, -INF, INF)

    def move_values(self) -> dict[RounceAction, int]:
        """Every legal play of the seat to move with the solver seat's tricks after it."""
        mover = self.to_move
        return {a: self._after_play(mover, a, -INF, INF) for a in self._moves(mover)}

    def best(self) -> RounceAction:
        """The paranoid best play of the seat to move: the solver seat's most tricks, the others' fewest."""
        mover = self.to_move
        maximise = mover == self.seat
        alpha, beta = -INF, INF
        best: RounceAction | None = None
        for a in self._moves(mover):
            v = self._after_play(mover, a, alpha, beta)
            if best is None or (v > alpha if maximise else v < beta):
                best = a
                if maximise:
                    alpha = v
                else:
                    beta = v
        assert best is not None
        return best

    # ----- the search ------------------------------------------------------------------

    def _moves(self, seat: int) -> list[RounceAction]:
        led = self.trick[0][1][0] if self.trick else None
        first = self.done == 0
        key = (seat, self.codes[seat], -1 if led is None else led, first)
        found = self._legal.get(key)
        if found is None:
            found = self._legal[key] = legal_plays(self.hands[seat], self.trump, led, first)
        return found

    def _after_play(self, seat: int, action: RounceAction, alpha: int, beta: int) -> int:
        """The value after ``seat`` plays ``action`` (the position restored afterwards)."""
        self.nodes += 1
        tile = action.tile
        assert tile is not None
        hand = self.hands[seat]
        at = hand.index(tile)
        del hand[at]
        self.codes[seat] ^= 1 << tile.key
        trick = self.trick
        led = trick[0][1][0] if trick else None
        trick.append((seat, placement(tile, self.trump, led, action.suit)))
        if len(trick) < self.size:
            v = self._search(self.after[seat], alpha, beta)
        else:
            v = self._finish_trick(alpha, beta)
        trick.pop()
        hand.insert(at, tile)
        self.codes[seat] ^= 1 << tile.key
        return v

    def _finish_trick(self, alpha: int, beta: int) -> int:
        trick = self.trick
        winner = trick[trick_winner([p for _, p in trick], self.trump)][0]
        gain = 1 if winner == self.seat else 0
        saved = list(trick)
        trick.clear()
        self.done += 1
        v = gain + (0 if self.done == TRICKS else self._search(winner, alpha - gain, beta - gain))
        self.done -= 1
        trick.extend(saved)
        return v

    def _search(self, seat: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta from a position where ``seat`` is to play."""
        maximise = seat == self.seat
        key: tuple[int, ...] | None = None
        first = -1
        if not self.trick:
            if not self.hands[seat]:
                return 0
            key = (seat, 1 if self.done else 0, *[self.codes[s] for s in self.playing])
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
        order = list(range(len(moves)))
        if 0 < first < len(moves):
            order.remove(first)
            order.insert(0, first)
        best = -INF if maximise else INF
        best_i = -1
        for i in order:
            v = self._after_play(seat, moves[i], alpha, beta)
            if maximise:
                if v > best:
                    best, best_i = v, i
                    if v > alpha:
                        alpha = v
            elif v < best:
                best, best_i = v, i
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
            self.table[key] = (lo, hi, best_i)
        return best
