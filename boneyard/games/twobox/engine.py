"""Four-man two-box draw: a block-and-draw game on a four-armed spinner with stacking.

Rules as in ``docs/rules/twobox.md``, its rulings included.
Two double-six sets (56 tiles), 2-6 players, 7 tiles each. Flow of a hand: the deal, the
engine sets the highest double held as the spinner (scoring it when its pips are a
multiple of 5), then turns of ``draw`` (any number, while the boneyard lasts), one tile
played to an arm or stacked on an identical tile, or ``pass`` when nothing can be played
and the boneyard is empty. Every play scores the open-end count when it is a positive
multiple of 5; with the ``cutthroat`` option a stack straight after a scoring play steals
that score. A hand ends when a player goes out or every player passes in a row; the game
ends the moment a player reaches the target.
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

HAND_SIZE: Final = 7
ARMS: Final = 4
ARM_NAMES = ("side", "side", "tip", "tip")
_KEY: Final = attrgetter("key")
_LAST_PLAY = ("seat", "action", "count", "scored", "stolen_from")


class Phase(StrEnum):
    """The named states of a twobox game (the opening is done by the engine)."""

    PLAY = "play"
    OVER = "over"


class TwoboxAction(NamedTuple):
    """A twobox action: ``draw``, ``pass``, ``play TILE to ARM`` or ``stack TILE on ARM``.

    Arms 1 and 2 are the spinner's sides, 3 and 4 its tips; ``stack ... on 0`` stacks on
    the spinner itself.
    """

    kind: str
    tile: Tile | None = None
    arm: int | None = None

    def __str__(self) -> str:
        if self.tile is None:
            return self.kind
        return f"{self.kind} {self.tile} {'to' if self.kind == 'play' else 'on'} {self.arm}"


DRAW: Final = TwoboxAction("draw")
PASS: Final = TwoboxAction("pass")
_FORMS = "draw, pass, 'play 6-3 to 1' (arms 1-4) or 'stack 6-3 on 1' (0: the spinner)"
_ALL_TILES = double_six()
_UNIQUE = sorted(set(_ALL_TILES))
# Interned actions, so that legal lists are built from lookups and membership is by identity.
_PLAYS: Final[dict[tuple[Tile, int], TwoboxAction]] = {
    (t, a): TwoboxAction("play", t, a) for t in _UNIQUE for a in range(1, ARMS + 1)
}
_STACKS: Final[dict[tuple[Tile, int], TwoboxAction]] = {
    (t, a): TwoboxAction("stack", t, a) for t in _UNIQUE for a in range(ARMS + 1)
}
# The hot path indexes these lists by ``tile.key * 5 + arm`` (hashing a Tile calls Python code).
_PLAY_AT: Final[list[Any]] = [None] * 320
_STACK_AT: Final[list[Any]] = [None] * 320
# Log entries made once and shared (nobody changes a logged event): plays, then stacks at +320, per seat.
_SAY_AT: Final[list[list[Any]]] = [[None] * 640 for _ in range(8)]
_NOTE_AT: Final[list[Any]] = [None] * 640  # notation: plays, then stacks at +320
for (_t, _a), _act in _PLAYS.items():
    _PLAY_AT[_t.key * 5 + _a] = _act
    for _s in range(8):
        _SAY_AT[_s][_t.key * 5 + _a] = (None, {"kind": "play", "seat": _s, "tile": _t.text, "arm": _a}, None)
    _NOTE_AT[_t.key * 5 + _a] = str(_act)
for (_t, _a), _act in _STACKS.items():
    _STACK_AT[_t.key * 5 + _a] = _act
    for _s in range(8):
        _SAY_AT[_s][320 + _t.key * 5 + _a] = (None, {"kind": "stack", "seat": _s, "tile": _t.text, "on": _a}, None)
    _NOTE_AT[320 + _t.key * 5 + _a] = str(_act)
_NAME_AT: Final = [""] * 64
for _t in _UNIQUE:
    _NAME_AT[_t.key] = str(_t)
_DRAW_ENTRIES: Final[list[list[Any]]] = [
    [(s, {"kind": "draw", "seat": s, "tile": _NAME_AT[k]}, {"kind": "draw", "seat": s}) for k in range(64)]
    for s in range(8)
]
# ends (one number per arm, -1 where the arm cannot be played on) -> tile key -> plays
_MOVES: Final[dict[tuple[int, ...], list[tuple[TwoboxAction, ...]]]] = {}
# number -> the unique tiles showing it
_WITH: Final = [[t for t in _UNIQUE if t.high == n or t.low == n] for n in range(7)]


def _hand_start(view: dict[str, Any]) -> list[int]:
    """The scores as the hand in ``view`` was dealt: its scores less what this hand's events scored."""
    start = list(view["scores"])
    events = view["events"]
    deal = max((i for i, e in enumerate(events) if e["kind"] == "deal"), default=len(events))
    for event in events[deal:]:
        kind = event["kind"]
        if kind == "score" or kind == "domino" or (kind == "blocked" and event["seat"] is not None):
            start[event["seat"]] -= event["points"]
        elif kind == "steal":
            start[event["seat"]] -= event["points"]
            start[event["victim"]] += event["points"]
    return start


def _moves_for(ends: tuple[int, ...]) -> list[tuple[TwoboxAction, ...]]:
    """For given open ends, every tile's plays (indexed by ``Tile.key``), built once."""
    found: dict[int, list[TwoboxAction]] = {}
    for a, end in enumerate(ends):
        if end >= 0:
            for t in _WITH[end]:
                found.setdefault(t.key, []).append(_PLAY_AT[t.key * 5 + a + 1])
    table: list[tuple[TwoboxAction, ...]] = [()] * 64
    for key, plays in found.items():
        table[key] = tuple(plays)
    _MOVES[ends] = table
    return table


# ----- the layout's rules, as plain functions (the engine, the bots and hints share them) ------

# What an arm's last tile shows: (the tile, its outer end), or ``None`` for an empty arm.
ArmEnd = tuple[Tile, int] | None


def end_value(tile: Tile, outer: int) -> int:
    """What an arm's last tile adds to the count: its outer end, twice for a double (rule 5)."""
    return end_points(tile.key, outer)


def end_points(key: int, outer: int) -> int:
    """:func:`end_value` for a tile given by its ``Tile.key`` (the fast path's tiles)."""
    return 2 * outer if key >> 3 == key & 7 else outer


def open_ends_and_count(spinner: int, arms: Sequence[ArmEnd]) -> tuple[tuple[int, ...], int]:
    """The number open on each of the four arms (-1: a tip not yet open) and the count (rules 3, 5).

    ``spinner``: the spinner's number; ``arms``: each arm's last tile and outer end, or
    ``None`` while the arm is empty. The rules themselves are :func:`open_end` and
    :func:`layout_count`, on tile keys, which the engine's fast path uses too.
    """
    has = [False] * ARMS
    keys = [0] * ARMS
    outers = [0] * ARMS
    for a, arm in enumerate(arms):
        if arm is not None:
            has[a] = True
            keys[a] = arm[0].key
            outers[a] = arm[1]
    ends = tuple(open_end(spinner, has, outers, a) for a in range(ARMS))
    return ends, layout_count(spinner, has, keys, outers)


def open_end(spinner: int, has: list[bool], outers: list[int], arm: int) -> int:
    """The number open on arm ``arm`` (0-3), or -1 for a tip not open yet (rule 3).

    An empty arm is played on the spinner's number; the tips (arms 3, 4) open once both
    sides hold a tile.
    """
    if arm >= 2 and not (has[0] and has[1]):
        return -1
    return outers[arm] if has[arm] else spinner


def layout_count(spinner: int, has: list[bool], keys: list[int], outers: list[int]) -> int:
    """The open-end count (rule 5): each arm's outer end (twice for a double), plus both of the
    spinner's ends until both sides hold a tile. ``keys``: each arm's last tile by ``Tile.key``."""
    return count_after(spinner, has, keys, outers, -1, 0, 0)


def count_after(spinner: int, has: list[bool], keys: list[int], outers: list[int], arm: int, key: int,
                outer: int) -> int:
    """The count once arm ``arm`` (0-3) ends with tile ``key`` showing ``outer`` (-1: the layout as it is).

    The one definition of the count (rule 5): each arm's outer end, twice for a double
    (:func:`end_points`), plus both of the spinner's ends until both sides hold a tile.
    """
    total = 0
    sides = 0
    for a in range(ARMS):
        if a == arm:
            total += end_points(key, outer)
        elif has[a]:
            total += end_points(keys[a], outers[a])
        else:
            continue
        if a < 2:
            sides += 1
    if sides < 2:
        total += 2 * spinner
    return total


def scored(count: int) -> int:
    """The points a play scores with this count: the count when a positive multiple of 5 (rule 5)."""
    return count if count > 0 and count % 5 == 0 else 0


def going_out_award(pips: list[int], seat: int, round_to_five: bool) -> int:
    """What ``seat`` scores for going out: every pip left in the other hands (rule 7), rounded to 5 on request."""
    award = 0
    for s, p in enumerate(pips):
        if s != seat:
            award += p
    return 5 * ((award + 2) // 5) if round_to_five else award


def blocked_winner(pips: list[int], lowest: list[int]) -> int:
    """The seat that takes a blocked hand, or -1 for a tie (rule 8).

    The fewest pips wins; between equals, the one whose lowest tile is lowest (by pips,
    then its high end). ``lowest[s]``: seat ``s``'s lowest tile as ``pips * 8 + high``.
    """
    low = min(pips)
    who = -1
    best = 0
    ties = 0
    for s, p in enumerate(pips):
        if p != low:
            continue
        if who < 0 or lowest[s] < best:
            who, best, ties = s, lowest[s], 1
        elif lowest[s] == best:
            ties += 1
    return who if ties == 1 else -1


def blocked_award(pips: list[int], seat: int) -> int:
    """What the seat taking a blocked hand scores: the others' pips less its own, once per other seat."""
    return sum(pips) - 2 * pips[seat]


def steal_amount(points: int, double: bool) -> int:
    """What a cutthroat stack takes from the previous scorer: that score, doubled for a double (rule 6)."""
    return 2 * points if double else points


# ----- the engine's fast path: one hand on tile keys, integer actions, no views, no events ------

#: Integer actions of the fast path: a play is ``key * 5 + arm`` (arms 1-4), a stack is
#: ``STACK + key * 5 + arm`` (arm 0: the spinner), then :data:`DRAW_INDEX` and :data:`PASS_INDEX`.
STACK: Final = 320
DRAW_INDEX: Final = 640
PASS_INDEX: Final = 641


class FastHand:
    """One hand of two-box as numbers, for playouts: the engine's rules with no views and no events.

    Tiles are their ``Tile.key`` (``high * 8 + low``); hands are counts by key. Made from a
    game by :meth:`Twobox.fast_hand` (the whole deal: a real or sampled game) or from a
    seat's view by :func:`fast_view` (that seat's hand only: enough to judge its own
    choices, not to play on). It plays one hand with :meth:`apply` on integer actions
    (:data:`STACK`, :data:`DRAW_INDEX`, :data:`PASS_INDEX`), scoring exactly as the engine
    does, through the same rule functions (:func:`scored`, :func:`going_out_award`,
    :func:`blocked_winner`, :func:`steal_amount`); the conformance suite plays games on
    both side by side. It stops when the hand or the game ends: the next deal is the
    engine's.
    """

    def __init__(self, players: int, spinner: int) -> None:
        self.n = players
        self.cur = 0
        self.cutthroat = False
        self.round_to_five = False
        self.target = 0
        self.spinner = spinner  # the spinner's number
        self.spinner_key = spinner * 9
        self.spinner_stacked = False
        self.passes = 0
        self.steal_seat = -1  # the seat whose score a cutthroat stack would take (-1: none)
        self.steal_points = 0
        self.has = [False] * ARMS
        self.tile = [0] * ARMS  # each arm's last tile (its key)
        self.outer = [0] * ARMS  # each arm's open (outer) number
        self.stacked = [False] * ARMS
        self.hands = [[0] * 64 for _ in range(players)]  # copies held, by key
        self.held = [0] * players  # the keys each seat holds, as bits (``1 << key``): kept with ``hands``
        self.size = [0] * players
        self.pips = [0] * players
        self.hidden = [0] * 64  # copies in the hands and the boneyard: what no layout shows
        self.boneyard: list[int] = []  # the next draw is the last
        self.points = [0] * players
        self.over = False
        self.winner = -1
        self.hand_over = False

    def copy(self) -> FastHand:
        """An independent copy (a playout changes its hand, never the one it started from)."""
        c = FastHand(self.n, self.spinner)
        c.copy_from(self)
        return c

    def copy_from(self, other: FastHand) -> None:
        """Become a copy of ``other`` (same players) in place: a playout's next start, with no new lists."""
        self.cur = other.cur
        self.cutthroat = other.cutthroat
        self.round_to_five = other.round_to_five
        self.target = other.target
        self.spinner = other.spinner
        self.spinner_key = other.spinner_key
        self.spinner_stacked = other.spinner_stacked
        self.passes = other.passes
        self.steal_seat = other.steal_seat
        self.steal_points = other.steal_points
        self.has[:] = other.has
        self.tile[:] = other.tile
        self.outer[:] = other.outer
        self.stacked[:] = other.stacked
        for s in range(self.n):
            self.hands[s][:] = other.hands[s]
        self.held[:] = other.held
        self.size[:] = other.size
        self.pips[:] = other.pips
        self.hidden[:] = other.hidden
        self.boneyard[:] = other.boneyard
        self.points[:] = other.points
        self.over = other.over
        self.winner = other.winner
        self.hand_over = other.hand_over

    def index(self) -> None:
        """Set :attr:`held` from :attr:`hands`, once a hand's counts were written directly."""
        for s in range(self.n):
            hand = self.hands[s]
            bits = 0
            for k in range(64):
                if hand[k]:
                    bits |= 1 << k
            self.held[s] = bits

    def open_end(self, arm: int) -> int:
        """The number open on arm ``arm`` (0-3), or -1 for a tip not open yet (:func:`open_end`)."""
        return open_end(self.spinner, self.has, self.outer, arm)

    def count(self) -> int:
        """The open-end count of the layout (:func:`layout_count`)."""
        return layout_count(self.spinner, self.has, self.tile, self.outer)

    def plays(self) -> list[int]:
        """The seat to move's plays and stacks, as integer actions (no draw or pass)."""
        out: list[int] = []
        self.plays_into(out)
        return out

    def plays_into(self, out: list[int]) -> None:
        """:meth:`plays` written into ``out``, emptied first: a playout reuses one list for every decision."""
        out.clear()
        held = self.held[self.cur]
        for a in range(ARMS):
            end = self.open_end(a)
            if end < 0:
                continue
            for x in range(7):
                k = end * 8 + x if end >= x else x * 8 + end
                if held >> k & 1:
                    out.append(k * 5 + a + 1)
        for a in range(ARMS):
            if self.has[a] and not self.stacked[a] and held >> self.tile[a] & 1:
                out.append(STACK + self.tile[a] * 5 + a + 1)
        full = self.has[0] and self.has[1] and self.has[2] and self.has[3]
        if not self.spinner_stacked and not full and held >> self.spinner_key & 1:
            out.append(STACK + self.spinner_key * 5)

    def legal(self) -> list[int]:
        """Every legal integer action: the plays and stacks, then a draw or (with neither) a pass (rule 4)."""
        out = self.plays()
        if self.boneyard:
            out.append(DRAW_INDEX)
        elif not out:
            out.append(PASS_INDEX)
        return out

    def apply(self, action: int) -> None:
        """Play an integer action of :meth:`legal` (unchecked: the playouts only make listed ones)."""
        seat = self.cur
        if action == DRAW_INDEX:
            k = self.boneyard.pop()
            self.hands[seat][k] += 1
            self.held[seat] |= 1 << k
            self.size[seat] += 1
            self.pips[seat] += (k >> 3) + (k & 7)
            return
        if action == PASS_INDEX:
            self.passes += 1
            if self.passes == self.n:
                self._blocked()
                return
            self.cur = (seat + 1) % self.n
            return
        stack = action >= STACK
        rest = action - STACK if stack else action
        k = rest // 5
        arm = rest - k * 5
        hand = self.hands[seat]
        hand[k] -= 1
        if not hand[k]:
            self.held[seat] &= ~(1 << k)
        self.size[seat] -= 1
        self.pips[seat] -= (k >> 3) + (k & 7)
        self.hidden[k] -= 1
        self.passes = 0
        if not stack:
            a = arm - 1
            end = self.open_end(a)
            self.has[a] = True
            self.tile[a] = k
            self.outer[a] = k & 7 if k >> 3 == end else k >> 3
            self.stacked[a] = False
        elif arm == 0:
            self.spinner_stacked = True
        else:
            self.stacked[arm - 1] = True
        if stack and self.cutthroat and self.steal_seat >= 0 and self.steal_seat != seat:
            amount = steal_amount(self.steal_points, k >> 3 == k & 7)
            self.points[seat] += amount
            self.points[self.steal_seat] -= amount
            self.steal_seat = seat
            self.steal_points = amount
        else:
            points = scored(self.count())
            self.steal_seat = seat if points else -1
            self.steal_points = points
            self.points[seat] += points
        if self._reached(seat):
            return
        if self.size[seat] == 0:
            self.points[seat] += going_out_award(self.pips, seat, self.round_to_five)
            self.hand_over = True
            self._reached(seat)
            return
        self.cur = (seat + 1) % self.n

    def _reached(self, seat: int) -> bool:
        """End the game if ``seat`` has reached the target (rule 9)."""
        if self.points[seat] >= self.target:
            self.over = True
            self.winner = seat
        return self.over

    def _blocked(self) -> None:
        self.hand_over = True
        lowest = []
        for s in range(self.n):
            best = 1 << 30
            hand = self.hands[s]
            for k in range(64):
                if hand[k]:
                    v = ((k >> 3) + (k & 7)) * 8 + (k >> 3)
                    if v < best:
                        best = v
            lowest.append(best)
        who = blocked_winner(self.pips, lowest)
        if who >= 0:
            self.points[who] += blocked_award(self.pips, who)
            self._reached(who)


def fast_action(action: int) -> TwoboxAction:
    """The engine's action for an integer action of :class:`FastHand`."""
    if action == DRAW_INDEX:
        return DRAW
    if action == PASS_INDEX:
        return PASS
    if action >= STACK:
        return _STACK_AT[action - STACK]
    return _PLAY_AT[action]


def action_index(action: TwoboxAction) -> int:
    """The integer action of :class:`FastHand` for an engine action."""
    if action.kind == "draw":
        return DRAW_INDEX
    if action.kind == "pass":
        return PASS_INDEX
    assert action.tile is not None and action.arm is not None
    return (STACK if action.kind == "stack" else 0) + action.tile.key * 5 + action.arm


def fast_view(view: dict[str, Any]) -> FastHand:
    """The hand as ``view``'s seat sees it: its own tiles, the layout, the scores; every unseen tile hidden.

    The other hands are empty (their sizes are kept): enough for the seat to judge its own
    choices (what it can play, what each scores, which tiles it has not seen), not to play on.
    """
    n = view["players"]
    spinner = Tile.parse(view["spinner"])
    h = FastHand(n, spinner.high)
    h.cur = view["seat"] if view["seat"] is not None else 0
    rules = view["rules"]
    h.cutthroat = bool(rules.get("cutthroat"))
    h.round_to_five = bool(rules.get("round_to_five"))
    h.target = view["target"]
    h.spinner_stacked = view["spinner_stacked_by"] is not None
    h.passes = view["passes"]
    steal = view["steal"]
    if steal is not None:
        h.steal_seat = steal["seat"]
        h.steal_points = steal["points"]
    hidden = [0] * 64
    for t in _UNIQUE:
        hidden[t.key] = 2  # two double-six sets
    hidden[spinner.key] -= 2 if h.spinner_stacked else 1
    for a, arm in enumerate(view["arms"]):
        for e in arm["tiles"]:
            t = Tile.parse(e["tile"])
            hidden[t.key] -= 1 if e["stacked_by"] is None else 2
        if arm["tiles"]:
            last = arm["tiles"][-1]
            h.has[a] = True
            h.tile[a] = Tile.parse(last["tile"]).key
            h.outer[a] = last["outer"]
            h.stacked[a] = last["stacked_by"] is not None
    h.hidden = hidden
    h.size = list(view["hand_sizes"])
    h.points = list(view["scores"])
    if view["hand"] is not None:
        own = h.hands[h.cur]
        for text in view["hand"]:
            t = Tile.parse(text)
            own[t.key] += 1
            h.pips[h.cur] += t.pips
    h.index()
    return h


@dataclass(frozen=True)
class TwoboxRules(Rules):
    """The options of four-man two-box draw."""

    target: int = option(
        150, label="Target", minimum=1, maximum=1000, doc="points that win the game at once (100 short, 200 long)"
    )
    cutthroat: bool = option(
        False,
        label="Cutthroat",
        doc="a stack right after a scoring play steals that score (doubled for a double)",
    )
    round_to_five: bool = option(False, label="Round to five", doc="round the going-out award to the nearest 5")


@mypyc_attr(allow_interpreted_subclasses=True)  # plug-ins and tests may subclass an engine
class Twobox(Game):
    """The four-man two-box draw engine."""

    id = "twobox"
    order = 2
    name = "Four-man two-box draw"
    summary = (
        "A draw game for 2-6 players (4 standard) with two double-six sets. The highest "
        "double starts a spinner with four arms; tiles are matched to the open ends, and a "
        "play scores the sum of the open ends when it is a multiple of 5. A tile identical "
        "to an arm's end tile may be stacked on it, repeating the score (in cutthroat, "
        "stealing the last score). Going out scores the pips left in the other hands; the "
        "first to the target (150) wins."
    )
    min_players = 2
    max_players = 6
    default_players = 4
    hand_size = HAND_SIZE
    Rules = TwoboxRules

    @classmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """Points only grow, and the game ends the moment a seat reaches the target, so no seat
        passes the target by more than one scoring event: a count or an award (at most every
        pip in the set). Under cutthroat a steal moves points between seats; a stolen amount
        is at most twice an amount that left its stealer below the target, which bounds it
        by twice the players times the target, and the others' losses by the same."""
        pips = sum(t.pips for t in cls.full_set(rules))
        event = max(pips, 2 * players * rules.target) if rules.cutthroat else pips
        low = -(players - 1) * (rules.target - 1) - event if rules.cutthroat else 0
        return low, rules.target - 1 + event

    @classmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """Each tile is played or stacked at most once and drawn at most once; passes come
        only with an empty boneyard, at most one round between plays and one to block."""
        tiles = len(cls.full_set(rules))
        plays, draws = tiles, tiles - HAND_SIZE * players
        return plays + draws + (players - 1) * plays + players

    @classmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """Two double-six sets: 56 tiles."""
        return double_six(2)

    # ----- setup and dealing ---------------------------------------------------------

    def _setup(self, dealer: int | None) -> None:
        # twobox has no dealer: the highest double opens; ``dealer`` is only recorded.
        self.points = [0] * self.players
        self.hand_number = 0
        self.last_result: dict[str, Any] | None = None
        self._deal()

    def _deal(self) -> None:
        """Deal a hand (redealing while nobody holds a double) and set the spinner."""
        if self._hand_limit_reached():
            return
        n = self.players
        while True:
            deck = self._deck()
            hands = [sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE], key=_KEY, reverse=True) for i in range(n)]
            setter, spinner = self._opener(hands)
            if spinner is not None:
                break
            redeal: E.Redeal = {"kind": "redeal"}
            self._emit(redeal)
        self.hand_number += 1
        self.hands = hands
        self.boneyard = deck[n * HAND_SIZE :][::-1]  # drawn from the front: pop() takes deck order
        self.arms: list[list[tuple[Tile, int, int, int | None]]] = [[] for _ in range(ARMS)]
        self.spinner = spinner
        self.spinner_seat = setter
        self.spinner_stack: int | None = None
        self.drawn = [0] * n
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.passes = 0
        self.steal: tuple[int, int] | None = None
        self.last_play: tuple[int, str, int, int, int | None] | None = None
        self.hand_start = list(self.points)
        self._new_hand()
        deal: E.Deal = {
            "kind": "deal", "hand": self.hand_number, "hand_size": HAND_SIZE, "boneyard": len(self.boneyard),
        }
        self._emit(deal)
        for seat in range(n):
            dealt: E.Dealt = {"kind": "dealt", "seat": seat, "tiles": [t.text for t in hands[seat]]}
            self._emit(dealt, to=seat)
        self.hands[setter].remove(spinner)
        self._refresh()
        self.phase = Phase.PLAY
        self.current_player = self._next(setter)
        spin: E.Spinner = {"kind": "spinner", "seat": setter, "tile": spinner.text}
        self._emit(spin)
        self._score_play(setter, "set the spinner")

    def _opener(self, hands: list[list[Tile]]) -> tuple[int, Tile | None]:
        """The seat setting the highest double held (seeded tie-break) and that double."""
        for d in range(6, -1, -1):
            double = Tile(d, d)
            holders = [s for s, h in enumerate(hands) if double in h]
            if holders:
                return (holders[0] if len(holders) == 1 else self.rng.choice(holders)), double
        return -1, None

    def _refresh(self) -> None:
        """Recompute the open ends, the lookup tables' key and the count after a layout change."""
        arms = self.arms
        has = [False] * ARMS
        keys = [0] * ARMS
        outers = [0] * ARMS
        stackable = []
        for a, arm in enumerate(arms):
            if arm:
                tile, outer, _, stacked = arm[-1]
                has[a], keys[a], outers[a] = True, tile.key, outer
                if stacked is None:
                    stackable.append((tile, _STACK_AT[tile.key * 5 + a + 1]))
        spinner = self.spinner.high
        self.ends = (open_end(spinner, has, outers, 0), open_end(spinner, has, outers, 1),
                     open_end(spinner, has, outers, 2), open_end(spinner, has, outers, 3))
        self.count = layout_count(spinner, has, keys, outers)
        # Looked up here, once per layout change, rather than at every legal-action list
        # (draws and passes leave the layout as it is; hashing the ends tuple is not free).
        table = _MOVES.get(self.ends)
        self._plays_by_key = table if table is not None else _moves_for(self.ends)
        if self.spinner_stack is None and not all(arms):
            stackable.append((self.spinner, _STACK_AT[self.spinner.key * 5]))
        self.stackable = stackable

    # ----- legal actions ---------------------------------------------------------------

    def _legal(self) -> list[TwoboxAction]:
        seat = self.current_player
        assert seat is not None
        hand = self.hands[seat]
        table = self._plays_by_key
        out: list[TwoboxAction] = []
        prev = None
        for t in hand:
            if t is not prev:
                prev = t
                moves = table[t.key]
                if moves:
                    out += moves
        for t, stack in self.stackable:
            if t in hand:
                out.append(stack)
        if self.boneyard:
            out.append(DRAW)
        elif not out:
            out.append(PASS)
        return out

    # ----- applying actions --------------------------------------------------------------

    def _play(self, action: TwoboxAction) -> None:
        seat = self.current_player
        assert seat is not None
        kind = action.kind
        if kind == "draw":
            drawn = self.boneyard.pop()
            hand = self.hands[seat]
            hand.append(drawn)
            hand.sort(key=_KEY, reverse=True)
            self.drawn[seat] += 1
            self._events.append(_DRAW_ENTRIES[seat][drawn.key])
            return
        if kind == "pass":
            self._pass(seat)
            return
        tile = action.tile
        arm = action.arm
        assert tile is not None and arm is not None
        self.hands[seat].remove(tile)
        self.passes = 0
        index = tile.key * 5 + arm
        if kind == "play":
            line = self.arms[arm - 1]
            end = self.ends[arm - 1]
            line.append((tile, tile.low if tile.high == end else tile.high, seat, None))
            self._refresh()
        else:
            if arm == 0:
                self.spinner_stack = seat
            else:
                line = self.arms[arm - 1]
                t, outer, owner, _ = line[-1]
                line[-1] = (t, outer, owner, seat)
            self.stackable = [e for e in self.stackable if e[1] != action]
            index += 320
        self._events.append(_SAY_AT[seat][index])
        steal = self.steal
        if kind == "stack" and steal is not None and self.rules.cutthroat and steal[0] != seat:
            self._steal(seat, action, steal, _NOTE_AT[index])
        else:
            self._score_play(seat, _NOTE_AT[index])
        if self.is_over:
            return
        if not self.hands[seat]:
            self._domino(seat)
            return
        self.current_player = self._next(seat)

    def _score_play(self, seat: int, what: str) -> None:
        """Score the count for a play (or the spinner's setting) when it is a positive multiple of 5."""
        count = self.count
        points = scored(count)
        self.steal = (seat, points) if points else None
        self.last_play = (seat, what, count, points, None)
        if points:
            self.points[seat] += points
            event: E.Score = {"kind": "score", "seat": seat, "points": points, "count": count}
            self._emit(event)
            self._check_target(seat)

    def _steal(self, seat: int, action: TwoboxAction, steal: tuple[int, int], what: str) -> None:
        """A cutthroat stack: take the previous play's score from its scorer (doubled for a double)."""
        victim, amount = steal
        tile = action.tile
        assert tile is not None
        amount = steal_amount(amount, tile.high == tile.low)
        self.points[seat] += amount
        self.points[victim] -= amount
        self.steal = (seat, amount)
        self.last_play = (seat, what, self.count, amount, victim)
        event: E.Steal = {"kind": "steal", "seat": seat, "victim": victim, "points": amount}
        self._emit(event)
        self._check_target(seat)

    def _pass(self, seat: int) -> None:
        self.voids[seat].update(e for e in self.ends if e >= 0)
        self.passes += 1
        event: E.Pass = {"kind": "pass", "seat": seat}
        self._emit(event)
        if self.passes == self.players:
            self._blocked()
            return
        self.current_player = self._next(seat)

    # ----- scoring and the game's end ----------------------------------------------------

    def _check_target(self, seat: int) -> None:
        """End the game at once if ``seat`` has reached the target."""
        if self.points[seat] >= self.rules.target:
            if self.last_result is None or self.last_result["hand"] != self.hand_number:
                self.last_result = self._result("target", seat, 0)
                self._emit_end(self._hand_end(self.last_result))
            self._end_game([seat])

    def _pips(self) -> list[int]:
        return [sum(t.high + t.low for t in h) for h in self.hands]

    def _result(self, how: str, winner: int | None, award: int) -> dict[str, Any]:
        return {
            "hand": self.hand_number,
            "how": how,
            "winner": winner,
            "award": award,
            # hands are shown when a hand ends, not when the target is reached mid-hand
            "pips": None if how == "target" else self._pips(),
            "hands": None if how == "target" else [[str(t) for t in h] for h in self.hands],
            "scores": list(self.points),
        }

    def _domino(self, seat: int) -> None:
        award = going_out_award(self._pips(), seat, bool(self.rules.round_to_five))
        self.points[seat] += award
        event: E.Domino = {"kind": "domino", "seat": seat, "points": award}
        self._emit(event)
        self._end_hand("domino", seat, award)

    def _blocked(self) -> None:
        pips = self._pips()
        lowest = [min(t.pips * 8 + t.high for t in h) if h else 1 << 30 for h in self.hands]
        seat = blocked_winner(pips, lowest)
        if seat < 0:
            tied: E.Blocked = {"kind": "blocked", "seat": None, "points": 0}
            self._emit(tied)
            self._end_hand("blocked", None, 0)
            return
        award = blocked_award(pips, seat)
        self.points[seat] += award
        event: E.Blocked = {"kind": "blocked", "seat": seat, "points": award}
        self._emit(event)
        self._end_hand("blocked", seat, award)

    def _hand_end(self, result: dict[str, Any]) -> E.HandEnd:
        """The ``hand_end`` event of a hand whose result is ``result``: it and the layout as the hand ended."""
        return {
            "kind": "hand_end",
            "hand": result["hand"],
            "how": result["how"],
            "winner": result["winner"],
            "award": result["award"],
            "spinner": self.spinner.text,
            "spinner_seat": self.spinner_seat,
            "spinner_stacked_by": self.spinner_stack,
            "arms": [
                {
                    "arm": a + 1,
                    "tiles": [
                        {"tile": t.text, "outer": outer, "seat": owner, "stacked_by": stacked}
                        for t, outer, owner, stacked in self.arms[a]
                    ],
                }
                for a in range(ARMS)
            ],
            "hands": result["hands"],
            "pips": result["pips"],
            "points": [p - q for p, q in zip(self.points, self.hand_start, strict=True)],
            "totals": list(self.points),
        }

    def _end_hand(self, how: str, winner: int | None, award: int) -> None:
        self.last_result = self._result(how, winner, award)
        self._emit_end(self._hand_end(self.last_result))
        if winner is not None:
            self._check_target(winner)
            if self.is_over:
                return
        self._deal()

    @property
    def scores(self) -> list[int]:
        """Each seat's points so far."""
        return list(self.points)

    # ----- notation and explanations -----------------------------------------------------

    @classmethod
    def parse_action(cls, text: Any) -> TwoboxAction:
        """Parse ``draw``, ``pass``, ``play T to A`` (A 1-4) or ``stack T on A`` (A 0-4)."""
        if not isinstance(text, str):
            raise IllegalAction(f"not a twobox action: {text!r}; expected {_FORMS}")
        words = text.split()
        if words == ["draw"]:
            return DRAW
        if words == ["pass"]:
            return PASS
        if len(words) == 4 and (words[0], words[2]) in (("play", "to"), ("stack", "on")):
            try:
                tile = Tile.parse(words[1])
            except ValueError as err:
                raise IllegalAction(f"not a twobox action: {text!r} ({err})") from None
            if not words[3].isdigit():
                raise IllegalAction(f"not a twobox action: {text!r}: the arm must be a number; expected {_FORMS}")
            arm = int(words[3])
            table = _PLAYS if words[0] == "play" else _STACKS
            return table.get((tile, arm)) or TwoboxAction(words[0], tile, arm)
        raise IllegalAction(f"not a twobox action: {text!r}; expected {_FORMS}")

    def _explain(self, action: Any) -> str:
        seat = self.current_player
        assert seat is not None
        if not isinstance(action, TwoboxAction) or action.kind not in ("draw", "pass", "play", "stack"):
            return f"not a twobox action: {action!r}; expected {_FORMS}"
        plays = [a for a in self.legal_actions() if a.kind in ("play", "stack")]
        if action.kind == "draw":
            return "the boneyard is empty: there is nothing to draw (rule 4)"
        if action.kind == "pass":
            if plays:
                return f"you can play ({plays[0]}): a player must play when he can (rule 4)"
            return f"you cannot play but the boneyard holds {len(self.boneyard)} tiles: draw instead (rule 4)"
        tile, arm = action.tile, action.arm
        assert tile is not None and arm is not None
        if action.kind == "play" and not 1 <= arm <= ARMS:
            return "tiles are played to arm 1 or 2 (the sides) or 3 or 4 (the tips)"
        if action.kind == "stack" and not 0 <= arm <= ARMS:
            return "tiles are stacked on 0 (the spinner) or on arm 1 to 4"
        if tile not in self.hands[seat]:
            return f"you do not hold {tile}"
        if action.kind == "play":
            return self._explain_play(tile, arm)
        return self._explain_stack(tile, arm)

    def _explain_play(self, tile: Tile, arm: int) -> str:
        if arm > 2 and not (self.arms[0] and self.arms[1]):
            return f"both sides of the spinner (arms 1 and 2) must hold a tile before tip {arm} is played on (rule 3)"
        end = self.ends[arm - 1]
        return f"{tile} does not match arm {arm}'s open end {end}: a tile must match the end it is played to"

    def _explain_stack(self, tile: Tile, arm: int) -> str:
        if arm == 0:
            if tile is not self.spinner:
                return f"only an identical tile can be stacked: the spinner is {self.spinner} (rule 6)"
            if self.spinner_stack is not None:
                return "the spinner already carries its twin: a tile is stacked on only once (rule 6)"
            return "the spinner can be stacked on only while it has an empty arm (rule 6)"
        line = self.arms[arm - 1]
        if not line:
            return f"arm {arm} holds no tile to stack on; stack the spinner's twin 'on 0' (rule 6)"
        end_tile = line[-1][0]
        if tile is not end_tile:
            return f"only an identical tile can be stacked: arm {arm} ends with {end_tile} (rule 6)"
        return f"the {end_tile} ending arm {arm} has already been stacked on: only once (rule 6)"

    # ----- views, locations, sampling ---------------------------------------------------

    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        ends = self.ends
        view["target"] = self.rules.target
        view["hand_number"] = self.hand_number
        view["hand"] = None if seat is None else [str(t) for t in self.hands[seat]]
        view["hand_sizes"] = [len(h) for h in self.hands]
        view["boneyard"] = len(self.boneyard)
        view["drawn"] = list(self.drawn)
        view["spinner"] = str(self.spinner)
        view["spinner_seat"] = self.spinner_seat
        view["spinner_stacked_by"] = self.spinner_stack
        view["arms"] = [
            {
                "arm": a + 1,
                "kind": ARM_NAMES[a],
                "tiles": [
                    {"tile": str(t), "outer": outer, "seat": owner, "stacked_by": stacked}
                    for t, outer, owner, stacked in self.arms[a]
                ],
                "open_end": None if ends[a] < 0 else ends[a],
            }
            for a in range(ARMS)
        ]
        view["open_ends"] = [None if e < 0 else e for e in ends]
        view["count"] = self.count
        view["passes"] = self.passes
        view["passed_on"] = [sorted(v) for v in self.voids]
        view["steal"] = None if self.steal is None else {"seat": self.steal[0], "points": self.steal[1]}
        view["last_play"] = None if self.last_play is None else dict(zip(_LAST_PLAY, self.last_play, strict=True))
        view["last_result"] = self.last_result

    def tile_locations(self) -> dict[str, list[Tile]]:
        """Hands, the boneyard and the layout (spinner, its twin, arms and stacks)."""
        places = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        places["boneyard"] = list(self.boneyard)
        places["layout"] = self._layout_tiles()
        return places

    def _layout_tiles(self) -> list[Tile]:
        """Every tile on the table, stacks included."""
        layout = [self.spinner]
        if self.spinner_stack is not None:
            layout.append(self.spinner)
        for line in self.arms:
            for t, _, _, stacked in line:
                layout.append(t)
                if stacked is not None:
                    layout.append(t)
        return layout

    def fast_hand(self) -> FastHand:
        """This hand as a :class:`FastHand` (the whole deal), for playouts on the engine's fast path."""
        seat = self.current_player
        h = FastHand(self.players, self.spinner.high)
        h.cur = 0 if seat is None else seat
        h.cutthroat = bool(self.rules.cutthroat)
        h.round_to_five = bool(self.rules.round_to_five)
        h.target = self.rules.target
        h.spinner_stacked = self.spinner_stack is not None
        h.passes = self.passes
        if self.steal is not None:
            h.steal_seat, h.steal_points = self.steal
        for a, line in enumerate(self.arms):
            if line:
                t, outer, _, stacked = line[-1]
                h.has[a] = True
                h.tile[a] = t.key
                h.outer[a] = outer
                h.stacked[a] = stacked is not None
        for s, hand in enumerate(self.hands):
            counts = h.hands[s]
            for t in hand:
                counts[t.key] += 1
                h.hidden[t.key] += 1
            h.size[s] = len(hand)
            h.pips[s] = sum(t.high + t.low for t in hand)
        h.boneyard = [t.key for t in self.boneyard]
        for k in h.boneyard:
            h.hidden[k] += 1
        h.points = list(self.points)
        h.over = self.is_over
        h.index()
        return h

    def _copy(self) -> Twobox:
        game: Twobox = self._copy_core()
        game.points = list(self.points)
        game.hands = [list(h) for h in self.hands]
        game.boneyard = list(self.boneyard)
        game.arms = [list(a) for a in self.arms]
        game.drawn = list(self.drawn)
        game.voids = [set(v) for v in self.voids]
        return game

    @classmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Twobox:
        """A game matching ``view``: hidden hands and boneyard dealt at random within what play proved.

        Proved: a seat that passed holds no tile with a number that was open then (and it
        has drawn nothing since: the boneyard was empty); a seat held no double higher than
        the spinner when dealt, so each such double it holds or has played was drawn.
        """
        n = view["players"]
        seat = view["seat"]
        game: Twobox = cls._blank(n, cls.Rules.from_dict(view["rules"]), rng.getrandbits(63))
        game._restore_common(view)
        game.points = list(view["scores"])
        game.hand_start = _hand_start(view)
        game.hand_number = view["hand_number"]
        game.last_result = view["last_result"]
        game.last_play = None if view["last_play"] is None else tuple(view["last_play"][k] for k in _LAST_PLAY)
        game.spinner = Tile.parse(view["spinner"])
        game.spinner_seat = view["spinner_seat"]
        game.spinner_stack = view["spinner_stacked_by"]
        game.arms = [
            [(Tile.parse(e["tile"]), e["outer"], e["seat"], e["stacked_by"]) for e in arm["tiles"]]
            for arm in view["arms"]
        ]
        game.drawn = list(view["drawn"])
        game.voids = [set(v) for v in view["passed_on"]]
        game.passes = view["passes"]
        game.steal = None if view["steal"] is None else (view["steal"]["seat"], view["steal"]["points"])
        game._refresh()
        own = [Tile.parse(t) for t in view["hand"]] if seat is not None else []
        pool = list(cls.full_set(game.rules))
        for t in own + game._layout_tiles():
            pool.remove(t)
        others = [s for s in range(n) if s != seat]
        d = game.spinner.high
        spare = game._spare_draws()
        allowed = [_allow(frozenset(game.voids[s]), d, spare[s] > 0) for s in others]

        def accept(deal: list[list[Tile]]) -> bool:
            for i, s in enumerate(others):
                if sum(1 for t in deal[i] if t.high == t.low and t.high > d) > spare[s]:
                    return False
            return True

        sizes = [view["hand_sizes"][s] for s in others] + [view["boneyard"]]
        deal = deal_hidden(pool, sizes, rng, [*allowed, None], accept)
        game.hands = [[] for _ in range(n)]
        for i, s in enumerate(others):
            game.hands[s] = sorted(deal[i], key=_KEY, reverse=True)
        if seat is not None:
            game.hands[seat] = own
        game.boneyard = deal[-1]
        return game

    def _spare_draws(self) -> list[int]:
        """Per seat: tiles drawn this hand minus doubles above the spinner it has played."""
        d = self.spinner.high
        spare = list(self.drawn)
        for line in self.arms:
            for t, _, owner, stacked in line:
                if t.high == t.low and t.high > d:
                    spare[owner] -= 1
                    if stacked is not None:
                        spare[stacked] -= 1
        return spare


def _allow(void: frozenset[int], spinner: int, may_hold_higher: bool) -> Any:
    """The tiles a hidden hand may hold, or ``None`` when play proved nothing about it."""
    if not void and may_hold_higher:
        return None

    def check(tile: Tile) -> bool:
        if tile.high in void or tile.low in void:
            return False
        return may_hold_higher or tile.high != tile.low or tile.high <= spinner

    return check


GAME = Twobox
