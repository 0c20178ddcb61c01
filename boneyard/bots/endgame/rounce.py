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
lead. The search itself is shared with Eighty:
:class:`~boneyard.bots.endgame.search.TrickSearch`; this module gives its hooks.
"""

from __future__ import annotations

from typing import Any

from ...games.rounce.engine import TRICKS, Placed, RounceAction, legal_plays, placement, trick_winner
from ...tiles import Tile
from .search import TrickSearch

Entry = tuple[int, int, Any]  # lower bound, upper bound, the best lead (or None)


class RounceSolver(TrickSearch[RounceAction]):
    """The paranoid value of one Rounce play position for ``seat`` (see the module).

    ``RounceSolver(game, seat)``: the game must be in the play phase. ``table`` lets the
    solvers of the positions of one hand, played on, share what they learnt (the table
    belongs to one deal and one solver seat). ``value()`` (the tricks the seat is sure to
    take in the rest of the hand), ``move_values()`` and ``best()`` (the paranoid best
    play of the seat to move: the solver seat's most tricks, the others' fewest) come from
    :class:`~boneyard.bots.endgame.search.TrickSearch`.
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

    # ----- the hooks of TrickSearch -------------------------------------------------

    def _maximising(self, seat: int) -> bool:
        return seat == self.seat

    def _action(self, move: RounceAction) -> RounceAction:
        return move

    def _moves(self, seat: int) -> list[RounceAction]:
        led = self.trick[0][1][0] if self.trick else None
        first = self.done == 0
        key = (seat, self.codes[seat], -1 if led is None else led, first)
        found = self._legal.get(key)
        if found is None:
            found = self._legal[key] = legal_plays(self.hands[seat], self.trump, led, first)
        return found

    def _play(self, seat: int, move: RounceAction) -> Any:
        tile = move.tile
        assert tile is not None
        hand = self.hands[seat]
        at = hand.index(tile)
        del hand[at]
        self.codes[seat] ^= 1 << tile.key
        trick = self.trick
        led = trick[0][1][0] if trick else None
        trick.append((seat, placement(tile, self.trump, led, move.suit)))
        return at

    def _unplay(self, seat: int, move: RounceAction, undo: Any) -> None:
        tile = move.tile
        assert tile is not None
        self.trick.pop()
        self.hands[seat].insert(undo, tile)
        self.codes[seat] ^= 1 << tile.key

    def _trick_full(self) -> bool:
        return len(self.trick) >= self.size

    def _next(self, seat: int) -> int:
        return self.after[seat]

    def _close_trick(self) -> tuple[int, int]:
        trick = self.trick
        winner = trick[trick_winner([p for _, p in trick], self.trump)][0]
        gain = 1 if winner == self.seat else 0
        return gain, (-1 if self.done + 1 == TRICKS else winner)

    def _open_trick(self) -> Any:
        saved = list(self.trick)
        self.trick.clear()
        self.done += 1
        return saved

    def _reopen_trick(self, saved: Any) -> None:
        self.done -= 1
        self.trick.extend(saved)

    def _key(self, seat: int) -> tuple[int, ...] | None:
        if not self.hands[seat]:
            return None
        return (seat, 1 if self.done else 0, *[self.codes[s] for s in self.playing])
