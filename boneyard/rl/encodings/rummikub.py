"""Domino Rummikub's RL encoding.

A Rummikub play submits the whole new table, so plays cannot all be listed. The action
space gives fixed indices to four families of plays (942 actions); the engine accepts
any valid table, listed or not, so every index the mask marks is a legal play:

- ``draw`` 0, ``pass`` 1;
- **new group** 2 + t: the unchanged table plus one new group of three hand tiles, t the
  rank of the group's tile kinds among the 407 valid three-tile groups (sorted by kind);
  the engine lists every such group the hand can make (before a seat opens, these are
  its only plays);
- **extend** 409 + 28 g + k: table group g (0-17: a table of 56 tiles holds at most 18
  groups) grown by one tile of kind k, every other group unchanged. Every valid one-tile
  extension is marked (the engine lists only the first group each tile extends);
- **the solver's best play** 913: the play the engine lists from the game's solver (the
  most tiles laid, then the most pips), when it is not written as a new group or an
  extension;
- **keep back** 914 + k: the solver's best play among those laying at least one tile of
  kind k fewer than the best play does (the solver is given one tile of kind k fewer
  than the best play lays, and the hand's other tiles): how to play nearly as much
  while holding that tile back (a joker, a high tile). Marked only for the kinds the
  best play lays, when that play lays a tile and is not, up to the order of groups and
  of tiles within them, a new group, an extension, the best play or a keep-back play of
  a lower kind (then its meaning already has an index).

Indices 0-913 mean what they meant when the space had 914 actions (version 1; the
keep-back family and the unlisted extensions came with version 2, :data:`VERSION`).
An index's meaning depends on the position (which group g is, what the solver finds);
the legal map built from the view gives each index its play and back. New groups and
extensions are recognised in the engine's own spelling (the group written by
``order_group``); any other play is indexed only when it is the best play or a keep-back
play, exactly as written (``index`` raises ``ValueError`` for any other table).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.rummikub.engine import SOLVER_BUDGET, RummikubAction
from ...games.rummikub.engine import Rummikub as _Game
from ...games.rummikub.groups import group_error, order_group, valid_triples
from ...games.rummikub.solver import best_play
from ...tiles import Tile, double_six
from ..encoding import KIND_INDEX, KINDS, Choice, Encoding, Row, Teller, Told, register, silent, tile
from ..layout import Block, Each, Flag, Scale, Seat, Seats, Tiles

TRIPLES: tuple[tuple[Tile, Tile, Tile], ...] = tuple(valid_triples(double_six(2), False))
_TRIPLE_INDEX = {t: i for i, t in enumerate(TRIPLES)}
MAX_GROUPS = 56 // 3
NEW, EXTEND = 2, 2 + len(TRIPLES)
REARRANGE = EXTEND + MAX_GROUPS * len(KINDS)
KEEP_BACK = REARRANGE + 1
#: The layout's version: 1 had 914 actions (no keep-back family); 2 adds 914-941.
VERSION = 2

Group = tuple[Tile, ...]


def _table(view: Mapping[str, Any]) -> list[Group]:
    return [tuple(tile(t) for t in g) for g in view["table"]]


def _opened(view: Mapping[str, Any]) -> bool:
    """Whether the view's seat has opened this hand (its rearranging plays need it)."""
    seat, flags = view.get("seat"), view.get("opened") or []
    return isinstance(seat, int) and 0 <= seat < len(flags) and bool(flags[seat])


def _distinct(view: Mapping[str, Any]) -> bool:
    return bool((view.get("rules") or {}).get("distinct_sums", False))


def _play_of(groups: Sequence[Sequence[Tile]]) -> RummikubAction:
    return RummikubAction("play", tuple(tuple(g) for g in groups))


def _norm(groups: Sequence[Sequence[Tile]]) -> tuple[tuple[int, ...], ...]:
    """A table up to the order of its groups and of the tiles in each."""
    return tuple(sorted(tuple(sorted(t.key for t in g)) for g in groups))


def _one_family_play(groups: Sequence[Sequence[Tile]], table: Sequence[Group]) -> bool:
    """Whether a table is, up to order, the old table plus one group of three or with one group grown by one tile."""
    new = Counter(tuple(sorted(t.key for t in g)) for g in groups)
    old = Counter(tuple(sorted(t.key for t in g)) for g in table)
    gone, came = old - new, new - old
    if sum(gone.values()) == 0:
        return sum(came.values()) == 1 and len(next(iter(came))) == 3
    if sum(gone.values()) != 1 or sum(came.values()) != 1:
        return False
    was, now = next(iter(gone)), next(iter(came))
    return len(now) == len(was) + 1 and not Counter(was) - Counter(now)


def solver_plays(view: Mapping[str, Any], keep_back: bool = True) -> list[tuple[int, RummikubAction]]:
    """The solver's plays of a position, each with its index: the best play, then the keep-back plays.

    ``keep_back=False`` (the ``"standard"`` action set) stops after the best play: the
    keep-back plays cost about one more solver search a decision.

    The best play is the one the engine lists (the same solver call, so the same table):
    index 913, or its new-group or extension index when it is written as one. Then, for
    each kind k the best play lays (in kind order), the best play with one tile of kind
    k fewer available than the best play lays (so it lays at least one fewer), at 914 +
    k; left out when it lays nothing or when its table (up to the order of groups and
    tiles) is a new group or an extension, the best play or an earlier keep-back play:
    an agent then reaches that table at the other index. Empty before the seat has
    opened (its only plays are new groups).

    The solver caches its answers by tiles, not by their grouping, so a table may come
    from an earlier position holding the same tiles grouped otherwise (always valid
    here: validity depends on the tiles alone). The answer for a position is kept for
    the next ask, so that :meth:`RummikubEncoding.index` finds the very slots the legal
    map gave, whatever the solver's cache did in between.
    """
    hand_text = view.get("hand")
    if not hand_text or not _opened(view):
        return []
    key = (tuple(tuple(g) for g in view["table"]), tuple(hand_text), _distinct(view), keep_back)
    known = _SOLVED.get(key)
    if known is None:
        known = _solve(view, keep_back)
        if len(_SOLVED) >= 256:
            _SOLVED.clear()
        _SOLVED[key] = known
    return known


# The last positions' solver plays (see solver_plays): (table, hand, distinct_sums) -> plays.
_SOLVED: dict[tuple[tuple[tuple[str, ...], ...], tuple[str, ...], bool, bool], list[tuple[int, RummikubAction]]] = {}


def _solve(view: Mapping[str, Any], keep_back: bool) -> list[tuple[int, RummikubAction]]:
    """:func:`solver_plays` computed (the seat has opened, holds tiles); without ``keep_back``: the best play alone."""
    table = _table(view)
    tiles = [t for g in table for t in g]
    hand = [tile(t) for t in view["hand"]]
    distinct = _distinct(view)
    best = best_play(tiles, hand, distinct, groups=table, budget=SOLVER_BUDGET)
    if best is None:
        return []
    first = _play_of(best.table)
    out = [(_play_index(first.groups, table), first)]
    if not keep_back:
        return out
    seen = {_norm(best.table)}
    laid = Counter(best.played)
    held = Counter(hand)
    for kind in sorted(laid, key=KIND_INDEX.__getitem__):
        fewer = held.copy()
        fewer[kind] = laid[kind] - 1
        sol = best_play(tiles, list(fewer.elements()), distinct, groups=table, budget=SOLVER_BUDGET)
        if sol is None:
            continue
        norm = _norm(sol.table)
        if norm in seen or _one_family_play(sol.table, table):
            continue
        seen.add(norm)
        out.append((KEEP_BACK + KIND_INDEX[kind], _play_of(sol.table)))
    return out


def extensions(view: Mapping[str, Any]) -> dict[int, RummikubAction]:
    """Every valid one-tile extension of a table group by a hand tile, by index (none before opening)."""
    hand_text = view.get("hand")
    if not hand_text or not _opened(view):
        return {}
    table = _table(view)
    distinct = _distinct(view)
    out: dict[int, RummikubAction] = {}
    for text in dict.fromkeys(hand_text):
        t = tile(text)
        for g, group in enumerate(table):
            if group_error([*group, t], distinct) is None:
                grown = tuple(order_group([*group, t]))
                out[EXTEND + len(KINDS) * g + KIND_INDEX[t]] = _play_of([*table[:g], grown, *table[g + 1 :]])
    return out


def _play_index(groups: Sequence[Group], table: list[Group]) -> int:
    """The new-group or extension index of a table written in the engine's spelling, else 913."""
    if len(groups) == len(table) + 1 and list(groups[:-1]) == table and len(groups[-1]) == 3:
        a, b, c = sorted(groups[-1])
        kinds = (a, b, c)
        t = _TRIPLE_INDEX.get(kinds)
        if t is not None and tuple(order_group(kinds)) == tuple(groups[-1]):
            return NEW + t
    if len(groups) == len(table):
        changed = [i for i, (g, old) in enumerate(zip(groups, table, strict=True)) if g != old]
        if len(changed) == 1:
            i = changed[0]
            grown = list(groups[i])
            extra = list(grown)
            try:
                for t0 in table[i]:
                    extra.remove(t0)
            except ValueError:
                extra = []
            if len(extra) == 1 and tuple(order_group([*table[i], extra[0]])) == tuple(grown):
                return EXTEND + len(KINDS) * i + KIND_INDEX[extra[0]]
    return REARRANGE


def _play(event: Mapping[str, Any]) -> Row:
    """A play's row: "opens" for a seat's opening play, else "plays", with the first (highest) tile laid."""
    return Row((event["seat"],), "opens" if event["opening"] else "plays", event["tiles"][0])

@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass a game's encoding
class RummikubEncoding(Encoding):
    """Rummikub: draw or pass, new groups, one-tile extensions, the solver's best play and its keep-back plays."""

    game_id = "rummikub"
    position_independent = False
    # "rearrange" fills the keep-back family too: about one more solver search a decision
    action_sets = ("standard", "rearrange")
    phases = ("play", "over")
    verbs = ("deals", "holds", "draws", "passes", "opens", "plays")
    told: ClassVar[Mapping[str, Teller]] = {
        "first_dealer": Told("deals"),
        "deal": silent,
        "dealt": Told("holds", tile="tiles"),
        "draw": Told("draws", tile="tile"),  # the tile for the drawer only
        "pass": Told("passes"),
        "play": Choice("actor `seat`, verb opens for an opening play (`opening`), else plays; tile: the first of "
                       "`tiles` (the highest laid)", _play),
        "domino": Told("plays"),
        "blocked": silent,
        "hand_end": silent,
        "game_over": silent,
    }
    derived = ("played_by",)

    def action_count(self) -> int:
        """draw, pass, 407 new groups, 18 x 28 extensions, the best play, 28 keep-back plays."""
        return KEEP_BACK + len(KINDS)

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The index of a play in the position ``view`` shows (see the module docstring).

        A table written as a new group or an extension has its family's index; any other
        must be the solver's best play or one of its keep-back plays, exactly as written
        (``ValueError`` otherwise: the space has no index for it).
        """
        a: RummikubAction = _Game.parse_action(action) if isinstance(action, str) else action
        if a.kind == "draw":
            return 0
        if a.kind == "pass":
            return 1
        i = _play_index(a.groups, _table(view))
        if i != REARRANGE:
            return i
        for j, play in solver_plays(view, self.actions == "rearrange"):
            if play == a:
                return j
        raise ValueError(f"'{a}' is not a new group, an extension, the solver's best play or a keep-back play "
                         "of this position: the action space has no index for it")

    def legal_map(self, view: Mapping[str, Any], legal_actions: Sequence[Any]) -> dict[int, Any]:
        """Index -> play: the engine's listed actions, every other valid extension, the keep-back plays.

        The listed ones keep their objects (a listed play outside the two families is the
        engine's one solver play, 913); the others are valid tables the engine accepts
        when applied (it checks any submitted table in full).
        """
        table = _table(view)
        out: dict[int, Any] = {}
        for action in legal_actions:
            a: RummikubAction = _Game.parse_action(action) if isinstance(action, str) else action
            i = 0 if a.kind == "draw" else 1 if a.kind == "pass" else _play_index(a.groups, table)
            if i in out:
                raise AssertionError(f"rummikub: actions {out[i]} and {action} share index {i}")
            out[i] = action
        for i, play in extensions(view).items():
            out.setdefault(i, play)
        for i, play in solver_plays(view, self.actions == "rearrange"):
            out.setdefault(i, play)
        return out

    def action_name(self, index: Any) -> str:
        """What an index means: draw, pass, a new group, an extension, the best play or a keep-back play."""
        i = self.check_index(index)
        if i < NEW:
            return ("draw", "pass")[i]
        if i < EXTEND:
            return "new group " + " ".join(map(str, order_group(TRIPLES[i - NEW])))
        if i < REARRANGE:
            g, k = divmod(i - EXTEND, len(KINDS))
            return f"extend group {g + 1} with {KINDS[k]}"
        if i == REARRANGE:
            return "the solver's best rearrangement"
        return f"the solver's best play keeping back one {KINDS[i - KEEP_BACK]}"

    def derive(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Per seat, the tiles it laid from its hand this hand (from the ``play`` events)."""
        return {"played_by": self.plays_by_seat(view, {"play": "tiles"})}

    def game_blocks(self) -> list[Block]:
        """Hand, the table group by group, who has opened, hand sizes, boneyard."""
        n = self.players
        return [
            Block("hand", 28, "my tiles: copies of each kind / 2", (Tiles(0, "hand", 2),)),
            Block("table", 28, "tiles on the table: copies / 2", (Each(0, "table", 0, (Tiles(0, (), 2),)),)),
            Block("groups", MAX_GROUPS * 28, "table group g (in the table's order): copies of each kind / 2",
                  (Each(0, "table", 28, (Tiles(0, (), 2),), most=MAX_GROUPS),)),
            Block("opened", n, "per relative seat: has it opened", (Seats(0, "opened", 1, (Flag(0, ()),)),)),
            Block("hand_sizes", n, "tiles in each relative seat's hand / 28 (capped at 1)",
                  (Seats(0, "hand_sizes", 1, (Scale(0, (), 28, hi=1.0),)),)),
            Block("dealer", n, "one-hot of the dealer (relative)", (Seat(0, "dealer"),)),
            Block("counts", 3, "boneyard / 56, consecutive passes / players, target / 200 (capped at 1)",
                  (Scale(0, "boneyard", 56), Scale(1, "passes", n), Scale(2, "target", 200, hi=1.0))),
            Block("played_by", n * 28, "per relative seat, the tiles it laid from its hand this hand "
                  "(from the events): copies / 2",
                  (Seats(0, "played_by", 28, (Tiles(0, (), 2),)),)),
        ]


register(RummikubEncoding)
