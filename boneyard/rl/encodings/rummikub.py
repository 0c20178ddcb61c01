"""Domino Rummikub's RL encoding.

A Rummikub play submits the whole new table, so plays cannot all be listed; the engine
lists draw/pass and a bounded set of plays, and the action space indexes exactly that
set, in three fixed families (914 actions):

- ``draw`` 0, ``pass`` 1;
- **new group** 2 + t: the unchanged table plus one new group of three hand tiles, t the
  rank of the group's tile kinds among the 407 valid three-tile groups (sorted by kind);
  the engine lists every such group the hand can make (before a seat opens, these are
  its only plays);
- **extend** 409 + 28 g + k: table group g (0-17: a table of 56 tiles holds at most 18
  groups) grown by one tile of kind k, every other group unchanged;
- **rearrangement** 913: any other listed play. The engine lists at most one (the
  solver's best play, laying the most tiles), so it has this one slot.

An index's meaning depends on the table shown by the view (which group g is); the legal
map built from the engine's list gives each listed play its index and back. New groups
and extensions are recognised only in the engine's own spelling (the group written by
``order_group``); a play spelled otherwise is the rearrangement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.rummikub.engine import Rummikub as _Game
from ...games.rummikub.engine import RummikubAction
from ...games.rummikub.groups import order_group, valid_triples
from ...tiles import Tile, double_six
from ..encoding import KIND_INDEX, KINDS, Choice, Encoding, Row, Teller, Told, register, silent, tile
from ..layout import Block, Each, Flag, Scale, Seat, Seats, Tiles

TRIPLES: tuple[tuple[Tile, Tile, Tile], ...] = tuple(valid_triples(double_six(2), False))
_TRIPLE_INDEX = {t: i for i, t in enumerate(TRIPLES)}
MAX_GROUPS = 56 // 3
NEW, EXTEND = 2, 2 + len(TRIPLES)
REARRANGE = EXTEND + MAX_GROUPS * len(KINDS)



def _table(view: Mapping[str, Any]) -> list[tuple[Tile, ...]]:
    return [tuple(tile(t) for t in g) for g in view["table"]]


def _play(event: Mapping[str, Any]) -> Row:
    """A play's row: "opens" for a seat's opening play, else "plays", with the first (highest) tile laid."""
    return Row((event["seat"],), "opens" if event["opening"] else "plays", event["tiles"][0])

@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass a game's encoding
class RummikubEncoding(Encoding):
    """Rummikub: draw or pass, new groups, one-tile extensions, the solver's rearrangement."""

    game_id = "rummikub"
    position_independent = False
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
        """draw, pass, 407 new groups, 18 x 28 extensions, one rearrangement."""
        return REARRANGE + 1

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The index of a play in the position ``view`` shows (see the module docstring)."""
        a: RummikubAction = _Game.parse_action(action) if isinstance(action, str) else action
        if a.kind == "draw":
            return 0
        if a.kind == "pass":
            return 1
        return self._play_index(a.groups, _table(view))

    def _play_index(self, groups: Sequence[tuple[Tile, ...]], table: list[tuple[Tile, ...]]) -> int:
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

    def action_name(self, index: Any) -> str:
        """What an index means: draw, pass, a new group, an extension or the rearrangement."""
        i = self.check_index(index)
        if i < NEW:
            return ("draw", "pass")[i]
        if i < EXTEND:
            return "new group " + " ".join(map(str, order_group(TRIPLES[i - NEW])))
        if i < REARRANGE:
            g, k = divmod(i - EXTEND, len(KINDS))
            return f"extend group {g + 1} with {KINDS[k]}"
        return "the solver's best rearrangement"

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
