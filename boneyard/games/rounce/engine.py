"""Domino Rounce: a five-trick game for 2-4 players counting down from 15.

Rules as in ``docs/rules/rounce.md``, its rulings included.
Flow of a hand: deal and turn-up, one call each from the left of the dealer (pass, fold,
dummy, and for the dealer take or defend), face-down discards where a call needs them,
five tricks, scoring. The game ends after the hand in which someone reaches 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from ...errors import IllegalAction
from ...rules import Rules
from ...tiles import Tile, double_six
from ..base import Game, deal_hidden

if TYPE_CHECKING:
    from . import events as E

START_POINTS: Final = 15
TRICKS: Final = 5
ROUNCE_PENALTY: Final = 5
_KEY: Final = attrgetter("key")  # hands sort by tile key: faster than comparing tiles


class Phase(StrEnum):
    """The named states of a Rounce hand."""

    CALL = "call"
    DISCARD = "discard"
    DEFEND = "defend"
    PLAY = "play"
    OVER = "over"


class RounceAction(NamedTuple):
    """A Rounce action: a call word, ``discard TILE`` or ``play TILE [as SUIT]``."""

    kind: str
    tile: Tile | None = None
    suit: int | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        if self.suit is None:
            return f"{self.kind} {self.tile}"
        return f"{self.kind} {self.tile} as {self.suit}"


PASS: Final = RounceAction("pass")
FOLD: Final = RounceAction("fold")
DUMMY: Final = RounceAction("dummy")
DEFEND: Final = RounceAction("defend")
TAKE: Final = RounceAction("take")
_WORDS: Final = {a.kind: a for a in (PASS, FOLD, DUMMY, DEFEND, TAKE)}
# Every tile action made once, by tile key (and suit): legal-action lists reuse them.
_PLAY: Final[dict[int, RounceAction]] = {t.key: RounceAction("play", t) for t in double_six()}
_PLAY_AS: Final[dict[int, RounceAction]] = {
    t.key * 8 + s: RounceAction("play", t, s) for t in double_six() for s in (t.high, t.low)
}
_DISCARD: Final[dict[int, RounceAction]] = {t.key: RounceAction("discard", t) for t in double_six()}
# Events made once and shared (nobody changes a logged event), by seat: the log entries of
# plays by tile key times 8 plus the suit named (7: none), and a trick's tiles by tile key.
_SEATS: Final = 4
_PLAY_EVENT: Final[list[list[Any]]] = [[None] * 512 for _ in range(_SEATS)]
_TRICK_PLAY: Final[list[list[Any]]] = [[None] * 64 for _ in range(_SEATS)]
for _s in range(_SEATS):
    for _t in double_six():
        _TRICK_PLAY[_s][_t.key] = {"seat": _s, "tile": _t.text}
        for _n in (7, _t.high, _t.low):
            _event = {"kind": "play", "seat": _s, "tile": _t.text, "suit": None if _n == 7 else _n}
            _PLAY_EVENT[_s][_t.key * 8 + _n] = (None, _event, None)
_FORMS = "pass, fold, dummy, defend, take, 'discard 6-4', 'play 6-4' or 'play 6-4 as 4'"


@dataclass(frozen=True)
class RounceRules(Rules):
    """Domino Rounce's options: only the hand limit every game has; the rulings fix every other point."""


class Play(NamedTuple):
    """A tile played to a trick: who, what, and the suit it counts in (``None``: off-suit)."""

    seat: int
    tile: Tile
    suit: int | None
    rank: int


# ----- the trick rules, as plain functions (the engine and the bots share them) ----------

# How a played tile counts in its trick: (its suit, or ``None`` off-suit; its rank).
Placed = tuple[int | None, int]


def placement(tile: Tile, trump: int, led: int | None, named: int | None = None) -> Placed:
    """The suit and rank ``tile`` counts as when played (rules of trumps and following).

    A trump is a trump (the trump double ranks as the trump number, the others by their
    other end). Leading (``led`` is ``None``) a plain tile, it counts in the suit named
    (``named``; else its higher end); following, in the led suit if it shows that number,
    else it is off-suit (rank -1) and cannot win.
    """
    if tile.high == trump or tile.low == trump:
        return trump, trump if tile.high == tile.low else tile.other(trump)
    if led is None:
        suit = tile.high if named is None else named
        return suit, tile.other(suit)
    if tile.has(led):
        return led, tile.other(led)
    return None, -1


def beats(a: Placed, b: Placed, trump: int, led: int | None) -> bool:
    """Whether play ``a`` beats play ``b`` in a trick led in suit ``led``: trumps, then the led suit."""
    if a[0] == trump:
        return b[0] != trump or a[1] > b[1]
    if b[0] == trump:
        return False
    return a[0] == led and (b[0] != led or a[1] > b[1])


def trick_winner(plays: Sequence[Placed], trump: int) -> int:
    """The index of the play winning a trick (or winning it so far); ``plays`` in order, the lead first."""
    led = plays[0][0]
    best = 0
    for i in range(1, len(plays)):
        if beats(plays[i], plays[best], trump, led):
            best = i
    return best


def legal_plays(hand: Sequence[Tile], trump: int, led: int | None, first_trick: bool) -> list[RounceAction]:
    """The legal plays from ``hand`` (rules of leading and following), in hand order.

    ``led``: the suit the trick was led in (``None``: this play leads); ``first_trick``: no
    trick of the hand is finished yet. A leader holding a trump must lead one after the
    first trick (in the first, only when holding three or more); a plain lead names its
    suit (one action per end). A follower must follow the led suit (trumps follow only a
    trump lead), else must trump when holding three or more trumps, else plays anything.
    The engine and the endgame solver both play by this function.
    """
    trumps = [t for t in hand if t.high == trump or t.low == trump]
    if led is None:
        if trumps and (not first_trick or len(trumps) >= 3):
            return [_PLAY[t.key] for t in trumps]
        out = []
        for t in hand:
            if t.high == trump or t.low == trump or t.high == t.low:
                out.append(_PLAY[t.key])
            else:
                out.append(_PLAY_AS[t.key * 8 + t.high])
                out.append(_PLAY_AS[t.key * 8 + t.low])
        return out
    if led == trump:
        follow = trumps
    else:
        follow = [t for t in hand if (t.high == led or t.low == led) and t.high != trump and t.low != trump]
    if follow:
        return [_PLAY[t.key] for t in follow]
    if len(trumps) >= 3:
        return [_PLAY[t.key] for t in trumps]
    return [_PLAY[t.key] for t in hand]


@mypyc_attr(allow_interpreted_subclasses=True)  # plug-ins and tests may subclass an engine
class Rounce(Game):
    """The Domino Rounce engine."""

    id = "rounce"
    order = 5
    lower_is_better = True
    name = "Domino Rounce"
    summary = (
        "A trick-taking game for 2-4 players with one double-six set. Everyone starts at 15 "
        "points; each trick taken counts one point off, and a player who plays a hand and "
        "takes no trick is rounced: 5 points back on. Before play each player may keep his "
        "five tiles, fold, or call a dummy hand. The first to reach 0 wins."
    )
    min_players = 2
    max_players = 4
    default_players = 4
    hand_size = 5
    Rules = RounceRules

    @classmethod
    def start_scores(cls, players: int, rules: Any) -> list[int]:
        """Every seat starts with fifteen points to work off."""
        return [START_POINTS] * players

    @classmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """Points left: a hand starts with everyone above 0 and takes at most five off a seat
        (so -4 at worst); a rounce puts five back on, at most once a hand."""
        return 1 - TRICKS, START_POINTS + ROUNCE_PENALTY * rules.max_hands

    @classmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """One call a seat, at most six more call-phase steps (two dummies' discards, the
        dealer's take, its discard and the defend choice), then five tricks."""
        return players + 6 + TRICKS * players

    @classmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """One double-six set."""
        return double_six()

    # ----- setup and dealing ---------------------------------------------------------

    def _setup(self, dealer: int | None) -> None:
        self.points = [START_POINTS] * self.players
        self.hand_number = 0
        self.last_result: dict[str, Any] | None = None
        first = dealer if dealer is not None else self.rng.randrange(self.players)
        event: E.FirstDealer = {"kind": "first_dealer", "seat": first}
        self._emit(event)
        self._deal(first)

    def _deal(self, dealer: int) -> None:
        if self._hand_limit_reached():
            return
        n = self.players
        deck = self._deck()
        self.hand_number += 1
        self.dealer = dealer
        self.hands = [sorted(deck[i * 5 : i * 5 + 5], key=_KEY, reverse=True) for i in range(n)]
        self.turn_up = deck[n * 5]
        self.trump = self.turn_up.high
        self.turn_up_taken = False
        self.boneyard = deck[n * 5 + 1 :]
        self.out: list[Tile] = []
        self.discarded: list[list[Tile]] = [[] for _ in range(n)]
        self.calls: list[str | None] = [None] * n
        self.defending = False
        self.dummies = 0
        self.due = 0
        self.trick: list[Play] = []
        self.tricks: list[tuple[int, list[Play], int]] = []
        self.trick_events: list[Any] = []  # the hand's trick events, which its end lists again
        self.won = [0] * n
        self.leader = self._next(dealer)
        self._new_hand()
        deal: E.Deal = {
            "kind": "deal",
            "hand": self.hand_number,
            "dealer": dealer,
            "turn_up": self.turn_up.text,
            "trump": self.trump,
        }
        self._emit(deal)
        for seat in range(n):
            dealt: E.Dealt = {"kind": "dealt", "seat": seat, "tiles": [t.text for t in self.hands[seat]]}
            self._emit(dealt, to=seat)
        self.phase = Phase.CALL
        self.current_player = self._next(dealer)

    # ----- legal actions ---------------------------------------------------------------

    def _legal(self) -> list[RounceAction]:
        phase = self.phase
        seat = self.current_player
        assert seat is not None
        if phase == Phase.PLAY:
            return self._legal_plays(seat)
        if phase == Phase.CALL:
            return self._legal_calls(seat)
        if phase == Phase.DISCARD:
            return [_DISCARD[t.key] for t in dict.fromkeys(self.hands[seat])]
        return [PASS, DEFEND]  # Phase.DEFEND: after taking the turn-up

    def _legal_calls(self, seat: int) -> list[RounceAction]:
        calls = [PASS]
        if self.players >= 3:
            calls.append(FOLD)
        if self.dummies < self._max_dummies():
            calls.append(DUMMY)
        if seat == self.dealer:
            calls.append(TAKE)
            if self._may_defend():
                calls.append(DEFEND)
        return calls

    def _max_dummies(self) -> int:
        return 1 if self.players == 4 else 2

    def _may_defend(self) -> bool:
        """Four players, and of the other three two folded and one took the dummy."""
        if self.players != 4:
            return False
        others = [c for s, c in enumerate(self.calls) if s != self.dealer]
        return others.count("fold") == 2 and others.count("dummy") == 1

    def _legal_plays(self, seat: int) -> list[RounceAction]:
        led = self.trick[0].suit if self.trick else None
        return legal_plays(self.hands[seat], self.trump, led, not self.tricks)

    # ----- applying actions --------------------------------------------------------------

    def _play(self, action: RounceAction) -> None:
        seat = self.current_player
        assert seat is not None
        kind = action.kind
        if kind == "play":
            self._play_tile(seat, action)
        elif kind == "discard":
            self._discard(seat, action.tile)  # type: ignore[arg-type]
        elif kind == "take":
            self.hands[seat].append(self.turn_up)
            self.hands[seat].sort(reverse=True)
            self.turn_up_taken = True
            self.calls[seat] = "take"
            self.due = 1
            self.phase = Phase.DISCARD
            take: E.Take = {"kind": "take", "seat": seat, "tile": self.turn_up.text}
            self._emit(take)
        elif kind == "defend":
            self.calls[seat] = "defend"
            self.defending = True
            defend: E.Defend = {"kind": "defend", "seat": seat}
            self._emit(defend)
            self._end_calls()
        elif kind == "dummy":
            self._dummy(seat)
        elif kind == "fold":
            self.calls[seat] = "fold"
            self.discarded[seat].extend(self.hands[seat])
            self.out.extend(self.hands[seat])
            self.hands[seat] = []
            fold: E.Fold = {"kind": "fold", "seat": seat}
            self._emit(fold)
            self._after_call(seat)
        else:  # pass: keep the hand (after a take, play on without defending)
            if self.phase == Phase.CALL:
                self.calls[seat] = "pass"
                passed: E.Pass = {"kind": "pass", "seat": seat}
                self._emit(passed)
            else:
                on: E.PlayOn = {"kind": "play_on", "seat": seat}
                self._emit(on)
            self._after_call(seat)

    def _dummy(self, seat: int) -> None:
        self.calls[seat] = "dummy"
        self.dummies += 1
        take = self.dummy_size()
        self.discarded[seat].extend(self.hands[seat])
        self.out.extend(self.hands[seat])
        self.hands[seat] = sorted(self.boneyard[:take], key=_KEY, reverse=True)
        del self.boneyard[:take]
        self.due = take - 5
        self.phase = Phase.DISCARD
        event: E.Dummy = {"kind": "dummy", "seat": seat, "count": take}
        self._emit(event)
        tiles: E.DummyTiles = {"kind": "dummy_tiles", "seat": seat, "tiles": [t.text for t in self.hands[seat]]}
        self._emit(tiles, to=seat)

    def _discard(self, seat: int, tile: Tile) -> None:
        self.hands[seat].remove(tile)
        self.out.append(tile)
        self.discarded[seat].append(tile)
        self.due -= 1
        mine: E.Discard = {"kind": "discard", "seat": seat, "tile": tile.text}
        public: E.Discard = {"kind": "discard", "seat": seat}
        self._emit(mine, to=seat, public=public)
        if self.due:
            return
        if self.calls[seat] == "take" and self._may_defend():
            self.phase = Phase.DEFEND
            return
        self._after_call(seat)

    def _after_call(self, seat: int) -> None:
        """Move to the next caller, or end the calls, applying the one-left-in rule."""
        still_in = [s for s in range(self.players) if self.calls[s] != "fold"]
        if len(still_in) == 1:
            self._five_without_play(still_in[0])
            return
        if seat == self.dealer:
            self._end_calls()
            return
        self.phase = Phase.CALL
        self.current_player = self._next(seat)

    def _end_calls(self) -> None:
        leader = self._next(self.dealer)
        while self.calls[leader] == "fold":
            leader = self._next(leader)
        self.leader = leader
        self.phase = Phase.PLAY
        self.current_player = leader

    def _five_without_play(self, seat: int) -> None:
        self.won[seat] = TRICKS
        event: E.Walkover = {"kind": "walkover", "seat": seat}
        self._emit(event)
        self._score_hand(seat)

    def _play_tile(self, seat: int, action: RounceAction) -> None:
        tile = action.tile
        assert tile is not None
        self.hands[seat].remove(tile)
        led = self.trick[0].suit if self.trick else None
        suit, rank = placement(tile, self.trump, led, action.suit)
        self.trick.append(Play(seat, tile, suit, rank))
        named = action.suit
        self._events.append(_PLAY_EVENT[seat][tile.key * 8 + (7 if named is None else named)])
        playing = self.players - self.calls.count("fold")
        if len(self.trick) < playing:
            nxt = self._next(seat)
            while self.calls[nxt] == "fold":
                nxt = self._next(nxt)
            self.current_player = nxt
            return
        winner = self._trick_winner(self.trick)
        self.won[winner] += 1
        self.tricks.append((self.leader, self.trick, winner))
        trick = _trick_event(winner, len(self.tricks), self.trick)
        self.trick_events.append(trick)
        self._emit(trick)
        self.trick = []
        if len(self.tricks) == TRICKS:
            self._score_hand()
            return
        self.leader = winner
        self.current_player = winner

    def _trick_winner(self, trick: list[Play]) -> int:
        return trick[trick_winner([(p.suit, p.rank) for p in trick], self.trump)].seat

    # ----- scoring and the game's end ----------------------------------------------------

    def _score_hand(self, walkover: int | None = None) -> None:
        changes = [0] * self.players
        rounced = []
        for seat in range(self.players):
            call = self.calls[seat]
            if call == "fold" or (self.defending and seat == self.dealer):
                continue
            changes[seat] = -self.won[seat]
            if self.won[seat] == 0:
                changes[seat] += ROUNCE_PENALTY
                rounced.append(seat)
                event: E.Rounced = {"kind": "rounced", "seat": seat}
                self._emit(event)
        for seat, change in enumerate(changes):
            self.points[seat] += change
        self.last_result = {
            "hand": self.hand_number,
            "tricks": list(self.won),
            "changes": changes,
            "points": list(self.points),
        }
        end: E.HandEnd = {
            "kind": "hand_end",
            "hand": self.hand_number,
            "dealer": self.dealer,
            "trump": self.trump,
            "calls": list(self.calls),
            "tricks": list(self.won),
            "rounced": rounced,
            "walkover": walkover,
            "played": list(self.trick_events),
            "points": list(changes),
            "totals": list(self.points),
        }
        self._emit_end(end)
        low = min(self.points)
        if low <= 0:
            self._end_game([s for s in range(self.players) if self.points[s] == low])
            return
        self._deal(self._next(self.dealer))

    @property
    def scores(self) -> list[int]:
        """Points left per seat (lowest is best)."""
        return list(self.points)

    # ----- notation and explanations -----------------------------------------------------

    @classmethod
    def parse_action(cls, text: Any) -> RounceAction:
        """Parse ``pass``, ``fold``, ``dummy``, ``defend``, ``take``, ``discard T``, ``play T [as S]``."""
        if not isinstance(text, str):
            raise IllegalAction(f"not a Rounce action: {text!r}; expected {_FORMS}")
        words = text.split()
        if len(words) == 1 and words[0] in _WORDS:
            return _WORDS[words[0]]
        try:
            if len(words) == 2 and words[0] in ("discard", "play"):
                return RounceAction(words[0], Tile.parse(words[1]))
            if len(words) == 4 and words[0] == "play" and words[2] == "as" and words[3].isdigit():
                tile = Tile.parse(words[1])
                suit = int(words[3])
                return RounceAction("play", tile, suit)
        except ValueError as err:
            raise IllegalAction(f"not a Rounce action: {text!r} ({err})") from None
        raise IllegalAction(f"not a Rounce action: {text!r}; expected {_FORMS}")

    def _explain(self, action: Any) -> str:
        seat = self.current_player
        if not isinstance(action, RounceAction):
            return f"not a Rounce action: {action!r}"
        phase = self.phase
        kind = action.kind
        if phase == Phase.DISCARD and kind != "discard":
            return f"you must first discard {_tiles(self.due)} face down"
        if phase == Phase.DEFEND and kind not in ("pass", "defend"):
            return "you have taken the turn-up and may now only defend or pass"
        if phase == Phase.CALL:
            if kind in ("play", "discard"):
                return f"you must call first (pass, fold, dummy{', take' if seat == self.dealer else ''})"
            if kind == "fold":
                return "folding is allowed only with 3 or 4 players"
            if kind == "dummy":
                return f"no more dummies this hand (at most {self._max_dummies()} with {self.players} players)"
            if kind == "take":
                return "only the dealer may take the turn-up, at his call"
            if kind == "defend":
                return (
                    "only the dealer may defend, with 4 players, when two others folded "
                    "and the third took the dummy"
                )
        if phase == Phase.PLAY:
            return self._explain_play(action)
        if action.tile is not None and seat is not None and action.tile not in self.hands[seat]:
            return f"you do not hold {action.tile}"
        return f"'{action}' is not legal now (phase {phase})"

    def _explain_play(self, action: RounceAction) -> str:
        seat = self.current_player
        assert seat is not None
        tile = action.tile
        if action.kind != "play" or tile is None:
            return "the calls are over: you must play a tile"
        if tile not in self.hands[seat]:
            return f"you do not hold {tile}"
        trump = self.trump
        is_trump = tile.has(trump)
        if not self.trick:
            if action.suit is not None and (is_trump or tile.is_double):
                return f"{tile} is a {'trump' if is_trump else 'double'}: play it without naming a suit"
            if action.suit is not None and not tile.has(action.suit):
                return f"{tile} cannot be led as suit {action.suit}"
            legal = self.legal_actions()
            if all(a.tile is not None and a.tile.has(trump) for a in legal) and not is_trump:
                if self.tricks:
                    return "a leader who won the previous trick must lead a trump while he holds one"
                return "a player holding three or more trumps must lead a trump"
            return f"a lead of {tile}, neither trump nor double, must name its suit: 'play {tile} as {tile.high}'"
        if action.suit is not None:
            return "only a lead names its suit; play a follow as 'play TILE'"
        led = self.trick[0].suit
        return (
            f"you must follow suit {led}" + (" (trumps)" if led == trump else "")
            if any(
                (t.has(trump) if led == trump else (led is not None and t.has(led) and not t.has(trump)))
                for t in self.hands[seat]
            )
            else "a player holding three or more trumps who cannot follow suit must play a trump"
        )

    # ----- views, locations, sampling ---------------------------------------------------

    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        view["hand_number"] = self.hand_number
        view["dealer"] = self.dealer
        view["trump"] = self.trump
        view["turn_up"] = str(self.turn_up)
        view["turn_up_taken"] = self.turn_up_taken
        view["calls"] = list(self.calls)
        view["defending"] = self.defending
        view["dummies"] = self.dummies
        view["discards_due"] = self.due
        view["hand"] = None if seat is None else [str(t) for t in self.hands[seat]]
        view["discarded"] = None if seat is None else [str(t) for t in self.discarded[seat]]
        view["hand_sizes"] = [len(h) for h in self.hands]
        view["boneyard"] = len(self.boneyard)
        view["out"] = len(self.out)
        view["leader"] = self.leader
        view["trick"] = [_play_json(p) for p in self.trick]
        view["tricks"] = [
            {"leader": lead, "plays": [_play_json(p) for p in plays], "winner": win}
            for lead, plays, win in self.tricks
        ]
        view["tricks_won"] = list(self.won)
        view["last_result"] = self.last_result

    def _copy(self) -> Rounce:
        # The containers play changes are copied; tiles, plays and gathered tricks never change.
        new: Rounce = self._copy_core()
        new.points = list(self.points)
        new.hands = [list(h) for h in self.hands]
        new.boneyard = list(self.boneyard)
        new.out = list(self.out)
        new.discarded = [list(d) for d in self.discarded]
        new.calls = list(self.calls)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.trick_events = list(self.trick_events)
        new.won = list(self.won)
        return new

    def tile_locations(self) -> dict[str, list[Tile]]:
        """Hands, boneyard, face-down discards, the turn-up (if not taken) and tricks played."""
        places = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        places["boneyard"] = list(self.boneyard)
        places["out"] = list(self.out)
        places["turn-up"] = [] if self.turn_up_taken else [self.turn_up]
        places["played"] = [p.tile for _, plays, _ in self.tricks for p in plays] + [p.tile for p in self.trick]
        return places

    def dummy_size(self) -> int:
        """How many tiles the dummy hand holds: seven at four players, six at fewer."""
        return 7 if self.players == 4 else 6

    def conform(self, view: dict[str, Any], keeps: Callable[[list[Tile]], bool],
                keep_value: Callable[[Tile], float], rng: random.Random) -> Rounce | None:
        """This sampled world (of ``view``'s call phase) made to agree with the other seats' calls.

        :meth:`sample` deals every hidden tile at random, but a call tells about the hand
        that made it. The caller models each other seat (not the dealer) by ``keeps`` (would
        it keep this five) and ``keep_value`` (which tiles it keeps after a draw); the engine
        replays the exchanges by its own rules:

        - a seat that passed must hold a hand it keeps; one that folded or called dummy
          threw away a hand it does not keep: its old hand is dealt from the face-down tiles;
        - a seat that called dummy draws the dummy hand from the face-down tiles and keeps
          the best five (by ``keep_value``) of its five and the draw; a dealer who took the
          turn-up keeps the best five of its old hand and the turn-up. The rest go face down.

        Returns the world (changed in place), or ``None`` when its hands contradict a call
        (the caller draws another). A deal this replay does not know (too few face-down
        tiles) is returned as dealt.
        """
        me = view["seat"]
        turn_up = self.turn_up
        mine = [Tile.parse(t) for t in view["discarded"] or ()]
        pile = list(self.out)
        for t in mine:
            pile.remove(t)
        if turn_up in pile:
            pile.remove(turn_up)
            spare_turn_up = True
        else:
            spare_turn_up = False
        rng.shuffle(pile)
        out = list(mine) + pile  # what lies face down once every exchange below is done
        dealer = self.dealer
        calls = self.calls
        for seat, call in enumerate(calls):
            if seat in (me, dealer) or call is None:
                continue
            if call == "pass":
                if not keeps(self.hands[seat]):
                    return None
            elif call in ("fold", "dummy"):
                if len(pile) < 5:
                    return self  # not a deal this replay knows: leave it as dealt
                old = pile[-5:]
                if keeps(old):
                    return None
                del pile[-5:]  # that hand lies face down, never to be drawn
        for seat, call in enumerate(calls):
            if seat == me or call not in ("dummy", "take"):
                continue
            if self.phase == Phase.DISCARD and self.current_player == seat:
                continue  # still discarding: its hand is all it drew
            hand = list(self.hands[seat])
            if len(hand) != 5:
                continue
            if call == "take":
                drawn = [t for t in hand if t != turn_up] + [turn_up]
                if turn_up not in hand:
                    spare_turn_up = False  # it was his discard: back in his hand to be judged
                extra = 6 - len(drawn)
            else:
                drawn = hand
                extra = self.dummy_size() - 5
            if len(pile) < extra:
                continue
            drawn = drawn + pile[:extra]
            for t in pile[:extra]:
                out.remove(t)
            del pile[:extra]
            drawn.sort(key=keep_value, reverse=True)
            self.hands[seat] = sorted(drawn[:5], reverse=True)
            out.extend(drawn[5:])
        if spare_turn_up:
            out.append(turn_up)
        self.out = out
        return self

    @classmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Rounce:
        """A game matching ``view``, the hidden tiles dealt at random within what play revealed."""
        n = view["players"]
        seat = view["seat"]
        game: Rounce = cls._blank(n, cls.Rules.from_dict(view["rules"]), rng.getrandbits(63))
        game._restore_common(view)
        game.points = list(view["scores"])
        game.hand_number = view["hand_number"]
        game.last_result = view["last_result"]
        game.dealer = view["dealer"]
        game.turn_up = Tile.parse(view["turn_up"])
        game.trump = view["trump"]
        game.turn_up_taken = view["turn_up_taken"]
        game.calls = list(view["calls"])
        game.defending = view["defending"]
        game.dummies = view["dummies"]
        game.due = view["discards_due"]
        game.leader = view["leader"]
        game.won = list(view["tricks_won"])
        game.trick = [_play_from(p) for p in view["trick"]]
        game.tricks = [(t["leader"], [_play_from(p) for p in t["plays"]], t["winner"]) for t in view["tricks"]]
        game.trick_events = [_trick_event(win, n, plays) for n, (_, plays, win) in enumerate(game.tricks, 1)]
        own = [Tile.parse(t) for t in view["hand"]] if seat is not None else []
        own_out = [Tile.parse(t) for t in view["discarded"]] if seat is not None else []
        sizes = list(view["hand_sizes"])
        known = list(own) + own_out
        known += [p.tile for _, plays, _ in game.tricks for p in plays] + [p.tile for p in game.trick]
        if not game.turn_up_taken:
            known.append(game.turn_up)
        pool = list(cls.full_set(game.rules))
        for t in known:
            pool.remove(t)
        others = [s for s in range(n) if s != seat]
        places = [sizes[s] for s in others] + [view["boneyard"], view["out"] - len(own_out)]
        allowed, limits = game._constraints(others)
        turn_up_owner = (
            others.index(game.dealer) if game.turn_up_taken and game.turn_up in pool and game.dealer != seat else None
        )

        def accept(deal: list[list[Tile]]) -> bool:
            for i, limit in enumerate(limits):
                if limit is not None and sum(1 for t in deal[i] if t.has(game.trump)) > limit:
                    return False
            if turn_up_owner is not None:
                return game.turn_up in deal[turn_up_owner] or game.turn_up in deal[-1]
            return True

        deal = deal_hidden(pool, places, rng, [*allowed, None, None], accept)
        game.hands = [[] for _ in range(n)]
        for i, s in enumerate(others):
            game.hands[s] = sorted(deal[i], reverse=True)
        if seat is not None:
            game.hands[seat] = sorted(own, reverse=True)
        game.boneyard = deal[-2]
        game.out = own_out + deal[-1]
        game.discarded = [[] for _ in range(n)]
        if seat is not None:
            game.discarded[seat] = own_out
        return game

    def _constraints(self, seats: list[int]) -> tuple[list[Any], list[int | None]]:
        """What the tricks so far prove about each seat's hand: void suits and a trump limit."""
        trump = self.trump
        void: dict[int, set[int]] = {s: set() for s in seats}
        limit: dict[int, int | None] = {s: None for s in seats}
        sequence = [(lead, plays) for lead, plays, _ in self.tricks] + [(self.leader, self.trick)]
        flat = [(k, p) for k, (_, plays) in enumerate(sequence) for p in plays]
        for index, (k, p) in enumerate(flat):
            if p.seat not in void:
                continue
            later_trumps = sum(1 for _, q in flat[index + 1 :] if q.seat == p.seat and q.tile.has(trump))
            leading = sequence[k][1][0] is p
            played_trump = p.tile.has(trump)
            bound: int | None = None
            if leading:
                if not played_trump:
                    bound = 0 if k > 0 else 2
            else:
                led = sequence[k][1][0].suit
                if p.suit != led:
                    void[p.seat].add(led)  # type: ignore[arg-type]
                    if not played_trump:
                        bound = 2
            if bound is not None:
                left = bound - later_trumps
                old = limit[p.seat]
                limit[p.seat] = left if old is None else min(old, left)
        allowed = []
        for s in seats:
            suits = frozenset(void[s])
            no_trump = limit[s] == 0 or trump in suits
            allowed.append(_allow(suits, trump, no_trump) if suits or no_trump else None)
        return allowed, [limit[s] for s in seats]


def _allow(void: frozenset[int], trump: int, no_trump: bool) -> Any:
    def check(tile: Tile) -> bool:
        if tile.high == trump or tile.low == trump:
            return not no_trump
        return not (tile.high in void or tile.low in void)

    return check


def _trick_event(winner: int, number: int, plays: list[Play]) -> E.Trick:
    """The ``trick`` event of a finished trick: its winner, its number and its tiles, the lead first."""
    shown = [_TRICK_PLAY[p.seat][p.tile.key] for p in plays]
    return {"kind": "trick", "seat": winner, "number": number, "plays": shown}


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def _play_json(p: Play) -> dict[str, Any]:
    return {"seat": p.seat, "tile": str(p.tile), "suit": p.suit, "rank": p.rank}


def _play_from(d: dict[str, Any]) -> Play:
    return Play(d["seat"], Tile.parse(d["tile"]), d["suit"], d["rank"])


GAME = Rounce
