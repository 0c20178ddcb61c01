"""Domino Rummikub: lay runs and sum groups from two double-six sets, rearranging the table.

Rules as in ``docs/rules/rummikub.md``, its rulings included.
Flow of a hand: deal eight tiles each; in turn a player plays (his first play is an
opening group of three tiles of his own; later plays submit the whole new table), draws
one tile, or passes once the boneyard is empty. The hand ends when a player plays his
last tile or every player has passed in a row; the game ends after the hand in which
someone reaches the target. The group rules and the play notation live in :mod:`.groups`,
the arrangement search in :mod:`.solver`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from mypy_extensions import mypyc_attr

from ...errors import IllegalAction
from ...rules import Rules, option
from ...tiles import Tile, double_six
from ..base import Game, deal_hidden
from .groups import group_error, order_group, play_notation, valid_triples
from .solver import best_play

if TYPE_CHECKING:
    from . import events as E

HAND_SIZE = 8
# States (or depth-first nodes) the exact search may visit while listing legal plays: it bounds
# legal_actions() on freak positions; random play reaches it about once in 5,000 listings.
SOLVER_BUDGET = 200_000
_FORMS = "draw, pass, or 'play 5-3 5-4 5-5 | 4-3 5-2 6-1' (the whole table after the play)"


class Phase(StrEnum):
    """The named states of a Rummikub game."""

    PLAY = "play"
    OVER = "over"


Group = tuple[Tile, ...]


class RummikubAction(NamedTuple):
    """``draw``, ``pass``, or ``play`` with the whole new table (groups of tiles)."""

    kind: str
    groups: tuple[Group, ...] = ()

    def __str__(self) -> str:
        if self.kind != "play":
            return self.kind
        return play_notation(self.groups)


# ----- reading a view (for bots and hints, which see only views) -----------------------------


def table_groups(view: dict[str, Any]) -> list[list[str]]:
    """The table's groups as a view shows them (``view["table"]``), as lists of tile strings."""
    return [[str(t) for t in g] for g in view.get("table") or []]


def has_opened(view: dict[str, Any]) -> bool:
    """Whether the view's seat has played its starting group this hand (True if the view does not say)."""
    seat = view.get("seat")
    flags = view.get("opened") or []
    if not isinstance(seat, int) or not 0 <= seat < len(flags):
        return True
    return bool(flags[seat])


def distinct_sums(view: dict[str, Any]) -> bool:
    """Whether the view's table plays with the ``distinct_sums`` option."""
    return bool((view.get("rules") or {}).get("distinct_sums", False))


DRAW = RummikubAction("draw")
PASS = RummikubAction("pass")


@dataclass(frozen=True)
class RummikubRules(Rules):
    """Domino Rummikub's options."""

    target: int = option(
        100,
        label="Target",
        minimum=1,
        maximum=1000,
        doc="points that win the game at the end of a hand (50: the short game)",
    )
    distinct_sums: bool = option(
        False,
        label="Distinct tiles in sums",
        doc="forbid two identical tiles (jokers by what they stand for) in one sum group",
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # plug-ins and tests may subclass an engine
class Rummikub(Game):
    """The Domino Rummikub engine."""

    id = "rummikub"
    order = 3
    name = "Domino Rummikub"
    summary = (
        "A rummy game for 2-6 players with two double-six sets and four jokers (the 0-0s and "
        "6-6s). Lay runs (a shared number, the other ends consecutive) and sum groups (equal pip "
        "totals); open with a group of three of your own, then rearrange the whole table freely "
        "as long as every group stays valid. Play out your tiles to score the pips left in the "
        "other hands; first to 100 wins."
    )
    min_players = 2
    max_players = 6
    default_players = 4
    hand_size = HAND_SIZE
    Rules = RummikubRules

    @classmethod
    def score_bounds(cls, players: int, rules: Any) -> tuple[int, int]:
        """Points only grow, at the end of a hand, by at most every pip in the set; the game
        ends once a seat has reached the target."""
        return 0, rules.target - 1 + sum(t.pips for t in cls.full_set(rules))

    @classmethod
    def max_hand_length(cls, players: int, rules: Any) -> int:
        """Every play lays at least one tile and every draw takes one from the boneyard;
        passes come only with an empty boneyard, one round between plays and one to end."""
        tiles = len(cls.full_set(rules))
        draws = tiles - HAND_SIZE * players
        return draws + players * tiles + players

    @classmethod
    def full_set(cls, rules: Any) -> list[Tile]:
        """Two double-six sets."""
        return double_six(2)

    # ----- setup and dealing ---------------------------------------------------------

    def _setup(self, dealer: int | None) -> None:
        self.points = [0] * self.players
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
        self.hands = [sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE], reverse=True) for i in range(n)]
        self.boneyard = deck[n * HAND_SIZE :]
        self.table: list[Group] = []
        self.opened = [False] * n
        self.passes = 0
        self.phase = Phase.PLAY
        self.current_player = self._next(dealer)
        self._new_hand()
        deal: E.Deal = {"kind": "deal", "hand": self.hand_number, "dealer": dealer, "first": self.current_player}
        self._emit(deal)
        for seat in range(n):
            dealt: E.Dealt = {"kind": "dealt", "seat": seat, "tiles": [t.text for t in self.hands[seat]]}
            self._emit(dealt, to=seat)

    # ----- legal actions -------------------------------------------------------------

    def _legal(self) -> list[RummikubAction]:
        seat = self.current_player
        assert seat is not None
        out = [DRAW if self.boneyard else PASS]
        out.extend(self._plays(seat))
        return out

    def _plays(self, seat: int) -> list[RummikubAction]:
        """The listed plays: openings before opening; else the solver's best and simple plays.

        Before a seat has opened, every distinct valid group of three of its tiles (each
        laid beside the unchanged table). After: the solver's best play (most tiles, then
        most pips; past ``SOLVER_BUDGET`` search states its quick play instead, so the
        listing stays cheap), then for each different hand tile the first group it extends as is,
        then each valid new group of three hand tiles. Any other valid table may be
        submitted too; it is checked in full.
        """
        hand = self.hands[seat]
        distinct = self.rules.distinct_sums
        table = list(self.table)
        triples = valid_triples(hand, distinct)
        if not self.opened[seat]:
            return [_play([*table, tuple(order_group(t))]) for t in triples]
        seen: dict[RummikubAction, None] = {}
        tiles = [t for g in table for t in g]
        sol = best_play(tiles, hand, distinct, groups=table, budget=SOLVER_BUDGET)
        if sol is not None:
            seen[_play([tuple(g) for g in sol.table])] = None
        for tile in dict.fromkeys(hand):
            for i, g in enumerate(table):
                if group_error([*g, tile], distinct) is None:
                    grown = tuple(order_group([*g, tile]))
                    seen[_play([*table[:i], grown, *table[i + 1 :]])] = None
                    break
        for triple in triples:
            seen[_play([*table, tuple(order_group(triple))])] = None
        return list(seen)

    def _accept_unlisted(self, action: Any) -> Any:
        if isinstance(action, RummikubAction) and action.kind == "play":
            problem = self._play_error(action)
            if problem is None:
                return action
            raise IllegalAction(problem)
        raise IllegalAction(self._explain(action))

    # ----- applying actions ------------------------------------------------------------

    def _play(self, action: RummikubAction) -> None:
        seat = self.current_player
        assert seat is not None
        if action.kind == "draw":
            tile = self.boneyard.pop(0)
            self.hands[seat].append(tile)
            self.hands[seat].sort(reverse=True)
            self.passes = 0
            mine: E.Draw = {"kind": "draw", "seat": seat, "tile": tile.text}
            public: E.Draw = {"kind": "draw", "seat": seat}
            self._emit(mine, to=seat, public=public)
            self.current_player = self._next(seat)
            return
        if action.kind == "pass":
            self.passes += 1
            passed: E.Pass = {"kind": "pass", "seat": seat}
            self._emit(passed)
            if self.passes >= self.players:
                self._end_hand(None)
                return
            self.current_player = self._next(seat)
            return
        added = Counter(t for g in action.groups for t in g) - Counter(t for g in self.table for t in g)
        hand = self.hands[seat]
        for tile in added.elements():
            hand.remove(tile)
        self.table = list(action.groups)
        first = not self.opened[seat]
        self.opened[seat] = True
        self.passes = 0
        play: E.Play = {
            "kind": "play", "seat": seat, "tiles": [t.text for t in sorted(added.elements(), reverse=True)],
            "opening": first,
        }
        self._emit(play)
        if not hand:
            self._end_hand(seat)
            return
        self.current_player = self._next(seat)

    # ----- scoring and the game's end ------------------------------------------------------

    def _end_hand(self, winner: int | None) -> None:
        n = self.players
        pips = [sum(t.pips for t in h) for h in self.hands]
        gains = [0] * n
        if winner is not None:
            reason = "domino"
            out: E.Domino = {"kind": "domino", "seat": winner}
            self._emit(out)
        else:
            reason = "blocked"
            low = min(pips)
            lowest = [s for s in range(n) if pips[s] == low]
            winner = lowest[0] if len(lowest) == 1 else None
            blocked: E.Blocked = {"kind": "blocked", "seat": winner}
            self._emit(blocked)
        if winner is not None:
            gains[winner] = sum(pips) - pips[winner]
            self.points[winner] += gains[winner]
        self.last_result = {
            "hand": self.hand_number,
            "reason": reason,
            "winner": winner,
            "hands": [[str(t) for t in h] for h in self.hands],
            "pips": pips,
            "points": gains,
            "scores": list(self.points),
        }
        end: E.HandEnd = {
            "kind": "hand_end",
            "hand": self.hand_number,
            "how": "domino" if reason == "domino" else "blocked",
            "winner": winner,
            "table": [[t.text for t in g] for g in self.table],
            "hands": [[t.text for t in h] for h in self.hands],
            "pips": list(pips),
            "points": list(gains),
            "totals": list(self.points),
        }
        self._emit_end(end)
        top = max(self.points)
        if top >= self.rules.target:
            self._end_game([s for s in range(n) if self.points[s] == top])
            return
        self._deal(self._next(self.dealer))

    @property
    def scores(self) -> list[int]:
        """Points won so far per seat (highest is best)."""
        return list(self.points)

    # ----- notation and explanations -----------------------------------------------------

    @classmethod
    def parse_action(cls, text: Any) -> RummikubAction:
        """Parse ``draw``, ``pass`` or ``play G1 | G2 ...`` (each group: tiles split by spaces)."""
        if not isinstance(text, str):
            raise IllegalAction(f"not a Rummikub action: {text!r}; expected {_FORMS}")
        words = text.split()
        if words == ["draw"]:
            return DRAW
        if words == ["pass"]:
            return PASS
        if not words or words[0] != "play":
            raise IllegalAction(f"not a Rummikub action: {text!r}; expected {_FORMS}")
        body = text.strip()[4:]
        if not body.strip():
            raise IllegalAction(f"'play' needs the whole new table; expected {_FORMS}")
        groups: list[Group] = []
        for number, part in enumerate(body.split("|"), 1):
            names = part.split()
            if not names:
                raise IllegalAction(f"group {number} of {text!r} is empty; groups are split by '|'")
            try:
                groups.append(tuple(Tile.parse(n) for n in names))
            except ValueError as err:
                raise IllegalAction(f"not a Rummikub action: {text!r} ({err})") from None
        return RummikubAction("play", tuple(groups))

    def _explain(self, action: Any) -> str:
        if not isinstance(action, RummikubAction):
            return f"not a Rummikub action: {action!r}; expected {_FORMS}"
        if action.kind == "draw":
            return "the boneyard is empty: you cannot draw, and may pass instead"
        if action.kind == "pass":
            return "you may pass only when the boneyard is empty; draw a tile or play"
        return self._play_error(action) or f"'{action}' is not legal now"

    def _play_error(self, action: RummikubAction) -> str | None:
        """What is wrong with a submitted table (``None``: it is a legal play)."""
        seat = self.current_player
        assert seat is not None
        distinct = self.rules.distinct_sums
        old = Counter(t for g in self.table for t in g)
        new = Counter(t for g in action.groups for t in g)
        missing = old - new
        if missing:
            tile = min(missing)
            return f"table tile {tile} is missing from the new table: every tile on the table must stay on it"
        added = new - old
        foreign = added - Counter(self.hands[seat])
        if foreign:
            tile = min(foreign)
            return f"{tile} is not in your hand (nor on the table, as often as played)"
        count = sum(added.values())
        if not count:
            return "the play adds no tile from your hand: play at least one tile, or draw or pass"
        if not self.opened[seat]:
            kept = Counter(_norm(g) for g in action.groups) - Counter(_norm(g) for g in self.table)
            if sum(Counter(_norm(g) for g in self.table).values()) + 1 != len(action.groups) or len(kept) != 1:
                return (
                    "you have not opened: the opening is one new group of exactly three of "
                    "your own tiles, and the table's groups stay as they are"
                )
            if count != 3:
                return f"you have not opened: the opening group is exactly three tiles, not {count}"
        for number, g in enumerate(action.groups, 1):
            err = group_error(g, distinct)
            if err is not None:
                return f"group {number} ({' '.join(map(str, g))}) is not valid: {err}"
        return None

    # ----- views, locations, sampling ---------------------------------------------------

    def _fill_view(self, view: dict[str, Any], seat: int | None) -> None:
        view["hand_number"] = self.hand_number
        view["dealer"] = self.dealer
        view["target"] = self.rules.target
        view["table"] = [[str(t) for t in g] for g in self.table]
        view["opened"] = list(self.opened)
        view["hand"] = None if seat is None else [str(t) for t in self.hands[seat]]
        view["hand_sizes"] = [len(h) for h in self.hands]
        view["boneyard"] = len(self.boneyard)
        view["passes"] = self.passes
        view["last_result"] = self.last_result

    def tile_locations(self) -> dict[str, list[Tile]]:
        """Hands, the boneyard and the table."""
        places = {f"hand {s}": list(h) for s, h in enumerate(self.hands)}
        places["boneyard"] = list(self.boneyard)
        places["table"] = [t for g in self.table for t in g]
        return places

    @classmethod
    def sample(cls, view: dict[str, Any], rng: random.Random) -> Rummikub:
        """A game matching ``view``; hidden hands and the boneyard dealt at random.

        Public play proves nothing about hidden tiles: drawing and passing are allowed
        whatever a player holds, so every deal of the unseen tiles is consistent.
        """
        n = view["players"]
        seat = view["seat"]
        game: Rummikub = cls._blank(n, cls.Rules.from_dict(view["rules"]), rng.getrandbits(63))
        game._restore_common(view)
        game.points = list(view["scores"])
        game.hand_number = view["hand_number"]
        game.last_result = view["last_result"]
        game.dealer = view["dealer"]
        game.table = [tuple(Tile.parse(t) for t in g) for g in view["table"]]
        game.opened = list(view["opened"])
        game.passes = view["passes"]
        own = [Tile.parse(t) for t in view["hand"]] if seat is not None else []
        pool = Counter(cls.full_set(game.rules))
        pool.subtract(own)
        pool.subtract(t for g in game.table for t in g)
        others = [s for s in range(n) if s != seat]
        sizes = [view["hand_sizes"][s] for s in others] + [view["boneyard"]]
        deal = deal_hidden(sorted(pool.elements()), sizes, rng)
        game.hands = [[] for _ in range(n)]
        for i, s in enumerate(others):
            game.hands[s] = sorted(deal[i], reverse=True)
        if seat is not None:
            game.hands[seat] = own
        game.boneyard = deal[-1]
        return game


def _play(groups: Sequence[Group]) -> RummikubAction:
    return RummikubAction("play", tuple(groups))


def _norm(group: Group) -> tuple[int, ...]:
    return tuple(sorted(t.key for t in group))


GAME = Rummikub
