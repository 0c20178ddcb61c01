"""Eighty: the partnership bidding and trick game with two blank-less double-six sets.

Rules as in ``docs/rules/eighty.md``, its rulings included.
Flow of a hand: the shuffler deals 10 tiles to each of the four seats (two lie out unseen);
one round of bidding from the shuffler's left (all pass: the next shuffler deals again);
the winning bidder names trumps (not for Nel-O); ten tricks, the bidder leading the first;
scoring. The game ends after the hand in which a side reaches the target (or, with
``marks``, the marks target).

For speed, a hand's trump and doubles setting is turned once into lookup tables indexed by
``Tile.key``: the suit a tile leads, which tiles belong to each suit (must follow it), and
each tile's power in a trick led in each suit.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from ...errors import IllegalAction
from ...rules import Rules, option
from ...tiles import Tile, double_six
from ..base import Game, deal_hidden

if TYPE_CHECKING:
    from . import events as E

SEATS: Final = 4
HAND: Final = 10
TRICKS: Final = 10
MIN_BID: Final = 50
MAX_BID: Final = 80
NELLO_VALUE: Final = 80
TRICK_POINTS: Final = 2
COUNT: Final = {Tile(5, 5): 10, Tile(6, 4): 10, Tile(4, 1): 5, Tile(3, 2): 5}

# Suit ids of a led tile: 1-6 a number, then these two.
TRUMP_SUIT: Final = 7
DOUBLES_SUIT: Final = 8
TOP: Final = 7  # the in-suit rank of the suit's double (above the other ends 1-6)
TRUMP_POWER: Final = 100  # added to a trump's rank so any trump beats any tile of the led suit


class Phase(StrEnum):
    """The named states of an Eighty hand."""

    BID = "bid"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


class EightyAction(NamedTuple):
    """An Eighty action: ``pass``, ``bid 55``, ``bid nel-o``, ``trump 5`` or ``play 6-4``."""

    kind: str
    number: int | None = None
    tile: Tile | None = None

    def __str__(self) -> str:
        kind = self.kind
        if kind == "play":
            return f"play {self.tile}"
        if kind == "nelo":
            return "bid nel-o"
        if kind == "pass":
            return "pass"
        return f"{kind} {self.number}"


PASS: Final = EightyAction("pass")
NELO: Final = EightyAction("nelo")
BIDS: Final = {n: EightyAction("bid", n) for n in range(MIN_BID, MAX_BID + 1)}
TRUMPS: Final = {n: EightyAction("trump", n) for n in range(1, 7)}
TRUMP_LIST: Final = list(TRUMPS.values())
# Tile.key -> the (interned) action playing that tile (PASS fills the unused keys).
PLAYS: Final[list[EightyAction]] = [PASS] * 64
for _t in double_six():
    PLAYS[_t.key] = EightyAction("play", None, _t)
# The log entries of plays by seat and Tile.key, made once and shared (nobody changes a logged event).
PLAY_ENTRIES: Final[list[list[Any]]] = [[None] * 64 for _ in range(SEATS)]
# A trick's tiles, as its events list them: {"seat", "tile"} by seat and Tile.key, shared likewise.
TRICK_PLAYS: Final[list[list[Any]]] = [[None] * 64 for _ in range(SEATS)]
TILE_TEXT: Final = [""] * 64  # Tile.key -> "6-4"
for _t in double_six():
    TILE_TEXT[_t.key] = str(_t)
    for _seat in range(SEATS):
        PLAY_ENTRIES[_seat][_t.key] = (None, {"kind": "play", "seat": _seat, "tile": _t.text}, None)
        TRICK_PLAYS[_seat][_t.key] = {"seat": _seat, "tile": _t.text}
_BY_KEY: Final = attrgetter("key")
_FORMS = "'pass', 'bid 55' (50 to 80), 'bid nel-o', 'trump 5' (1 to 6) or 'play 6-4'"
# Tile.key -> count points of that tile.
COUNT_BY_KEY: Final = [0] * 64
for _t, _v in COUNT.items():
    COUNT_BY_KEY[_t.key] = _v


@dataclass(frozen=True)
class EightyRules(Rules):
    """Eighty's options (see ``docs/rules/eighty.md``)."""

    nello: bool = option(
        False,
        label="Nel-O",
        doc="allow the Nel-O bid: the bidder, his partner sitting out, must take no trick",
    )
    doubles_suit: bool = option(
        False,
        label="Doubles are a suit",
        doc="doubles form their own suit (6-6 high); a led double must be followed by a double",
    )
    marks: bool = option(
        False,
        label="Play for marks",
        doc="score one mark per hand won (bid made, or set) instead of points",
    )
    target: int = option(250, label="Target", minimum=1, maximum=1000, doc="points a side needs to win the game")
    marks_target: int = option(
        10,
        label="Marks to win",
        minimum=1,
        maximum=100,
        doc="marks a side needs to win the game when marks=True",
    )


class Tables(NamedTuple):
    """One hand's trump setting as lookup tables indexed by ``Tile.key``."""

    lead_suit: list[int]  # the suit a led tile asks for
    member: list[list[bool]]  # member[suit][key]: the tile belongs to that suit (follows it)
    power: list[list[int]]  # power[led suit][key]: strength in a trick led in that suit, -1 none


_TABLES: Final[dict[tuple[int, bool], Tables]] = {}


def tables(trump: int, doubles_suit: bool) -> Tables:
    """The lookup tables for a trump number (0: no trumps) and the doubles setting."""
    found = _TABLES.get((trump, doubles_suit))
    if found is not None:
        return found
    lead_suit = [0] * 64
    member = [[False] * 64 for _ in range(DOUBLES_SUIT + 1)]
    power = [[-1] * 64 for _ in range(DOUBLES_SUIT + 1)]
    for t in double_six(blanks=False):
        k = t.key
        if trump and t.has(trump):
            lead_suit[k] = TRUMP_SUIT
            member[TRUMP_SUIT][k] = True
            rank = TOP if t.is_double else t.other(trump)
            for led in range(1, DOUBLES_SUIT + 1):
                power[led][k] = TRUMP_POWER + rank
        elif doubles_suit and t.is_double:
            lead_suit[k] = DOUBLES_SUIT
            member[DOUBLES_SUIT][k] = True
            power[DOUBLES_SUIT][k] = t.high
        else:
            lead_suit[k] = t.high
            for n in {t.high, t.low}:
                member[n][k] = True
                power[n][k] = TOP if t.is_double else t.other(n)
    found = _TABLES[(trump, doubles_suit)] = Tables(lead_suit, member, power)
    return found


def lead_suit(tile: Tile, trump: int, doubles_suit: bool) -> int:
    """The suit a led tile asks for: trumps, doubles (if they are a suit), else its higher end.

    ``trump``: the trump number (0: no trumps, as in Nel-O). One of the trick rules the
    engine plays by; bots call it rather than re-deriving it.
    """
    return tables(trump, doubles_suit).lead_suit[tile.key]


def power(tile: Tile, led: int, trump: int, doubles_suit: bool) -> int:
    """A tile's strength in a trick led in suit ``led`` (-1: it cannot win that trick)."""
    return tables(trump, doubles_suit).power[led][tile.key]


def trick_winner(plays: Sequence[tuple[int, Tile]], tabs: Tables) -> tuple[int, int]:
    """Who wins a trick (or is winning it so far): (seat, power of the winning tile).

    ``plays``: (seat, tile) in the order played, the lead first; ``tabs``: the hand's
    :func:`tables`. The strictly strongest tile in the led suit wins; of two identical
    tiles the first played wins.
    """
    power_of = tabs.power[tabs.lead_suit[plays[0][1].key]]
    best = -1
    winner = plays[0][0]
    for seat, t in plays:
        p = power_of[t.key]
        if p > best:
            best = p
            winner = seat
    return winner, best


def suit_name(suit: int | None) -> str | None:
    """A led suit id as the view writes it: ``"trump"``, ``"doubles"``, ``"5"``; ``None`` if none."""
    if suit is None:
        return None
    if suit == TRUMP_SUIT:
        return "trump"
    if suit == DOUBLES_SUIT:
        return "doubles"
    return str(suit)


class Trick(NamedTuple):
    """A finished trick: its leader, the plays in order (seat, tile), the winner, points won.

    ``shown`` is its ``trick`` event, which the hand's end lists again (``played``).
    """

    leader: int
    plays: tuple[tuple[int, Tile], ...]
    winner: int
    points: int
    shown: dict[str, Any]


def _shown(plays: Sequence[tuple[int, Tile]], winner: int, points: int, number: int) -> dict[str, Any]:
    """A finished trick's ``trick`` event: its winner, number and worth, and its tiles, the lead first."""
    event: E.Trick = {
        "kind": "trick", "seat": winner, "number": number, "points": points,
        "plays": [TRICK_PLAYS[s][t.key] for s, t in plays],
    }
    return event  # type: ignore[return-value]


@mypyc_attr(allow_interpreted_subclasses=True)  # plug-ins and tests may subclass an engine
class Eighty(Game):
    """The Eighty engine (four seats, partners 0+2 and 1+3)."""

    id = "eighty"
    order = 4
    name = "Eighty"
    summary = (
        "A partnership trick-taking game for four players with two double-six sets stripped "
        "of their blanks. Each player bids once for how many of the hand's 80 points his side "
        "will take (2 a trick plus the 5- and 10-point count tiles); the highest bidder names "
        "trumps and leads. Made bids score what was taken; a set bid gives the bid to the other "
        "side. First side to 250 wins. Options: Nel-O (lose every trick), doubles as a suit, marks."
    )
    min_players = 4
    max_players = 4
    default_players = 4
    teams = True
    hand_size = HAND
    Rules = EightyRules

    @classmethod
    def sides(cls, players: int, rules: Any = None) -> list[list[int]]:
        """Two partnerships: seats 0 and 2 against seats 1 and 3."""
        return [[0, 2], [1, 3]]

    @classmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """A side's points (or marks) only grow and the game ends when one reaches its target;
        one hand adds at most the bid plus every point in the hand (tricks and count)."""
        if rules.marks:
            return 0, rules.marks_target
        in_hand = TRICKS * TRICK_POINTS + sum(COUNT.get(t, 0) for t in cls.full_set(rules))
        return 0, rules.target - 1 + max(NELLO_VALUE, MAX_BID + in_hand)

    @classmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """One bid a seat, the trump, then ten tricks of four."""
        return SEATS + 1 + SEATS * TRICKS

    @classmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """Two double-six sets with every blank tile removed: 42 tiles."""
        return double_six(2, blanks=False)

    # ----- setup and dealing ---------------------------------------------------------

    def _setup(self, dealer: int | None) -> None:
        self.points = [0, 0]
        self.marks = [0, 0]
        self.hand_number = 0
        self.last_result: dict[str, Any] | None = None
        first = dealer if dealer is not None else self.rng.randrange(SEATS)
        event: E.FirstDealer = {"kind": "first_dealer", "seat": first}
        self._emit(event)
        self._deal(first)

    def _deal(self, shuffler: int) -> None:
        if self._hand_limit_reached():
            return
        deck = self._deck()
        self.hand_number += 1
        self.shuffler = shuffler
        self.hands = [sorted(deck[s * HAND : s * HAND + HAND], key=_BY_KEY, reverse=True) for s in range(SEATS)]
        self.out = deck[SEATS * HAND :]
        self.bids: list[int | str | None] = [None] * SEATS
        self.high: int | str | None = None
        self.bidder: int | None = None
        self.trump: int | None = None
        self.nello = False
        self.sitting_out: int | None = None
        self.trick: list[tuple[int, Tile]] = []
        self.led: int | None = None
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * SEATS
        self.taken = [0, 0]
        self.leader: int | None = None
        self._tables: Tables | None = None
        self._after = [1, 2, 3, 0]
        self._trick_size = SEATS
        self._new_hand()
        deal: E.Deal = {"kind": "deal", "hand": self.hand_number, "dealer": shuffler}
        self._emit(deal)
        for seat in range(SEATS):
            dealt: E.Dealt = {"kind": "dealt", "seat": seat, "tiles": [TILE_TEXT[t.key] for t in self.hands[seat]]}
            self._emit(dealt, to=seat)
        self.phase = Phase.BID
        self.current_player = (shuffler + 1) % SEATS

    # ----- legal actions ---------------------------------------------------------------

    def _legal(self) -> list[EightyAction]:
        if self.phase == Phase.PLAY:
            hand = self.hands[self.current_player]  # type: ignore[index]
            if self.trick:
                member = self._tables.member[self.led]  # type: ignore[union-attr,index]
                follow = [t for t in hand if member[t.key]]
                if follow:
                    hand = follow
            out = []
            prev = None
            for t in hand:
                if t is not prev:
                    out.append(PLAYS[t.key])
                    prev = t
            return out
        if self.phase == Phase.BID:
            high = self.high
            low = MIN_BID if high is None else high + 1  # type: ignore[operator]
            out = [PASS]
            out.extend(BIDS[n] for n in range(low, MAX_BID + 1))
            if self.rules.nello:
                out.append(NELO)
            return out
        return list(TRUMP_LIST)

    # ----- applying actions --------------------------------------------------------------

    def _play(self, action: EightyAction) -> None:
        kind = action.kind
        if kind == "play":
            self._play_tile(action.tile)  # type: ignore[arg-type]
        elif kind == "trump":
            self._name_trump(action.number)  # type: ignore[arg-type]
        else:
            self._bid(action)

    def _bid(self, action: EightyAction) -> None:
        seat = self.current_player
        assert seat is not None
        if action.kind == "pass":
            self.bids[seat] = "pass"
            passed: E.Pass = {"kind": "pass", "seat": seat}
            self._emit(passed)
        else:
            bid: int | str = "nel-o" if action.kind == "nelo" else action.number  # type: ignore[assignment]
            self.bids[seat] = self.high = bid
            self.bidder = seat
            made: E.MakeBid = {"kind": "bid", "seat": seat, "bid": bid}  # type: ignore[typeddict-item]
            self._emit(made)
        if seat == self.shuffler or self.high == "nel-o" or self.high == MAX_BID:
            self._end_bidding()
        else:
            self.current_player = (seat + 1) % SEATS

    def _end_bidding(self) -> None:
        bidder = self.bidder
        if bidder is None:
            thrown: E.ThrownIn = {"kind": "thrown_in", "hand": self.hand_number, "dealer": (self.shuffler + 1) % SEATS}
            self._emit_end(thrown)
            self._deal((self.shuffler + 1) % SEATS)
            return
        won: E.BidWon = {
            "kind": "bid_won", "seat": bidder, "bid": self.high,  # type: ignore[typeddict-item]
            "early": self.current_player != self.shuffler,
        }
        self._emit(won)
        if self.high == "nel-o":
            self.nello = True
            self.sitting_out = (bidder + 2) % SEATS
            after = [1, 2, 3, 0]
            before = (self.sitting_out - 1) % SEATS
            after[before] = (self.sitting_out + 1) % SEATS
            self._after = after
            self._trick_size = SEATS - 1
            nel_o: E.NelO = {"kind": "nel_o", "seat": self.sitting_out}
            self._emit(nel_o)
            self._start_play(0)
            return
        self.phase = Phase.TRUMP
        self.current_player = bidder

    def _name_trump(self, trump: int) -> None:
        named: E.Trump = {"kind": "trump", "seat": self.bidder, "suit": trump}  # type: ignore[typeddict-item]
        self._emit(named)
        self._start_play(trump)

    def _start_play(self, trump: int) -> None:
        self.trump = trump or None
        self._tables = tables(trump, self.rules.doubles_suit)
        self.phase = Phase.PLAY
        self.leader = self.current_player = self.bidder

    def _play_tile(self, tile: Tile) -> None:
        seat: int = self.current_player  # type: ignore[assignment]
        self.hands[seat].remove(tile)
        trick = self.trick
        key = tile.key
        if not trick:
            self.led = self._tables.lead_suit[key]  # type: ignore[union-attr]
        trick.append((seat, tile))
        self._events.append(PLAY_ENTRIES[seat][key])
        if len(trick) < self._trick_size:
            self.current_player = self._after[seat]
            return
        self._end_trick(trick)

    def _end_trick(self, trick: list[tuple[int, Tile]]) -> None:
        winner = trick_winner(trick, self._tables)[0]  # type: ignore[arg-type]
        points = TRICK_POINTS
        for _, t in trick:
            points += COUNT_BY_KEY[t.key]
        tricks = self.tricks
        shown = _shown(trick, winner, points, len(tricks) + 1)
        tricks.append(Trick(self.leader, tuple(trick), winner, points, shown))  # type: ignore[arg-type]
        self.tricks_won[winner] += 1
        self.taken[winner & 1] += points
        self.trick = []
        self.led = None
        self._emit(shown)
        if (self.nello and winner == self.bidder) or len(tricks) == TRICKS:
            self._score_hand()
            return
        self.leader = self.current_player = winner

    # ----- scoring and the game's end ----------------------------------------------------

    def _score_hand(self) -> None:
        bidder: int = self.bidder  # type: ignore[assignment]
        side = bidder & 1
        other = 1 - side
        gains = [0, 0]
        if self.nello:
            made = self.tricks_won[bidder] == 0
            gains[side if made else other] = NELLO_VALUE
            bid_value: int = NELLO_VALUE
        else:
            bid_value = self.high  # type: ignore[assignment]
            made = self.taken[side] >= bid_value
            if made:
                gains[side] = self.taken[side]
            else:
                gains[other] = bid_value
            gains[other] += self.taken[other]
        hand_winner = side if made else other
        for s in (0, 1):
            self.points[s] += gains[s]
        self.marks[hand_winner] += 1
        # The hand's figures, each list made once and shared by ``last_result`` and the
        # ``hand_end`` event (neither is changed after this).
        tricks = [self.tricks_won[0] + self.tricks_won[2], self.tricks_won[1] + self.tricks_won[3]]
        taken = list(self.taken)
        marks = list(self.marks)
        self.last_result = {
            "hand": self.hand_number,
            "bidder": bidder,
            "bid": self.high,
            "trump": self.trump,
            "sitting_out": self.sitting_out,
            "made": made,
            "tricks": tricks,
            "taken": taken,
            "gains": gains,
            "points": list(self.points),
            "marks": marks,
            "hand_won_by": [hand_winner, hand_winner + 2],
        }
        if self.nello and not made:
            nel_o_set: E.NelOSet = {"kind": "nel_o_set", "seat": bidder}
            self._emit(nel_o_set)
        by_side = [int(s == hand_winner) for s in (0, 1)] if self.rules.marks else gains
        end: E.HandEnd = {
            "kind": "hand_end",
            "hand": self.hand_number,
            "bidder": bidder,
            "bid": self.high,  # type: ignore[typeddict-item]
            "trump": self.trump,
            "sitting_out": self.sitting_out,
            "made": made,
            "tricks": tricks,
            "taken": taken,
            "gains": gains,
            "marks": marks,
            "scoring": "marks" if self.rules.marks else "points",
            "played": [t.shown for t in self.tricks],  # type: ignore[misc]
            "points": [by_side[s & 1] for s in range(SEATS)],
            "totals": self.scores,
        }
        self._emit_end(end)
        won = self._game_winner(side)
        if won is not None:
            self._end_game([won, won + 2])
            return
        self._deal((self.shuffler + 1) % SEATS)

    def _game_winner(self, bidding_side: int) -> int | None:
        """The side that has won the game after this hand, or ``None``."""
        if self.rules.marks:
            reached = [s for s in (0, 1) if self.marks[s] >= self.rules.marks_target]
        else:
            reached = [s for s in (0, 1) if self.points[s] >= self.rules.target]
        if not reached:
            return None
        if len(reached) == 2:
            return bidding_side
        return reached[0]

    @property
    def scores(self) -> list[int]:
        """Each seat's side's score: points, or marks when ``marks=True``."""
        s = self.marks if self.rules.marks else self.points
        return [s[0], s[1], s[0], s[1]]

    # ----- notation and explanations -----------------------------------------------------

    @classmethod
    def parse_action(cls, text: Any) -> EightyAction:
        """Parse ``pass``, ``bid N``, ``bid nel-o``, ``trump N`` or ``play T``."""
        if not isinstance(text, str):
            raise IllegalAction(f"not an Eighty action: {text!r}; expected {_FORMS}")
        words = text.split()
        if words == ["pass"]:
            return PASS
        if len(words) == 2:
            word, arg = words
            if word == "play":
                try:
                    tile = Tile.parse(arg)
                except ValueError as err:
                    raise IllegalAction(f"not an Eighty action: {text!r} ({err})") from None
                return PLAYS[tile.key]
            if word == "bid" and arg == "nel-o":
                return NELO
            if word in ("bid", "trump") and arg.isascii() and arg.isdigit():
                n = int(arg)
                known = (BIDS if word == "bid" else TRUMPS).get(n)
                return known if known is not None else EightyAction(word, n)
        raise IllegalAction(f"not an Eighty action: {text!r}; expected {_FORMS}")

    def _explain(self, action: Any) -> str:
        if not isinstance(action, EightyAction):
            return f"not an Eighty action: {action!r}; expected {_FORMS}"
        seat = self.current_player
        kind = action.kind
        phase = self.phase
        if phase == Phase.BID:
            if kind in ("play", "trump"):
                return "the bidding is not over: you must bid or pass"
            if kind == "nelo":
                return "nel-o may not be bid: the rules option 'nello' is off"
            n = action.number
            if n is None or not MIN_BID <= n <= MAX_BID:
                return f"a bid is a whole number from {MIN_BID} to {MAX_BID}"
            return f"a bid must be higher than the current bid of {self.high}"
        if phase == Phase.TRUMP:
            if kind == "trump":
                return "trumps are named by a number from 1 to 6 (there are no blanks)"
            return "you won the bidding and must now name trumps: 'trump 1' to 'trump 6'"
        if kind != "play" or action.tile is None:
            return "the bidding is over: you must play a tile"
        tile = action.tile
        if seat is None or tile not in self.hands[seat]:
            return f"you do not hold {tile}"
        led = self.led
        if led == TRUMP_SUIT:
            return f"you must follow the trump lead with a trump (a tile holding {self.trump})"
        if led == DOUBLES_SUIT:
            return "you must follow the lead of a double with a double"
        rest = []
        if self.trump:
            rest.append(f"not a trump (holding {self.trump})")
        if self.rules.doubles_suit:
            rest.append("not a double")
        extra = f" that is {' and '.join(rest)}" if rest else ""
        return f"you must follow suit {led}: play a tile holding {led}{extra}"

    # ----- views, locations, copying, sampling ---------------------------------------------

    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        tw = self.tricks_won
        view["hand_number"] = self.hand_number
        view["shuffler"] = self.shuffler
        view["bids"] = list(self.bids)
        view["high_bid"] = self.high
        view["bidder"] = self.bidder
        view["nello"] = self.nello
        view["trump"] = self.trump
        view["sitting_out"] = self.sitting_out
        view["hand"] = None if seat is None else [str(t) for t in self.hands[seat]]
        view["hand_sizes"] = [len(h) for h in self.hands]
        view["lying_out"] = len(self.out)
        view["leader"] = self.leader
        view["led_suit"] = suit_name(self.led)
        view["trick"] = [{"seat": s, "tile": str(t)} for s, t in self.trick]
        view["tricks"] = [
            {
                "leader": tr.leader,
                "plays": [{"seat": s, "tile": str(t)} for s, t in tr.plays],
                "winner": tr.winner,
                "points": tr.points,
            }
            for tr in self.tricks
        ]
        view["tricks_won"] = list(tw)
        view["sides"] = [
            {
                "seats": [side, side + 2],
                "tricks": tw[side] + tw[side + 2],
                "count": self.taken[side] - TRICK_POINTS * (tw[side] + tw[side + 2]),
                "taken": self.taken[side],
                "points": self.points[side],
                "marks": self.marks[side],
            }
            for side in (0, 1)
        ]
        view["points"] = list(self.points)
        view["marks"] = list(self.marks)
        view["last_result"] = self.last_result

    def tile_locations(self) -> dict[str, list[Tile]]:
        """The four hands (a Nel-O partner's face down), the two tiles lying out, tiles played."""
        places = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        places["lying out"] = list(self.out)
        places["played"] = [t for tr in self.tricks for _, t in tr.plays] + [t for _, t in self.trick]
        return places

    def _copy(self) -> Eighty:
        new: Eighty = self._copy_core()
        new.hands = [list(h) for h in self.hands]
        new.out = list(self.out)
        new.bids = list(self.bids)
        new.trick = list(self.trick)
        new.tricks = list(self.tricks)
        new.tricks_won = list(self.tricks_won)
        new.taken = list(self.taken)
        new.points = list(self.points)
        new.marks = list(self.marks)
        new._after = list(self._after)
        return new

    @classmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Eighty:
        """A game matching ``view``; hidden tiles dealt at random, honouring every proven void."""
        seat = view["seat"]
        game: Eighty = cls._blank(SEATS, cls.Rules.from_dict(view["rules"]), rng.getrandbits(63))
        game._restore_common(view)
        game.phase = Phase(view["phase"])
        game.points = list(view["points"])
        game.marks = list(view["marks"])
        game.hand_number = view["hand_number"]
        game.last_result = view["last_result"]
        game.shuffler = view["shuffler"]
        game.bids = list(view["bids"])
        game.high = view["high_bid"]
        game.bidder = view["bidder"]
        game.trump = view["trump"]
        game.nello = view["nello"]
        game.sitting_out = view["sitting_out"]
        game.leader = view["leader"]
        game.trick = [(p["seat"], Tile.parse(p["tile"])) for p in view["trick"]]
        game.tricks = []
        done = view["tricks"]
        # The hand's ``trick`` events are the view's last ones of that kind: reuse them
        # rather than build them again (a view without its events gets new ones).
        told: list[dict[str, Any]] = []
        if done:
            events = view.get("events") or ()
            i = len(events) - 1
            while i >= 0 and len(told) < len(done):
                if events[i]["kind"] == "trick":
                    told.append(events[i])
                i -= 1
            told.reverse()
        for number, tr in enumerate(done, 1):
            plays = tuple((p["seat"], Tile.parse(p["tile"])) for p in tr["plays"])
            shown = told[number - 1] if len(told) == len(done) else _shown(plays, tr["winner"], tr["points"], number)
            game.tricks.append(Trick(tr["leader"], plays, tr["winner"], tr["points"], shown))
        game.tricks_won = list(view["tricks_won"])
        game.taken = [side["taken"] for side in view["sides"]]
        game._after = [1, 2, 3, 0]
        game._trick_size = SEATS if game.sitting_out is None else SEATS - 1
        if game.sitting_out is not None:
            game._after[(game.sitting_out - 1) % SEATS] = (game.sitting_out + 1) % SEATS
        game._tables = None
        game.led = None
        if game.phase == Phase.PLAY or game.tricks:
            game._tables = tables(game.trump or 0, game.rules.doubles_suit)
            if game.trick:
                game.led = game._tables.lead_suit[game.trick[0][1].key]
        own = [Tile.parse(t) for t in view["hand"]] if seat is not None else []
        pool = cls.full_set(game.rules)
        for t in own:
            pool.remove(t)
        for tr in game.tricks:
            for _, t in tr.plays:
                pool.remove(t)
        for _, t in game.trick:
            pool.remove(t)
        others = [s for s in range(SEATS) if s != seat]
        sizes = [view["hand_sizes"][s] for s in others] + [view["lying_out"]]
        voids = game._voids()
        allowed = [_allow(voids[s], game._tables) if voids[s] else None for s in others]
        deal = deal_hidden(pool, sizes, rng, [*allowed, None])
        game.hands = [[] for _ in range(SEATS)]
        for i, s in enumerate(others):
            game.hands[s] = sorted(deal[i], key=_BY_KEY, reverse=True)
        if seat is not None:
            game.hands[seat] = own
        game.out = deal[-1]
        return game

    def _voids(self) -> list[set[int]]:
        """The suits each seat has shown it no longer holds, by not following them this hand."""
        voids: list[set[int]] = [set() for _ in range(SEATS)]
        tabs = self._tables
        if tabs is None:
            return voids
        for plays in [tr.plays for tr in self.tricks] + [tuple(self.trick)]:
            if not plays:
                continue
            led = tabs.lead_suit[plays[0][1].key]
            member = tabs.member[led]
            for s, t in plays[1:]:
                if not member[t.key]:
                    voids[s].add(led)
        return voids


def _allow(void: set[int], tabs: Tables | None) -> Any:
    assert tabs is not None
    members = [tabs.member[suit] for suit in void]

    def check(tile: Tile) -> bool:
        k = tile.key
        return not any(m[k] for m in members)

    return check


GAME = Eighty
