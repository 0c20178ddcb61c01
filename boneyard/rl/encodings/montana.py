"""Montana Domino Rummy's RL encoding.

Actions (152): ``out`` 0, ``pass`` 1, ``claim triple`` 2, ``claim quad`` 3,
``claim out`` 4; ``discard T`` 5 + k, ``discard T ready`` 33 + k, ``quad T`` 61 + k,
``add T`` 89 + k (k: the tile kind, 0-0 = 0 ... 6-6 = 27); ``claim run A B`` 117 + r, r
the rank of the pair (A, B) among the 35 pairs of one suit whose low ends differ by one or
two (suit 2 first, then by A's and B's low ends). ``claim pair`` is never legal (a pair is
claimed only by ``claim out``) and lies outside the space.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from ...games.montana.engine import Montana as _Game
from ...games.montana.engine import MontanaAction
from ...tiles import Tile
from ..encoding import KIND_INDEX, KINDS, OTHER, Choice, Encoding, Row, Teller, Told, register, silent
from ..layout import Block, Each, Equals, Flag, Match, OneTile, Scale, Seat, Seats, Set, Tiles

_WORDS = ("out", "pass", "claim triple", "claim quad", "claim out")
_KIND_OFFSET = {"discard": 5, "ready": 33, "quad": 61, "add": 89}
RUN = 117
RUN_PAIRS: tuple[tuple[Tile, Tile], ...] = tuple(
    (Tile(s, a), Tile(s, b)) for s in range(2, 7) for a in range(s + 1) for b in (a + 1, a + 2) if b <= s
)
_RUN_INDEX = {pair: r for r, pair in enumerate(RUN_PAIRS)}
RECENT = 6


def _first_dealer(event: Mapping[str, Any]) -> Row:
    """The first dealer's row: the roller and "other" when a die was rolled, else the dealer and "deals"."""
    roller = event.get("roller")
    return Row((event["seat"],), "deals", None) if roller is None else Row((roller,), OTHER, None)


def _out(event: Mapping[str, Any]) -> Row:
    """Going out: "goes", with the claimed discard when out on a claim (a pulled tile stays unnamed)."""
    return Row((event["seat"],), "goes", event["tile"] if event["how"] == "claim" else None)

@mypyc_attr(allow_interpreted_subclasses=True)  # variants may subclass a game's encoding
class MontanaEncoding(Encoding):
    """Montana: pulls, discards, claim windows, ready declarations."""

    game_id = "montana"
    phases = ("turn", "discard", "claim", "over")
    verbs = (
        "deals", "holds", "pulls", "discards", "is", "declares", "adds", "claims", "answers", "goes", "must",
    )
    told: ClassVar[Mapping[str, Teller]] = {
        "first_dealer": Choice('actor `roller`, verb other when a die was rolled; else actor `seat`, verb deals',
                               _first_dealer),
        "deal": silent,
        "dealt": Told("holds", tile="tiles"),
        "pull": Told("pulls", tile="tile"),  # the tile for the puller only
        "woodpile_empty": Told("must"),
        "discard": Told("discards", tile="tile"),
        "ready_discard": Told("is", tile="tile"),
        "quad": Told("declares", tile="tile"),
        "add": Told("adds", tile="tile"),
        "replacement": Told("pulls", tile="tile"),
        "answer": Told("answers", tile="tiles"),  # a run's first hand tile, for the answering seat only
        # A claim window's result: every seat that claimed the discard (none: all passed), "claims",
        # the discard. The claimed row that follows a won claim shows the winner alone with the same
        # verb and tile, and the exposed block the set he made with it.
        "answers": Told("claims", actor=None, tile="tile", among=("answers", "seat", "claim", "pass")),
        "claimed": Told("claims", tile="tile"),
        "out": Choice('actor `seat`, verb goes, tile `tile` when `how` is "claim" (a pulled tile stays unnamed)', _out),
        "hand_end": silent,
        "deals_again": Told(OTHER),
        "game_over": silent,
    }
    derived = ("discarded_by", "claimed_by")

    def action_count(self) -> int:
        """5 words, 4 x 28 tile actions, 35 run claims."""
        return RUN + len(RUN_PAIRS)

    def index(self, action: Any, view: Mapping[str, Any]) -> int:
        """The fixed index of a Montana action (see the module docstring)."""
        a: MontanaAction = _Game.parse_action(action) if isinstance(action, str) else action
        if a.kind in _WORDS:
            return _WORDS.index(a.kind)
        if a.kind in _KIND_OFFSET and a.tile is not None:
            return _KIND_OFFSET[a.kind] + KIND_INDEX[a.tile]
        if a.kind == "claim run" and (a.tile, a.second) in _RUN_INDEX:
            return RUN + _RUN_INDEX[(a.tile, a.second)]  # type: ignore[index]
        raise ValueError(f"'{a}' can never be legal in Montana")

    def action_name(self, index: Any) -> str:
        """The notation of the action at ``index``."""
        i = self.check_index(index)
        if i < 5:
            return _WORDS[i]
        if i < RUN:
            kind, k = divmod(i - 5, 28)
            t = KINDS[k]
            return (f"discard {t}", f"discard {t} ready", f"quad {t}", f"add {t}")[kind]
        a, b = RUN_PAIRS[i - RUN]
        return f"claim run {a} {b}"

    def derive(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Per seat, the tiles it discarded this hand (claimed ones too), and the discards it claimed."""
        return {
            "discarded_by": self.plays_by_seat(view, {"discard": "tile", "ready_discard": "tile"}),
            "claimed_by": self.plays_by_seat(view, {"claimed": "tile"}),
        }

    def game_blocks(self) -> list[Block]:
        """Hand, pulled tile, exposed sets, discards, the claim window, ready seats."""
        n = self.players
        return [
            Block("hand", 28, "my concealed tiles: copies of each kind / 4", (Tiles(0, "hand", 4),)),
            Block("pulled", 28, "the tiles I pulled this turn (while on turn)", (Tiles(0, "pulled"),)),
            Block("exposed", n * 28, "per relative seat, its laid-open tiles: copies / 4",
                  (Seats(0, "exposed", 28, (Each(0, (), 0, (Tiles(0, "tiles", 4),)),)),)),
            # The discards are [seat, tile] pairs.
            Block("discards", 28, "the discards on the table: copies / 4", (Tiles(0, "discards", 4, key=1),)),
            Block("recent", RECENT * (n + 28), f"the last {RECENT} discards, oldest first: relative seat, tile",
                  (Each(0, "discards", n + 28, (Seat(0, 0), OneTile(n, 1)), most=RECENT, last=True),)),
            Block("claim", 28 + n + 1 + n, "an offered discard: tile, discarder (relative; last: none), who answered",
                  (Match("claim", {None: (Set(28 + n),)},
                         (OneTile(0, ("claim", "tile")), Seat(28, ("claim", "from")),
                          Each(28 + n + 1, ("claim", "answered"), 0, (Seat(0, ()),)))),)),
            Block("ready", 2 * n, "per relative seat: ready, its stake / 4",
                  (Seats(0, "ready", 2, (Flag(0, ()),)), Seats(0, "stakes", 2, (Scale(1, (), 4),)))),
            Block("hand_sizes", n, "concealed tiles per relative seat / 14",
                  (Seats(0, "hand_sizes", 1, (Scale(0, (), 14),)),)),
            Block("dealer", n, "one-hot of the dealer (relative)", (Seat(0, "dealer"),)),
            Block("counts", 2, "tiles left in the woodpile / 112, times the deal has passed / players",
                  (Scale(0, "woodpile", 112), Scale(1, "deal_passes", n, hi=1.0))),
            Block("options", 2, "rules: shootout mode, one_pair",
                  (Equals(0, "mode", "shootout"), Flag(1, ("rules", "one_pair")))),
            Block("discarded_by", n * 28, "per relative seat, the tiles it discarded this hand, claimed or not "
                  "(from the events): copies / 4",
                  (Seats(0, "discarded_by", 28, (Tiles(0, (), 4),)),)),
            Block("claimed_by", n * 28, "per relative seat, the discards it claimed this hand: copies / 4",
                  (Seats(0, "claimed_by", 28, (Tiles(0, (), 4),)),)),
        ]


register(MontanaEncoding)
