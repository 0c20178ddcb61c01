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

The search itself (alpha-beta, the transposition table) is shared with Rounce:
:class:`~boneyard.bots.endgame.search.TrickSearch`; this module gives its hooks.

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
from .search import TrickSearch

_TILE: list[Tile | None] = [None] * 64
for _t in double_six():
    _TILE[_t.key] = _t

# A transposition-table entry: (lower bound, upper bound, best lead's tile key or None).
Entry = tuple[int, int, Any]


class EightySolver(TrickSearch[int]):
    """The exact value of one Eighty play position with every hand known (see the module).

    Build it from a game in the play phase: ``EightySolver(game, seat)`` values the rest
    of the hand for ``seat``'s side. ``table`` lets several solvers of the same deal (the
    positions of one hand as it is played on) share what they learnt. ``value()``,
    ``move_values()`` (every legal play with the value after it) and ``best()`` come from
    :class:`~boneyard.bots.endgame.search.TrickSearch`.
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

    # ----- the hooks of TrickSearch -------------------------------------------------

    def _maximising(self, seat: int) -> bool:
        return (seat & 1) == self.side

    def _action(self, move: int) -> EightyAction:
        return PLAYS[move]

    def _moves(self, seat: int) -> list[int]:
        """The distinct legal tile keys of ``seat``, strongest in the led suit first."""
        hand = self.hands[seat]
        if self.trick:
            member = self.tabs.member[self.led]
            follow = [k for k in hand if member[k]]
            if follow:
                hand = follow
        out: list[int] = []
        for k in hand:
            if k not in out:
                out.append(k)
        if self.trick:
            power = self.tabs.power[self.led]
            out.sort(key=lambda k: -power[k])
        else:
            lead_suit = self.tabs.lead_suit
            pw = self.tabs.power
            out.sort(key=lambda k: -pw[lead_suit[k]][k])
        return out

    def _play(self, seat: int, move: int) -> Any:
        hand = self.hands[seat]
        at = hand.index(move)
        del hand[at]
        self.codes[seat] -= 1 << (2 * move)
        led = self.led
        if not self.trick:
            self.led = self.tabs.lead_suit[move]
        self.trick.append((seat, move))
        return (at, led)

    def _unplay(self, seat: int, move: int, undo: Any) -> None:
        at, led = undo
        self.trick.pop()
        self.led = led
        self.hands[seat].insert(at, move)
        self.codes[seat] += 1 << (2 * move)

    def _trick_full(self) -> bool:
        return len(self.trick) >= self.size

    def _next(self, seat: int) -> int:
        return self.after[seat]

    def _close_trick(self) -> tuple[int, int]:
        trick = self.trick
        plays = [(s, _TILE[k]) for s, k in trick]
        winner = trick_winner(plays, self.tabs)[0]  # type: ignore[arg-type]
        ours = (winner & 1) == self.side
        if self.nello_bidder >= 0:
            if winner == self.nello_bidder:
                return (-1 if ours else 1), -1  # the bidder took a trick: Nel-O is set, the hand ends
            return 0, winner
        if not ours:
            return 0, winner
        gain = TRICK_POINTS
        for _, k in trick:
            gain += COUNT_BY_KEY[k]
        return gain, winner

    def _open_trick(self) -> Any:
        saved = (list(self.trick), self.led)
        self.trick.clear()
        self.led = 0
        return saved

    def _reopen_trick(self, saved: Any) -> None:
        plays, led = saved
        self.trick.extend(plays)
        self.led = led

    def _key(self, seat: int) -> tuple[int, ...] | None:
        if not self.hands[seat]:
            return None
        codes = self.codes
        return (seat, codes[0], codes[1], codes[2], codes[3])
