"""Montana Domino Rummy: a draw-and-discard rummy game for 2-4 players with four double-six sets.

Rules as in ``docs/rules/montana.md``, its rulings included.
Flow of a hand: ten tiles to each of four seats (empty seats are dead hands), then turns:
the engine pulls for the player (a forced step), who may go out, declare quads, and
discards, possibly declaring ready. After each discard the engine asks, in turn order
after the discarder, every seat with a legal claim to claim or pass; the answers stay
hidden until all have answered, then the best claim takes the tile. A hand ends when
someone goes out or a pull meets an empty woodpile; the game ends once the deal has gone
round the table. The hand analysis lives in :mod:`.analysis`, the sampling of a view in
:mod:`.sampling`.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from ...errors import IllegalAction
from ...rules import Rules, option
from ...tiles import Tile, double_six
from ..base import Game
from . import analysis as an
from .analysis import MASKS, P5, MeldSet

if TYPE_CHECKING:
    from . import events as E

SEATS: Final = 4
HAND: Final = 10
START_CHIPS: Final = 220
READY_STAKE: Final = 4
CLAIM_RANK: Final = {"claim quad": 4, "claim triple": 3, "pair": 2, "run": 1, "triple": 3, "claim run": 1}


class Phase(StrEnum):
    """The named states of a Montana hand."""

    TURN = "turn"  # the player has pulled: out, quads, or a discard
    DISCARD = "discard"  # the player claimed a triple or run and must discard
    CLAIM = "claim"  # a discard is offered: the asked seat claims or passes
    OVER = "over"


class MontanaAction(NamedTuple):
    """A Montana action; ``str()`` gives its notation (``discard 6-4 ready``, ``claim run 4-1 4-2``...)."""

    kind: str
    tile: Tile | None = None
    second: Tile | None = None

    def __str__(self) -> str:
        kind = self.kind
        if kind == "ready":
            return f"discard {self.tile} ready"
        if kind == "claim run":
            return f"claim run {self.tile} {self.second}"
        if self.tile is None:
            return kind
        return f"{kind} {self.tile}"


OUT: Final = MontanaAction("out")
PASS: Final = MontanaAction("pass")
CLAIM_TRIPLE: Final = MontanaAction("claim triple")
CLAIM_QUAD: Final = MontanaAction("claim quad")
CLAIM_OUT: Final = MontanaAction("claim out")
CLAIM_PAIR: Final = MontanaAction("claim pair")  # never legal: a pair is claimed only by 'claim out'
_DISCARD: Final = {t: MontanaAction("discard", t) for t in double_six()}
_READY: Final = {t: MontanaAction("ready", t) for t in double_six()}
_QUAD: Final = {t: MontanaAction("quad", t) for t in double_six()}
_ADD: Final = {t: MontanaAction("add", t) for t in double_six()}


def _by_key(actions: dict[Tile, MontanaAction]) -> list[MontanaAction]:
    """The actions in a list indexed by ``tile.key`` (no hashing on the hot path)."""
    table = [PASS] * 56
    for t, a in actions.items():
        table[t.key] = a
    return table


_DISCARD_K: Final = _by_key(_DISCARD)
_READY_K: Final = _by_key(_READY)
_FULL: Final = tuple(double_six(4))
_KEY: Final = attrgetter("key")
_NAME: Final = [f"{k // 8}-{k % 8}" for k in range(56)]
_KEYS: Final = sorted({t.key for t in _FULL})
# Log entries made once and shared (nobody changes a logged event): per seat, by tile key.
_PULL: Final[list[list[Any]]] = [
    [(s, {"kind": "pull", "seat": s, "tile": _NAME[k]}, {"kind": "pull", "seat": s}) for k in range(56)]
    for s in range(SEATS)
]
_DISCARD_PLAIN: Final[list[list[Any]]] = [
    [(None, {"kind": "discard", "seat": s, "tile": _NAME[k], "ready": False}, None) for k in range(56)]
    for s in range(SEATS)
]
_DISCARD_READY: Final[list[list[Any]]] = [
    [(None, {"kind": "discard", "seat": s, "tile": _NAME[k], "ready": True}, None) for k in range(56)]
    for s in range(SEATS)
]
_CLAIM_WORD: Final[dict[str, Any]] = {
    "pass": "pass", "claim triple": "triple", "claim quad": "quad", "claim run": "run", "claim out": "out",
}  # every tile's key, ascending: a view's order of limits
_WORDS: Final = {a.kind: a for a in (OUT, PASS, CLAIM_TRIPLE, CLAIM_QUAD, CLAIM_OUT, CLAIM_PAIR)}
_FORMS = (
    "'discard 6-4', 'discard 6-4 ready', 'out', 'quad 5-5', 'add 5-5', 'claim triple', "
    "'claim quad', 'claim run 4-1 4-2', 'claim out' or 'pass'"
)


@dataclass(frozen=True)
class MontanaRules(Rules):
    """Montana's options."""

    mode: str = option(
        "dealer",
        label="Scoring",
        allowed=("dealer", "shootout"),
        doc="dealer: play for chips (220 each); shootout: no points, the most outs wins",
    )
    one_pair: bool = option(False, label="Exactly one pair", doc="a winning hand must hold exactly one pair")


@mypyc_attr(allow_interpreted_subclasses=True)  # plug-ins and tests may subclass an engine
class Montana(Game):
    """The Montana Domino Rummy engine."""

    id = "montana"
    order = 1
    name = "Montana Domino Rummy"
    summary = (
        "A rummy game in the spirit of mahjong for 2-4 players with four double-six sets; a "
        "tile's suit is its higher end. Pull a tile, discard a tile, and go out when your "
        "tiles split into runs, pairs, triples and quads. Discards may be claimed to complete "
        "a set; concealed sets, the lower suits, ready declarations and the dealer all raise "
        "the payout. The game ends when the deal has gone round the table."
    )
    min_players = 2
    max_players = 4
    default_players = 4
    hand_size = HAND
    Rules = MontanaRules

    @classmethod
    def start_scores(cls, players: int, rules: Any) -> list[int]:
        """Dealer: every seat starts with its chips; shootout: with no outs."""
        return [0 if rules.mode == "shootout" else START_CHIPS] * players

    @classmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """Shootout: outs, at most one a hand. Dealer: chips move only when a hand is won; a
        hand is worth at most going out, ready and three quads' worth of the dearest sets,
        paid at most three times over and doubled for the dealer, plus the ready stakes."""
        if rules.mode == "shootout":
            return 0, rules.max_hands
        value = an.GOING_OUT_POINTS + an.READY_POINTS + 3 * an.set_points("quad", 0, True)
        swing = 6 * value + READY_STAKE * players
        return START_CHIPS - swing * rules.max_hands, START_CHIPS + swing * rules.max_hands

    @classmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """Tiles reach a hand only by the deal (ten each) or a pull (the woodpile holds what
        four hands leave), so that bounds the discards; every other seat answers a discard
        at most once; a claim puts two hand tiles at least into a set for good; each of the
        28 kinds makes at most one quad declaration or addition a hand."""
        discards = HAND * players + len(cls.full_set(rules)) - HAND * SEATS
        claims = (HAND * players + len(cls.full_set(rules)) - HAND * SEATS) // 2
        return players * discards + claims + 28 + 2

    @classmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """Four double-six sets: 112 tiles."""
        return list(_FULL)

    # ----- setup and dealing ---------------------------------------------------------

    def _setup(self, dealer: int | None) -> None:
        n = self.players
        self.chips = [START_CHIPS] * n
        self.outs = [0] * n
        self.hand_number = 0
        self.deal_passes = 0
        self.last_result: dict[str, Any] | None = None
        if dealer is None:
            roller = self.rng.randrange(n)
            roll = self.rng.randint(1, 6)
            dealer = (roller + roll - 1) % n
            rolled: E.FirstDealer = {"kind": "first_dealer", "seat": dealer, "roller": roller, "roll": roll}
            self._emit(rolled)
        else:
            named: E.FirstDealer = {"kind": "first_dealer", "seat": dealer}
            self._emit(named)
        self._deal(dealer)

    def _deal(self, dealer: int) -> None:
        if self._hand_limit_reached():
            return
        n = self.players
        deck = self._deck()
        self.hand_number += 1
        self.dealer = dealer
        self.hands = [sorted(deck[s * HAND : s * HAND + HAND], key=_KEY, reverse=True) for s in range(n)]
        self.codes = [an.encode(h) for h in self.hands]
        self.dead = deck[n * HAND : SEATS * HAND]
        self.wood = deck[SEATS * HAND :]
        self.wood_at = 0
        self.exposed: list[list[MeldSet]] = [[] for _ in range(n)]
        self.discards: list[tuple[int, Tile]] = []
        self.ready = [False] * n
        self.stakes = [0] * n
        self.pulled: list[Tile] = []
        self.claim_tile: Tile | None = None
        self.claim_from = -1
        self.claim_queue: list[int] = []
        self.claim_options: dict[int, list[MontanaAction]] = {}
        self.answers: dict[int, MontanaAction] = {}
        # What public play has proved about hidden hands, for sampling:
        # limits[s][tile.key] + pulls[s] = the most copies of tile seat s can hold now
        # (each pull may have brought one more copy, so the bound is kept relative to pulls);
        # tests[s] = (tile, how, wins) checks of a ready seat's fixed hand.
        self.limits: list[dict[int, int]] = [{} for _ in range(n)]
        self.pulls = [0] * n
        self.tests: list[list[tuple[Tile, str, bool]]] = [[] for _ in range(n)]
        self.pending: list[tuple[int, Tile, bool]] = []
        self._new_hand()
        deal: E.Deal = {"kind": "deal", "hand": self.hand_number, "dealer": dealer}
        self._emit(deal)
        for seat in range(n):
            dealt: E.Dealt = {"kind": "dealt", "seat": seat, "tiles": [_NAME[t.key] for t in self.hands[seat]]}
            self._emit(dealt, to=seat)
        self._run_turns(dealer)

    # ----- tiles in hands ------------------------------------------------------------

    def _take(self, seat: int, tile: Tile) -> None:
        """Put a tile into a concealed hand (kept sorted high first)."""
        hand = self.hands[seat]
        i = 0
        key = tile.key
        while i < len(hand) and hand[i].key > key:
            i += 1
        hand.insert(i, tile)
        self.codes[seat][tile.high] += P5[tile.low]

    def _give(self, seat: int, tile: Tile, copies: int = 1) -> None:
        """Take copies of a tile out of a concealed hand (publicly)."""
        hand = self.hands[seat]
        for _ in range(copies):
            hand.remove(tile)
        self.codes[seat][tile.high] -= copies * P5[tile.low]
        limits = self.limits[seat]
        key = tile.key
        if key in limits:
            limits[key] -= copies

    def _count(self, seat: int, tile: Tile) -> int:
        return (self.codes[seat][tile.high] // P5[tile.low]) % 5

    def _pull(self, seat: int) -> Tile | None:
        """Pull the next woodpile tile into ``seat``'s hand; ``None`` if the woodpile is empty."""
        if self.wood_at >= len(self.wood):
            return None
        tile = self.wood[self.wood_at]
        self.wood_at += 1
        self._take(seat, tile)
        self.pulls[seat] += 1
        self.pulled.append(tile)
        return tile

    @property
    def wood_left(self) -> int:
        """Tiles left in the woodpile."""
        return len(self.wood) - self.wood_at

    # ----- the turn loop ---------------------------------------------------------------

    def _run_turns(self, seat: int) -> None:
        """Seat ``seat`` pulls; ready players' non-winning pulls are discarded for them."""
        while True:
            self.pulled = []
            tile = self._pull(seat)
            if tile is None:
                empty: E.WoodpileEmpty = {"kind": "woodpile_empty", "seat": seat}
                self._emit(empty)
                self._drawn_hand()
                return
            self._events.append(_PULL[seat][tile.key])
            if not self.ready[seat]:
                self.phase = Phase.TURN
                self.current_player = seat
                return
            wins = an.goes_out(self.codes[seat], None, self.rules.one_pair)
            self.tests[seat].append((tile, "pull", wins))
            if wins:
                self.phase = Phase.TURN
                self.current_player = seat
                return
            self._give(seat, tile)
            self.discards.append((seat, tile))
            thrown: E.ReadyDiscard = {"kind": "ready_discard", "seat": seat, "tile": _NAME[tile.key]}
            self._emit(thrown)
            if self._open_claims(seat, tile):
                return
            seat = self._next(seat)

    def _open_claims(self, seat: int, tile: Tile) -> bool:
        """Offer a discard to the other seats; ``False`` if nobody has a legal claim."""
        self.claim_tile = tile
        self.claim_from = seat
        queue, options = self._window(seat, tile)
        if not queue:
            self._prove()
            self.claim_tile = None
            return False
        self.claim_queue = queue
        self.claim_options = options
        self.answers = {}
        self.phase = Phase.CLAIM
        self.current_player = queue[0]
        return True

    def _window(self, seat: int, tile: Tile) -> tuple[list[int], dict[int, list[MontanaAction]]]:
        """Who is asked about ``seat``'s discard ``tile``, with their claims; notes what that proves."""
        queue = []
        options: dict[int, list[MontanaAction]] = {}
        pending = []
        n = self.players
        suit = tile.high
        step = P5[tile.low]
        table = MASKS[suit]
        ready = self.ready
        for k in range(1, n):
            other = (seat + k) % n
            codes = self.codes[other]
            c = codes[suit]
            have = (c // step) % 5
            # cheap test first: most seats have no pair, no run and no win with the tile
            if (
                have >= 2
                or (have < 4 and table[c + step])
                or (k == 1 and n > 2 and not ready[other] and _run_claims(codes, tile))
            ):
                claims = self._claims_for(other, tile, seat)
            else:
                claims = []
            if claims:
                queue.append(other)
                options[other] = claims
            pending.append((other, tile, bool(claims)))
        self.pending = pending
        return queue, options

    def _prove(self) -> None:
        """Record what a closed claim window proved about the hands (kept public from then on)."""
        for other, tile, asked in self.pending:
            if self.ready[other]:
                self.tests[other].append((tile, "claim", asked))
            elif not asked:
                limits = self.limits[other]
                pulls = self.pulls[other]
                if limits.get(tile.key, 9) + pulls > 1:
                    limits[tile.key] = 1 - pulls
        self.pending = []

    def _claims_for(self, seat: int, tile: Tile, discarder: int) -> list[MontanaAction]:
        """The legal claims of ``seat`` on ``tile`` (empty: not asked)."""
        codes = self.codes[seat]
        out: list[MontanaAction] = []
        if self._claim_out_ok(codes, tile):
            out.append(CLAIM_OUT)
        if self.ready[seat]:
            return [*out, PASS] if out else out
        have = (codes[tile.high] // P5[tile.low]) % 5
        if have >= 2:
            out.append(CLAIM_TRIPLE)
            if have >= 3 and self.wood_left:
                out.append(CLAIM_QUAD)
        if self.players > 2 and tile.high >= 2 and self._next(discarder) == seat:
            out.extend(_run_claims(codes, tile))
        if out:
            out.append(PASS)
        return out

    def _claim_out_ok(self, codes: list[int], tile: Tile) -> bool:
        one_pair = self.rules.one_pair
        if not an.goes_out(codes, tile, one_pair):
            return False
        if self.players > 2 or tile.high < 2:
            return True
        # two players: the claimed tile may not complete a run
        s, step = tile.high, P5[tile.low]
        have = (codes[s] // step) % 5
        for used in (2, 1):
            if have >= used:
                rest = list(codes)
                rest[s] -= used * step
                if used == 2 and an.complete(rest, one_pair):
                    return True
                if used == 1 and _complete_with_pair(rest, one_pair):
                    return True
        return False

    # ----- legal actions ---------------------------------------------------------------

    def _legal(self) -> list[MontanaAction]:
        seat = self.current_player
        assert seat is not None
        phase = self.phase
        if phase == Phase.CLAIM:
            return self.claim_options[seat]
        if phase == Phase.DISCARD:
            return self._discards(seat)
        return self._turn_actions(seat)

    def _turn_actions(self, seat: int) -> list[MontanaAction]:
        codes = self.codes[seat]
        out: list[MontanaAction] = []
        if an.complete(codes, self.rules.one_pair):
            out.append(OUT)
        if self.ready[seat]:
            out.append(_DISCARD[self.pulled[-1]])
            return out
        if self.wood_left:
            hand = self.hands[seat]
            for i in range(len(hand) - 3):
                t = hand[i]
                if hand[i + 3] is t and (i == 0 or hand[i - 1] is not t):
                    out.append(_QUAD[t])
            for m in self.exposed[seat]:
                if m.kind == "triple" and not m.concealed:
                    t = m.tiles[0]
                    if t in self.pulled and t in hand:
                        out.append(_ADD[t])
        out.extend(self._discards(seat))
        return out

    def _discards(self, seat: int) -> list[MontanaAction]:
        distinct = []
        last = None
        for t in self.hands[seat]:  # sorted: copies lie together
            if t is not last:
                distinct.append(t)
                last = t
        out = [_DISCARD_K[t.key] for t in distinct]
        if self.rules.mode == "dealer" and not self.ready[seat]:
            codes = self.codes[seat]
            one_pair = self.rules.one_pair
            bad = [s for s in range(an.SUITS) if not MASKS[s][codes[s]]]
            if len(bad) > 2:
                return out  # one discard changes one suit; waiting allows one incomplete suit
            for t in distinct:
                s = t.high
                if len(bad) - (s in bad) > 1:
                    continue
                codes[s] -= P5[t.low]
                if an.is_waiting(codes, one_pair):
                    out.append(_READY_K[t.key])
                codes[s] += P5[t.low]
        return out

    # ----- applying actions --------------------------------------------------------------

    def _play(self, action: MontanaAction) -> None:
        seat = self.current_player
        assert seat is not None
        kind = action.kind
        if self.phase == Phase.CLAIM:
            self._answer(seat, action)
        elif kind == "discard" or kind == "ready":
            self._discard(seat, action.tile, kind == "ready")  # type: ignore[arg-type]
        elif kind == "out":
            self._go_out(seat, None)
        elif kind == "quad":
            self._quad(seat, action.tile)  # type: ignore[arg-type]
        else:  # add
            self._add(seat, action.tile)  # type: ignore[arg-type]

    def _discard(self, seat: int, tile: Tile, ready: bool) -> None:
        if self.ready[seat]:  # a ready player who declines to go out on his pull
            self.tests[seat].append((tile, "pull", True))
        self._give(seat, tile)
        self.discards.append((seat, tile))
        if ready:
            self.ready[seat] = True
            if self.rules.mode == "dealer":
                self.stakes[seat] = READY_STAKE
                self.chips[seat] -= READY_STAKE
            self._events.append(_DISCARD_READY[seat][tile.key])
        else:
            self._events.append(_DISCARD_PLAIN[seat][tile.key])
        if not self._open_claims(seat, tile):
            self._run_turns(self._next(seat))

    def _quad(self, seat: int, tile: Tile) -> None:
        self._give(seat, tile, 4)
        self.exposed[seat].append(MeldSet("quad", (tile,) * 4, True))
        event: E.Quad = {"kind": "quad", "seat": seat, "tile": _NAME[tile.key]}
        self._emit(event)
        self._replacement(seat)

    def _add(self, seat: int, tile: Tile) -> None:
        self._give(seat, tile)
        sets = self.exposed[seat]
        for i, m in enumerate(sets):
            if m.kind == "triple" and not m.concealed and m.tiles[0] is tile:
                sets[i] = MeldSet("quad", (tile,) * 4, False)
                break
        event: E.Add = {"kind": "add", "seat": seat, "tile": _NAME[tile.key]}
        self._emit(event)
        self._replacement(seat)

    def _replacement(self, seat: int) -> None:
        tile = self._pull(seat)
        assert tile is not None  # quads are refused when the woodpile is empty
        mine: E.Replacement = {"kind": "replacement", "seat": seat, "tile": _NAME[tile.key]}
        public: E.Replacement = {"kind": "replacement", "seat": seat}
        self._emit(mine, to=seat, public=public)
        self.phase = Phase.TURN
        self.current_player = seat

    def _answer(self, seat: int, action: MontanaAction) -> None:
        self.answers[seat] = action
        self.claim_queue.pop(0)
        tile = _NAME[self.claim_tile.key]  # type: ignore[union-attr]
        mine: E.Answer = {"kind": "answer", "seat": seat, "tile": tile, "claim": _CLAIM_WORD[action.kind]}
        if action.kind == "claim run":
            mine["tiles"] = [_NAME[action.tile.key], _NAME[action.second.key]]  # type: ignore[union-attr]
        public: E.Answer = {"kind": "answer", "seat": seat, "tile": tile}
        self._emit(mine, to=seat, public=public)
        if self.claim_queue:
            self.current_player = self.claim_queue[0]
            return
        self._resolve_claims()

    def _resolve_claims(self) -> None:
        tile = self.claim_tile
        assert tile is not None
        discarder = self.claim_from
        answers = self.answers
        self._prove()
        best_seat, best_rank = -1, 0
        shown: list[E.Answered] = []
        for s, a in answers.items():  # in turn order after the discarder
            answered: E.Answered = {"seat": s, "claim": _CLAIM_WORD[a.kind]}
            if a.kind == "claim run":
                answered["tiles"] = [_NAME[a.tile.key], _NAME[a.second.key]]  # type: ignore[union-attr]
            shown.append(answered)
            if a.kind == "pass":
                continue
            if a.kind == "claim out":
                split = self._out_split(s, tile)
                assert split is not None
                completes = split.claim_kind or "run"
                answered["completes"] = completes  # type: ignore[typeddict-item]
                rank = an.CLAIM_PRIORITY[completes]
            else:
                rank = CLAIM_RANK.get(a.kind, 0)
            if rank > best_rank:
                best_seat, best_rank = s, rank
        result: E.Answers = {
            "kind": "answers", "tile": _NAME[tile.key], "discarder": discarder, "answers": shown,
            "winner": best_seat if best_seat >= 0 else None,
        }
        self._emit(result)
        self.claim_tile = None
        self.claim_queue = []
        self.claim_options = {}
        self.answers = {}
        if best_seat < 0:
            self._run_turns(self._next(discarder))
            return
        action = answers[best_seat]
        self.discards.pop()
        seat = best_seat
        self.pulled = []
        if action.kind == "claim out":
            self._emit(self._claimed(seat, tile, "out", ()))
            self._go_out(seat, tile)
            return
        if action.kind == "claim run":
            low, high = action.tile, action.second
            assert low is not None and high is not None
            self._give(seat, low)
            self._give(seat, high)
            run: tuple[Tile, ...] = tuple(sorted((low, high, tile), key=lambda t: t.key))
            self.exposed[seat].append(MeldSet("run", run, False))
            self._emit(self._claimed(seat, tile, "run", run))
            self.phase = Phase.DISCARD
            self.current_player = seat
            return
        if action.kind == "claim quad":
            self._give(seat, tile, 3)
            self.exposed[seat].append(MeldSet("quad", (tile,) * 4, False))
            self._emit(self._claimed(seat, tile, "quad", (tile,) * 4))
            self._replacement(seat)
            return
        self._give(seat, tile, 2)
        self.exposed[seat].append(MeldSet("triple", (tile,) * 3, False))
        self._emit(self._claimed(seat, tile, "triple", (tile,) * 3))
        self.phase = Phase.DISCARD
        self.current_player = seat

    def _claimed(self, seat: int, tile: Tile, what: str, tiles: tuple[Tile, ...]) -> E.Claimed:
        """The event of ``seat`` taking the discard ``tile`` for a set."""
        return {
            "kind": "claimed", "seat": seat, "tile": _NAME[tile.key], "discarder": self.claim_from,
            "set": what,  # type: ignore[typeddict-item]
            "tiles": [_NAME[t.key] for t in tiles],
        }

    # ----- the end of a hand -------------------------------------------------------------

    def _out_split(self, seat: int, claimed: Tile | None) -> an.Split | None:
        return an.best_split(
            self.hands[seat],
            self.exposed[seat],
            claimed=claimed,
            ready=self.ready[seat] and self.rules.mode == "dealer",
            one_pair=self.rules.one_pair,
            allow_claimed_run=self.players > 2,
        )

    def _go_out(self, seat: int, claimed: Tile | None) -> None:
        split = self._out_split(seat, claimed)
        assert split is not None
        # the winning hand is laid open on the table
        self.exposed[seat] = list(split.sets)
        self.hands[seat] = []
        self.codes[seat] = [0] * an.SUITS
        n = self.players
        dealer = self.dealer
        value = split.score
        changes = [0] * n
        discarder = self.claim_from if claimed is not None else None
        if self.rules.mode == "dealer":
            payers = [s for s in range(n) if s != seat] if discarder is None else [discarder]
            for s in payers:
                pay = value * (3 if discarder is not None else 1)
                if s == dealer or seat == dealer:
                    pay *= 2
                changes[s] -= pay
                changes[seat] += pay
            for s in range(n):
                if self.stakes[s]:
                    changes[seat] += self.stakes[s]
            for s in range(n):
                self.chips[s] += changes[s]
        self.outs[seat] += 1
        won = claimed if claimed is not None else self.pulled[-1]
        out: E.Out = {
            "kind": "out", "seat": seat, "how": "pull" if claimed is None else "claim", "tile": _NAME[won.key],
            "discarder": discarder, "value": value if self.rules.mode == "dealer" else 0,
        }
        self._emit(out)
        self.last_result = {
            "hand": self.hand_number,
            "dealer": dealer,
            "winner": seat,
            "drawn": False,
            "how": "pull" if claimed is None else "claim",
            "tile": str(claimed if claimed is not None else self.pulled[-1]),
            "from": discarder,
            "sets": [_meld_json(m) for m in split.sets],
            "breakdown": [[label, points] for label, points in split.breakdown],
            "value": value if self.rules.mode == "dealer" else 0,
            "stakes": list(self.stakes),
            "changes": changes,
            "chips": list(self.chips),
            "outs": list(self.outs),
        }
        gained = changes if self.rules.mode == "dealer" else [int(s == seat) for s in range(n)]
        self._emit_end(self._hand_end(self.last_result, gained))
        self._end_hand(seat)

    def _hand_end(self, result: dict[str, Any], points: list[int]) -> E.HandEnd:
        """The ``hand_end`` event of a hand whose result is ``result``: it and the final position."""
        return {
            "kind": "hand_end",
            "hand": result["hand"],
            "dealer": result["dealer"],
            "winner": result["winner"],
            "how": result["how"],
            "tile": result["tile"],
            "discarder": result["from"],
            "sets": list(result["sets"]),
            "breakdown": list(result["breakdown"]),
            "value": result["value"],
            "stakes": list(result["stakes"]),
            "exposed": [[_meld_json(m) for m in sets] for sets in self.exposed],  # type: ignore[misc]
            "discards": [[s, _NAME[t.key]] for s, t in self.discards],  # type: ignore[misc]
            "points": list(points),
            "totals": self.scores,
        }

    def _drawn_hand(self) -> None:
        n = self.players
        for s in range(n):
            self.chips[s] += self.stakes[s]
        self.last_result = {
            "hand": self.hand_number,
            "dealer": self.dealer,
            "winner": None,
            "drawn": True,
            "how": None,
            "tile": None,
            "from": None,
            "sets": [],
            "breakdown": [],
            "value": 0,
            "stakes": list(self.stakes),
            "changes": list(self.stakes),
            "chips": list(self.chips),
            "outs": list(self.outs),
        }
        self._emit_end(self._hand_end(self.last_result, list(self.stakes) if self.rules.mode == "dealer" else [0] * n))
        self._end_hand(None)

    def _end_hand(self, winner: int | None) -> None:
        self.stakes = [0] * self.players
        self.claim_tile = None
        if winner == self.dealer:
            again: E.DealsAgain = {"kind": "deals_again", "seat": winner}
            self._emit(again)
            self._deal(self.dealer)
            return
        self.deal_passes += 1
        if self.deal_passes >= self.players:
            self._game_over()
            return
        self._deal(self._next(self.dealer))

    def _game_over(self) -> None:
        final = self.scores
        top = max(final)
        self.pulled = []
        self._end_game([s for s in range(self.players) if final[s] == top])

    @property
    def scores(self) -> list[int]:
        """Chip balances (dealer mode) or outs so far (shootout)."""
        return list(self.chips) if self.rules.mode == "dealer" else list(self.outs)

    # ----- notation and explanations -----------------------------------------------------

    @classmethod
    def parse_action(cls, text: Any) -> MontanaAction:
        """Parse the Montana action notation (see ``_FORMS``)."""
        if not isinstance(text, str):
            raise IllegalAction(f"not a Montana action: {text!r}; expected {_FORMS}")
        words = text.split()
        key = " ".join(words)
        if key in _WORDS:
            return _WORDS[key]
        try:
            if len(words) == 2 and words[0] in ("discard", "quad", "add"):
                return MontanaAction(words[0], Tile.parse(words[1]))
            if len(words) == 3 and words[0] == "discard" and words[2] == "ready":
                return MontanaAction("ready", Tile.parse(words[1]))
            if len(words) == 4 and words[:2] == ["claim", "run"]:
                a, b = sorted((Tile.parse(words[2]), Tile.parse(words[3])))
                return MontanaAction("claim run", a, b)
        except ValueError as err:
            raise IllegalAction(f"not a Montana action: {text!r} ({err})") from None
        raise IllegalAction(f"not a Montana action: {text!r}; expected {_FORMS}")

    def _explain(self, action: Any) -> str:
        if not isinstance(action, MontanaAction):
            return f"not a Montana action: {action!r}; expected {_FORMS}"
        seat = self.current_player
        assert seat is not None
        if self.phase == Phase.CLAIM:
            return self._explain_claim(seat, action)
        kind = action.kind
        if kind.startswith("claim") or kind == "pass":
            return "there is no discard to claim now: you are on turn and must discard (rule 7)"
        tile = action.tile
        if self.phase == Phase.DISCARD and kind not in ("discard", "ready"):
            return "you have just claimed a set and must now discard (rule 7)"
        if kind == "out":
            return "your hand does not split into sets, so you cannot go out (rule 6)" + (
                " (one_pair: exactly one pair)" if self.rules.one_pair else ""
            )
        if self.ready[seat]:
            return f"you are ready: your hand is fixed and you must discard the pulled {self.pulled[-1]} (rule 9)"
        if tile is not None and tile not in self.hands[seat]:
            return f"you do not hold {tile}"
        if kind in ("quad", "add") and not self.wood_left:
            return "no quad can be made when the woodpile is empty (rule 8)"
        if kind == "quad":
            return f"a concealed quad needs four {tile} in hand (rule 8)"
        if kind == "add":
            if not any(m.kind == "triple" and not m.concealed and m.tiles[0] is tile for m in self.exposed[seat]):
                return f"you have no exposed triple of {tile} to add to (rule 8)"
            return f"only a fourth {tile} pulled from the woodpile this turn may be added to an exposed triple (rule 8)"
        if kind == "ready":
            if self.rules.mode != "dealer":
                return "ready is declared only in dealer mode (boneyard ruling)"
            return f"after discarding {tile} the hand is not one tile from going out, so it cannot be ready (rule 9)"
        return f"'{action}' is not legal now"

    def _explain_claim(self, seat: int, action: MontanaAction) -> str:
        tile = self.claim_tile
        kind = action.kind
        if not kind.startswith("claim") and kind != "pass":
            return f"you are being asked about the discard {tile}: claim it or pass (rule 7)"
        if self.ready[seat] and kind != "claim out":
            return "you are ready and may claim only to go out (rule 9)"
        if kind == "claim out":
            if self.players == 2:
                return f"your hand does not go out with {tile} (in a 2-player game never by a run; rule 6, 7)"
            return f"your hand does not go out with {tile} (rule 6)"
        if kind == "claim pair":
            return "a pair may be claimed only to go out: use 'claim out' (rule 7)"
        if kind == "claim triple":
            return f"claiming a triple needs a pair of {tile} in hand (rule 7)"
        if kind == "claim quad":
            if self._count(seat, tile) >= 3:  # type: ignore[arg-type]
                return "no quad can be made when the woodpile is empty (rule 8)"
            return f"claiming a quad needs a triple of {tile} in hand (rule 7)"
        if kind == "claim run":
            if self.players == 2:
                return "runs are never claimed in a 2-player game (rule 7)"
            if self._next(self.claim_from) != seat:
                return "a run may be claimed only from the seat just before you, except to go out (rule 7)"
            a, b = action.tile, action.second
            assert a is not None and b is not None and tile is not None
            if sorted({a.high, b.high, tile.high}) != [tile.high] or not _is_run(a, b, tile):
                return f"{a} {b} and {tile} do not make a run of one suit (rule 5)"
            return f"you do not hold {a} and {b}"
        return f"'{action}' is not legal now"

    # ----- views, locations, sampling ---------------------------------------------------

    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        """Add Montana's public state and the seat's own tiles.

        Keys: ``mode``, ``hand_number``, ``dealer``, ``deal_passes`` (times the deal has
        passed; the game ends at the player count), ``chips``, ``outs``, ``hand`` (own
        concealed tiles), ``pulled`` (own tiles pulled this turn, while on turn),
        ``hand_sizes`` (concealed tiles per seat), ``exposed`` (laid-open sets per seat:
        kind, tiles, concealed, points), ``discards`` ([seat, tile] in order, claimed ones
        removed), ``woodpile`` (tiles left), ``dead_hands``, ``ready``, ``stakes``,
        ``claim`` (while a discard is offered: tile, discarder, seats that have answered;
        the seat asked now is ``current_player``), ``my_answer`` (own hidden answer),
        ``proved_limits`` (per seat, tile -> most copies that seat can hold, proved by
        claim windows it was not asked in), ``proved_ready`` (per ready seat, [tile,
        "pull" or "claim", whether it wins] tests of its fixed hand), ``last_result`` (the
        last hand: winner, how, tile, sets, score breakdown, value, stakes, changes, chips).
        """
        claim = None
        if self.phase == Phase.CLAIM:
            claim = {
                "tile": str(self.claim_tile),
                "from": self.claim_from,
                "answered": list(self.answers),
            }
        own_answer = None
        if seat is not None and seat in self.answers:
            own_answer = str(self.answers[seat])
        view["mode"] = self.rules.mode
        view["hand_number"] = self.hand_number
        view["dealer"] = self.dealer
        view["deal_passes"] = self.deal_passes
        view["chips"] = list(self.chips)
        view["outs"] = list(self.outs)
        view["hand"] = None if seat is None else [_NAME[t.key] for t in self.hands[seat]]
        view["pulled"] = (
            [_NAME[t.key] for t in self.pulled]
            if seat is not None and seat == self.current_player and self.phase == Phase.TURN
            else []
        )
        view["hand_sizes"] = [len(h) for h in self.hands]
        view["exposed"] = [[_meld_json(m) for m in sets] for sets in self.exposed]
        view["discards"] = [[s, _NAME[t.key]] for s, t in self.discards]
        view["woodpile"] = self.wood_left
        view["dead_hands"] = SEATS - self.players
        view["ready"] = list(self.ready)
        view["stakes"] = list(self.stakes)
        view["claim"] = claim
        view["my_answer"] = own_answer
        view["proved_limits"] = [self._limits_now(s) for s in range(self.players)]
        view["proved_ready"] = [[[str(t), how, wins] for t, how, wins in tests] for tests in self.tests]
        view["last_result"] = self.last_result

    def _limits_now(self, seat: int) -> dict[str, int]:
        """The copy limits proved for ``seat``'s concealed hand, as tile string -> most copies."""
        # Built for every seat in every view: walking the 28 tile keys in order costs less
        # than sorting the limits' keys (which are tile keys, so all among them).
        limits = self.limits[seat]
        out: dict[str, int] = {}
        if not limits:
            return out
        pulls = self.pulls[seat]
        for key in _KEYS:
            base = limits.get(key)
            if base is not None:
                k = base + pulls
                if k < 4:
                    out[_NAME[key]] = k if k > 0 else 0
        return out

    def tile_locations(self) -> dict[str, list[Tile]]:
        """Concealed hands, exposed sets, discards, dead hands and the woodpile."""
        places = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        for s, sets in enumerate(self.exposed):
            places[f"exposed {s}"] = [t for m in sets for t in m.tiles]
        places["discards"] = [t for _, t in self.discards]
        places["dead"] = list(self.dead)
        places["woodpile"] = self.wood[self.wood_at :]
        return places

    def _copy(self) -> Montana:
        new: Montana = self._copy_core()
        new.chips = list(self.chips)
        new.outs = list(self.outs)
        new.hands = [list(h) for h in self.hands]
        new.codes = [list(c) for c in self.codes]
        new.dead = list(self.dead)
        new.wood = list(self.wood)
        new.exposed = [list(e) for e in self.exposed]
        new.discards = list(self.discards)
        new.ready = list(self.ready)
        new.stakes = list(self.stakes)
        new.pending = list(self.pending)
        new.pulled = list(self.pulled)
        new.claim_queue = list(self.claim_queue)
        new.claim_options = {k: list(v) for k, v in self.claim_options.items()}
        new.answers = dict(self.answers)
        new.limits = [dict(x) for x in self.limits]
        new.pulls = list(self.pulls)
        new.tests = [list(x) for x in self.tests]
        return new

    @classmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Montana:
        """A game matching ``view``, the hidden tiles dealt at random within what play proved.

        See :func:`boneyard.games.montana.sampling.sample`, where the sampling lives.
        """
        from .sampling import sample

        return sample(cls, view, rng)

    def conform(self, view: dict[str, Any], needs: dict[int, list[list[Counter[Tile]]]],
                rng: random.Random) -> Montana | None:
        """This sampled world made to fit what inference says the other seats hold, or ``None``.

        ``needs`` gives, per seat, requirements each met by holding one of its options (a
        multiset of tiles): what a claim window a seat *was* asked in proved. A bot reads
        that from the events; the engine alone moves tiles, so the world stays one its own
        rules accept. See :func:`boneyard.games.montana.sampling.conform`.
        """
        from .sampling import conform

        return conform(self, view, needs, rng)

    def can_go_out_on(self, seat: int, tile: Tile) -> bool:
        """Whether ``seat`` may go out by claiming ``tile`` from a discard, as its hand stands.

        The claim-out rule itself (the hand's codes plus the tile split into sets, with the
        two-player limit on completing a run), for bots judging how dangerous a discard is.
        """
        return self._claim_out_ok(self.codes[seat], tile)


def _is_run(a: Tile, b: Tile, c: Tile) -> bool:
    if not a.high == b.high == c.high:
        return False
    lows = sorted((a.low, b.low, c.low))
    return lows[1] == lows[0] + 1 and lows[2] == lows[0] + 2


def _run_table() -> list[list[tuple[int, int, MontanaAction]]]:
    """Per ``tile.key``: each run the tile can complete, as the partners' steps and the claim action."""
    table: list[list[tuple[int, int, MontanaAction]]] = [[] for _ in range(56)]
    for tile in double_six():
        s, low = tile.high, tile.low
        for start in range(max(0, low - 2), min(low, s - 2) + 1):
            a, b = (k for k in (start, start + 1, start + 2) if k != low)
            table[tile.key].append((P5[a], P5[b], MontanaAction("claim run", Tile(s, a), Tile(s, b))))
    return table


_RUNS: Final = _run_table()


def _run_claims(codes: list[int], tile: Tile) -> list[MontanaAction]:
    """``claim run`` actions for ``tile`` with two hand tiles of its suit."""
    c = codes[tile.high]
    return [act for a, b, act in _RUNS[tile.key] if (c // a) % 5 and (c // b) % 5]


def _complete_with_pair(codes: list[int], one_pair: bool) -> bool:
    """Whether the rest splits into sets, given that one more pair (the claimed one) is used."""
    if not one_pair:
        return an.complete(codes)
    return all(MASKS[s][codes[s]] & 1 for s in range(len(codes)))


def _meld_json(m: MeldSet) -> dict[str, Any]:
    return {
        "kind": m.kind,
        "tiles": [_NAME[t.key] for t in m.tiles],
        "concealed": m.concealed,
        "points": an.set_points(m.kind, m.suit, m.concealed),
    }


def _meld_from(d: dict[str, Any]) -> MeldSet:
    return MeldSet(d["kind"], tuple(Tile.parse(t) for t in d["tiles"]), d["concealed"])


GAME = Montana
